#include "server/api.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include "puzzles/position_key.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "variants/display.h"
#include "variants/notation.h"
#include "variants/position.h"
#include "variants/registry.h"
#ifdef CANJU_HAVE_TABLEBASE
#include "solver/tablebase_oracle.h"
#include "tablebase/probe.h"
#endif

namespace canju::server {

using nlohmann::json;

// Every summary of the store, kept in memory so that listing, searching and
// counting other appearances never touch the disk per request.
struct Api::Catalog {
  std::vector<PuzzleSummary> all;  // by collection, number, id
  // variant + '\0' + canonical position -> records showing it
  std::unordered_map<std::string, int> same_position;
  std::vector<std::pair<std::string, uint64_t>> collections;
};

struct Api::Tables {
#ifdef CANJU_HAVE_TABLEBASE
  struct Entry {
    std::shared_ptr<const Variant> variant;
    std::unique_ptr<tb::TablebaseSet> set;
  };
  std::map<std::string, Entry> by_variant;
#endif
};

// The tables as the solver probes them, per variant id (null: none there).
struct Api::Oracles {
  std::map<std::string, std::unique_ptr<TablebaseOracle>> by_variant;
};

namespace {

ApiReply Error(int status, const std::string& message) {
  return {status, json{{"error", message}, {"status", status}}};
}

ApiReply FromStatus(const Status& st) {
  switch (st.code()) {
    case Status::Code::kInvalidArgument: return Error(400, st.message());
    case Status::Code::kNotFound: return Error(404, st.message());
    case Status::Code::kUnsupported: return Error(422, st.message());
    default: return Error(500, st.ToString());
  }
}

// Parameters must be UTF-8 (the same test the JSON writer applies). Text
// from the store is passed on as stored; the server writes any invalid
// bytes in it as U+FFFD.
bool ValidUtf8(const std::string& s) {
  if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return true;
  try {
    (void)json(s).dump();
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

// Reads an optional text parameter; false (with *error set) when it is too
// long or not UTF-8.
bool TextParam(const QueryParams& q, const char* name, size_t max_len, std::string* out, ApiReply* error) {
  auto it = q.find(name);
  if (it == q.end()) return true;
  if (it->second.size() > max_len) {
    *error = Error(400, std::string("parameter '") + name + "' is longer than " + std::to_string(max_len) + " bytes");
    return false;
  }
  if (!ValidUtf8(it->second)) {
    *error = Error(400, std::string("parameter '") + name + "' is not UTF-8 text");
    return false;
  }
  *out = it->second;
  return true;
}

bool IntParam(const QueryParams& q, const char* name, int min, int max, int* out, ApiReply* error) {
  auto it = q.find(name);
  if (it == q.end() || it->second.empty()) return true;
  const std::string& s = it->second;
  if (s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    *error = Error(400, std::string("parameter '") + name + "' must be a whole number from " + std::to_string(min) +
                            " to " + std::to_string(max));
    return false;
  }
  const int v = std::stoi(s);
  if (v < min || v > max) {
    *error = Error(400, std::string("parameter '") + name + "' must be from " + std::to_string(min) + " to " +
                            std::to_string(max) + ", not " + s);
    return false;
  }
  *out = v;
  return true;
}

bool IsBuiltin(const std::string& id) {
  static const std::vector<std::string> ids = BuiltinVariantIds();
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Only built-in variants: a variant given as a definition file's path would
// make the server read a file outside its folders.
Status BuiltinOnly(const std::string& id, std::shared_ptr<const Variant>* out) {
  if (!IsBuiltin(id)) {
    std::string known;
    for (const std::string& b : BuiltinVariantIds()) known += (known.empty() ? "" : ", ") + b;
    return Status::InvalidArgument("unknown variant '" + id + "' (the server knows " + known + ")");
  }
  return LoadVariant(id, out);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string PositionKeyOf(const PuzzleSummary& s) { return s.variant + '\0' + s.canonical; }

// The board as one character per square, top rank first, files left to
// right: the FEN letter (upper case = first player) or '.'.
std::string BoardString(const Position& pos) {
  const Variant& v = pos.variant();
  std::string b;
  b.reserve(v.files() * v.ranks());
  for (int r = v.ranks() - 1; r >= 0; --r)
    for (int f = 0; f < v.files(); ++f) {
      Piece p = pos.piece_on(MakeSquare(f, r));
      b += p == kNoPiece ? '.' : v.Letter(p);
    }
  return b;
}

const char* StateName(GameState s) {
  switch (s) {
    case GameState::kCheck: return "check";
    case GameState::kCheckmate: return "checkmate";
    case GameState::kStalemate: return "stalemate";
    case GameState::kNoRoyal: return "royal_lost";
    default: return "";
  }
}

json VariantJson(const Variant& v) {
  const bool xq = v.notation() == NotationStyle::kXiangqi;
  json pieces = json::object();
  for (int k = 0; k < v.kind_count(); ++k) {
    const PieceKind& pk = v.kind(k);
    pieces[std::string(1, pk.letter)] = {{"name", pk.name},
                                          {"zh", {pk.zh[0], pk.zh[1]}},
                                          {"symbol", {pk.symbol[0], pk.symbol[1]}}};
  }
  json palaces = json::array();
  const int palace = v.RegionIndex("palace");
  if (palace >= 0) {
    for (int c = 0; c < 2; ++c) {
      int f0 = 99, r0 = 99, f1 = -1, r1 = -1;
      for (int sq = 0; sq < kSquareSlots; ++sq)
        if (v.on_board(sq) && v.regions()[palace].squares[c][sq]) {
          f0 = std::min(f0, FileOf(sq)), f1 = std::max(f1, FileOf(sq));
          r0 = std::min(r0, RankOf(sq)), r1 = std::max(r1, RankOf(sq));
        }
      if (f1 >= 0) palaces.push_back({{"file0", f0}, {"rank0", r0}, {"file1", f1}, {"rank1", r1}});
    }
  }
  return {{"id", v.id()},
          {"name", v.name()},
          {"name_zh", v.name_zh()},
          {"files", v.files()},
          {"ranks", v.ranks()},
          {"style", xq ? "xiangqi" : "square"},
          {"rank_base", xq ? 0 : 1},  // how coordinates number the ranks (ICCS 0-9, algebraic 1-8)
          {"colors", {v.color_name(kFirst), v.color_name(kSecond)}},
          {"pieces", pieces},
          {"palaces", palaces},
          {"river", xq && v.ranks() % 2 == 0}};
}

// A list of coordinate moves played from `pos`: each with its notation, or
// the reason it cannot be played (the rest is then shown raw).
json MoveSequence(Position pos, const std::vector<std::string>& moves, bool from_same_position) {
  json out = json::array();
  const Position start = pos;
  std::vector<StateInfo> states(moves.size());
  bool broken = false;
  for (size_t i = 0; i < moves.size(); ++i) {
    json m = {{"move", moves[i]}};
    if (from_same_position) pos = start;
    Move mv;
    Status st = broken ? Status::Aborted("follows an unplayable move") : ParseCoordMove(pos, moves[i], &mv);
    if (st.ok()) {
      m["text"] = MoveToHuman(pos, mv);
      if (!from_same_position) pos.DoMove(mv, &states[i]);
    } else {
      m["error"] = st.message();
      if (!from_same_position) broken = true;
    }
    out.push_back(std::move(m));
  }
  return out;
}

// true: the shortest mate; false: an upper bound; null: no mate, or a
// verdict stored before exactness was recorded.
json MateExactJson(int mate_plies, int8_t mate_exact) {
  return mate_plies >= 0 && mate_exact >= 0 ? json(mate_exact == 1) : json(nullptr);
}

// The claim a verdict checked: its name, or null when none was recorded.
json CheckedClaim(Claim c) { return c == Claim::kUnknown ? json(nullptr) : json(ClaimName(c)); }

// `start`: the puzzle's position, for the moves' text (null where it cannot
// be read); `line_end`: how the verdict's line ends (VerdictLineEnd).
json VerdictJson(const Verdict& vd, const Position* start, std::optional<LineEnd> line_end) {
  json j = {{"kind", VerdictName(vd.kind)},
            {"proven", ClaimName(vd.proven)},
            {"mate_plies", vd.mate_plies},
            {"mate_exact", MateExactJson(vd.mate_plies, vd.mate_exact)},
            {"cooks_scope", CooksScopeName(vd.cooks_scope)},
            {"reason", vd.reason},
            {"solver", vd.solver},
            {"rules", VerdictRules(vd)},
            {"nodes", vd.nodes},
            {"seconds", vd.seconds},
            {"verified_at", vd.verified_at},
            {"checked", CheckedClaim(vd.checked)},
            {"checked_from", vd.checked_from},
            {"proof_check", ProofCheckName(vd.proof_check) ? json(ProofCheckName(vd.proof_check)) : json(nullptr)}};
  json notes = json::array();
  for (const std::string& n : vd.book_notes) notes.push_back(n);
  j["book_notes"] = notes;
  // "mate", "perpetual_check", "open"; null without a line, a win or loss,
  // or the position.
  j["line_end"] = line_end ? json(LineEndName(*line_end)) : json(nullptr);
  if (start) {
    j["pv"] = MoveSequence(*start, vd.pv, false);
    j["cooks"] = MoveSequence(*start, vd.cooks, true);
  } else {
    j["pv"] = json::array();
    j["cooks"] = json::array();
    for (const auto& m : vd.pv) j["pv"].push_back({{"move", m}});
    for (const auto& m : vd.cooks) j["cooks"].push_back({{"move", m}});
  }
  // Each cook's re-check (solver/proof_check.h): "holds", "incomplete", null.
  for (size_t i = 0; i < vd.cooks.size() && i < j["cooks"].size(); ++i)
    j["cooks"][i]["proof_check"] = CookCheckName(vd, i) ? json(CookCheckName(vd, i)) : json(nullptr);
  return j;
}

// The move tree as a flat array: node 0 is the start position, every other
// node one move with the position after it. Everything the page shows is
// computed here, so the page itself knows no rules.
class TreeBuilder {
 public:
  TreeBuilder(const Variant& v, Color first_mover) : v_(v), offset_(first_mover == kSecond ? 1 : 0) {}

  json Build(Position& pos, const Record& r) {
    json root = PositionNode(pos);
    root["id"] = 0;
    root["parent"] = -1;
    root["ply"] = 0;
    root["comment"] = r.comment;
    root["children"] = json::array();
    nodes_.push_back(std::move(root));
    AddChildren(pos, r.moves, 0, 1);
    return json{{"nodes", std::move(nodes_)}, {"truncated", truncated_}, {"illegal", illegal_}};
  }

 private:
  json PositionNode(const Position& pos) {
    return json{{"fen", pos.Fen()}, {"board", BoardString(pos)}, {"state", StateName(StateOf(pos))},
                {"to_move", v_.color_name(pos.side_to_move())}};
  }

  void AddChildren(Position& pos, const std::vector<MoveNode>& kids, int parent, int ply) {
    for (const MoveNode& mn : kids) {
      if (static_cast<int>(nodes_.size()) >= kMaxTreeNodes || ply > kMaxTreeDepth) {
        truncated_ = true;
        return;
      }
      const int id = static_cast<int>(nodes_.size());
      nodes_[parent]["children"].push_back(id);
      Move m;
      Status st = ParseCoordMove(pos, mn.move, &m);
      json node;
      if (!st.ok()) {
        // Shown in red in the move list; what follows it cannot be shown.
        ++illegal_;
        node = json{{"error", st.message()}};
      } else {
        StateInfo si;
        const Color mover = pos.side_to_move();
        const std::string text = MoveToHuman(pos, m);
        const std::string wxf = v_.notation() == NotationStyle::kXiangqi ? MoveToWxf(pos, m) : "";
        pos.DoMove(m, &si);
        node = PositionNode(pos);
        node["text"] = text;
        if (!wxf.empty()) node["wxf"] = wxf;
        node["side"] = v_.color_name(mover);
        if (m.type() != MoveType::kDrop && m.type() != MoveType::kSpecial) node["from"] = SquareName(v_, m.from());
        if (m.type() != MoveType::kSpecial) node["to"] = SquareName(v_, m.to());
        pos.UndoMove(m, si);
      }
      node["id"] = id;
      node["parent"] = parent;
      node["ply"] = ply;
      node["number"] = (ply - 1 + offset_) / 2 + 1;
      node["move"] = mn.move;
      node["comment"] = mn.comment;
      node["children"] = json::array();
      nodes_.push_back(std::move(node));
      if (st.ok() && !mn.next.empty()) {
        StateInfo si;
        pos.DoMove(m, &si);
        AddChildren(pos, mn.next, id, ply + 1);
        pos.UndoMove(m, si);
      }
    }
  }

  const Variant& v_;
  int offset_;
  std::vector<json> nodes_;
  bool truncated_ = false;
  int illegal_ = 0;
};

// A summary's verdicts under other rule options, each with its options.
json OtherRulesJson(const PuzzleSummary& s) {
  json list = json::array();
  for (const RulesVerdictSummary& o : s.other_rules)
    list.push_back({{"rules", o.rules},
                    {"verdict", VerdictName(o.verdict)},
                    {"proven", ClaimName(o.proven)},
                    {"mate_plies", o.mate_plies},
                    {"mate_exact", MateExactJson(o.mate_plies, o.mate_exact)},
                    {"checked", CheckedClaim(o.checked)}});
  return list;
}

json SummaryJson(const PuzzleSummary& s, int appearances) {
  return {{"id", FormatPuzzleId(s.id)},
          {"variant", s.variant},
          {"collection", s.collection},
          {"number", s.number},
          {"title", s.title},
          {"material", s.material},
          {"claimed", ClaimName(s.claimed)},
          {"checked", CheckedClaim(s.checked)},
          {"verdict", VerdictName(s.verdict)},
          {"proven", ClaimName(s.proven)},
          {"mate_plies", s.mate_plies},
          {"mate_exact", MateExactJson(s.mate_plies, s.mate_exact)},
          {"verdict_rules", s.verdict_rules},
          {"other_rules", OtherRulesJson(s)},
          {"is_game", s.is_game},
          {"fen_problem", s.fen_problem},
          {"appearances", appearances}};
}

#ifdef CANJU_HAVE_TABLEBASE
// "win in 3" (moves to mate), "loss in 2", "draw", from the side to move.
json ValueJson(tb::Wdl wdl, int dtm_plies, bool by_rule) {
  const int moves = wdl == tb::Wdl::kWin ? (dtm_plies + 1) / 2 : dtm_plies / 2;
  std::string text = wdl == tb::Wdl::kDraw ? "draw"
                     : wdl == tb::Wdl::kWin ? "win in " + std::to_string(moves)
                     : dtm_plies == 0       ? "lost (mated)"
                                            : "loss in " + std::to_string(moves);
  if (by_rule) text += " (perpetual-check rule)";
  return {{"wdl", tb::WdlName(wdl)}, {"dtm_plies", dtm_plies}, {"moves", moves}, {"by_rule", by_rule}, {"text", text}};
}

// Best first: quickest wins, draws, slowest losses, then moves without a value.
int64_t SortKey(const json& value) {
  if (value.is_null()) return 3'000'000;
  const std::string wdl = value["wdl"];
  const int d = value["dtm_plies"];
  if (wdl == "win") return d;
  if (wdl == "draw") return 1'000'000;
  return 2'000'000 - d;
}
#endif

}  // namespace

Api::~Api() = default;

Status Api::Open(const Options& options, std::unique_ptr<Api>* out) {
  std::unique_ptr<Api> api(new Api());
  api->options_ = options;
  PuzzleStore::Options so;
  so.read_only = true;
  if (Status st = PuzzleStore::Open(options.store_dir, so, &api->store_); !st.ok()) return st;
  api->tables_ = std::make_unique<Tables>();
  if (!options.tb_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.tb_dir, ec))
      return Status::NotFound(options.tb_dir + ": no such tablebase directory");
#ifdef CANJU_HAVE_TABLEBASE
    for (const std::string& id : BuiltinVariantIds()) {
      Tables::Entry e;
      if (Status st = LoadVariant(id, &e.variant); !st.ok()) continue;
      e.set = std::make_unique<tb::TablebaseSet>();
      if (Status st = e.set->Open(options.tb_dir, *e.variant); !st.ok()) {
        api->warnings_.push_back(id + " tables skipped: " + st.ToString());
        continue;
      }
      if (!e.set->Materials().empty()) api->tables_->by_variant[id] = std::move(e);
    }
#else
    return Status::Unsupported("this canju was built without the tablebase module; run without --tb");
#endif
  }
  std::shared_ptr<const Catalog> catalog;
  if (Status st = api->LoadCatalog(&catalog); !st.ok()) return st;
  api->catalog_ = std::move(catalog);
  api->loaded_at_ = std::chrono::steady_clock::now();
  *out = std::move(api);
  return Status::OK();
}

Status Api::LoadCatalog(std::shared_ptr<const Catalog>* out) const {
  auto c = std::make_shared<Catalog>();
  if (Status st = store_->List(ListFilter(), &c->all); !st.ok()) return st;
  for (const PuzzleSummary& s : c->all) {
    if (!s.canonical.empty() && !s.is_game) ++c->same_position[PositionKeyOf(s)];
    if (c->collections.empty() || c->collections.back().first != s.collection) c->collections.push_back({s.collection, 0});
    ++c->collections.back().second;
  }
  std::sort(c->collections.begin(), c->collections.end());
  *out = std::move(c);
  return Status::OK();
}

std::shared_ptr<const Api::Catalog> Api::CurrentCatalog() {
  {
    std::lock_guard<std::mutex> lock(catalog_mu_);
    if (std::chrono::steady_clock::now() - loaded_at_ < options_.refresh_after) return catalog_;
  }
  // Stale: one request refreshes, the others go on with the old list.
  std::unique_lock<std::mutex> refresh(refresh_mu_, std::try_to_lock);
  if (refresh.owns_lock()) {
    std::shared_ptr<const Catalog> fresh;
    if (store_->CatchUp().ok() && LoadCatalog(&fresh).ok()) {
      std::lock_guard<std::mutex> lock(catalog_mu_);
      catalog_ = std::move(fresh);
      loaded_at_ = std::chrono::steady_clock::now();
    } else {
      std::lock_guard<std::mutex> lock(catalog_mu_);
      loaded_at_ = std::chrono::steady_clock::now();  // keep serving the old list; retry later
    }
  }
  std::lock_guard<std::mutex> lock(catalog_mu_);
  return catalog_;
}

uint64_t Api::puzzle_count() const {
  return store_->Count();
}

std::map<std::string, std::vector<std::string>> Api::tablebase_materials() const {
  std::map<std::string, std::vector<std::string>> out;
#ifdef CANJU_HAVE_TABLEBASE
  for (const auto& [id, e] : tables_->by_variant) out[id] = e.set->Materials();
#endif
  return out;
}

ApiReply Api::Get(const std::string& path, const QueryParams& query) {
  try {
    if (path == "/api/info") return Info();
    if (path == "/api/collections") return Collections();
    if (path == "/api/puzzles") return Puzzles(query);
    if (path == "/api/probe") return Probe(query);
    if (path == "/api/solve") return Solve(query);
    static const std::string kPuzzle = "/api/puzzle/";
    if (path.compare(0, kPuzzle.size(), kPuzzle) == 0) return Puzzle(path.substr(kPuzzle.size()));
    return Error(404, "no such API endpoint: " + path.substr(0, 100));
  } catch (const std::exception& e) {
    // A bug, not bad input: say so rather than drop the connection.
    return Error(500, std::string("internal error: ") + e.what());
  }
}

ApiReply Api::Info() {
  auto catalog = CurrentCatalog();
  json variants = json::object();
  for (const std::string& id : BuiltinVariantIds()) {
    std::shared_ptr<const Variant> v;
    if (LoadVariant(id, &v).ok()) variants[id] = VariantJson(*v);
  }
  json tables = json::object();
  for (const auto& [id, mats] : tablebase_materials()) tables[id] = mats;
  return {200, json{{"name", "canju"},
                    {"store", {{"dir", options_.store_dir}, {"puzzles", catalog->all.size()},
                               {"collections", catalog->collections.size()}}},
                    {"tablebases", tables},
                    {"tablebase_dir", options_.tb_dir},
                    {"warnings", warnings_},
                    {"variants", variants},
                    {"limits", {{"page_size", kMaxPageSize}, {"fen", kMaxFenLength}, {"search", kMaxSearchLength}}}}};
}

ApiReply Api::Collections() {
  auto catalog = CurrentCatalog();
  json list = json::array();
  for (const auto& [name, count] : catalog->collections) list.push_back({{"name", name}, {"count", count}});
  return {200, json{{"collections", list}, {"total", catalog->all.size()}}};
}

ApiReply Api::Puzzles(const QueryParams& query) {
  ApiReply err;
  std::string collection, q, material, result, verdict, variant, rules_text;
  int offset = 0, limit = 100;
  if (!TextParam(query, "collection", kMaxNameLength, &collection, &err) ||
      !TextParam(query, "q", kMaxSearchLength, &q, &err) ||
      !TextParam(query, "material", kMaxNameLength, &material, &err) ||
      !TextParam(query, "result", 16, &result, &err) || !TextParam(query, "verdict", 16, &verdict, &err) ||
      !TextParam(query, "variant", kMaxNameLength, &variant, &err) ||
      !TextParam(query, "rules", kMaxNameLength, &rules_text, &err) ||
      !IntParam(query, "offset", 0, 100'000'000, &offset, &err) ||
      !IntParam(query, "limit", 1, kMaxPageSize, &limit, &err))
    return err;
  Claim claim = Claim::kUnknown;
  if (!result.empty() && !ParseClaim(result, &claim))
    return Error(400, "parameter 'result' must be win, draw, loss or unknown, not '" + result + "'");
  VerdictKind vk = VerdictKind::kNone;
  if (!verdict.empty()) {
    bool found = false;
    for (VerdictKind k : {VerdictKind::kNone, VerdictKind::kConfirmed, VerdictKind::kRefuted, VerdictKind::kUnproven})
      if (verdict == VerdictName(k)) vk = k, found = true;
    if (!found) return Error(400, "parameter 'verdict' must be none, confirmed, refuted or unproven, not '" + verdict + "'");
  }
  // `rules`: the verdicts under these `verify --set` options (separated by
  // ';', any order) take the main verdict's place, as `puzzles list --rules`.
  std::vector<std::string> rules;
  for (size_t from = 0; from < rules_text.size();) {
    const size_t to = std::min(rules_text.find(';', from), rules_text.size());
    const size_t first = rules_text.find_first_not_of(' ', from);
    if (first < to) rules.push_back(rules_text.substr(first, rules_text.find_last_not_of(' ', to - 1) + 1 - first));
    from = to + 1;
  }
  rules = CanonicalOverrides(rules);  // (as verify --set stores them: any spacing, the last setting of a key)
  const std::string needle = Lower(q);
  auto catalog = CurrentCatalog();
  if (!collection.empty() &&
      !std::binary_search(catalog->collections.begin(), catalog->collections.end(),
                          std::pair<std::string, uint64_t>{collection, 0},
                          [](const auto& a, const auto& b) { return a.first < b.first; }))
    return Error(404, "no collection named '" + collection + "' in the store");

  json rows = json::array();
  std::map<std::string, int> materials, results, verdicts;  // facets of the collection, for the filters
  // The other facet: the sets of rule options verdicts are stored under,
  // each as the `rules` value that lists by them (sorted, ';'-separated).
  std::map<std::string, int> rule_sets;
  auto joined = [](const std::vector<std::string>& options) {
    std::string value;
    for (const std::string& o : options) value += (value.empty() ? "" : ";") + o;
    return value;
  };
  auto count_rule_set = [&rule_sets, &joined](const std::vector<std::string>& set) {
    if (set.empty()) return;
    ++rule_sets[joined(CanonicalOverrides(set))];
  };
  int total = 0, under_rules = 0, scoped = 0;
  PuzzleSummary under;
  for (const PuzzleSummary& listed : catalog->all) {
    if (!collection.empty() && listed.collection != collection) continue;
    if (!variant.empty() && listed.variant != variant) continue;
    if (!needle.empty()) {
      const bool hit = Lower(listed.title).find(needle) != std::string::npos ||
                       std::to_string(listed.number) == needle || FormatPuzzleId(listed.id).rfind(needle, 0) == 0;
      if (!hit) continue;
    }
    count_rule_set(listed.verdict_rules);
    for (const RulesVerdictSummary& o : listed.other_rules) count_rule_set(o.rules);
    ++scoped;
    if (!rules.empty()) under = SummaryUnderRules(listed, rules);
    const PuzzleSummary& s = rules.empty() ? listed : under;
    under_rules += !rules.empty() && s.verdict != VerdictKind::kNone;
    ++materials[s.material];
    ++results[ClaimName(s.claimed)];
    ++verdicts[VerdictName(s.verdict)];
    if (!material.empty() && s.material != material) continue;
    if (!result.empty() && s.claimed != claim) continue;
    if (!verdict.empty() && s.verdict != vk) continue;
    if (total >= offset && static_cast<int>(rows.size()) < limit) {
      int same = 0;
      if (!s.canonical.empty() && !s.is_game) {
        auto it = catalog->same_position.find(PositionKeyOf(s));
        if (it != catalog->same_position.end()) same = it->second - 1;
      }
      rows.push_back(SummaryJson(s, same));
    }
    ++total;
  }
  auto facet = [](const std::map<std::string, int>& m) {
    json a = json::array();
    for (const auto& [k, n] : m) a.push_back({{"value", k}, {"count", n}});
    return a;
  };
  json reply{{"total", total},
             {"offset", offset},
             {"limit", limit},
             {"puzzles", rows},
             {"facets",
              {{"material", facet(materials)},
               {"result", facet(results)},
               {"verdict", facet(verdicts)},
               {"rules", facet(rule_sets)}}}};
  if (!rules.empty() && under_rules == 0 && scoped > 0) {
    // As `puzzles list --rules` says on stderr: a misspelt option matches nothing.
    std::string known;
    for (const auto& [value, n] : rule_sets) known += (known.empty() ? "" : ", ") + ("'" + value + "'");
    reply["rules_note"] = "no puzzle listed has a verdict under '" + joined(rules) + "'; " +
                          (known.empty() ? std::string("none has a verdict under rule options (canju verify --store DIR --set ...)")
                                         : "verdicts are stored under " + known);
  }
  return {200, reply};
}

ApiReply Api::Puzzle(const std::string& id_text) {
  if (id_text.size() > 16 || !ValidUtf8(id_text)) {
    std::string shown = id_text.size() > 40 ? id_text.substr(0, 40) + "…" : id_text;
    return Error(400, "not a puzzle id (4 to 16 hex digits): " + shown);
  }
  PuzzleId id = 0;
  if (Status st = store_->Resolve(id_text, &id); !st.ok()) return FromStatus(st);
  Record r;
  if (Status st = store_->Get(id, &r); !st.ok()) return FromStatus(st);
  PuzzleSummary s;
  if (Status st = store_->GetSummary(id, &s); !st.ok()) return FromStatus(st);

  json tags = json::object();
  for (const auto& [k, v] : r.tags) tags[k] = v;
  json j = {{"id", FormatPuzzleId(id)},
            {"variant", r.variant},
            {"collection", r.collection},
            {"number", r.number},
            {"title", r.title},
            {"author", r.author},
            {"source", r.source},
            {"tags", tags},
            {"fen", r.fen},
            {"claimed", ClaimName(r.claimed)},
            {"material", s.material},
            {"is_game", s.is_game},
            {"comment", r.comment}};

  std::vector<Appearance> apps;
  json appearances = json::array();
  if (store_->Appearances(id, &apps).ok())
    for (const Appearance& a : apps)
      appearances.push_back({{"id", FormatPuzzleId(a.puzzle.id)},
                             {"collection", a.puzzle.collection},
                             {"number", a.puzzle.number},
                             {"title", a.puzzle.title},
                             {"claimed", ClaimName(a.puzzle.claimed)},
                             {"verdict", VerdictName(a.puzzle.verdict)},
                             {"relation", TransformName(a.relation)}});
  j["appearances"] = appearances;

  std::shared_ptr<const Variant> v;
  Position start;
  Status st = BuiltinOnly(r.variant, &v);
  if (st.ok()) st = Position::FromFen(*v, r.fen, &start);
  if (!st.ok()) {
    // Metadata still shows; the board and the tree cannot.
    j["problem"] = st.message();
    j["verdict"] = VerdictJson(r.verdict, nullptr, std::nullopt);
    j["other_rules"] = json::array();
    for (const Verdict& o : r.other_rules) j["other_rules"].push_back(VerdictJson(o, nullptr, std::nullopt));
    j["tree"] = json{{"nodes", json::array()}, {"truncated", false}, {"illegal", 0}};
    if (v) j["variant_info"] = VariantJson(*v);
    return {200, j};
  }
  j["variant_info"] = VariantJson(*v);
  j["verdict"] = VerdictJson(r.verdict, &start, VerdictLineEnd(r.variant, r.fen, r.verdict));
  // Verdicts reached under other rule options (`verify --set`), each read
  // under its own.
  j["other_rules"] = json::array();
  for (const Verdict& o : r.other_rules)
    j["other_rules"].push_back(VerdictJson(o, &start, VerdictLineEnd(r.variant, r.fen, o)));
  TreeBuilder tree(*v, start.side_to_move());
  j["tree"] = tree.Build(start, r);
  return {200, j};
}

ApiReply Api::Probe(const QueryParams& query) {
  ApiReply err;
  std::string fen, variant = "xiangqi";
  if (!TextParam(query, "fen", kMaxFenLength, &fen, &err) || !TextParam(query, "variant", kMaxNameLength, &variant, &err))
    return err;
  if (fen.empty()) return Error(400, "parameter 'fen' is required");
  std::shared_ptr<const Variant> v;
  if (Status st = BuiltinOnly(variant, &v); !st.ok()) return FromStatus(st);
  Position pos;
  if (Status st = Position::FromFen(*v, fen, &pos); !st.ok())
    return Error(400, "bad FEN '" + fen + "': " + st.message());
  json j = {{"variant", v->id()}, {"fen", pos.Fen()}, {"material", pos.Material()}};
#ifdef CANJU_HAVE_TABLEBASE
  auto it = tables_->by_variant.find(v->id());
  if (it == tables_->by_variant.end()) {
    j["available"] = false;
    j["reason"] = options_.tb_dir.empty() ? "no tablebases loaded (start canju serve with --tb DIR)"
                                          : "no " + v->id() + " tables in " + options_.tb_dir;
    return {200, j};
  }
  const tb::TablebaseSet& set = *it->second.set;
  if (!set.Has(pos)) {
    j["available"] = false;
    j["reason"] = "no table for " + pos.Material();
    return {200, j};
  }
  tb::ProbeResult r;
  if (Status st = set.Probe(pos, &r); !st.ok()) return FromStatus(st);
  j["available"] = true;
  j["value"] = ValueJson(r.wdl, r.dtm_plies, r.by_rule);
  MoveList list;
  pos.GenerateLegal(&list);
  std::vector<json> moves;
  for (Move m : list) {
    json mj = {{"move", MoveToCoord(*v, m)}, {"text", MoveToHuman(pos, m)}};
    StateInfo si;
    pos.DoMove(m, &si);
    mj["fen"] = pos.Fen();
    MoveList replies;
    pos.GenerateLegal(&replies);
    tb::ProbeResult cr;
    Status st = set.Has(pos) ? set.Probe(pos, &cr) : Status::NotFound("no table for " + pos.Material());
    if (st.ok()) {
      // The child's value is the opponent's: turn it round and add this ply.
      const tb::Wdl w = cr.wdl == tb::Wdl::kWin ? tb::Wdl::kLoss : cr.wdl == tb::Wdl::kLoss ? tb::Wdl::kWin : tb::Wdl::kDraw;
      mj["value"] = ValueJson(w, w == tb::Wdl::kDraw ? 0 : cr.dtm_plies + 1, cr.by_rule);
    } else if (replies.empty() && pos.InCheck()) {
      mj["value"] = ValueJson(tb::Wdl::kWin, 1, false);  // mates: needs no table
    } else if (replies.empty()) {
      const Outcome o = v->rules().stalemate;  // for the stalemated side
      const tb::Wdl w = o == Outcome::kLoss ? tb::Wdl::kWin : o == Outcome::kWin ? tb::Wdl::kLoss : tb::Wdl::kDraw;
      mj["value"] = ValueJson(w, w == tb::Wdl::kDraw ? 0 : 1, false);
    } else {
      mj["value"] = nullptr;
      mj["reason"] = st.message();
    }
    pos.UndoMove(m, si);
    moves.push_back(std::move(mj));
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const json& a, const json& b) { return SortKey(a["value"]) < SortKey(b["value"]); });
  j["moves"] = moves;
#else
  j["available"] = false;
  j["reason"] = "this canju was built without tablebase support";
#endif
  return {200, j};
}

void Api::CancelSolves() { stop_solves_ = true; }
void Api::AllowSolves() { stop_solves_ = false; }

ApiReply Api::Solve(const QueryParams& query) {
  ApiReply err;
  std::string fen, variant = "xiangqi";
  int seconds = kDefaultSolveSeconds;
  if (!TextParam(query, "fen", kMaxFenLength, &fen, &err) || !TextParam(query, "variant", kMaxNameLength, &variant, &err) ||
      !IntParam(query, "seconds", 1, kMaxSolveSeconds, &seconds, &err))
    return err;
  if (fen.empty()) return Error(400, "parameter 'fen' is required");
  std::shared_ptr<const Variant> v;
  if (Status st = BuiltinOnly(variant, &v); !st.ok()) return FromStatus(st);
  Position pos;
  if (Status st = Position::FromFen(*v, fen, &pos); !st.ok()) return Error(400, "bad FEN '" + fen + "': " + st.message());
  std::unique_lock<std::mutex> lock(solve_mu_, std::try_to_lock);
  if (!lock.owns_lock()) return Error(503, "another solve is running (one at a time); try again when it has finished");
  if (stop_solves_) return Error(503, "the server is stopping");

  SolveOptions o;
  o.max_seconds = seconds;
  o.threads = options_.solve_threads;
  o.stop = &stop_solves_;
  json tables = nullptr;  // the folder whose tables the search probed, if any
#ifdef CANJU_HAVE_TABLEBASE
  if (!options_.tb_dir.empty() && tables_->by_variant.count(v->id())) {
    if (!oracles_) oracles_ = std::make_unique<Oracles>();
    auto [it, fresh] = oracles_->by_variant.try_emplace(v->id());
    // The oracle keeps a reference to the variant: the tables' own copy lives
    // as long as the Api.
    // A folder whose tables cannot be opened again leaves the search without them.
    if (fresh && !OpenTablebaseOracle(options_.tb_dir, *tables_->by_variant[v->id()].variant, &it->second).ok())
      it->second.reset();
    o.tablebase = it->second.get();
    if (o.tablebase) tables = options_.tb_dir;
  }
#endif
  const SolveResult r = canju::Solve(pos, o);

  std::vector<std::string> pv, winning;
  for (Move m : r.pv) pv.push_back(MoveToCoord(*v, m));
  for (Move m : r.WinningFirstMoves()) winning.push_back(MoveToCoord(*v, m));
  LineEnd end;
  json j = {{"variant", v->id()},
            {"fen", pos.Fen()},
            {"material", pos.Material()},
            {"result", ClaimName(r.result)},
            {"proof", ProofKindName(r.proof)},
            {"mate_plies", r.mate_plies >= 0 ? json(r.mate_plies) : json(nullptr)},
            {"mate_exact", r.mate_plies >= 0 ? json(r.mate_exact) : json(nullptr)},
            {"pv", MoveSequence(pos, pv, false)},
            {"line_end", HowLineEnds(pos, r.pv, r.result, &end) ? json(LineEndName(end)) : json(nullptr)},
            {"winning_first_moves", MoveSequence(pos, winning, true)},
            {"undecided_first_moves", r.UndecidedFirstMoves().size()},
            {"note", r.note},
            {"nodes", r.nodes},
            {"seconds", std::round(r.seconds * 1000) / 1000},
            {"seconds_limit", seconds},
            {"stopped", stop_solves_.load()},
            {"tables", tables}};
  return {200, j};
}

}  // namespace canju::server

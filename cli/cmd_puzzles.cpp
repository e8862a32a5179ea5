// canju import | puzzles list/show/dups/collections/check | export
// The puzzle store (puzzles/store.h) fed by the readers (importer/importer.h).
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/verdict_json.h"
#include "importer/importer.h"
#include "puzzles/position_key.h"
#include "puzzles/store.h"
#include "variants/display.h"
#include "variants/notation.h"
#include "variants/registry.h"

namespace canju::cli {
namespace {

using json = nlohmann::ordered_json;  // keys in the documented order

// --store DIR, defaulting to DefaultStoreDir().
struct StoreOption {
  std::string dir;
  void Add(CLI::App* cmd) {
    cmd->add_option("--store", dir,
                    "Puzzle store directory (default: $CANJU_STORE, else $XDG_DATA_HOME/canju, else "
                    "~/.local/share/canju)");
  }
  std::string Dir() const { return dir.empty() ? DefaultStoreDir() : dir; }
  std::unique_ptr<PuzzleStore> Open(bool read_only) const {
    PuzzleStore::Options o;
    o.read_only = read_only;
    std::unique_ptr<PuzzleStore> store;
    Status st = PuzzleStore::Open(Dir(), o, &store);
    if (!st.ok()) throw CommandError{st.message(), st.code() == Status::Code::kNotFound ? 2 : 1};
    return store;
  }
};

void Check(const Status& st) {
  if (!st.ok()) throw CommandError{st.message(), 1};
}

// Ten hex digits: unique among millions of puzzles, and `show` takes any
// unique prefix.
std::string ShortId(PuzzleId id) { return FormatPuzzleId(id).substr(0, 10); }

std::string NumberText(int n) { return n > 0 ? std::to_string(n) : "-"; }

json MatePlies(int plies) { return plies >= 0 ? json(plies) : json(nullptr); }
// true: the shortest mate; false: an upper bound; null: not recorded / no mate.
json MateExact(int plies, int8_t exact) { return plies >= 0 && exact >= 0 ? json(exact == 1) : json(nullptr); }
// The claim a verdict was checked against; null when not recorded (verdicts
// stored before the field) or unknown.
// A claim the verdict checked: its name, or null when none was recorded.
json CheckedClaim(Claim c) { return c == Claim::kUnknown ? json(nullptr) : json(ClaimName(c)); }

// A JSON object per line, UTF-8 as is; invalid bytes replaced rather than
// ending the listing.
std::string JsonLine(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

void WriteOut(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// ---------------------------------------------------------------------------
// canju import

std::atomic<bool> g_interrupted{false};
extern "C" void OnInterrupt(int) { g_interrupted = true; }

struct ImportTally {
  int files = 0, records = 0, added = 0, duplicates = 0;
  json errors = json::array();
  json same_as = json::array();  // records repeating one added earlier in this run
  bool fatal = false;            // a file or record could not be imported at all
};

void AddError(ImportTally* t, const std::string& file, const std::string& where, const std::string& reason,
              bool fatal) {
  t->errors.push_back({{"file", file}, {"where", where}, {"reason", reason}, {"fatal", fatal}});
  if (fatal) t->fatal = true;
}

void RegisterImport(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "import",
      "Import collection files and folders (XQF, CBR/CBL, DhtmlXQ, PGN, FEN lists, line lists) into the puzzle "
      "store; importing again adds nothing new");
  auto store_opt = std::make_shared<StoreOption>();
  auto paths = std::make_shared<std::vector<std::string>>();
  auto collection = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  store_opt->Add(cmd);
  cmd->add_option("--collection", *collection, "Put every record into this collection (default: from each file)");
  cmd->add_flag("--json", *as_json, "End with one JSON summary object on stdout");
  cmd->add_flag("--quiet,-q", *quiet, "No progress bar");
  cmd->add_option("paths", *paths, "Files and folders (folders are walked recursively)")->required();
  cmd->callback([=] {
    auto t0 = std::chrono::steady_clock::now();
    // Everything to read, first, for an honest progress bar.
    std::vector<std::string> files;
    ImportTally tally;
    for (const std::string& p : *paths) {
      std::vector<std::string> found;
      Status st = ListCollectionFiles(p, &found);
      if (!st.ok()) {
        AddError(&tally, p, "", st.message(), true);
        continue;
      }
      if (found.empty()) AddError(&tally, p, "", "no collection files found", true);
      files.insert(files.end(), found.begin(), found.end());
    }
    auto store = store_opt->Open(/*read_only=*/false);
    ReadOptions read_opts;
    read_opts.collection = *collection;
    std::set<PuzzleId> added_now;
    std::map<PuzzleId, std::string> added_where;  // for "same as" reports
    g_interrupted = false;
    struct sigaction sa = {}, old_int = {}, old_term = {};
    sa.sa_handler = OnInterrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    ProgressBar bar("import", files.size(), *quiet);
    bool interrupted = false;
    for (size_t i = 0; i < files.size(); ++i) {
      if (g_interrupted) {
        interrupted = true;
        break;
      }
      const std::string& file = files[i];
      ++tally.files;
      ReadResult rr;
      Status st = ReadCollectionFile(file, read_opts, &rr);
      for (const ImportIssue& issue : rr.issues)
        AddError(&tally, issue.file.empty() ? file : issue.file, issue.where, issue.reason, issue.fatal);
      if (!st.ok() && rr.issues.empty()) AddError(&tally, file, "", st.message(), true);
      tally.records += static_cast<int>(rr.records.size());
      if (!rr.records.empty()) {
        AddResult added;
        st = store->AddRecords(rr.records, &added);
        if (!st.ok()) {
          // A write error (full disk, ...): nothing of this file was stored,
          // and the next files would fail the same way.
          AddError(&tally, file, "", "not stored: " + st.message(), true);
          bar.Finish();
          break;
        }
        tally.added += added.added;
        tally.duplicates += added.duplicates;
        for (size_t k = 0; k < added.outcomes.size(); ++k) {
          const AddOutcome& o = added.outcomes[k];
          const Record& r = rr.records[k];
          std::string where = r.source.empty() ? file : r.source;
          if (o.kind == AddOutcome::Kind::kRejected) {
            AddError(&tally, file, r.source, o.reason, true);
          } else if (o.kind == AddOutcome::Kind::kNew) {
            added_now.insert(o.id);
            added_where[o.id] = where + (r.title.empty() ? "" : " (" + r.title + ")");
          } else if (added_now.count(o.id)) {
            tally.same_as.push_back({{"source", where}, {"title", r.title}, {"id", FormatPuzzleId(o.id)},
                                     {"same_as", added_where[o.id]}});
          }
        }
      }
      bar.Update(i + 1);
    }
    bar.Finish();
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    Status synced = store->Sync();
    if (!synced.ok()) AddError(&tally, store_opt->Dir(), "", synced.message(), true);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    if (*as_json) {
      json summary = {{"files", tally.files},        {"records", tally.records},
                      {"new", tally.added},          {"duplicates", tally.duplicates},
                      {"errors", tally.errors},      {"same_as", tally.same_as},
                      {"store", store_opt->Dir()},   {"interrupted", interrupted},
                      {"seconds", std::round(seconds * 1000) / 1000}};
      WriteOut(JsonLine(summary));
    } else {
      std::string out;
      for (const auto& e : tally.errors) {
        std::string where = e["where"].get<std::string>();
        out += (e["fatal"].get<bool>() ? "error: " : "warning: ") + e["file"].get<std::string>() +
               (where.empty() ? "" : ": " + where) + ": " + e["reason"].get<std::string>() + "\n";
      }
      // Genuine duplicates inside the input, named; a long list (two
      // editions of one book imported together) is cut short.
      const size_t kShown = 20;
      for (size_t k = 0; k < tally.same_as.size() && k < kShown; ++k) {
        const auto& d = tally.same_as[k];
        out += "duplicate: " + d["source"].get<std::string>() + " (" + d["title"].get<std::string>() +
               ") is the same composition as " + d["same_as"].get<std::string>() + "\n";
      }
      if (tally.same_as.size() > kShown)
        out += "... and " + std::to_string(tally.same_as.size() - kShown) +
               " more records repeating one imported earlier in this run (`import --json` lists them all)\n";
      char line[512];
      std::snprintf(line, sizeof line,
                    "%s%d files, %d records: %d new, %d duplicates (already in the store), %zu errors and warnings "
                    "(%.1f s) -> %s\n",
                    interrupted ? "interrupted; import again to resume. " : "", tally.files, tally.records,
                    tally.added, tally.duplicates, tally.errors.size(), seconds, store_opt->Dir().c_str());
      out += line;
      WriteOut(out);
    }
    if (interrupted) throw CommandError{"interrupted", 130};
    if (tally.fatal) throw CommandError{"some files or records could not be imported (see above)", 1};
  });
}

// ---------------------------------------------------------------------------
// canju puzzles list / show / dups / collections / check

// Rule options as the text shows them: "a, b".
std::string JoinRules(const std::vector<std::string>& rules) {
  std::string text;
  for (const std::string& o : rules) text += (text.empty() ? "" : ", ") + o;
  return text;
}

// The summary's verdicts under rule options: the main verdict's options
// ([] for the variant's own rules) and the other verdicts, each with its
// options and what listing shows of it.
json VerdictRulesJson(const PuzzleSummary& s) { return s.verdict_rules; }
json OtherRulesJson(const PuzzleSummary& s) {
  json list = json::array();
  for (const RulesVerdictSummary& o : s.other_rules)
    list.push_back({{"rules", o.rules},
                    {"verdict", VerdictName(o.verdict)},
                    {"mate_plies", MatePlies(o.mate_plies)},
                    {"mate_exact", MateExact(o.mate_plies, o.mate_exact)},
                    {"checked", CheckedClaim(o.checked)}});
  return list;
}

json SummaryJson(const PuzzleSummary& s) {
  json j = {{"id", FormatPuzzleId(s.id)},
            {"collection", s.collection},
            {"number", s.number},
            {"title", s.title},
            {"fen", s.fen},
            {"claimed", ClaimName(s.claimed)},
            {"checked", CheckedClaim(s.checked)},
            {"material", s.material},
            {"variant", s.variant},
            {"verdict", VerdictName(s.verdict)},
            {"mate_plies", MatePlies(s.mate_plies)},
            {"mate_exact", MateExact(s.mate_plies, s.mate_exact)},
            {"verdict_rules", VerdictRulesJson(s)},
            {"other_rules", OtherRulesJson(s)},
            {"source", s.source}};
  if (!s.fen_problem.empty()) j["fen_problem"] = s.fen_problem;
  return j;
}

// JSON string literal; invalid UTF-8 becomes U+FFFD (as nlohmann's
// error_handler_t::replace does). Listing writes thousands of lines, and
// building a json object per line would cost more than reading the store.
void AppendJsonString(std::string* out, const std::string& s) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    unsigned char c = *p;
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out->push_back('\\');
        out->push_back(static_cast<char>(c));
      } else if (c < 0x20) {
        const char* esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : nullptr;
        if (esc) {
          out->append(esc);
        } else {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        }
      } else {
        out->push_back(static_cast<char>(c));
      }
      ++p;
      continue;
    }
    // A multi-byte sequence: its length from the lead byte, then checks.
    int len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    bool ok = len > 0 && end - p >= len;
    for (int k = 1; ok && k < len; ++k) ok = (p[k] & 0xC0) == 0x80;
    if (ok && len == 3) ok = !(c == 0xE0 && p[1] < 0xA0) && !(c == 0xED && p[1] >= 0xA0);
    if (ok && len == 4) ok = !(c == 0xF0 && p[1] < 0x90) && !(c == 0xF4 && p[1] >= 0x90);
    if (ok) {
      out->append(reinterpret_cast<const char*>(p), static_cast<size_t>(len));
      p += len;
    } else {
      out->append("\xEF\xBF\xBD");
      ++p;
    }
  }
  out->push_back('"');
}

// The list's claim column: the record's own claim, or, for a record without
// one (a line list's), the claim its verdict checked in brackets — read from
// the end of the book's line (docs/solver.md).
std::string ClaimColumn(const PuzzleSummary& s) {
  if (s.claimed == Claim::kUnknown && s.checked != Claim::kUnknown) return "(" + std::string(ClaimName(s.checked)) + ")";
  return ClaimName(s.claimed);
}

// The same object as SummaryJson, written directly.
void AppendSummaryJsonLine(std::string* out, const PuzzleSummary& s) {
  out->append("{\"id\":\"");
  out->append(FormatPuzzleId(s.id));
  out->append("\",\"collection\":");
  AppendJsonString(out, s.collection);
  out->append(",\"number\":");
  out->append(std::to_string(s.number));
  out->append(",\"title\":");
  AppendJsonString(out, s.title);
  out->append(",\"fen\":");
  AppendJsonString(out, s.fen);
  out->append(",\"claimed\":\"");
  out->append(ClaimName(s.claimed));
  out->append("\",\"checked\":");
  out->append(s.checked == Claim::kUnknown ? "null" : "\"" + std::string(ClaimName(s.checked)) + "\"");
  out->append(",\"material\":");
  AppendJsonString(out, s.material);
  out->append(",\"variant\":");
  AppendJsonString(out, s.variant);
  out->append(",\"verdict\":\"");
  out->append(VerdictName(s.verdict));
  out->append("\",\"mate_plies\":");
  out->append(s.mate_plies >= 0 ? std::to_string(s.mate_plies) : "null");
  out->append(",\"mate_exact\":");
  out->append(s.mate_plies < 0 || s.mate_exact < 0 ? "null" : s.mate_exact == 1 ? "true" : "false");
  // Few records have verdicts under rule options: these go through json.
  const auto dump = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
  out->append(",\"verdict_rules\":");
  out->append(s.verdict_rules.empty() ? "[]" : dump(VerdictRulesJson(s)));
  out->append(",\"other_rules\":");
  out->append(s.other_rules.empty() ? "[]" : dump(OtherRulesJson(s)));
  out->append(",\"source\":");
  AppendJsonString(out, s.source);
  if (!s.fen_problem.empty()) {
    out->append(",\"fen_problem\":");
    AppendJsonString(out, s.fen_problem);
  }
  out->append("}\n");
}

void RegisterList(CLI::App* puzzles) {
  auto* cmd = puzzles->add_subcommand("list", "List puzzles, by collection and number");
  auto store_opt = std::make_shared<StoreOption>();
  auto filter_collection = std::make_shared<std::string>();
  auto material = std::make_shared<std::string>();
  auto result = std::make_shared<std::string>();
  auto verdict = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto rules = std::make_shared<std::vector<std::string>>();
  store_opt->Add(cmd);
  cmd->add_option("--collection,-c", *filter_collection, "Only this collection (exact name; see `puzzles collections`)");
  cmd->add_option("--material,-m", *material, "Only this material signature, e.g. KRKAA (Red's pieces first)");
  cmd->add_option("--result,-r", *result, "Only this claimed result (side to move's view)")
      ->check(CLI::IsMember({"win", "draw", "loss", "unknown"}));
  cmd->add_option("--verdict", *verdict, "Only this solver verdict")
      ->check(CLI::IsMember({"none", "confirmed", "refuted", "unproven"}));
  cmd->add_option("--rules", *rules,
                  "Show (and filter with --verdict) the verdicts reached under these rule options, as given to "
                  "`verify --set` (SECTION.KEY=VALUE, any order; repeat for several), instead of the main ones")
      ->allow_extra_args(false);
  cmd->add_flag("--json", *as_json,
                "One JSON object per puzzle per line: id, collection, number, title, fen, claimed, material, variant, "
                "verdict, mate_plies, verdict_rules, other_rules, source");
  cmd->callback([=] {
    *rules = CanonicalOverrides(*rules);  // (any spacing or order, as verify --set stores them)
    auto store = store_opt->Open(/*read_only=*/true);
    ListFilter f;
    f.collection = *filter_collection;
    f.material = *material;
    if (!result->empty()) {
      Claim c = Claim::kUnknown;
      ParseClaim(*result, &c);
      f.claimed = c;
    }
    if (!verdict->empty()) {
      for (VerdictKind k : {VerdictKind::kNone, VerdictKind::kConfirmed, VerdictKind::kRefuted, VerdictKind::kUnproven})
        if (*verdict == VerdictName(k)) f.verdict = k;
    }
    // Under --rules the verdict filter reads the verdicts under those
    // options, which the verdict index does not hold: it is applied here.
    const std::optional<VerdictKind> want = f.verdict;
    if (!rules->empty()) f.verdict.reset();
    std::vector<PuzzleSummary> found;
    Check(store->List(f, &found));
    if (!rules->empty()) {
      size_t under = 0;
      std::vector<PuzzleSummary> kept;
      for (const PuzzleSummary& s : found) {
        PuzzleSummary u = SummaryUnderRules(s, *rules);
        under += u.verdict != VerdictKind::kNone;
        if (!want || u.verdict == *want) kept.push_back(std::move(u));
      }
      if (under == 0 && !found.empty()) {
        // The options the listed records' verdicts were reached under, to help with a misspelt one.
        std::set<std::string> stored;
        for (const PuzzleSummary& s : found) {
          if (!s.verdict_rules.empty()) stored.insert(JoinRules(s.verdict_rules));
          for (const RulesVerdictSummary& o : s.other_rules) stored.insert(JoinRules(o.rules));
        }
        std::string known;
        for (const std::string& o : stored) known += (known.empty() ? "" : "; ") + o;
        std::fprintf(stderr, "canju: no puzzle listed has a verdict under %s (%s)\n", JoinRules(*rules).c_str(),
                     known.empty() ? "none has a verdict under rule options: `canju verify --store DIR --set ...` makes them"
                                   : ("verdicts are stored under: " + known).c_str());
      }
      found = std::move(kept);
    }
    std::string out;
    out.reserve(found.size() * 200);
    if (*as_json) {
      for (const PuzzleSummary& s : found) AppendSummaryJsonLine(&out, s);
    } else {
      // Display widths of the few distinct collection names, computed once.
      std::map<std::string, int> coll_width;
      int coll_w = DisplayWidth("COLLECTION");
      size_t mat_w = 8;
      for (const PuzzleSummary& s : found) {
        auto [it, inserted] = coll_width.emplace(s.collection, 0);
        if (inserted) it->second = DisplayWidth(s.collection);
        coll_w = std::max(coll_w, it->second);
        mat_w = std::max(mat_w, s.material.size());
      }
      coll_w = std::min(coll_w, 40);
      auto pad = [&](const std::string& text, size_t width) {
        out += text;
        if (text.size() < width) out.append(width - text.size(), ' ');
        out += "  ";
      };
      auto row = [&](const std::string& id, const std::string& coll, int coll_cols, const std::string& no,
                     const std::string& claim, const std::string& verdict_text, const std::string& mat,
                     const std::string& title) {
        pad(id, 10);
        out += coll;
        if (coll_cols < coll_w) out.append(static_cast<size_t>(coll_w - coll_cols), ' ');
        out += "  ";
        if (no.size() < 5) out.append(5 - no.size(), ' ');
        out += no + "  ";
        pad(claim, 7);
        pad(verdict_text, 9);
        pad(mat, mat_w);
        out += title;
        out += '\n';
      };
      if (StdoutIsTty()) row("ID", "COLLECTION", DisplayWidth("COLLECTION"), "NO.", "CLAIM", "VERDICT", "MATERIAL", "TITLE");
      for (const PuzzleSummary& s : found) {
        std::string title = s.fen_problem.empty() ? s.title : s.title + "  [bad position]";
        row(ShortId(s.id), s.collection, coll_width[s.collection], NumberText(s.number), ClaimColumn(s),
            s.verdict == VerdictKind::kNone ? "-" : VerdictName(s.verdict), s.material.empty() ? "?" : s.material,
            title);
      }
      if (StdoutIsTty()) out += std::to_string(found.size()) + " puzzles\n";
    }
    WriteOut(out);
  });
}

// A space that Wrap() does not break at.
constexpr char kGlue = '\x01';

// The move tree as PGN-like text in the variant's human notation:
// "1. 车二进一 将5进1 (1... 将5平4 2. 车二平六) 2. ...". A move that cannot
// be replayed is shown as stored, with the reason, and ends its line.
class TreeWriter {
 public:
  explicit TreeWriter(bool human) : human_(human) {}

  std::string Write(const Position& start, const std::vector<MoveNode>& roots) {
    out_.clear();
    Line(start, &roots, true);
    return out_;
  }

 private:
  // The main line from `pos` (iteratively: games are long), each move's
  // alternatives as parenthesised variations right after it.
  void Line(Position pos, const std::vector<MoveNode>* alts, bool force_number) {
    while (alts && !alts->empty()) {
      const MoveNode& main = (*alts)[0];
      Move m;
      bool ok = Emit(pos, main, force_number, &m);
      for (size_t k = 1; k < alts->size(); ++k) {
        out_ += " (";
        Position alt = pos;
        Move am;
        if (Emit(alt, (*alts)[k], true, &am)) {
          StateInfo si;
          alt.DoMove(am, &si);
          Line(alt, &(*alts)[k].next, !(*alts)[k].comment.empty());
        }
        out_ += ")";
      }
      if (!ok) return;
      StateInfo si;
      pos.DoMove(m, &si);
      force_number = alts->size() > 1 || !main.comment.empty();
      alts = &main.next;
    }
  }

  // Writes the move number (when needed), the move and its comment.
  bool Emit(const Position& pos, const MoveNode& node, bool force_number, Move* m) {
    if (!out_.empty() && out_.back() != '(') out_ += ' ';
    // kGlue keeps a move number on the line of its move when wrapping.
    if (pos.side_to_move() == kFirst) out_ += std::to_string(pos.fullmove_number()) + "." + kGlue;
    else if (force_number) out_ += std::to_string(pos.fullmove_number()) + "..." + kGlue;
    Status st = ParseCoordMove(pos, node.move, m);
    if (!st.ok()) {
      out_ += node.move + " {cannot be replayed: " + st.message() + "}";
      return false;
    }
    out_ += human_ ? MoveToHuman(pos, *m) : MoveToCoord(pos.variant(), *m);
    if (!node.comment.empty()) out_ += " {" + node.comment + "}";
    return true;
  }

  bool human_;
  std::string out_;
};

// Wraps text at `width` display columns: at spaces, and inside words wider
// than a line (Chinese comments have no spaces). Newlines become spaces.
std::string Wrap(const std::string& text, int width, const std::string& indent) {
  std::string out, line;
  int line_w = 0;
  auto flush = [&] {
    if (!line.empty()) out += indent + line + "\n";
    line.clear();
    line_w = 0;
  };
  std::string flat = text;
  for (char& c : flat)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  size_t i = 0;
  while (i < flat.size()) {
    size_t j = flat.find(' ', i);
    if (j == std::string::npos) j = flat.size();
    std::string word = flat.substr(i, j - i);
    i = j + 1;
    if (word.empty()) continue;
    std::replace(word.begin(), word.end(), kGlue, ' ');
    int w = DisplayWidth(word);
    if (line_w > 0 && line_w + 1 + w > width) flush();
    if (w > width) {
      // Character by character (UTF-8 sequences kept whole).
      if (line_w > 0) {
        line += ' ';
        ++line_w;
      }
      for (size_t k = 0; k < word.size();) {
        size_t len = 1;
        while (k + len < word.size() && (static_cast<unsigned char>(word[k + len]) & 0xC0) == 0x80) ++len;
        std::string ch = word.substr(k, len);
        int cw = DisplayWidth(ch);
        if (line_w + cw > width) flush();
        line += ch;
        line_w += cw;
        k += len;
      }
      continue;
    }
    if (line_w > 0) {
      line += ' ';
      ++line_w;
    }
    line += word;
    line_w += w;
  }
  flush();
  return out;
}

json TreeJson(const std::vector<MoveNode>& nodes, const Position* pos) {
  json arr = json::array();
  for (const MoveNode& n : nodes) {
    json j = {{"move", n.move}};
    Position next;
    const Position* child = nullptr;
    Move m;
    if (pos && ParseCoordMove(*pos, n.move, &m).ok()) {
      j["human"] = MoveToHuman(*pos, m);
      next = *pos;
      StateInfo si;
      next.DoMove(m, &si);
      child = &next;
    }
    if (!n.comment.empty()) j["comment"] = n.comment;
    if (!n.next.empty()) j["next"] = TreeJson(n.next, child);
    arr.push_back(std::move(j));
  }
  return arr;
}

void RegisterShowPuzzle(CLI::App* puzzles) {
  auto* cmd = puzzles->add_subcommand(
      "show", "One puzzle: board, metadata, solution tree in Chinese notation, verdict, other appearances");
  auto store_opt = std::make_shared<StoreOption>();
  auto id_text = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto color = std::make_shared<bool>(false);
  auto no_color = std::make_shared<bool>(false);
  auto iccs = std::make_shared<bool>(false);
  store_opt->Add(cmd);
  cmd->add_option("id", *id_text, "Puzzle id, or a unique prefix of it (4+ hex digits)")->required();
  cmd->add_flag("--json", *as_json, "The whole record as one JSON object");
  auto* c = cmd->add_flag("--color", *color, "Colour the board even when stdout is not a terminal");
  cmd->add_flag("--no-color", *no_color, "Plain board even on a terminal")->excludes(c);
  cmd->add_flag("--iccs", *iccs, "Moves in ICCS coordinates instead of Chinese notation");
  cmd->callback([=] {
    auto store = store_opt->Open(/*read_only=*/true);
    PuzzleId id;
    Check(store->Resolve(*id_text, &id));
    Record r;
    PuzzleSummary s;
    std::vector<Appearance> others;
    Check(store->Get(id, &r));
    Check(store->GetSummary(id, &s));
    Check(store->Appearances(id, &others));
    std::shared_ptr<const Variant> v;
    Status vst = LoadVariant(r.variant, &v);
    Position pos;
    bool have_pos = vst.ok() && Position::FromFen(*v, r.fen, &pos).ok();

    if (*as_json) {
      json j = SummaryJson(s);
      j["author"] = r.author;
      j["tags"] = r.tags;
      j["comment"] = r.comment;
      j["moves"] = TreeJson(r.moves, have_pos ? &pos : nullptr);
      auto verdict_json = [&](const Verdict& vd) {
        return json{{"kind", VerdictName(vd.kind)},
                    {"proven", ClaimName(vd.proven)},
                    {"mate_plies", MatePlies(vd.mate_plies)},
                    {"mate_exact", MateExact(vd.mate_plies, vd.mate_exact)},
                    {"cooks_scope", CooksScopeName(vd.cooks_scope)},
                    {"pv", vd.pv},
                    {"line_end", LineEndJson(VerdictLineEnd(r.variant, r.fen, vd))},
                    {"cooks", vd.cooks},
                    {"reason", vd.reason},
                    {"book_notes", vd.book_notes},
                    {"nodes", vd.nodes},
                    {"seconds", vd.seconds},
                    {"verified_at", vd.verified_at},
                    {"solver", vd.solver},
                    {"rules", VerdictRules(vd)},
                    {"checked", CheckedClaim(vd.checked)},
                    {"checked_from", vd.checked_from},
                    {"proof_check", NameOrNull(ProofCheckName(vd.proof_check))},
                    {"cooks_check", CooksCheckJson(vd)}};
      };
      j["verdict"] = verdict_json(r.verdict);
      // Verdicts reached under other rule options (`verify --set`).
      j["other_rules"] = json::array();
      for (const Verdict& o : r.other_rules) j["other_rules"].push_back(verdict_json(o));
      json apps = json::array();
      for (const Appearance& a : others)
        apps.push_back({{"id", FormatPuzzleId(a.puzzle.id)},
                        {"collection", a.puzzle.collection},
                        {"number", a.puzzle.number},
                        {"title", a.puzzle.title},
                        {"relation", TransformName(a.relation)}});
      j["appearances"] = apps;
      WriteOut(JsonLine(j));
      return;
    }

    std::string out;
    out += r.collection + (r.number > 0 ? " #" + std::to_string(r.number) : "") + "  " + r.title + "\n";
    out += "id " + FormatPuzzleId(id) + "   " + r.variant + "   claimed: " + ClaimName(r.claimed) +
           " (side to move)\n";
    if (have_pos) {
      BoardStyle style;
      style.color = *color || (!*no_color && StdoutIsTty());
      out += "\n" + RenderBoard(pos, style) + "\n";
      out += "FEN:      " + r.fen + "\n";
      out += "Status:   " + DescribeState(pos) + "\n";
    } else {
      out += "\nFEN:      " + r.fen + "\n";
      out += "Position: " + (s.fen_problem.empty() ? vst.message() : s.fen_problem) + "\n";
    }
    out += "Material: " + (s.material.empty() ? std::string("?") : s.material) + "\n";
    if (!r.author.empty()) out += "Author:   " + r.author + "\n";
    out += "Source:   " + r.source + "\n";
    for (const auto& [k, val] : r.tags) out += "Tag:      " + k + " = " + val + "\n";
    if (!r.comment.empty()) out += "\n" + Wrap(r.comment, 78, "");
    if (!r.moves.empty()) {
      out += "\nSolution (book):\n";
      if (have_pos) out += Wrap(TreeWriter(!*iccs).Write(pos, r.moves), 76, "  ");
      else out += "  (cannot be replayed: the position is not legal)\n";
    }
    auto describe = [&](const Verdict& vd, const std::string& heading) {
      out += "\n" + heading;
      if (vd.kind == VerdictKind::kNone) {
        out += "not verified yet\n";
      } else {
        out += std::string(VerdictName(vd.kind)) + ", proven " + ClaimName(vd.proven);
        if (vd.mate_plies >= 0)
          out += std::string(", mate in ") + (vd.mate_exact == 0 ? "at most " : "") + std::to_string(vd.mate_plies) +
                 " plies" + (vd.mate_exact == 1 ? " (shortest)" : "");
        if (vd.proof_check == 1) out += ", re-checked";
        else if (vd.proof_check == 0) out += ", re-check incomplete";
        if (!vd.solver.empty()) out += " (" + vd.solver + ")";
        out += "\n";
        // A verdict reached under `verify --set` options holds under those rules only.
        const std::string rules = JoinRules(VerdictRules(vd));
        if (!rules.empty()) out += Wrap("Rules: " + rules + " (set for this verdict)", 76, "  ");
        // A record without a claim was checked against one read elsewhere: say which.
        if (!vd.checked_from.empty())
          out += Wrap(std::string("Claim checked: ") + ClaimName(vd.checked) + " (" + vd.checked_from + ")", 76, "  ");
        if (!vd.pv.empty() && have_pos) {
          std::vector<MoveNode> line;
          std::vector<MoveNode>* level = &line;
          for (const std::string& mv : vd.pv) {
            level->push_back(MoveNode{mv, "", {}});
            level = &level->back().next;
          }
          // Best play only where the length is proved shortest; otherwise the
          // proof's (or the book's) winning line.
          const char* label = vd.mate_exact == 1 ? "Best play: " : "Winning line (not proved best play): ";
          out += Wrap(label + TreeWriter(!*iccs).Write(pos, line), 76, "  ");
        }
        if (!vd.cooks.empty()) {
          std::string cooks;
          for (size_t i = 0; i < vd.cooks.size(); ++i) {
            const int check = i < vd.cooks_check.size() ? vd.cooks_check[i] : -1;
            // In the notation of the best play (--iccs: coordinates only).
            Move m;
            const bool human = have_pos && !*iccs && ParseCoordMove(pos, vd.cooks[i], &m).ok();
            std::string notes = human ? vd.cooks[i] : "";
            const char* checked = check == 1 ? "re-checked" : check == 0 ? "re-check incomplete" : nullptr;
            if (checked) notes += (notes.empty() ? "" : ", ") + std::string(checked);
            cooks += (cooks.empty() ? "" : "; ") + (human ? MoveToHuman(pos, m) : vd.cooks[i]) +
                     (notes.empty() ? "" : " (" + notes + ")");
          }
          out += "  Other winning first moves: " + cooks + "\n";
        } else if (vd.kind == VerdictKind::kConfirmed && vd.cooks_scope == 0) {
          out += "  Other first moves: not searched\n";
        }
        if (!vd.reason.empty()) out += Wrap(vd.reason, 76, "  ");
        for (const std::string& n : vd.book_notes) out += Wrap(n, 76, "  ");
      }
    };
    describe(r.verdict, "Verdict:  ");
    // Verdicts reached under other rule options (`verify --set`), each with its "Rules:" line.
    for (const Verdict& o : r.other_rules) describe(o, "Verdict under other rules:  ");
    out += "\nAlso in:";
    if (others.empty()) {
      out += "  no other collection in this store\n";
    } else {
      out += "\n";
      for (const Appearance& a : others)
        out += "  " + a.puzzle.collection + (a.puzzle.number > 0 ? " #" + std::to_string(a.puzzle.number) : "") +
               "  " + a.puzzle.title + "  (" + TransformName(a.relation) + ", " + ShortId(a.puzzle.id) + ")\n";
    }
    WriteOut(out);
  });
}

void RegisterDups(CLI::App* puzzles) {
  auto* cmd = puzzles->add_subcommand(
      "dups",
      "Compositions that appear in more than one collection, as printed or mirrored left-right (or with the colours "
      "swapped)");
  auto store_opt = std::make_shared<StoreOption>();
  auto filter_collection = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  store_opt->Add(cmd);
  cmd->add_option("--collection,-c", *filter_collection,
                  "Only compositions of this collection, compared with every other one, with a summary");
  cmd->add_flag("--json", *as_json,
                "One JSON object per composition per line: canonical, material, members [{id, collection, number, "
                "title, relation}]");
  cmd->callback([=] {
    auto store = store_opt->Open(/*read_only=*/true);
    std::vector<DuplicateGroup> groups;
    Check(store->Duplicates(*filter_collection, &groups));
    std::string out;
    if (*as_json) {
      for (const DuplicateGroup& g : groups) {
        json members = json::array();
        for (const Appearance& a : g.members)
          members.push_back({{"id", FormatPuzzleId(a.puzzle.id)},
                             {"collection", a.puzzle.collection},
                             {"number", a.puzzle.number},
                             {"title", a.puzzle.title},
                             {"fen", a.puzzle.fen},
                             {"relation", TransformName(a.relation)}});
        out += JsonLine({{"canonical", g.canonical}, {"material", g.members[0].puzzle.material}, {"members", members}});
      }
      WriteOut(out);
      return;
    }
    int coll_w = 0;
    for (const DuplicateGroup& g : groups)
      for (const Appearance& a : g.members) coll_w = std::max(coll_w, DisplayWidth(a.puzzle.collection));
    for (const DuplicateGroup& g : groups) {
      const PuzzleSummary& first = g.members[0].puzzle;
      out += first.fen + "   " + first.material + "\n";
      for (const Appearance& a : g.members) {
        char num[16];
        std::snprintf(num, sizeof num, "%5s", NumberText(a.puzzle.number).c_str());
        out += "  " + PadRight(a.puzzle.collection, coll_w) + " " + num + "  " +
               PadRight(a.puzzle.title, 20) + "  " + PadRight(TransformName(a.relation), 10) + "  " +
               ShortId(a.puzzle.id) + "\n";
      }
    }
    // The summary: how many compositions are shared, and with whom.
    if (!filter_collection->empty()) {
      std::vector<PuzzleSummary> mine;
      Check(store->List([&] { ListFilter f; f.collection = *filter_collection; return f; }(), &mine));
      std::set<std::string> distinct;
      for (const PuzzleSummary& s : mine) distinct.insert(s.canonical);
      std::map<std::string, std::map<std::string, int>> by_other;  // collection -> relation -> count
      for (const DuplicateGroup& g : groups)
        for (const Appearance& a : g.members)
          if (a.puzzle.collection != *filter_collection) ++by_other[a.puzzle.collection][TransformName(a.relation)];
      out += "\n" + *filter_collection + ": " + std::to_string(mine.size()) + " puzzles, " +
             std::to_string(distinct.size()) + " distinct positions; " + std::to_string(groups.size()) +
             " also appear elsewhere, " + std::to_string(distinct.size() - std::min(distinct.size(), groups.size())) +
             " only here\n";
      for (const auto& [other, rels] : by_other) {
        int total = 0;
        std::string detail;
        for (const auto& [rel, n] : rels) {
          total += n;
          detail += (detail.empty() ? "" : ", ") + std::to_string(n) + " " + rel;
        }
        out += "  in " + other + ": " + std::to_string(total) + " (" + detail + ")\n";
      }
    } else {
      out += std::to_string(groups.size()) + (groups.size() == 1 ? " composition appears" : " compositions appear") +
             " in more than one collection\n";
    }
    WriteOut(out);
  });
}

void RegisterCollections(CLI::App* puzzles) {
  auto* cmd = puzzles->add_subcommand("collections", "The collections in the store, with their puzzle counts");
  auto store_opt = std::make_shared<StoreOption>();
  auto as_json = std::make_shared<bool>(false);
  store_opt->Add(cmd);
  cmd->add_flag("--json", *as_json, "One JSON object per collection per line: collection, puzzles");
  cmd->callback([=] {
    auto store = store_opt->Open(/*read_only=*/true);
    std::vector<std::pair<std::string, uint64_t>> cols;
    Check(store->Collections(&cols));
    std::string out;
    uint64_t total = 0;
    int w = 0;
    for (const auto& [name, n] : cols) w = std::max(w, DisplayWidth(name));
    for (const auto& [name, n] : cols) {
      total += n;
      if (*as_json) out += JsonLine({{"collection", name}, {"puzzles", n}});
      else out += PadRight(name, w) + "  " + std::to_string(n) + "\n";
    }
    if (!*as_json) out += std::to_string(cols.size()) + " collections, " + std::to_string(total) + " puzzles\n";
    WriteOut(out);
  });
}

void RegisterCheck(CLI::App* puzzles) {
  auto* cmd = puzzles->add_subcommand(
      "check", "Audit the store: every record decodes and is indexed exactly once; --repair rebuilds the indexes");
  auto store_opt = std::make_shared<StoreOption>();
  auto repair = std::make_shared<bool>(false);
  store_opt->Add(cmd);
  cmd->add_flag("--repair", *repair, "Rebuild every index from the records (needs write access)");
  cmd->callback([=] {
    if (*repair) {
      auto store = store_opt->Open(/*read_only=*/false);
      Check(store->Reindex());
    }
    auto store = store_opt->Open(/*read_only=*/true);
    std::vector<std::string> problems;
    Check(store->Check(&problems));
    for (const std::string& p : problems) std::printf("%s\n", p.c_str());
    std::printf("%llu puzzles, %zu problems\n", static_cast<unsigned long long>(store->Count()), problems.size());
    if (!problems.empty()) throw CommandError{"the store needs `canju puzzles check --repair`", 1};
  });
}

// ---------------------------------------------------------------------------
// canju export

void RegisterExport(CLI::App& app) {
  auto* cmd = app.add_subcommand("export", "Write puzzles from the store as PGN or as a FEN list");
  auto store_opt = std::make_shared<StoreOption>();
  auto filter_collection = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>();
  auto moves = std::make_shared<std::string>("iccs");
  auto out_path = std::make_shared<std::string>();
  store_opt->Add(cmd);
  cmd->add_option("--collection,-c", *filter_collection, "Only this collection");
  cmd->add_option("--format,-f", *format, "pgn (move trees and comments) or fen (one line per puzzle, main line)")
      ->required()
      ->check(CLI::IsMember({"pgn", "fen"}));
  cmd->add_option("--moves", *moves, "PGN move notation")
      ->check(CLI::IsMember({"iccs", "chinese", "wxf"}))
      ->capture_default_str();
  cmd->add_option("out", *out_path, "Output file, or - for stdout")->required();
  cmd->callback([=] {
    auto store = store_opt->Open(/*read_only=*/true);
    std::vector<Record> records;
    Check(store->ForEachRecord(*filter_collection, [&](PuzzleId, const Record& r) {
      records.push_back(r);
      return true;
    }));
    if (records.empty() && !filter_collection->empty())
      throw CommandError{"no puzzles in collection '" + *filter_collection + "' (see `canju puzzles collections`)", 2};
    std::string text;
    if (*format == "pgn") {
      PgnMoveStyle style = *moves == "chinese" ? PgnMoveStyle::kChinese
                           : *moves == "wxf"   ? PgnMoveStyle::kWxf
                                               : PgnMoveStyle::kIccs;
      Check(WritePgn(records, style, &text));
    } else {
      Check(WriteFenList(records, &text));
    }
    if (*out_path == "-") {
      WriteOut(text);
      return;
    }
    // Written beside the target and renamed: a failed export leaves no half file.
    std::string tmp = *out_path + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      f.write(text.data(), static_cast<std::streamsize>(text.size()));
      f.close();
      if (!f) {
        std::filesystem::remove(tmp);
        throw CommandError{"cannot write " + tmp + ": " + std::strerror(errno), 1};
      }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, *out_path, ec);
    if (ec) throw CommandError{"cannot write " + *out_path + ": " + ec.message(), 1};
    std::fprintf(stderr, "%zu puzzles written to %s\n", records.size(), out_path->c_str());
  });
}

}  // namespace

void RegisterPuzzleCommands(CLI::App& app) {
  RegisterImport(app);
  auto* puzzles = app.add_subcommand("puzzles", "Browse the puzzle store: list, show, dups, collections, check");
  puzzles->require_subcommand(1);
  RegisterList(puzzles);
  RegisterShowPuzzle(puzzles);
  RegisterDups(puzzles);
  RegisterCollections(puzzles);
  RegisterCheck(puzzles);
  RegisterExport(app);
}

}  // namespace canju::cli

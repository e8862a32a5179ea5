// PGN (xqbase convention) and the tagged FEN blocks of shiqingyaqu551.fen,
// which are PGN tag sections without moves.
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/readers.h"
#include "importer/text.h"
#include "variants/notation.h"

namespace canju::importer {
namespace {

bool IsSpaceAt(const std::string& t, size_t i, size_t* len) {
  unsigned char c = static_cast<unsigned char>(t[i]);
  if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') return *len = 1, true;
  if (t.compare(i, 3, "\xE3\x80\x80") == 0) return *len = 3, true;  // U+3000 ideographic space
  return false;
}

bool LooksLikeIccs(const std::string& m) {
  std::string t;
  for (char c : m)
    if (c != '-') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && std::isdigit(static_cast<unsigned char>(t[1])) &&
         t[2] >= 'a' && t[2] <= 'i' && std::isdigit(static_cast<unsigned char>(t[3]));
}

Status ResolvePgnMove(const Position& pos, const RawNode& node, Move* out) {
  if (node.from >= 0 || LooksLikeIccs(node.text)) return ResolveCoordinates(pos, node, out);
  return ParseAnyMove(pos, node.text, out);
}

// One game being read.
struct PgnGame {
  int first_line = 0;
  std::vector<std::pair<std::string, std::string>> tags;  // as written
  RawTree tree;
  bool has_moves = false;
  std::string result_token;
};

class PgnParser {
 public:
  PgnParser(const std::string& name, const std::string& text, ReadResult* out) : name_(name), t_(text), out_(out) {}

  std::vector<PgnGame> Parse() {
    StartGame();
    while (i_ < t_.size()) {
      size_t len;
      if (IsSpaceAt(t_, i_, &len)) {
        if (t_[i_] == '\n') ++line_;
        i_ += len;
        continue;
      }
      char c = t_[i_];
      if (c == '[') {
        ReadTag();
      } else if (c == '{') {
        ReadBraceComment();
      } else if (c == ';') {
        // A rest-of-line comment may hold a '}', which a braced comment (what
        // the writer makes) cannot: it is read as the full-width form the
        // writer would give it, so that a file read, written and read again
        // keeps its comments.
        size_t nl = t_.find('\n', i_);
        std::string c = text::Trim(t_.substr(i_ + 1, (nl == std::string::npos ? t_.size() : nl) - i_ - 1));
        for (size_t k = c.find('}'); k != std::string::npos; k = c.find('}', k + 3)) c.replace(k, 1, "\xEF\xBD\x9D");
        AddComment(c);
        i_ = nl == std::string::npos ? t_.size() : nl;
      } else if (c == '(') {
        ++i_;
        OpenVariation();
      } else if (c == ')') {
        ++i_;
        CloseVariation();
      } else {
        ReadWord();
      }
    }
    FinishCurrent();
    return std::move(games_);
  }

 private:
  struct Frame {
    int parent;  // where the next move attaches
    int last;    // the last move read at this level (-1: none yet)
  };

  void StartGame() {
    FinishCurrent();
    games_.emplace_back();
    games_.back().first_line = line_;
    stack_.assign(1, Frame{RawTree::kRoot, -1});
    pending_comment_.clear();
    tag_names_.clear();
    in_movetext_ = false;
    ended_ = false;
  }

  void FinishCurrent() {
    if (games_.empty()) return;
    if (stack_.size() > 1)
      AddIssue(out_, name_, Where(), std::to_string(stack_.size() - 1) + " variation(s) not closed with ')'");
    if (!pending_comment_.empty()) {
      // A comment with no move after it belongs to the last move read.
      Frame& f = stack_.back();
      int at = f.last >= 0 ? f.last : f.parent;
      AppendComment(&game().tree[at].comment, pending_comment_);
      pending_comment_.clear();
    }
    stack_.assign(1, Frame{RawTree::kRoot, -1});
  }

  PgnGame& game() { return games_.back(); }
  std::string Where() const {
    return "game " + std::to_string(games_.size()) + ", line " + std::to_string(line_);
  }

  static void AppendComment(std::string* to, const std::string& c) {
    if (c.empty()) return;
    if (!to->empty()) *to += "\n";
    *to += c;
  }

  void ReadTag() {
    size_t end = i_ + 1;
    bool quoted = false;
    for (; end < t_.size(); ++end) {
      if (quoted && t_[end] == '\\' && end + 1 < t_.size()) {
        ++end;
        continue;
      }
      if (t_[end] == '"') quoted = !quoted;
      if (!quoted && t_[end] == ']') break;
      if (t_[end] == '\n' && !quoted) break;
    }
    std::string body = t_.substr(i_ + 1, end - i_ - 1);
    i_ = end < t_.size() && t_[end] == ']' ? end + 1 : end;
    size_t sp = 0;
    while (sp < body.size() && !std::isspace(static_cast<unsigned char>(body[sp])) && body[sp] != '"') ++sp;
    std::string key = body.substr(0, sp);
    std::string value = text::Trim(body.substr(sp));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      std::string v;
      for (size_t k = 1; k + 1 < value.size(); ++k) {
        if (value[k] == '\\' && k + 2 < value.size()) ++k;
        v += value[k];
      }
      value = v;
    } else {
      AddIssue(out_, name_, Where(), "tag '" + text::Prefix(text::Trim(body), 40) + "' has no quoted value");
    }
    if (key.empty()) {
      AddIssue(out_, name_, Where(), "tag without a name ignored");
      return;
    }
    // A tag after moves, or one the game already has, starts the next game
    // (tag-only games such as FEN blocks have no movetext in between).
    if (in_movetext_ || tag_names_.count(text::AsciiLower(key))) StartGame();
    tag_names_.insert(text::AsciiLower(key));
    game().tags.emplace_back(key, value);
  }

  void ReadBraceComment() {
    size_t end = t_.find('}', i_ + 1);
    std::string body = t_.substr(i_ + 1, (end == std::string::npos ? t_.size() : end) - i_ - 1);
    for (char ch : body)
      if (ch == '\n') ++line_;
    if (end == std::string::npos) AddIssue(out_, name_, Where(), "comment not closed with '}'");
    i_ = end == std::string::npos ? t_.size() : end + 1;
    AddComment(text::Trim(body));
  }

  void AddComment(const std::string& c) {
    if (c.empty()) return;
    Frame& f = stack_.back();
    if (f.last >= 0) {
      AppendComment(&game().tree[f.last].comment, c);
    } else if (stack_.size() == 1) {
      AppendComment(&game().tree[RawTree::kRoot].comment, c);
    } else {
      AppendComment(&pending_comment_, c);  // at the start of a variation: goes with its first move
    }
  }

  void OpenVariation() {
    in_movetext_ = true;
    Frame& f = stack_.back();
    if (f.last < 0) {
      AddIssue(out_, name_, Where(), "variation '(' before any move ignored");
      stack_.push_back(f);
      return;
    }
    if (stack_.size() > static_cast<size_t>(kMaxPlies)) {
      AddIssue(out_, name_, Where(), "variations nested too deeply");
    }
    // The variation replaces the last move: it hangs from that move's parent.
    stack_.push_back(Frame{f.parent, -1});
  }

  void CloseVariation() {
    if (stack_.size() <= 1) {
      AddIssue(out_, name_, Where(), "')' without a variation ignored");
      return;
    }
    stack_.pop_back();
  }

  void ReadWord() {
    size_t start = i_;
    size_t len;
    while (i_ < t_.size() && !IsSpaceAt(t_, i_, &len) && t_[i_] != '{' && t_[i_] != '(' && t_[i_] != ')' &&
           t_[i_] != '[' && t_[i_] != ';')
      ++i_;
    std::string w = t_.substr(start, i_ - start);
    if (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*" || w == "½-½") {
      game().result_token = w;
      if (stack_.size() == 1) ended_ = true;
      return;
    }
    if (w[0] == '$') return;  // NAG
    // Move numbers: "12." "12..." "12.炮二平五"
    size_t k = 0;
    while (k < w.size() && std::isdigit(static_cast<unsigned char>(w[k]))) ++k;
    if (k > 0 && k < w.size() && w[k] == '.') {
      // Numbered movetext after a game's result, with no tags in between,
      // is the next game (from the opening position unless it says else).
      if (ended_ && stack_.size() == 1) StartGame();
      while (k < w.size() && w[k] == '.') ++k;
      w = w.substr(k);
    } else if (k == w.size()) {
      return;  // a bare number
    }
    while (!w.empty() && (w.back() == '!' || w.back() == '?')) w.pop_back();
    if (w.empty() || w == "..") return;
    in_movetext_ = true;
    if (ended_) {
      AddIssue(out_, name_, Where(), "text after the result ignored: '" + text::Prefix(w, 40) + "'");
      return;
    }
    Frame& f = stack_.back();
    int parent = f.last >= 0 ? f.last : f.parent;
    RawNode n;
    n.text = w;
    if (!pending_comment_.empty()) {
      n.comment = pending_comment_;
      pending_comment_.clear();
    }
    int idx = game().tree.Add(parent, std::move(n));
    if (f.last >= 0) f.parent = f.last;
    f.last = idx;
    game().has_moves = true;
  }

  const std::string& name_;
  const std::string& t_;
  ReadResult* out_;
  size_t i_ = 0;
  int line_ = 1;
  bool in_movetext_ = false;
  bool ended_ = false;
  std::vector<Frame> stack_;
  std::string pending_comment_;
  std::set<std::string> tag_names_;  // of the current game, lower case
  std::vector<PgnGame> games_;
};

// Maps tags to the record: Event may hold "collection 第N局 title".
void ApplyTags(const PgnGame& g, GameDraft* d) {
  Record& rec = d->record;
  std::string event, title, red, black, round, fen, result, claim, collection, number;
  for (const auto& [key, value] : g.tags) {
    std::string k = text::AsciiLower(key);
    if (k == "fen") {
      fen = value;
    } else if (k == "event") {
      event = value;
    } else if (k == "title") {
      title = value;
    } else if (k == "collection") {
      collection = value;
    } else if (k == "number") {
      number = value;
    } else if (k == "round") {
      round = value;
      rec.tags["round"] = value;
    } else if (k == "author" || k == "annotator") {
      if (rec.author.empty()) rec.author = value;
      if (k == "annotator") rec.tags["annotator"] = value;
    } else if (k == "result") {
      result = value;
    } else if (k == "claim") {
      claim = value;
    } else if (k == "game" || k == "format" || k == "source") {
      if (k == "source") rec.tags["original_source"] = value;
    } else {
      if (k == "red") red = value;
      if (k == "black") black = value;
      rec.tags[k] = value;
    }
  }
  if (!event.empty()) rec.tags["event"] = event;
  // "适情雅趣_李浭551局新版 *第002局 马蹀阏氏": collection, number, title.
  std::string before, after;
  int event_number = meta::SplitAtNumber(event, &before, &after);
  std::string event_title;
  if (event_number > 0) {
    before = text::Trim(before);
    if (!before.empty() && before.back() == '*') {  // a mark the editor put before the number
      before.pop_back();
      rec.tags["mark"] = "*";
    }
    event = text::Trim(before);
    event_title = text::Trim(after);
  }
  rec.collection = !collection.empty() ? collection : event;
  if (!number.empty() && std::isdigit(static_cast<unsigned char>(number[0]))) {
    rec.number = std::atoi(number.c_str());
  } else if (event_number > 0) {
    rec.number = event_number;
  } else if (!round.empty() && std::isdigit(static_cast<unsigned char>(round[0]))) {
    rec.number = std::atoi(round.c_str());
  }
  std::string raw_title = !title.empty()         ? title
                          : !event_title.empty() ? event_title
                          : (!red.empty() || !black.empty()) ? red + " - " + black
                                                             : "";
  int title_number = meta::NumberFromTitle(raw_title);
  if (rec.number == 0 && title_number > 0) rec.number = title_number;
  std::string series;
  rec.title = meta::CleanTitle(raw_title, &series);
  if (!series.empty()) rec.tags["series"] = series;
  if (rec.title != raw_title && !raw_title.empty()) rec.tags["original_title"] = raw_title;

  if (!claim.empty()) {
    meta::ClaimHint h;
    if (ParseClaim(text::AsciiLower(claim), &h.claim)) {
      h.mover_view = true;
      h.origin = "Claim tag";
      d->claims.push_back(h);
    }
  }
  d->claims.push_back(meta::ClaimFromText(raw_title));
  if (!result.empty()) d->claims.push_back(meta::ClaimFromPgnResult(result));
  if (!fen.empty()) d->fen = fen;
  else d->placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
}

Status ReadTagGames(const std::string& name, std::string_view data, ReadResult* out, bool tagged_fen) {
  const std::string content = DecodeFileText(name, data, out);
  PgnParser parser(name, content, out);
  std::vector<PgnGame> games = parser.Parse();
  // Drop empty shells (text before the first tag, trailing blank games).
  std::vector<PgnGame> real;
  for (PgnGame& g : games)
    if (!g.tags.empty() || g.has_moves) real.push_back(std::move(g));
  if (real.empty()) {
    AddIssue(out, name, "", tagged_fen ? "no [FEN] block found" : "no PGN game found", true);
    return Status::Corruption(name + (tagged_fen ? ": no [FEN] block found" : ": no PGN game found"));
  }
  const bool several = real.size() > 1;
  int n = 0;
  std::string last_collection;
  for (PgnGame& g : real) {
    ++n;
    GameDraft d;
    d.where = several ? "game " + std::to_string(n) : "";
    d.tree = std::move(g.tree);
    ApplyTags(g, &d);
    // An Event without 第N局 that starts with the previous game's collection
    // ("适情雅趣_李浭551局新版 *原_227局_舍生取义_补图复原"): same collection,
    // the rest is the title.
    Record& rec = d.record;
    if (!last_collection.empty() && rec.number == 0 && rec.collection.size() > last_collection.size() &&
        rec.collection.compare(0, last_collection.size(), last_collection) == 0 &&
        rec.collection[last_collection.size()] == ' ') {
      std::string rest = text::Trim(rec.collection.substr(last_collection.size()));
      if (!rest.empty() && rest[0] == '*') {
        rec.tags["mark"] = "*";
        rest = text::Trim(rest.substr(1));
      }
      rec.collection = last_collection;
      if (rec.title.empty()) {
        rec.title = meta::CleanTitle(rest);
        if (rec.title != rest) rec.tags["original_title"] = rest;
      }
    }
    last_collection = rec.collection;
    if (d.record.collection.empty()) {
      d.record.collection = several ? meta::FileStem(name) : meta::CollectionFromPath(name);
      if (d.record.collection.empty()) d.record.collection = meta::FileStem(name);
    }
    d.record.source = several ? name + "#" + std::to_string(n) : name;
    if (tagged_fen && d.fen.empty()) {
      AddIssue(out, name, JoinWhere(d.where, "line " + std::to_string(g.first_line)), "block without a FEN tag skipped",
               true);
      continue;
    }
    FinishGame(std::move(d), name, out, ResolvePgnMove);
  }
  return Status::OK();
}

}  // namespace

Status ReadPgn(const std::string& name, std::string_view data, ReadResult* out) {
  return ReadTagGames(name, data, out, false);
}

Status ReadTaggedFen(const std::string& name, std::string_view data, ReadResult* out) {
  return ReadTagGames(name, data, out, true);
}

}  // namespace canju::importer

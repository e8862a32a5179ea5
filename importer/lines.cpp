// Line-oriented formats: line lists (`title|FEN|ICCS,moves`, *.eglib) and
// FEN/EPD lists (one position per line, EPD operations after it).
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/readers.h"
#include "importer/text.h"

namespace canju::importer {
namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == text.size()) break;
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    parts.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

// Moves written as "h2e2,h9g7" or "h2e2 h9g7" or "H2-E2 H9-G7".
std::vector<std::string> SplitMoves(std::string_view s) {
  std::vector<std::string> moves;
  std::string cur;
  for (char c : s) {
    if (c == ',' || c == ' ' || c == '\t' || c == ';') {
      if (!cur.empty()) moves.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) moves.push_back(cur);
  return moves;
}

std::string NormalizeMoveText(const std::string& m) {
  std::string t;
  for (char c : m)
    if (c != '-') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

// Adds a line of moves under the root, sharing the prefix it has in common
// with lines already added (`index`: (parent, normalised move) -> child).
// Returns true when the whole line was already there.
using ChildIndex = std::map<std::pair<int, std::string>, int>;
bool AddLine(RawTree* tree, ChildIndex* index, const std::vector<std::string>& moves) {
  int at = RawTree::kRoot;
  bool existed = true;
  for (const std::string& m : moves) {
    auto [it, inserted] = index->emplace(std::make_pair(at, NormalizeMoveText(m)), -1);
    if (inserted) {
      RawNode n;
      n.text = m;
      it->second = tree->Add(at, std::move(n));
      existed = false;
    }
    at = it->second;
  }
  return existed && !moves.empty();
}

void SetTitleAndNumber(const std::string& raw_title, Record* rec, std::vector<meta::ClaimHint>* claims) {
  std::string title = text::Trim(raw_title);
  int number = meta::NumberFromTitle(title);
  if (number > 0) rec->number = number;
  std::string word;
  meta::ClaimHint hint = meta::ClaimFromText(title, &word);
  if (hint.known()) claims->push_back(hint);
  std::string series;
  rec->title = meta::CleanTitle(title, &series);
  if (!series.empty()) rec->tags["series"] = series;
  if (rec->title != title && !title.empty()) rec->tags["original_title"] = title;
}

}  // namespace

std::string DecodeFileText(const std::string& name, std::string_view data, ReadResult* out) {
  int bad = 0;
  text::Encoding enc;
  std::string t = text::DecodeText(data, &enc, &bad);
  if (bad > 0)
    AddIssue(out, name, "", std::to_string(bad) + " byte sequence(s) are not valid " + text::EncodingName(enc) +
                                "; replaced by U+FFFD");
  return t;
}

Status ReadLineList(const std::string& name, std::string_view data, ReadResult* out) {
  const std::string content = DecodeFileText(name, data, out);
  const std::vector<std::string_view> lines = SplitLines(content);
  const std::string collection = meta::FileStem(name);
  const size_t records_before = out->records.size();

  struct Group {
    std::string title, fen;
    int first_line = 0;
    GameDraft draft;
    std::map<std::string, int> seen;  // normalised line -> line number
    ChildIndex children;
  };
  std::vector<Group> groups;
  int lines_read = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    std::string line = text::Trim(lines[i]);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = Split(line, '|');
    if (f.size() < 2) {
      AddIssue(out, name, "line " + std::to_string(line_no), "expected title|FEN|moves, found no '|'");
      continue;
    }
    if (f.size() > 3)
      AddIssue(out, name, "line " + std::to_string(line_no),
               std::to_string(f.size() - 3) + " field(s) after the moves ignored");
    ++lines_read;
    std::string title = text::Trim(f[0]), fen = text::Trim(f[1]);
    std::vector<std::string> moves = f.size() > 2 ? SplitMoves(f[2]) : std::vector<std::string>{};
    if (groups.empty() || groups.back().title != title || groups.back().fen != fen) {
      groups.emplace_back();
      Group& g = groups.back();
      g.title = title;
      g.fen = fen;
      g.first_line = line_no;
      g.draft.where = "line " + std::to_string(line_no);
      g.draft.fen = fen;
      g.draft.record.collection = collection;
      g.draft.record.tags["line"] = std::to_string(line_no);
      SetTitleAndNumber(title, &g.draft.record, &g.draft.claims);
    }
    Group& g = groups.back();
    std::string key;
    for (const std::string& m : moves) key += NormalizeMoveText(m) + ",";
    auto [it, inserted] = g.seen.emplace(key, line_no);
    if (!inserted) {
      AddIssue(out, name, "line " + std::to_string(line_no),
               "duplicate: repeats line " + std::to_string(it->second) + " (same title, position and moves)");
      continue;
    }
    AddLine(&g.draft.tree, &g.children, moves);
  }
  const bool several = groups.size() > 1;
  int n = 0;
  for (Group& g : groups) {
    ++n;
    g.draft.record.source = several ? name + "#" + std::to_string(n) : name;
    FinishGame(std::move(g.draft), name, out);
  }
  if (out->records.size() == records_before && lines_read == 0) {
    AddIssue(out, name, "", "no title|FEN|moves line found", true);
    return Status::Corruption(name + ": no title|FEN|moves line found");
  }
  return Status::OK();
}

// --- FEN / EPD lists ---------------------------------------------------------

namespace {

bool LooksLikePlacement(const std::string& s) {
  if (s.find('/') == std::string::npos) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/') return false;
  return true;
}

bool IsSideToken(const std::string& s) { return s == "w" || s == "b" || s == "r" || s == "W" || s == "B" || s == "R"; }

bool IsNumber(const std::string& s) {
  if (s.empty() || s.size() > 5) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Splits "id \"a; b\"; c0 \"x\"" at semicolons outside quotes.
std::vector<std::string> SplitOperations(std::string_view s) {
  std::vector<std::string> ops;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted && c == '\\' && i + 1 < s.size()) {
      cur += c;
      cur += s[++i];
      continue;
    }
    if (c == '"') quoted = !quoted;
    if (c == ';' && !quoted) {
      if (!text::Trim(cur).empty()) ops.push_back(text::Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!text::Trim(cur).empty()) ops.push_back(text::Trim(cur));
  return ops;
}

std::string Unquote(const std::string& s) {
  std::string t = text::Trim(s);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < t.size(); ++i) {
      if (t[i] == '\\' && i + 2 < t.size()) {
        char e = t[++i];
        out += e == 'n' ? '\n' : e;
      } else {
        out += t[i];
      }
    }
    return out;
  }
  return t;
}

}  // namespace

Status ReadFenList(const std::string& name, std::string_view data, ReadResult* out) {
  const std::string content = DecodeFileText(name, data, out);
  const std::vector<std::string_view> lines = SplitLines(content);
  std::vector<GameDraft> drafts;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = "line " + std::to_string(i + 1);
    std::string line = text::Trim(lines[i]);
    if (line.empty() || line[0] == '#' || line[0] == '%') continue;
    // Fields: placement, side, then optional castling/en passant and counters.
    std::vector<std::string> tokens;
    size_t pos = 0;
    auto next_token = [&](std::string* tok) {
      while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
      size_t b = pos;
      while (pos < line.size() && !std::isspace(static_cast<unsigned char>(line[pos])) && line[pos] != ';') ++pos;
      *tok = line.substr(b, pos - b);
      return !tok->empty();
    };
    std::string placement, tok;
    if (!next_token(&placement) || !LooksLikePlacement(placement)) {
      AddIssue(out, name, where, "not a FEN: '" + text::Prefix(line, 60) + "'", true);
      continue;
    }
    GameDraft d;
    d.where = where;
    std::string fen = placement;
    size_t save = pos;
    if (next_token(&tok) && IsSideToken(tok)) {
      fen += " " + tok;
      // castling, en passant, half-move clock, move number: each optional.
      for (int field = 0; field < 4; ++field) {
        save = pos;
        if (!next_token(&tok)) break;
        bool ok = field < 2 ? tok == "-" : IsNumber(tok);
        if (!ok) {
          pos = save;
          break;
        }
        fen += " " + tok;
      }
    } else {
      pos = save;
      fen += " w";
    }
    d.fen = fen;
    d.infer_side = false;  // a FEN says who moves
    d.record.tags["line"] = std::to_string(i + 1);
    std::string rest = text::Trim(line.substr(std::min(pos, line.size())));
    if (!rest.empty() && rest[0] == ';') rest = text::Trim(rest.substr(1));
    static const char* kOps[] = {"id", "c0", "c1", "collection", "number", "claim", "author", "pv", "tag", "source",
                                 "bm", "am", "fmvn", "hmvc", "result"};
    std::string first_word = rest.substr(0, rest.find_first_of(" \t"));
    bool is_op = false;
    for (const char* op : kOps) is_op |= first_word == op;
    if (!rest.empty() && !is_op) {
      // Free text after the FEN: a title.
      SetTitleAndNumber(rest, &d.record, &d.claims);
    } else {
      for (const std::string& op : SplitOperations(rest)) {
        size_t sp = op.find_first_of(" \t");
        std::string code = op.substr(0, sp);
        std::string arg = sp == std::string::npos ? "" : Unquote(op.substr(sp + 1));
        if (code == "id") {
          SetTitleAndNumber(arg, &d.record, &d.claims);
        } else if (code == "c0") {
          d.tree[RawTree::kRoot].comment = arg;
        } else if (code == "collection") {
          d.record.collection = arg;
        } else if (code == "number") {
          d.record.number = IsNumber(arg) ? std::stoi(arg) : 0;
        } else if (code == "author") {
          d.record.author = arg;
        } else if (code == "claim") {
          meta::ClaimHint h;
          if (ParseClaim(arg, &h.claim)) {
            h.mover_view = true;
            h.origin = "claim operation";
            d.claims.insert(d.claims.begin(), h);
          } else {
            AddIssue(out, name, where, "unknown claim '" + arg + "' (expected win, draw, loss or unknown)");
          }
        } else if (code == "result") {
          d.claims.push_back(meta::ClaimFromPgnResult(arg));
        } else if (code == "pv") {
          ChildIndex index;
          AddLine(&d.tree, &index, SplitMoves(arg));
        } else if (code == "tag") {
          size_t eq = arg.find('=');
          if (eq != std::string::npos) d.record.tags[arg.substr(0, eq)] = arg.substr(eq + 1);
        } else if (code == "source") {
          d.record.tags["original_source"] = arg;
        } else {
          d.record.tags[code] = arg;
        }
      }
    }
    drafts.push_back(std::move(d));
  }
  if (drafts.empty()) {
    AddIssue(out, name, "", "no FEN line found", true);
    return Status::Corruption(name + ": no FEN line found");
  }
  const bool several = drafts.size() > 1;
  int n = 0;
  for (GameDraft& d : drafts) {
    ++n;
    if (d.record.collection.empty()) d.record.collection = meta::FileStem(name);
    d.record.source = several ? name + "#" + std::to_string(n) : name;
    FinishGame(std::move(d), name, out);
  }
  return Status::OK();
}

}  // namespace canju::importer

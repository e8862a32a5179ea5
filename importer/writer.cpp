// Writers: PGN (ICCS, WXF or Chinese moves; the whole tree and comments)
// and FEN lists (one line per record, EPD-like operations).
#include <cctype>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "importer/metadata.h"
#include "importer/text.h"
#include "variants/notation.h"
#include "variants/registry.h"

namespace canju {
namespace {

std::string QuoteTag(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

// Braces cannot be escaped inside a PGN comment: a closing brace becomes
// its full-width form.
std::string CommentText(const std::string& c) {
  std::string out;
  for (char ch : c) {
    if (ch == '}') {
      out += "\xEF\xBD\x9D";  // U+FF5D
    } else {
      out += ch;
    }
  }
  return out;
}

// " {comment}" (built by appending: GCC 12 warns falsely on "{" + string).
std::string Braced(const std::string& c, bool space) {
  std::string out = space ? " {" : "{";
  out += CommentText(c);
  out += '}';
  return out;
}

// Tags that WritePgn writes itself; the rest of rec.tags follow as they are.
bool GeneratedTag(const std::string& k) {
  return k == "fen" || k == "format" || k == "game" || k == "result" || k == "claim" || k == "title" ||
         k == "collection" || k == "number" || k == "author" || k == "source" || k == "event" || k == "claim_from";
}

std::string PgnTagName(const std::string& k) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"site", "Site"},           {"date", "Date"},   {"round", "Round"},   {"red", "Red"},
      {"black", "Black"},         {"redteam", "RedTeam"}, {"blackteam", "BlackTeam"}, {"ecco", "ECCO"},
      {"opening", "Opening"},     {"variation", "Variation"}, {"annotator", "Annotator"}};
  for (const auto& [lower, name] : kNames)
    if (k == lower) return name;
  std::string name;
  for (char c : k) name += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (name.empty()) return "Tag";
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

class MovetextWriter {
 public:
  MovetextWriter(PgnMoveStyle style, const std::string& source) : style_(style), source_(source) {}

  // The continuation `nodes` (nodes[0] main, the rest its alternatives).
  Status Line(Position& pos, const std::vector<MoveNode>& nodes, int ply, bool need_number) {
    if (nodes.empty()) return Status::OK();
    const MoveNode& main = nodes[0];
    Move m;
    if (Status st = Resolve(pos, main, ply, &m); !st.ok()) return st;
    WriteMove(pos, m, ply, need_number);
    if (!main.comment.empty()) out_ += Braced(main.comment, true);
    for (size_t i = 1; i < nodes.size(); ++i) {
      out_ += " (";
      Move alt;
      if (Status st = Resolve(pos, nodes[i], ply, &alt); !st.ok()) return st;
      WriteMove(pos, alt, ply, true);
      if (!nodes[i].comment.empty()) out_ += Braced(nodes[i].comment, true);
      StateInfo si;
      pos.DoMove(alt, &si);
      Status st = Line(pos, nodes[i].next, ply + 1, !nodes[i].comment.empty());
      pos.UndoMove(alt, si);
      if (!st.ok()) return st;
      out_ += ")";
    }
    StateInfo si;
    pos.DoMove(m, &si);
    Status st = Line(pos, main.next, ply + 1, nodes.size() > 1 || !main.comment.empty());
    pos.UndoMove(m, si);
    return st;
  }

  std::string& text() { return out_; }

 private:
  Status Resolve(const Position& pos, const MoveNode& n, int ply, Move* m) {
    Status st = ParseCoordMove(pos, n.move, m);
    if (!st.ok()) return st.WithContext(source_ + ": ply " + std::to_string(ply + 1));
    return Status::OK();
  }

  void WriteMove(const Position& pos, Move m, int ply, bool need_number) {
    const bool first_side = pos.side_to_move() == kFirst;
    const int number = (ply + (first_ply_black_ ? 1 : 0)) / 2 + 1;
    if (!out_.empty() && out_.back() != '(') out_ += ' ';
    if (first_side) {
      out_ += std::to_string(number) + ". ";
    } else if (need_number) {
      out_ += std::to_string(number) + "... ";
    }
    switch (style_) {
      case PgnMoveStyle::kIccs: {
        std::string c = MoveToCoord(pos.variant(), m);
        for (char& ch : c) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        out_ += c.size() == 4 ? c.substr(0, 2) + "-" + c.substr(2) : c;
        break;
      }
      case PgnMoveStyle::kWxf: out_ += MoveToWxf(pos, m); break;
      case PgnMoveStyle::kChinese: out_ += MoveToChinese(pos, m); break;
    }
  }

 public:
  bool first_ply_black_ = false;

 private:
  PgnMoveStyle style_;
  const std::string& source_;
  std::string out_;
};

}  // namespace

Status WritePgn(const std::vector<Record>& records, PgnMoveStyle style, std::string* out) {
  for (const Record& rec : records) {
    std::shared_ptr<const Variant> v;
    if (Status st = LoadVariant(rec.variant, &v); !st.ok()) return st.WithContext(rec.source);
    Position pos;
    if (Status st = Position::FromFen(*v, rec.fen, &pos); !st.ok())
      return st.WithContext(rec.source + ": start position");
    std::string& o = *out;
    // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "[" + string.
    // Each name once per game (a repeated tag starts the next game when the
    // file is read back); names that only the clean-up made equal get a
    // suffix.
    std::set<std::string> written;
    auto tag = [&o, &written](std::string name, const std::string& value) {
      const std::string base = name;
      for (int n = 2; !written.insert(text::AsciiLower(name)).second; ++n) name = base + "_" + std::to_string(n);
      o += '[';
      o += name;
      o += ' ';
      o += QuoteTag(value);
      o += "]\n";
    };
    tag("Game", "Chinese Chess");
    tag("Event", rec.tags.count("event") ? rec.tags.at("event") : rec.collection);
    tag("Collection", rec.collection);
    if (rec.number) tag("Number", std::to_string(rec.number));
    if (!rec.title.empty()) tag("Title", rec.title);
    if (!rec.author.empty()) tag("Author", rec.author);
    for (const auto& [k, val] : rec.tags)
      if (!GeneratedTag(k)) tag(PgnTagName(k), val);
    if (!rec.source.empty()) tag("Source", rec.source);
    tag("Result", meta::PgnResult(rec.claimed, pos.side_to_move()));
    tag("Claim", ClaimName(rec.claimed));
    tag("FEN", rec.fen);
    if (style == PgnMoveStyle::kIccs) tag("Format", "ICCS");
    if (style == PgnMoveStyle::kWxf) tag("Format", "WXF");
    o += "\n";
    MovetextWriter w(style, rec.source);
    w.first_ply_black_ = pos.side_to_move() == kSecond;
    if (!rec.comment.empty()) w.text() += Braced(rec.comment, false);
    if (Status st = w.Line(pos, rec.moves, 0, true); !st.ok()) return st;
    std::string movetext = w.text();
    if (!movetext.empty()) movetext += " ";
    movetext += meta::PgnResult(rec.claimed, pos.side_to_move());
    // Lines of at most about 80 bytes, broken at spaces outside comments.
    size_t col = 0;
    int depth = 0;
    for (size_t i = 0; i < movetext.size(); ++i) {
      char c = movetext[i];
      if (c == '{') ++depth;
      if (c == '}') --depth;
      if (c == ' ' && depth == 0 && col > 76 && i > 0 && movetext[i - 1] != '.' && movetext[i - 1] != '(') {
        o += '\n';
        col = 0;
        continue;
      }
      o += c;
      col = c == '\n' ? 0 : col + 1;
    }
    o += "\n\n";
  }
  return Status::OK();
}

namespace {

std::string QuoteOp(const std::string& v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

Status WriteFenList(const std::vector<Record>& records, std::string* out) {
  for (const Record& rec : records) {
    std::string line = rec.fen;
    std::vector<std::string> ops;
    if (!rec.title.empty()) ops.push_back("id " + QuoteOp(rec.title));
    if (!rec.collection.empty()) ops.push_back("collection " + QuoteOp(rec.collection));
    if (rec.number) ops.push_back("number " + std::to_string(rec.number));
    if (rec.claimed != Claim::kUnknown) ops.push_back(std::string("claim \"") + ClaimName(rec.claimed) + "\"");
    if (!rec.author.empty()) ops.push_back("author " + QuoteOp(rec.author));
    if (!rec.comment.empty()) ops.push_back("c0 " + QuoteOp(rec.comment));
    std::string pv;
    for (const std::vector<MoveNode>* n = &rec.moves; !n->empty(); n = &(*n)[0].next) pv += (pv.empty() ? "" : " ") + (*n)[0].move;
    if (!pv.empty()) ops.push_back("pv \"" + pv + "\"");
    for (const auto& [k, v] : rec.tags)
      if (k != "line" && k != "claim_from") ops.push_back("tag " + QuoteOp(k + "=" + v));
    for (size_t i = 0; i < ops.size(); ++i) line += (i ? "; " : " ") + ops[i];
    *out += line + "\n";
  }
  return Status::OK();
}

}  // namespace canju

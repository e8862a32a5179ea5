// Move notation: WXF and Chinese for Xiangqi-style variants, SAN for
// chess-style ones. Conventions (tandem pieces, three or more pawns on a file,
// pawns doubled on two files) are documented in docs/variants/xiangqi.md.
//
// Both Xiangqi notations describe a move by the same facts: the piece kind,
// which piece of that kind (its file, or its place among the pieces of its
// kind on that file), the direction and a number. Input is read into those
// facts and matched against the facts of every legal move; output writes the
// facts and is checked by reading it back, so that what we write is always
// what we read.
#include "variants/notation.h"

#include <unicode/utf8.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace canju {
namespace {

// ---------------------------------------------------------------------------
// Facts about a move in Xiangqi terms.

struct Facts {
  int kind = -1;
  int file_no = 0;     // origin file, counted 1.. from the mover's right
  int count = 0;       // pieces of this kind and colour on the origin file
  int index = 0;       // 0 = the foremost of them
  int tandem_files = 0;  // files holding two or more pieces of this kind and colour
  char dir = '.';      // '+' forward, '-' backward, '.' sideways
  int number = 0;      // steps (straight vertical move) or destination file number
};

int FileNumber(const Variant& v, Color c, int file) { return c == kFirst ? v.files() - file : file + 1; }

// How far forward a rank is for colour c (larger = nearer the enemy).
int Forwardness(const Variant& v, Color c, int rank) { return c == kFirst ? rank : v.ranks() - 1 - rank; }

int TandemFiles(const Position& pos, Color c, int kind) {
  const Variant& v = pos.variant();
  int files = 0;
  for (int f = 0; f < v.files(); ++f) {
    int n = 0;
    for (int r = 0; r < v.ranks(); ++r)
      if (pos.piece_on(MakeSquare(f, r)) == MakePiece(c, kind)) ++n;
    if (n >= 2) ++files;
  }
  return files;
}

Facts FactsOf(const Position& pos, Move m) {
  const Variant& v = pos.variant();
  const Color us = pos.side_to_move();
  Facts f;
  const Piece p = pos.piece_on(m.from());
  f.kind = KindOf(p);
  const int file = FileOf(m.from()), rank = RankOf(m.from());
  f.file_no = FileNumber(v, us, file);
  for (int r = 0; r < v.ranks(); ++r) {
    if (pos.piece_on(MakeSquare(file, r)) != p) continue;
    ++f.count;
    if (Forwardness(v, us, r) > Forwardness(v, us, rank)) ++f.index;
  }
  f.tandem_files = TandemFiles(pos, us, f.kind);
  const int df = FileOf(m.to()) - file;
  const int forward = Forwardness(v, us, RankOf(m.to())) - Forwardness(v, us, rank);
  f.dir = forward > 0 ? '+' : forward < 0 ? '-' : '.';
  f.number = (df == 0) ? std::abs(forward) : FileNumber(v, us, FileOf(m.to()));
  return f;
}

// Advisors and elephants: two on one file are told apart by the direction
// alone, so the rules write them like single pieces (仕六进五, 相七退五).
// In definition terms: a kind that only moves diagonally and is confined to a
// region.
bool DirectionDisambiguates(const Variant& v, int kind) {
  const PieceKind& k = v.kind(kind);
  bool confined = k.region >= 0;
  for (const Atom& a : k.atoms) {
    if (!a.to_region.empty() && !a.to_negated) confined = true;
    for (Step s : a.steps)
      if (s.dx == 0 || s.dy == 0) return false;
  }
  return confined;
}

// ---------------------------------------------------------------------------
// What a Xiangqi-notation text says, before it is matched to a move.

enum class Ordinal : uint8_t {
  kNone,
  kFront,      // the k-th from the front (k = 0: 前, 一; "++")
  kRear,       // the k-th from the rear (k = 0: 后; "--")
  kMiddle,     // 中; WXF "33" and the file form with 3 or 5 pieces
  kWxfPlus,    // WXF '+': the front one of 2-3, the second of 4-5
  kWxfMinus,   // WXF '-': the rear one of 2-3, the second last of 4-5
};

struct Description {
  int kind = -1;          // -1: name dropped (tandem pawns on two files, "++")
  int file_no = -1;       // -1: not given
  Ordinal ordinal = Ordinal::kNone;
  int ordinal_k = 0;
  char dir = 0;
  int number = 0;
};

int OrdinalIndex(Ordinal o, int k, int n) {
  switch (o) {
    case Ordinal::kFront: return k < n ? k : -1;
    case Ordinal::kRear: return k < n ? n - 1 - k : -1;
    case Ordinal::kMiddle: return (n % 2 == 1 && n >= 3) ? n / 2 : -1;
    case Ordinal::kWxfPlus: return n <= 3 ? 0 : 1;
    case Ordinal::kWxfMinus: return n <= 3 ? n - 1 : n - 2;
    default: return -1;
  }
}

bool Matches(const Position& pos, const Description& d, Move m) {
  if (m.type() == MoveType::kDrop || m.type() == MoveType::kSpecial) return false;
  const Facts f = FactsOf(pos, m);
  if (f.dir != d.dir || f.number != d.number) return false;
  if (d.kind >= 0 && f.kind != d.kind) return false;
  if (d.ordinal == Ordinal::kNone) {
    if (d.kind < 0 || f.file_no != d.file_no) return false;
    // The file form of a piece that has company on its file: the middle one
    // of three or five (WXF); advisors and elephants are told by direction.
    if (f.count >= 2 && !DirectionDisambiguates(pos.variant(), f.kind) && f.count % 2 == 1)
      return f.index == f.count / 2;
    return true;
  }
  if (f.count < 2) return false;
  if (d.kind < 0) {
    // Name dropped: with a file, the kind must be doubled on two files or
    // more; without one ("++", "--"), four or five on the file.
    if (d.file_no >= 0 ? f.tandem_files < 2 : f.count < 4) return false;
  } else if (d.file_no < 0 && f.tandem_files != 1) {
    return false;
  }
  if (d.file_no >= 0 && f.file_no != d.file_no) return false;
  return OrdinalIndex(d.ordinal, d.ordinal_k, f.count) == f.index;
}

std::string Quote(const std::string& text) { return "'" + text + "'"; }

std::string SideName(const Variant& v, Color c) {
  std::string s = v.color_name(c);
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// Matches a description against the legal moves and explains a failure.
Status Resolve(const Position& pos, const Description& d, const std::string& text, Move* out) {
  const Variant& v = pos.variant();
  const Color us = pos.side_to_move();
  MoveList legal;
  pos.GenerateLegal(&legal);
  std::vector<Move> found;
  for (Move m : legal)
    if (Matches(pos, d, m)) found.push_back(m);
  if (found.size() == 1) {
    *out = found[0];
    return Status::OK();
  }
  if (found.size() > 1) {
    std::string list;
    for (Move m : found) list += (list.empty() ? "" : ", ") + MoveToCoord(v, m);
    return Status::InvalidArgument(Quote(text) + " is ambiguous: it fits " + list);
  }
  // Nothing fits: say why.
  if (d.kind >= 0 && pos.count(us, d.kind) == 0)
    return Status::InvalidArgument(Quote(text) + ": " + SideName(v, us) + " has no " + v.kind(d.kind).name);
  if (d.kind >= 0 && d.ordinal == Ordinal::kNone) {
    bool on_file = false;
    for (int r = 0; r < v.ranks(); ++r) {
      int sq = MakeSquare(us == kFirst ? v.files() - d.file_no : d.file_no - 1, r);
      if (d.file_no >= 1 && d.file_no <= v.files() && pos.piece_on(sq) == MakePiece(us, d.kind)) on_file = true;
    }
    if (!on_file)
      return Status::InvalidArgument(Quote(text) + ": no such piece on that file (" + SideName(v, us) + " has no " +
                                     v.kind(d.kind).name + " on file " + std::to_string(d.file_no) + ")");
  }
  if (d.kind >= 0 && d.ordinal != Ordinal::kNone && d.file_no < 0) {
    int tandem = TandemFiles(pos, us, d.kind);
    if (tandem == 0)
      return Status::InvalidArgument(Quote(text) + ": no such piece (" + SideName(v, us) + " has no two " +
                                     v.kind(d.kind).name + "s on one file)");
    if (tandem > 1)
      return Status::InvalidArgument(Quote(text) + " is ambiguous: " + SideName(v, us) + " has " +
                                     v.kind(d.kind).name + "s doubled on " + std::to_string(tandem) +
                                     " files; name the file (e.g. 前七 / 7+)");
  }
  MoveList pseudo;
  pos.GeneratePseudoLegal(&pseudo);
  for (Move m : pseudo)
    if (Matches(pos, d, m))
      return Status::InvalidArgument(Quote(text) + " is illegal: it would leave the " +
                                     (v.royal_kind() >= 0 ? v.kind(v.royal_kind()).name : std::string("king")) +
                                     " in check");
  return Status::InvalidArgument(Quote(text) + " is not a legal move (no such piece can move that way) in " +
                                 pos.Fen(false));
}

// Output is read back; a position no notation can describe (six rooks on a
// file...) falls back to coordinates.
std::string Checked(const Position& pos, Move m, const std::string& text,
                    Status (*parse)(const Position&, const std::string&, Move*)) {
  Move back;
  if (parse(pos, text, &back).ok() && back == m) return text;
  return MoveToCoord(pos.variant(), m);
}

// ---------------------------------------------------------------------------
// UTF-8 helpers.

std::vector<UChar32> CodePoints(const std::string& s, bool* ok) {
  std::vector<UChar32> out;
  *ok = true;
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(s.size());
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
  while (i < n) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      *ok = false;
      c = 0xFFFD;
    }
    out.push_back(c);
  }
  return out;
}

std::string Utf8(UChar32 c) {
  char buf[4];
  int32_t len = 0;
  UBool err = false;
  U8_APPEND(reinterpret_cast<uint8_t*>(buf), len, 4, c, err);
  if (err) return "?";
  return std::string(buf, static_cast<size_t>(len));
}

// Chinese numerals 一..九, 十 and 十一.. for wider boards.
const char* const kChineseDigits[] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

std::string ChineseNumber(int n) {
  if (n >= 1 && n <= 9) return kChineseDigits[n];
  if (n == 10) return "十";
  if (n > 10 && n < 20) return std::string("十") + kChineseDigits[n - 10];
  return std::to_string(n);
}

std::string FullWidthNumber(int n) {
  std::string out;
  for (char c : std::to_string(n)) out += Utf8(0xFF10 + (c - '0'));
  return out;
}

int ChineseDigitValue(UChar32 c) {
  static const UChar32 kDigits[] = {0x4E00, 0x4E8C, 0x4E09, 0x56DB, 0x4E94, 0x516D, 0x4E03, 0x516B, 0x4E5D};
  for (int i = 0; i < 9; ++i)
    if (kDigits[i] == c) return i + 1;
  return 0;
}

// Characters that name the same Xiangqi piece (simplified, traditional,
// Red's and Black's forms); the first of each group is the key.
const char* const kNameGroups[][5] = {
    {"帅", "帥", "将", "將", nullptr}, {"仕", "士", nullptr}, {"相", "象", nullptr},
    {"马", "馬", "傌", nullptr},        {"车", "車", "俥", nullptr}, {"炮", "砲", "包", nullptr},
    {"兵", "卒", nullptr},
};

std::string NameKey(const std::string& name) {
  for (const auto& group : kNameGroups)
    for (int i = 0; group[i]; ++i)
      if (name == group[i]) return group[0];
  return name;
}

// Kind for a one-character Chinese piece name; -1 if none, -2 if several.
int KindForChineseName(const Variant& v, const std::string& name) {
  std::vector<int> exact, grouped;
  for (int k = 0; k < v.kind_count(); ++k) {
    const PieceKind& pk = v.kind(k);
    if (pk.zh[0] == name || pk.zh[1] == name) exact.push_back(k);
    if (NameKey(pk.zh[0]) == NameKey(name) || NameKey(pk.zh[1]) == NameKey(name)) grouped.push_back(k);
  }
  if (exact.size() == 1) return exact[0];
  if (exact.size() > 1) return -2;
  if (grouped.size() == 1) return grouped[0];
  return grouped.empty() ? -1 : -2;
}

int AsciiOrFullWidthDigit(UChar32 c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 0xFF10 && c <= 0xFF19) return static_cast<int>(c - 0xFF10);
  return -1;
}

bool WideNumbers(const Variant& v) { return v.files() >= 10 || v.ranks() >= 11; }

// ---------------------------------------------------------------------------
// Token streams shared by the WXF and Chinese readers.

enum class Tok : uint8_t { kName, kNum, kOrd, kDir, kSign };
struct Token {
  Tok type;
  int value = 0;     // kind, number, ordinal code, direction char, sign char
  int ordinal_k = 0;
};

// Reads the four-part forms, returning the description or an error message.
bool Describe(const std::vector<Token>& t, bool wxf, Description* d, std::string* why) {
  if (t.size() != 4) {
    *why = "expected four parts (piece, file, direction, number)";
    return false;
  }
  if (t[2].type != Tok::kDir && t[2].type != Tok::kSign) {
    *why = "the third part must be a direction (+ - . / 进 退 平)";
    return false;
  }
  if (t[3].type != Tok::kNum) {
    *why = "the last part must be a number";
    return false;
  }
  d->dir = static_cast<char>(t[2].value);
  d->number = t[3].value;
  const Token& a = t[0];
  const Token& b = t[1];
  auto ord_of = [](const Token& x, Ordinal* o, int* k) {
    if (x.type == Tok::kOrd) {
      *o = static_cast<Ordinal>(x.value);
      *k = x.ordinal_k;
      return true;
    }
    if (x.type == Tok::kSign) {
      *o = x.value == '+' ? Ordinal::kWxfPlus : Ordinal::kWxfMinus;
      *k = 0;
      return true;
    }
    return false;
  };
  Ordinal o;
  int k;
  if (a.type == Tok::kName && b.type == Tok::kNum) {  // 炮二 / C2
    d->kind = a.value;
    d->file_no = b.value;
    return true;
  }
  if (a.type == Tok::kName && ord_of(b, &o, &k)) {  // 车前 / C+
    d->kind = a.value;
    d->ordinal = o;
    d->ordinal_k = k;
    return true;
  }
  if (b.type == Tok::kName && ord_of(a, &o, &k)) {  // 前车 / +C
    d->kind = b.value;
    d->ordinal = o;
    d->ordinal_k = k;
    return true;
  }
  if (b.type == Tok::kName && a.type == Tok::kNum) {  // 二兵: the second from the front
    d->kind = b.value;
    d->ordinal = Ordinal::kFront;
    d->ordinal_k = a.value - 1;
    return a.value >= 1 || (*why = "bad ordinal", false);
  }
  if (a.type == Tok::kSign && b.type == Tok::kSign) {  // ++ / --
    if (a.value != b.value) return *why = "'+-' names no piece", false;
    d->ordinal = a.value == '+' ? Ordinal::kFront : Ordinal::kRear;
    return true;
  }
  if (a.type == Tok::kOrd && b.type == Tok::kNum) {  // 前九: tandem pawns on two files
    d->ordinal = static_cast<Ordinal>(a.value);
    d->ordinal_k = a.ordinal_k;
    d->file_no = b.value;
    return true;
  }
  if (a.type == Tok::kNum && b.type == Tok::kSign) {  // 7+ (WXF)
    d->file_no = a.value;
    d->ordinal = b.value == '+' ? Ordinal::kWxfPlus : Ordinal::kWxfMinus;
    return true;
  }
  if (a.type == Tok::kNum && b.type == Tok::kNum) {
    if (wxf) {  // "33": the middle pawn of three on file 3, others doubled elsewhere
      if (a.value != b.value) return *why = "cannot tell which piece is meant", false;
      d->file_no = a.value;
      d->ordinal = Ordinal::kMiddle;
      return true;
    }
    d->file_no = b.value;  // 二七: the second from the front on file 7
    d->ordinal = Ordinal::kFront;
    d->ordinal_k = a.value - 1;
    return a.value >= 1 || (*why = "bad ordinal", false);
  }
  *why = "cannot tell which piece is meant";
  return false;
}

// --- WXF -------------------------------------------------------------------

std::string WxfPrefix(const Variant& v, const Facts& f) {
  const std::string letter(1, v.kind(f.kind).letter);
  const std::string file = std::to_string(f.file_no);
  const int n = f.count, i = f.index;
  if (f.tandem_files >= 2) {
    if (n == 2) return file + (i == 0 ? "+" : "-");
    if (n == 3) return file + (i == 0 ? "+" : i == 1 ? file : "-");
    return "";
  }
  if (n == 2) return (i == 0 ? "+" : "-") + letter;
  if (n == 3) return i == 0 ? "+" + letter : i == 1 ? letter + file : "-" + letter;
  if (n == 4) {
    static const char* const kForms[] = {"++", "+L", "-L", "--"};
    std::string s = kForms[i];
    if (s[1] == 'L') s = s.substr(0, 1) + letter;
    return s;
  }
  if (n == 5) {
    static const char* const kForms[] = {"++", "+L", "LF", "-L", "--"};
    std::string s = kForms[i];
    if (s == "LF") return letter + file;
    if (s[1] == 'L') s = s.substr(0, 1) + letter;
    return s;
  }
  return "";
}

Status ReadWxf(const Position& pos, const std::string& text, Description* d) {
  const Variant& v = pos.variant();
  std::vector<Token> toks;
  const bool wide = WideNumbers(v);
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '!' || text[end - 1] == '?')) --end;  // annotations
  for (size_t i = 0; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) continue;
    if (std::isdigit(c)) {
      int n = c - '0';
      while (wide && i + 1 < end && std::isdigit(static_cast<unsigned char>(text[i + 1])) && n < 10)
        n = n * 10 + (text[++i] - '0');
      toks.push_back({Tok::kNum, n});
    } else if (c == '+' || c == '-') {
      toks.push_back({Tok::kSign, c});
    } else if (c == '.' || c == '=') {
      toks.push_back({Tok::kDir, '.'});
    } else if (std::isalpha(c)) {
      int k = v.KindForLetter(static_cast<char>(c));
      if (k < 0)
        return Status::InvalidArgument(Quote(text) + ": unknown piece '" + std::string(1, static_cast<char>(c)) +
                                       "' (WXF letters: K A B/E N/H R C P)");
      toks.push_back({Tok::kName, k});
    } else {
      return Status::InvalidArgument(Quote(text) + " is not WXF notation (unexpected '" +
                                     std::string(1, static_cast<char>(c)) + "')");
    }
  }
  std::string why;
  if (!Describe(toks, true, d, &why)) return Status::InvalidArgument(Quote(text) + " is not WXF notation: " + why);
  return Status::OK();
}

// --- Chinese ---------------------------------------------------------------

Status ReadChinese(const Position& pos, const std::string& text, Description* d) {
  const Variant& v = pos.variant();
  bool utf8_ok;
  std::vector<UChar32> cps = CodePoints(text, &utf8_ok);
  if (!utf8_ok) return Status::InvalidArgument(Quote(text) + " is not valid UTF-8");
  const bool wide = WideNumbers(v);
  // Annotations after the move: ! ? ！ ？
  while (!cps.empty() && (cps.back() == '!' || cps.back() == '?' || cps.back() == 0xFF01 || cps.back() == 0xFF1F))
    cps.pop_back();
  std::vector<Token> toks;
  for (size_t i = 0; i < cps.size(); ++i) {
    UChar32 c = cps[i];
    if (c == ' ' || c == '\t' || c == 0x3000) continue;
    const int dv = AsciiOrFullWidthDigit(c);
    if (dv >= 0) {
      int n = dv;
      while (wide && n < 10 && i + 1 < cps.size() && AsciiOrFullWidthDigit(cps[i + 1]) >= 0)
        n = n * 10 + AsciiOrFullWidthDigit(cps[++i]);
      toks.push_back({Tok::kNum, n});
      continue;
    }
    if (ChineseDigitValue(c)) {
      toks.push_back({Tok::kNum, ChineseDigitValue(c)});
      continue;
    }
    if (c == 0x5341) {  // 十, and 十一.. on boards wider than nine files
      int n = 10;
      if (wide && i + 1 < cps.size() && ChineseDigitValue(cps[i + 1])) n += ChineseDigitValue(cps[++i]);
      toks.push_back({Tok::kNum, n});
      continue;
    }
    switch (c) {
      case 0x524D: toks.push_back({Tok::kOrd, static_cast<int>(Ordinal::kFront)}); continue;   // 前
      case 0x540E:                                                                              // 后
      case 0x5F8C: toks.push_back({Tok::kOrd, static_cast<int>(Ordinal::kRear)}); continue;    // 後
      case 0x4E2D: toks.push_back({Tok::kOrd, static_cast<int>(Ordinal::kMiddle)}); continue;  // 中
      case 0x8FDB:                                                                              // 进
      case 0x9032:                                                                              // 進
      case 0x4E0A: toks.push_back({Tok::kDir, '+'}); continue;                                  // 上
      case 0x9000:                                                                              // 退
      case 0x4E0B: toks.push_back({Tok::kDir, '-'}); continue;                                  // 下
      case 0x5E73: toks.push_back({Tok::kDir, '.'}); continue;                                  // 平
      default: break;
    }
    std::string name = Utf8(c);
    int k = KindForChineseName(v, name);
    if (k == -1 && c < 0x80 && std::isalpha(static_cast<int>(c))) k = v.KindForLetter(static_cast<char>(c));
    if (k == -2) return Status::InvalidArgument(Quote(text) + ": piece name '" + name + "' fits several kinds");
    if (k < 0) return Status::InvalidArgument(Quote(text) + ": unknown piece '" + name + "'");
    toks.push_back({Tok::kName, k});
  }
  std::string why;
  if (!Describe(toks, false, d, &why))
    return Status::InvalidArgument(Quote(text) + " is not Chinese notation: " + why);
  return Status::OK();
}

std::string ChineseOrdinal(int index, int count) {
  if (count == 2) return index == 0 ? "前" : "后";
  if (count == 3) return index == 0 ? "前" : index == 1 ? "中" : "后";
  return ChineseNumber(index + 1);
}

// --- SAN -------------------------------------------------------------------

bool IsCapture(const Position& pos, Move m) {
  return m.type() == MoveType::kEnPassant ||
         (m.type() != MoveType::kCastle && m.type() != MoveType::kDrop && m.type() != MoveType::kSpecial &&
          !pos.empty(m.to()));
}

std::string FileLetter(int sq) { return std::string(1, static_cast<char>('a' + FileOf(sq))); }

std::string RankText(const Variant& v, int sq) {
  return std::to_string(RankOf(sq) + (v.notation() == NotationStyle::kXiangqi ? 0 : 1));
}

std::string CheckSuffix(const Position& pos, Move m) {
  if (pos.variant().rules().win != WinCondition::kCheckmate) return "";
  Position after = pos;
  StateInfo st;
  after.DoMove(m, &st);
  if (!after.InCheck()) return "";
  MoveList replies;
  after.GenerateLegal(&replies);
  return replies.empty() ? "#" : "+";
}

}  // namespace

// ---------------------------------------------------------------------------

std::string MoveToWxf(const Position& pos, Move m) {
  const Variant& v = pos.variant();
  if (m.type() == MoveType::kDrop || m.type() == MoveType::kSpecial || pos.empty(m.from()))
    return MoveToCoord(v, m);
  const Facts f = FactsOf(pos, m);
  std::string prefix;
  if (f.count == 1) {
    prefix = std::string(1, v.kind(f.kind).letter) + std::to_string(f.file_no);
  } else {
    if (DirectionDisambiguates(v, f.kind)) {
      std::string plain = std::string(1, v.kind(f.kind).letter) + std::to_string(f.file_no) + f.dir +
                          std::to_string(f.number);
      Move back;
      if (ParseWxf(pos, plain, &back).ok() && back == m) return plain;
    }
    prefix = WxfPrefix(v, f);
    if (prefix.empty()) return MoveToCoord(v, m);
  }
  return Checked(pos, m, prefix + f.dir + std::to_string(f.number), &ParseWxf);
}

std::string MoveToChinese(const Position& pos, Move m) {
  const Variant& v = pos.variant();
  if (m.type() == MoveType::kDrop || m.type() == MoveType::kSpecial || pos.empty(m.from()))
    return MoveToCoord(v, m);
  const Color us = pos.side_to_move();
  const Facts f = FactsOf(pos, m);
  auto number = [&](int n) { return us == kFirst ? ChineseNumber(n) : FullWidthNumber(n); };
  std::string name = v.kind(f.kind).zh[us];
  if (name.empty()) name = std::string(1, v.kind(f.kind).letter);
  const char* dir = f.dir == '+' ? "进" : f.dir == '-' ? "退" : "平";
  const std::string tail = dir + number(f.number);
  if (f.count == 1) return Checked(pos, m, name + number(f.file_no) + tail, &ParseChinese);
  if (DirectionDisambiguates(v, f.kind)) {
    std::string plain = name + number(f.file_no) + tail;
    Move back;
    if (ParseChinese(pos, plain, &back).ok() && back == m) return plain;
  }
  std::string prefix = ChineseOrdinal(f.index, f.count);
  prefix += f.tandem_files >= 2 ? number(f.file_no) : name;
  return Checked(pos, m, prefix + tail, &ParseChinese);
}

std::string MoveToSan(const Position& pos, Move m) {
  const Variant& v = pos.variant();
  if (m.type() == MoveType::kDrop || m.type() == MoveType::kSpecial || pos.empty(m.from()))
    return MoveToCoord(v, m);
  std::string san;
  if (m.type() == MoveType::kCastle) {
    san = FileOf(m.to()) > FileOf(m.from()) ? "O-O" : "O-O-O";
    return san + CheckSuffix(pos, m);
  }
  const int kind = KindOf(pos.piece_on(m.from()));
  const bool pawn = v.kind(kind).pawn;
  const bool capture = IsCapture(pos, m);
  if (pawn) {
    // A pawn move names its file when it leaves it (captures, sideways steps).
    if (capture || FileOf(m.from()) != FileOf(m.to())) san += FileLetter(m.from());
    if (capture) san += "x";
  } else {
    san += v.kind(kind).letter;
    // Disambiguation: the file if it tells the pieces apart, else the rank,
    // else both.
    MoveList legal;
    pos.GenerateLegal(&legal);
    bool others = false, same_file = false, same_rank = false;
    for (Move o : legal) {
      if (o.from() == m.from() || o.to() != m.to() || o.type() == MoveType::kCastle ||
          o.type() == MoveType::kDrop || o.type() == MoveType::kSpecial)
        continue;
      if (KindOf(pos.piece_on(o.from())) != kind) continue;
      others = true;
      if (FileOf(o.from()) == FileOf(m.from())) same_file = true;
      if (RankOf(o.from()) == RankOf(m.from())) same_rank = true;
    }
    if (others) {
      if (!same_file) san += FileLetter(m.from());
      else if (!same_rank) san += RankText(v, m.from());
      else san += FileLetter(m.from()) + RankText(v, m.from());
    }
    if (capture) san += "x";
  }
  std::string tail = SquareName(v, m.to());
  if (m.type() == MoveType::kPromotion) tail += std::string("=") + v.kind(m.promo_kind()).letter;
  // Unusual pieces (fairy pawns, a FEN with a bogus en-passant square) can
  // leave the short form ambiguous: then name the origin square.
  Move back;
  if (!ParseSan(pos, san + tail, &back).ok() || back != m) {
    std::string letter = pawn ? "" : std::string(1, v.kind(kind).letter);
    san = letter + SquareName(v, m.from()) + (capture ? "x" : "");
  }
  return san + tail + CheckSuffix(pos, m);
}

std::string MoveToHuman(const Position& pos, Move m) {
  return pos.variant().notation() == NotationStyle::kXiangqi ? MoveToChinese(pos, m) : MoveToSan(pos, m);
}

Status ParseWxf(const Position& pos, const std::string& text, Move* out) {
  Description d;
  if (Status st = ReadWxf(pos, text, &d); !st.ok()) return st;
  return Resolve(pos, d, text, out);
}

Status ParseChinese(const Position& pos, const std::string& text, Move* out) {
  Description d;
  if (Status st = ReadChinese(pos, text, &d); !st.ok()) return st;
  return Resolve(pos, d, text, out);
}

Status ParseSan(const Position& pos, const std::string& text, Move* out) {
  const Variant& v = pos.variant();
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  // Annotations and suffixes: e.p., +, #, !, ?
  if (t.size() >= 4 && t.compare(t.size() - 4, 4, "e.p.") == 0) t.erase(t.size() - 4);
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) t.pop_back();
  if (t.empty()) return Status::InvalidArgument(Quote(text) + " is empty");
  MoveList legal;
  pos.GenerateLegal(&legal);

  std::string upper = t;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "O-O" || upper == "0-0" || upper == "O-O-O" || upper == "0-0-0") {
    const bool king_side = upper.size() == 3;
    for (Move m : legal)
      if (m.type() == MoveType::kCastle && (FileOf(m.to()) > FileOf(m.from())) == king_side) return *out = m, Status::OK();
    return Status::InvalidArgument(Quote(text) + " is illegal: castling is not possible here" +
                                   (v.rules().castling ? "" : " (" + v.id() + " has no castling)"));
  }

  size_t i = 0;
  int kind = -1;
  if (std::isupper(static_cast<unsigned char>(t[0]))) {
    kind = v.KindForLetter(t[0]);
    if (kind < 0) return Status::InvalidArgument(Quote(text) + ": unknown piece '" + std::string(1, t[0]) + "'");
    i = 1;
  }
  // Promotion: "=Q" or a trailing piece letter.
  int promo = -1;
  size_t end = t.size();
  if (end >= 2 && std::isalpha(static_cast<unsigned char>(t[end - 1])) &&
      (t[end - 2] == '=' || std::isdigit(static_cast<unsigned char>(t[end - 2])))) {
    promo = v.KindForLetter(t[end - 1]);
    if (promo < 0) return Status::InvalidArgument(Quote(text) + ": unknown promotion piece '" + t.substr(end - 1) + "'");
    end -= (t[end - 2] == '=') ? 2 : 1;
  } else if (end >= 1 && t[end - 1] == '=') {
    return Status::InvalidArgument(Quote(text) + ": '=' without a promotion piece");
  }
  // Destination: the last file letter followed by digits.
  size_t d = end;
  while (d > i && std::isdigit(static_cast<unsigned char>(t[d - 1]))) --d;
  if (d == end || d == i || !std::islower(static_cast<unsigned char>(t[d - 1])))
    return Status::InvalidArgument(Quote(text) + " is not SAN (no destination square)");
  --d;
  const int to = ParseSquareName(v, t.substr(d, end - d));
  if (to < 0) return Status::InvalidArgument(Quote(text) + ": '" + t.substr(d, end - d) + "' is not a square of " + v.id());
  // Between piece and destination: origin file and/or rank, and 'x' / ':'.
  int from_file = -1, from_rank = -1;
  for (size_t j = i; j < d; ++j) {
    char c = t[j];
    if (c == 'x' || c == ':' || c == '-') continue;
    if (std::islower(static_cast<unsigned char>(c)) && c - 'a' < v.files() && from_file < 0 && from_rank < 0) {
      from_file = c - 'a';
    } else if (std::isdigit(static_cast<unsigned char>(c)) && from_rank < 0) {
      int r = 0;
      while (j < d && std::isdigit(static_cast<unsigned char>(t[j]))) r = std::min(r * 10 + (t[j++] - '0'), 1000);
      --j;
      from_rank = r - (v.notation() == NotationStyle::kXiangqi ? 0 : 1);
      if (from_rank < 0 || from_rank >= v.ranks())
        return Status::InvalidArgument(Quote(text) + ": no rank " + std::to_string(r));
    } else {
      return Status::InvalidArgument(Quote(text) + " is not SAN (unexpected '" + std::string(1, c) + "')");
    }
  }
  int pawn_kind = -1;
  for (int k = 0; k < v.kind_count(); ++k)
    if (v.kind(k).pawn) pawn_kind = k;
  if (kind < 0) {
    if (pawn_kind < 0) return Status::InvalidArgument(Quote(text) + ": no piece letter (" + v.id() + " has no pawns)");
    kind = pawn_kind;
    if (from_file < 0) from_file = FileOf(to);  // "e4": a pawn that stays on its file
  }
  std::vector<Move> found;
  bool needs_promotion = false;
  for (Move m : legal) {
    if (m.to() != to || m.type() == MoveType::kCastle || m.type() == MoveType::kDrop ||
        m.type() == MoveType::kSpecial)
      continue;
    if (KindOf(pos.piece_on(m.from())) != kind) continue;
    if (from_file >= 0 && FileOf(m.from()) != from_file) continue;
    if (from_rank >= 0 && RankOf(m.from()) != from_rank) continue;
    if (m.type() == MoveType::kPromotion) {
      if (promo < 0) needs_promotion = true;
      if (m.promo_kind() != promo) continue;
    } else if (promo >= 0) {
      continue;
    }
    found.push_back(m);
  }
  if (found.size() == 1) return *out = found[0], Status::OK();
  if (found.size() > 1) {
    std::string list;
    for (Move m : found) list += (list.empty() ? "" : ", ") + MoveToCoord(v, m);
    return Status::InvalidArgument(Quote(text) + " is ambiguous: it fits " + list);
  }
  if (needs_promotion) return Status::InvalidArgument(Quote(text) + " needs a promotion piece (e.g. =Q)");
  if (pos.count(pos.side_to_move(), kind) == 0)
    return Status::InvalidArgument(Quote(text) + ": " + SideName(v, pos.side_to_move()) + " has no " +
                                   v.kind(kind).name);
  MoveList pseudo;
  pos.GeneratePseudoLegal(&pseudo);
  for (Move m : pseudo)
    if (m.to() == to && KindOf(pos.piece_on(m.from())) == kind &&
        (from_file < 0 || FileOf(m.from()) == from_file) && (from_rank < 0 || RankOf(m.from()) == from_rank))
      return Status::InvalidArgument(Quote(text) + " is illegal: it would leave the king in check");
  return Status::InvalidArgument(Quote(text) + " is not a legal move in " + pos.Fen(false));
}

Status ParseAnyMove(const Position& pos, const std::string& text, Move* out) {
  const Variant& v = pos.variant();
  Status coord = ParseCoordMove(pos, text, out);
  if (coord.ok()) return coord;
  // A text shaped like coordinates ("h2e2", "e7e8q") keeps the coordinate
  // reader's explanation.
  std::string compact;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '-') compact += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool coord_shaped = compact.size() >= 4;
  {
    size_t i = 0;
    for (int part = 0; part < 2 && coord_shaped; ++part) {
      if (i >= compact.size() || compact[i] < 'a' || compact[i] > 'p') { coord_shaped = false; break; }
      ++i;
      size_t digits = 0;
      while (i < compact.size() && std::isdigit(static_cast<unsigned char>(compact[i]))) ++i, ++digits;
      if (digits == 0) coord_shaped = false;
    }
    if (coord_shaped && i + 1 < compact.size()) coord_shaped = false;
  }
  if (v.notation() == NotationStyle::kXiangqi) {
    bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) {
      Status wxf = ParseWxf(pos, text, out);
      if (wxf.ok() || !coord_shaped) return wxf;
      return coord;
    }
    return ParseChinese(pos, text, out);
  }
  Status san = ParseSan(pos, text, out);
  if (san.ok() || !coord_shaped) return san;
  return coord;
}

}  // namespace canju

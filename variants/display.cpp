#include "variants/display.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace canju {
namespace {

const char* const kReset = "\033[0m";
const char* const kFirstColor = "\033[1;31m";   // Red / White: bold red (Xiangqi), bold (chess)
const char* const kSecondColor = "\033[1;34m";  // Black: bold blue, readable on dark and light terminals
const char* const kWhiteColor = "\033[1m";

// Plain text cannot colour Black's 马车炮 apart from Red's; Black gets the
// traditional forms instead, as on many printed boards.
std::string TraditionalForm(const std::string& name) {
  if (name == "马") return "馬";
  if (name == "车") return "車";
  if (name == "炮") return "砲";
  return "";
}

// A text cell of exactly two columns for a point of the Xiangqi grid.
std::string PieceCell(const Variant& v, Piece p, bool color, bool* substituted) {
  const Color c = ColorOf(p);
  const PieceKind& k = v.kind(KindOf(p));
  std::string name = k.zh[c];
  if (!color && c == kSecond && !name.empty() && k.zh[0] == k.zh[1]) {
    std::string t = TraditionalForm(name);
    if (!t.empty()) {
      name = t;
      *substituted = true;
    } else {
      name.clear();  // no distinct glyph: fall back to the FEN letter
    }
  }
  if (name.empty() || DisplayWidth(name) != 2) name = std::string(1, v.Letter(p)) + " ";
  if (!color) return name;
  return std::string(c == kFirst ? kFirstColor : kSecondColor) + name + kReset;
}

// The 3x3 box of a palace region for colour c, as (first file, first rank), or false.
bool PalaceBox(const Variant& v, Color c, int* file0, int* rank0) {
  int idx = v.RegionIndex("palace");
  if (idx < 0) return false;
  const SquareSet& s = v.regions()[idx].squares[c];
  int f0 = 99, f1 = -1, r0 = 99, r1 = -1, n = 0;
  for (int sq = 0; sq < kSquareSlots; ++sq)
    if (s[sq] && v.on_board(sq)) {
      f0 = std::min(f0, FileOf(sq)), f1 = std::max(f1, FileOf(sq));
      r0 = std::min(r0, RankOf(sq)), r1 = std::max(r1, RankOf(sq));
      ++n;
    }
  if (n != 9 || f1 - f0 != 2 || r1 - r0 != 2) return false;
  *file0 = f0;
  *rank0 = r0;
  return true;
}

std::string RenderXiangqi(const Position& pos, const BoardStyle& style) {
  const Variant& v = pos.variant();
  const int files = v.files(), ranks = v.ranks();
  const int label_w = ranks > 10 ? 2 : 1;
  const std::string margin(label_w + 1, ' ');
  // Palace boxes: diagonals drawn in the rows between their point rows.
  struct Box { int f0, r0; };
  std::vector<Box> boxes;
  for (int c = 0; c < 2; ++c) {
    int f0, r0;
    if (PalaceBox(v, Color(c), &f0, &r0)) boxes.push_back({f0, r0});
  }
  const int river = ranks % 2 == 0 ? ranks / 2 : -1;  // rows between rank river-1 and river
  bool substituted = false;
  std::string out;

  // Second player's file numbers (1 at its right = our file a).
  std::string top = margin;
  for (int f = 0; f < files; ++f) {
    std::string n = std::to_string(f + 1);
    top += n + std::string(f + 1 < files ? 3 - n.size() : 0, ' ');
  }
  out += top + "\n";

  for (int r = ranks - 1; r >= 0; --r) {
    std::string label = std::to_string(r);
    std::string line = std::string(label_w - label.size(), ' ') + label + " ";
    for (int f = 0; f < files; ++f) {
      Piece p = pos.piece_on(MakeSquare(f, r));
      const bool last = f + 1 == files;
      if (p) {
        line += PieceCell(v, p, style.color, &substituted);
        if (!last) line += "-";
      } else {
        line += "+";
        if (!last) line += "--";
      }
    }
    out += line + "\n";
    if (r == 0) break;
    // The row between rank r and r-1.
    const int width = 3 * (files - 1) + 1;
    std::string between(width, ' ');
    if (r == river) {
      between[0] = '|';
      between[width - 1] = '|';
      const int inner = width - 2;
      if (inner >= 12) {
        const int pad = (inner - 10) / 4, gap = inner - 10 - 2 * pad;
        out += margin + "|" + std::string(pad, ' ') + "楚 河" + std::string(gap, ' ') + "汉 界" +
               std::string(pad, ' ') + "|\n";
        continue;
      }
      out += margin + between + "\n";
      continue;
    }
    for (int f = 0; f < files; ++f) between[3 * f] = '|';
    for (const Box& b : boxes) {
      const int centre = 3 * (b.f0 + 1);
      if (r == b.r0 + 2) between[centre - 1] = '\\', between[centre + 1] = '/';
      if (r == b.r0 + 1) between[centre - 1] = '/', between[centre + 1] = '\\';
    }
    while (!between.empty() && between.back() == ' ') between.pop_back();
    out += margin + between + "\n";
  }

  // First player's file numbers (一 at its right = file i), then ICCS letters.
  std::string bottom = margin, letters = margin;
  static const char* const kNumerals[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九",
                                          "十", "十一", "十二", "十三", "十四", "十五", "十六"};
  for (int f = 0; f < files; ++f) {
    std::string n = kNumerals[files - 1 - f];
    if (DisplayWidth(n) > 2) n = std::to_string(files - f);
    bottom += PadRight(n, f + 1 < files ? 3 : 0);
    letters += std::string(1, static_cast<char>('a' + f)) + (f + 1 < files ? "  " : "");
  }
  out += bottom + "\n" + letters + "\n";
  if (substituted) out += "(plain text: Black's 马车炮 drawn as 馬車砲)\n";
  return out;
}

std::string RenderSquares(const Position& pos, const BoardStyle& style) {
  const Variant& v = pos.variant();
  const int files = v.files(), ranks = v.ranks();
  const int label_w = ranks >= 10 ? 2 : 1;
  std::string out;
  for (int r = ranks - 1; r >= 0; --r) {
    std::string label = std::to_string(r + 1);
    std::string line = std::string(label_w - label.size(), ' ') + label;
    for (int f = 0; f < files; ++f) {
      Piece p = pos.piece_on(MakeSquare(f, r));
      line += ' ';
      if (!p) {
        line += '.';
        continue;
      }
      const Color c = ColorOf(p);
      const PieceKind& k = v.kind(KindOf(p));
      std::string cell = std::string(1, v.Letter(p));
      if (style.unicode && !k.symbol[c].empty() && DisplayWidth(k.symbol[c]) == 1) cell = k.symbol[c];
      if (style.color) cell = std::string(c == kFirst ? kWhiteColor : kSecondColor) + cell + kReset;
      line += cell;
    }
    out += line + "\n";
  }
  std::string letters(label_w, ' ');
  for (int f = 0; f < files; ++f) letters += std::string(" ") + static_cast<char>('a' + f);
  out += letters + "\n";
  return out;
}

std::string Capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

std::string RenderBoard(const Position& pos, const BoardStyle& style) {
  return pos.variant().notation() == NotationStyle::kXiangqi ? RenderXiangqi(pos, style) : RenderSquares(pos, style);
}

GameState StateOf(const Position& pos) {
  const Variant& v = pos.variant();
  const Color us = pos.side_to_move();
  if (v.royal_kind() >= 0 && pos.count(us, v.royal_kind()) == 0) return GameState::kNoRoyal;
  MoveList list;
  pos.GenerateLegal(&list);
  const bool check = v.rules().win == WinCondition::kCheckmate && pos.InCheck();
  if (list.empty()) return check ? GameState::kCheckmate : GameState::kStalemate;
  return check ? GameState::kCheck : GameState::kPlaying;
}

std::string DescribeState(const Position& pos) {
  const Variant& v = pos.variant();
  const Color us = pos.side_to_move();
  const std::string me = Capitalised(v.color_name(us)), them = Capitalised(v.color_name(~us));
  const bool xq = v.notation() == NotationStyle::kXiangqi;
  switch (StateOf(pos)) {
    case GameState::kPlaying: return me + " to move";
    case GameState::kCheck: return me + " to move, in check" + (xq ? " (将军)" : "");
    case GameState::kCheckmate: return std::string("checkmate") + (xq ? " (将死)" : "") + ": " + them + " wins";
    case GameState::kNoRoyal: return me + " has lost its " + v.kind(v.royal_kind()).name + ": " + them + " wins";
    case GameState::kStalemate: {
      std::string head = std::string("stalemate") + (xq ? " (困毙)" : "") + ": " + me + " has no legal move";
      switch (v.rules().stalemate) {
        case Outcome::kLoss: return head + " and loses";
        case Outcome::kWin: return head + " and wins";
        case Outcome::kDraw: return head + ": draw";
      }
    }
  }
  return me + " to move";
}

int DisplayWidth(const std::string& s) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
  const int32_t n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  int width = 0;
  while (i < n) {
    if (p[i] == 0x1B && i + 1 < n && p[i + 1] == '[') {  // ANSI CSI: ESC [ params final
      i += 2;
      while (i < n && !(p[i] >= 0x40 && p[i] <= 0x7E)) ++i;
      ++i;
      continue;
    }
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      ++width;  // a broken byte shows as one replacement character
      continue;
    }
    if (c < 0x20 || c == 0x7F) continue;
    const int8_t cat = static_cast<int8_t>(u_charType(c));
    if (cat == U_NON_SPACING_MARK || cat == U_ENCLOSING_MARK || c == 0x200B) continue;
    const int ea = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    width += (ea == U_EA_WIDE || ea == U_EA_FULLWIDTH) ? 2 : 1;
  }
  return width;
}

std::string PadRight(const std::string& s, int width) {
  const int w = DisplayWidth(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

}  // namespace canju

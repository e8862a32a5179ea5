// Move notation in and out.
//   Xiangqi: ICCS ("h2e2", "H2-E2"), WXF ("C2.5", "+C-2"), Chinese
//   (炮二平五, 马８进７, 前车进一, 中兵平四, 前九平八; traditional characters
//   and 上/下 accepted on input).
//   Chess-style variants: coordinates ("e2e4", "e7e8q") and SAN ("Nf3").
#pragma once

#include <string>

#include "variants/position.h"
#include "variants/status.h"

namespace canju {

// Output. `pos` is the position before the move; the move must be legal.
std::string MoveToWxf(const Position& pos, Move m);
std::string MoveToChinese(const Position& pos, Move m);
std::string MoveToSan(const Position& pos, Move m);
// The variant's natural human notation: Chinese for Xiangqi, SAN otherwise.
std::string MoveToHuman(const Position& pos, Move m);

// Input. Each returns the legal move meant, or a Status that says why not
// (unreadable, illegal, ambiguous) quoting the text.
Status ParseWxf(const Position& pos, const std::string& text, Move* out);
Status ParseChinese(const Position& pos, const std::string& text, Move* out);
Status ParseSan(const Position& pos, const std::string& text, Move* out);
// Tries every notation the variant supports (coordinates first).
Status ParseAnyMove(const Position& pos, const std::string& text, Move* out);

}  // namespace canju

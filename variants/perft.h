// Perft: counts leaf nodes of the legal move tree, the rule engines'
// regression signal.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "variants/position.h"

namespace canju {

// With `bulk`, the last ply is counted from the move list without making the
// moves (same result, faster).
uint64_t Perft(Position& pos, int depth, bool bulk = true);

// Per legal root move: the perft of depth-1 below it.
std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth);

}  // namespace canju

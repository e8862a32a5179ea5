// Replays a solver's line on the board, for the solver's tests: each move
// must be legal where it is played, and the line must end in a lost
// position for the side to move (no legal move and in check, or stalemated
// where the variant makes stalemate lose, as in Xiangqi).
#pragma once

#include <vector>

#include "variants/position.h"

namespace canju::testing_util {

inline bool LineEndsInMate(Position p, const std::vector<Move>& line) {
  for (Move m : line) {
    MoveList legal;
    p.GenerateLegal(&legal);
    if (!legal.contains(m)) return false;
    StateInfo st;
    p.DoMove(m, &st);
  }
  MoveList replies;
  p.GenerateLegal(&replies);
  return replies.empty() && (p.InCheck() || p.variant().rules().stalemate == Outcome::kLoss);
}

}  // namespace canju::testing_util

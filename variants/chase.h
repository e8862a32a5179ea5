#pragma once
// Chasing (捉): the second kind of forbidden cyclic move after checks, for
// variants whose rules make perpetual chasing lose (rules.perpetual_chase =
// loss; docs/solver.md, "Chasing"). Our reading of the Asian rules, kept
// small and explicit:
//
// * a threat is a legal capture of a non-royal piece by a piece that is
//   neither royal nor of value 1 or less (kings and pawns may chase freely);
//   a target of value 1 or less inside its own `home` region (an uncrossed
//   pawn) is no target;
// * the threat counts when the target is unprotected — after the capture
//   its side has no legal capture back on that square — or when it is worth
//   at least 2 more than the attacker (a horse or cannon attacking a rook);
// * a move chases when, after it, the mover has such a threat that is new:
//   made by the piece that moved, or not there before the move (discovered,
//   or a protector cut off).
//
// Only the cycles of a search ask, so this is written for clarity, not speed.

#include <vector>

#include "variants/position.h"

namespace canju {

struct Threat {
  int from, to;  // attacker's square, target's square
  bool operator==(const Threat&) const = default;
};

// The threats (as above) of the side to move in `pos`.
std::vector<Threat> ChaseThreats(const Position& pos);

// Whether move `m`, which took `before` to `after`, chases.
bool MoveChases(const Position& before, Move m, const Position& after);

}  // namespace canju

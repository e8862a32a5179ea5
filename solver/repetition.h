#pragma once
// The repetition rule of the searches, written once (docs/solver.md,
// "Repetition"): a position that repeats one earlier on the line (the same
// side to move, no capture between) ends the line. Where the variant makes
// perpetual check lose, the side whose every move of the cycle gave check
// loses, unless every move of the other side's gave check too; otherwise
// the repetition is no win for either side.
//
// The df-pn (dfpn.cpp), the proof's re-check (proof_check.cpp) and the
// proof's line (solver.cpp) keep their lines in arrays of their own; these
// templates read them through accessors, so the df-pn's hot path pays
// nothing for sharing the rule.

#include "variants/variant.h"

namespace canju {

// The latest ply before `ply` with the same side to move, at or after
// `since` (the first ply after the last capture), whose position is the
// one at `ply` (key_at(i): the key after i plies); -1 when there is none.
template <class KeyAt>
inline int EarlierOccurrence(int ply, int since, KeyAt key_at) {
  const auto key = key_at(ply);
  for (int j = ply - 2; j >= since; j -= 2)
    if (key_at(j) == key) return j;
  return -1;
}

// Who loses the cycle from ply `from` to ply `ply` (the same position),
// whose moves are the ones into plies from+1 .. ply; gave_check(i): the
// move into ply i gave check. The move into `ply` was made by the side not
// to move at `ply`.
enum class CycleLoser : uint8_t { kNone, kSideToMove, kSideThatMoved };

template <class GaveCheck>
inline CycleLoser LoserOfCycle(const Rules& rules, int from, int ply, GaveCheck gave_check) {
  if (rules.perpetual_check != Outcome::kLoss) return CycleLoser::kNone;
  bool moved_all = true, to_move_all = true;
  for (int i = from + 1; i <= ply; ++i) {
    const bool check = gave_check(i);
    if ((ply - i) % 2 == 0) moved_all &= check;
    else to_move_all &= check;
  }
  if (moved_all == to_move_all) return CycleLoser::kNone;
  return moved_all ? CycleLoser::kSideThatMoved : CycleLoser::kSideToMove;
}

// Whether a side loses the cycle: the side to move at its last ply
// (side_is_to_move) or the other one.
inline bool Loses(CycleLoser loser, bool side_is_to_move) {
  return side_is_to_move ? loser == CycleLoser::kSideToMove : loser == CycleLoser::kSideThatMoved;
}

}  // namespace canju

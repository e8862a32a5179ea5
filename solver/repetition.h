#pragma once
// The repetition rule of the searches, written once (docs/solver.md,
// "Repetition"): a position that repeats one earlier on the line (the same
// side to move, no capture between) ends the line. Where the variant makes
// perpetual check lose, the side whose every move of the cycle gave check
// loses, unless every move of the other side's gave check too; where it
// makes perpetual chasing lose as well, chases then count beside checks;
// otherwise the repetition is no win for either side.
//
// The df-pn (dfpn.cpp), the proof's re-check (proof_check.cpp) and the
// proof's line (solver.cpp) keep their lines in arrays of their own; these
// templates read them through accessors, so the df-pn's hot path pays
// nothing for sharing the rule.

#include "variants/chase.h"
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

// Where the variant makes perpetual chasing lose too (chase.h), a cycle that
// no side loses by checks alone is judged again with chases as forbidden
// moves beside checks: the side whose every move checked or chased loses,
// unless the other's did too. chased(i): the move into ply i chased; asked
// only then, and only until a side's move is found that did neither.
// *by_chase (optional) says whether the chases decided.
template <class GaveCheck, class Chased>
inline CycleLoser LoserOfCycle(const Rules& rules, int from, int ply, GaveCheck gave_check, Chased chased,
                               bool* by_chase = nullptr) {
  if (by_chase) *by_chase = false;
  const bool checks_lose = rules.perpetual_check == Outcome::kLoss;
  const bool chases_lose = rules.perpetual_chase == Outcome::kLoss;
  if (!checks_lose && !chases_lose) return CycleLoser::kNone;
  bool moved_all = true, to_move_all = true;  // every move of the side checked
  for (int i = from + 1; i <= ply; ++i) {
    const bool check = gave_check(i);
    if ((ply - i) % 2 == 0) moved_all &= check;
    else to_move_all &= check;
  }
  if (checks_lose && moved_all != to_move_all)
    return moved_all ? CycleLoser::kSideThatMoved : CycleLoser::kSideToMove;
  if (!chases_lose || (moved_all && to_move_all)) return CycleLoser::kNone;  // mutual perpetual check draws
  // Every move of the side whose last move is at ply - parity checked or chased.
  auto forbidden_all = [&](int parity) {
    for (int i = ply - parity; i > from; i -= 2)
      if (!gave_check(i) && !chased(i)) return false;
    return true;
  };
  const bool moved_forbidden = forbidden_all(0);
  const bool to_move_forbidden = forbidden_all(1);
  if (moved_forbidden == to_move_forbidden) return CycleLoser::kNone;
  if (by_chase) *by_chase = true;
  return moved_forbidden ? CycleLoser::kSideThatMoved : CycleLoser::kSideToMove;
}

// LoserOfCycle's chased(i) for the cycle from ply `from` to ply `ply`: on
// the first question the chases of all its moves are worked out by taking
// them back on a copy of `now` (the position at `ply`) and kept in
// cache(i) (an int8_t&, -1: not worked out). move_at(i) and state_at(i):
// the move into ply i and the StateInfo its DoMove filled.
template <class MoveAt, class StateAt, class Cache>
inline auto ChasesOnDemand(const Position& now, int from, int ply, MoveAt move_at, StateAt state_at, Cache cache) {
  return [&now, from, ply, move_at, state_at, cache](int i) {
    if (cache(i) < 0) {
      Position after = now;
      for (int k = ply; k > from; --k) {
        Position before = after;
        before.UndoMove(move_at(k), state_at(k));
        cache(k) = MoveChases(before, move_at(k), after);
        after = before;
      }
    }
    return cache(i) != 0;
  };
}

// Whether a side loses the cycle: the side to move at its last ply
// (side_is_to_move) or the other one.
inline bool Loses(CycleLoser loser, bool side_is_to_move) {
  return side_is_to_move ? loser == CycleLoser::kSideToMove : loser == CycleLoser::kSideThatMoved;
}

}  // namespace canju

// An independent re-check of a proved mate.
//
// The proof-number search decides a win through a transposition table,
// proof and disproof numbers, repetition facts kept apart from the path
// (GHI) and table probes; a bug in any of them would show as a wrong
// "confirmed". The check walks the mate again with none of that: a plain
// depth-first AND/OR search bounded by the claimed length, every defender
// reply enumerated, the attacker's move taken from a hint (the solver's
// table) and, where the hint is missing or fails, from the attacker's own
// moves, checks first. Repetitions are judged on the path, as the rules
// say (docs/solver.md, "Repetition"), and only a subtree that met none is
// remembered as proved.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "solver/oracle.h"
#include "variants/position.h"

namespace canju::solver {

enum class CheckStatus : uint8_t {
  kHolds,       // every defence is mated within the plies claimed
  kFails,       // a defence escapes: no mate within the plies claimed
  kIncomplete,  // the node limit ran out first
  kNotRun,      // no check was made (SolveResult: no mate, or the check off)
};
const char* CheckStatusName(CheckStatus s);

struct ProofCheckResult {
  CheckStatus status = CheckStatus::kIncomplete;
  uint64_t nodes = 0;
  // kFails: a line from the root (attacker and defender moves) to a
  // position where the attacker has no mate within the plies left.
  std::vector<Move> escape;
};

// The attacker's move to try first at `pos`, with `plies` left for the
// mate (Move() when none is known).
using MateHint = std::function<Move(const Position& pos, int plies)>;

// Does `attacker`, from `root`, mate within `plies` plies whatever the
// defender does? `hint` may be empty; `tablebase` (may be null) ends a
// line at a table win within the plies left, as the tables are verified
// on their own (tablebase/verify.cpp). `node_limit` bounds the positions
// made. kFails only after a second walk that reuses no "no mate here"
// from another path has found the escape too.
ProofCheckResult CheckMate(const Position& root, Color attacker, int plies, const MateHint& hint,
                           const TablebaseOracle* tablebase, uint64_t node_limit);

}  // namespace canju::solver

// A solve on several threads (SolveOptions::threads): a race of searchers.
//
// Each racer runs the whole solve (or the whole verification) on a thread
// of its own, with the full budget and a table of its own; racers differ
// only in their move-ordering heuristics (the material weight, killer
// moves), so that they search different parts of the tree first. The
// first racer to decide wins; the others are cancelled.
//
// Measured (docs/performance.md, round of stop 34) against two designs
// that share more: helpers that searched each of the solver's questions
// beside it with the question's budget share, in one shared table,
// confirmed no more than one searcher alone; whole racers that shared
// their proofs and disproofs through one table confirmed the same 9 hard
// puzzles as racers with tables of their own, 16% slower per node (the
// table's locks and the second probe). A racer follows its own plan from
// start to end, and its plan is what decides other puzzles — at small
// budgets: at 10 s a puzzle two racers confirm no more than one searcher.
#pragma once

#include <functional>
#include <string>

#include "solver/solver.h"

namespace canju::solver {

// The options of racer `index` of a race of base.threads: one thread,
// `cancel` polled with the budget (on_root_decided is the race's to set),
// and its heuristics (0: the base's unchanged; 1: no material term; 2:
// twice the weight; 3: killer moves switched; 4: half the weight; then
// again).
SolveOptions RacerOptions(const SolveOptions& base, int index, const std::atomic<bool>* cancel);
// A few words on racer `index`'s heuristics, for notes.
std::string RacerName(int index);
// What a result's note says when racer `index` of `count` decided it
// ("; decided by searcher 2 of 2 (without the material term)"); empty for
// the first racer, whose heuristics are the defaults.
std::string RaceNote(int index, int count);

// Runs `run(index, options)` for every racer of base.threads (index 0 on
// the calling thread, so that a CPU-time budget counts its CPU); `run`
// returns whether that racer decided. The first racer whose solve proves
// the root's result (SolveOptions::on_root_decided) or that returns
// decided is the decider: it cancels the rest (their budgets end; whatever
// they return, decided or not, is theirs to ignore) and goes on alone.
// Returns the decider's index, or 0 if none decided.
int Race(const SolveOptions& base, const std::function<bool(int index, const SolveOptions& options)>& run);

}  // namespace canju::solver

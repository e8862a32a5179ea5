// The puzzle solver: decides a position (win / loss / unknown for the side
// to move) within a node and time budget, and for a decided position finds
// the shortest mate, the principal variation with the longest resistance and
// every other winning first move (cooks). Algorithm and rules: docs/solver.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "puzzles/record.h"
#include "solver/oracle.h"
#include "solver/proof_check.h"
#include "variants/position.h"

namespace canju {

namespace solver {
class Prover;
}  // namespace solver

struct SolveOptions {
  bool checks_only = false;     // only mates by consecutive checks (连将杀)
  bool threats = false;         // also search checks + mate threats (long compositions)
  uint64_t max_nodes = 0;       // 0 = no limit
  double max_seconds = 10;      // 0 = no limit
  // Count max_seconds (and the reported seconds) in the solving thread's CPU
  // time rather than wall-clock time: the same work on a busy machine
  // (benchmarks). The solve must run on the thread that calls Solve.
  bool cpu_clock = false;
  size_t tt_bytes = size_t{64} << 20;
  bool shortest = true;         // tighten to the shortest mate and give the PV
  bool cooks = true;            // try every other first move
  // Deepest bounded full-width search (plies) tried, after a win by checks,
  // for a shorter mate that is not all checks.
  int max_general_depth = 15;
  // How much the full-width search weighs material won or lost along a line
  // (docs/solver.md, "Material"): eighths of a factor per unit of material
  // (pawn 1, rook 9 in Xiangqi); 0 = not at all. A heuristic: it changes
  // which lines are searched first, never what is proved.
  int material_weight = 8;
  // Killer moves in the proof-number searches (Prover::set_killers): the
  // move that last decided a node at a ply is tried first at its cousins.
  // Ordering only; it mostly speeds up the bounded searches of the
  // shortest mate.
  bool killers = true;
  // Simulation in the proof-number searches (Prover::set_simulation_nodes):
  // a defender move whose sibling was just refuted is first tried against
  // the same attacker moves, with up to this many positions; 0: off.
  uint32_t simulation_nodes = 0;
  // Share of what the consecutive-check search left that the full-width
  // search for the side to move may use; the opponent's searches (a
  // refutation of a claimed win) get the rest.
  double full_width_share = 0.7;
  // Each proved mate is walked again by an independent bounded search
  // (solver/proof_check.h) with up to this many nodes; 0: not at all.
  uint64_t proof_check_nodes = 2'000'000;
  // Tests only (fault injection): the plies the re-check is asked to walk
  // for a mate proved in `plies` from `pos` (unset: `plies`). A shorter
  // answer stands for a proof the search got wrong, so that the steps that
  // withhold a failed proof (the root's mate, a cook, the book's line) can
  // be reached; no known fault of the search reaches them.
  std::function<int(const Position& pos, int plies)> recheck_plies_for_test;
  // Tests only: the transposition table is cleared once a win is proved,
  // before its line is completed, as if a full table had replaced every
  // proof (the line's walk has to refill them).
  bool forget_proofs_before_line_for_test = false;
  const std::atomic<bool>* stop = nullptr;  // set from another thread to stop
  const TablebaseOracle* tablebase = nullptr;  // not owned; may be null
  // Searchers racing on one position (solver/race.h): Solve() and
  // VerifyRecord() with N > 1 run N whole solves on N threads, each with
  // the full budget (nodes, seconds), a table (tt_bytes) and heuristics of
  // its own; the first to decide gives the answer. Which one that is
  // depends on timing: a race is not repeatable node for node. A Solver
  // object itself searches on its calling thread only.
  int threads = 1;
  // Set by a race for its racers (leave unset): `cancel`, another racer
  // decided; `on_root_decided`, called from the solving thread as soon as
  // this solve has proved the root's result (before the shortest mate,
  // the line and the cooks), so that the other racers stop at once.
  const std::atomic<bool>* cancel = nullptr;
  std::function<void()> on_root_decided;
};

// What a "no win" (every line searched) rests on: the solver's repetition
// rules (docs/solver.md, "Repetition"); said in the verdicts that rest on it.
inline const char* NoWinRules(const Rules& rules) {
  if (rules.perpetual_chase == Outcome::kLoss)
    return "every line searched; repetitions draw, perpetual check and perpetual chasing lose, "
           "tables' draws not used";
  return "every line searched; repetitions draw, perpetual check loses, perpetual chasing is not modelled";
}

// How a result was proved.
enum class ProofKind : uint8_t {
  kNone,
  kChecks,      // consecutive checks (every attacker move checks)
  kThreats,     // checks and quiet moves that threaten a mate by checks
  kFullWidth,   // every attacker move (unbounded, or within a depth bound)
  kTablebase,   // the root's material has a table
  kTerminal,    // the position is already mate / stalemate
};
const char* ProofKindName(ProofKind k);

// A first move and what is known about it.
struct FirstMove {
  Move move;
  Claim result = Claim::kUnknown;  // for the side making the move; kUnknown: undecided
  int mate_plies = -1;             // upper bound from the proof (not tightened)
  // The independent re-check of this move's mate (the PV's first move: the
  // root's re-check). A cook whose check fails is kept as undecided.
  solver::CheckStatus proof_check = solver::CheckStatus::kNotRun;
  uint64_t proof_check_nodes = 0;  // the nodes that re-check walked
};

// How a line from a position won for `winner` ends (SolveResult::pv).
enum class LineEnd : uint8_t {
  kMate,            // the loser is mated (or stalemated, or its royal taken, where that loses)
  kPerpetualCheck,  // the loser's checks repeat a position: a win where perpetual check loses
  kPerpetualChase,  // the loser's checks and chases repeat a position, where perpetual chasing loses
  kOpen,            // neither: the line stops short
};
LineEnd HowLineEnds(const Position& root, const std::vector<Move>& line, Color winner);
const char* LineEndName(LineEnd e);  // "mate", "perpetual_check", "perpetual_chase", "open"
// The same for a result for the side to move at `root` (the winner read
// from it): false where there is no line or the result is no win or loss;
// for a line in coordinates (a verdict's pv) also where a move does not parse.
bool HowLineEnds(const Position& root, const std::vector<Move>& line, Claim result, LineEnd* end);
bool HowLineEnds(const Position& root, const std::vector<std::string>& coord_line, Claim result, LineEnd* end);

// Where a solve's seconds went (the budget's clock: CPU or wall), by phase;
// the phases a solve does not reach stay 0.
struct SolvePhaseSeconds {
  double decide = 0;    // the root's result (checks, full width, the opponent's; a table's or a terminal's)
  double shortest = 0;  // tightening to the shortest mate, its line, a shorter mate that is not all checks
  double line = 0;      // the line completed to mate and the independent re-check
  double cooks = 0;     // the other first moves
};

struct SolveResult {
  Claim result = Claim::kUnknown;  // for the side to move
  ProofKind proof = ProofKind::kNone;
  // Win: plies until the opponent is mated (odd); loss: plies until the side
  // to move is mated (even); -1 when unknown or not a mate.
  int mate_plies = -1;
  // mate_plies is the shortest of its kind: among consecutive-check mates for
  // ProofKind::kChecks, among mates made of checks and threats for kThreats,
  // among all mates for kFullWidth / kTablebase.
  bool mate_exact = false;
  // No mate of any kind within this many plies (full-width search); when it
  // is mate_plies - 2, mate_plies is the shortest of all mates. -1: not searched.
  int no_mate_within = -1;
  // Every line searched: the side to move cannot force a win (under the
  // repetition rules of docs/solver.md), whatever the rest of the result.
  bool no_win = false;
  std::vector<Move> pv;              // best play: shortest mate, longest resistance
  std::vector<FirstMove> first_moves;  // winning first moves (pv[0] first), then undecided ones
  // Which first moves were tried for cooks: 0 none, 1 checks, 2 checks and
  // threats, 3 all (within the depth bound that proved the root).
  int cooks_scope = 0;
  // The independent re-check of the mate (SolveOptions::proof_check_nodes):
  // kHolds, kIncomplete, or kNotRun (no mate, a table's or a terminal
  // result, or the check off). A check that fails withholds the result
  // (kUnknown, with a note), and says kFails here.
  solver::CheckStatus proof_check = solver::CheckStatus::kNotRun;
  uint64_t proof_check_nodes = 0;
  void RecordProofCheck(const solver::ProofCheckResult& c) {
    proof_check = c.status;
    proof_check_nodes = c.nodes;
  }
  std::string note;                  // what was proved and what the budget left open
  uint64_t nodes = 0;
  double seconds = 0;
  SolvePhaseSeconds phase_seconds;  // `seconds` by phase

  std::vector<Move> WinningFirstMoves() const;
  std::vector<Move> UndecidedFirstMoves() const;
};

// A solver keeps its transposition table across calls on related positions
// (the verifier asks about every position of a book line).
class Solver {
 public:
  explicit Solver(const SolveOptions& options);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Decides `pos` within the options' budget (counted from this call).
  SolveResult Solve(const Position& pos);

  // After Solve decided a win or a loss: the distance to mate of another
  // position for the same winner and kind of proof (consecutive checks or
  // full width within the bound that proved the root). Returns plies to mate
  // (even when the loser is to move, odd otherwise), -1 when the winner has
  // no such win from there (proved), -2 when the budget ran out. *exact tells
  // whether the value is the shortest (otherwise an upper bound).
  int Distance(const Position& pos, bool* exact);
  // A best line from `pos` whose Distance is exactly `plies`.
  std::vector<Move> BestLine(const Position& pos, int plies);
  // Whether `attacker` forces mate from `pos` within `plies` (full width,
  // bounded) with `fraction` of what is left of the budget: 1 proved, 0
  // disproved (every line searched), -1 undecided.
  int MateWithin(const Position& pos, Color attacker, int plies, double fraction = 1.0);
  // Whether `attacker` forces a win from `pos` (full width, no depth bound)
  // with `fraction` of what is left of the budget: 1 proved (*plies: the
  // proof's mate length, an upper bound), 0 disproved, -1 undecided.
  int WinFrom(const Position& pos, Color attacker, double fraction = 1.0, int* plies = nullptr);
  // What the table already knows of the same question, without searching:
  // 1 proved, 0 disproved, -1 nothing.
  int KnownWin(const Position& pos, Color attacker) const;
  // Whether the last solve's winner is the side to move in `pos`.
  bool WinnerToMove(const Position& pos) const;

  // Starts a new budget of `seconds` / `nodes` (0 = none) for the calls that
  // follow (Solve starts its own).
  void ResetBudget(double seconds, uint64_t nodes);
  // The budget the next Solve starts with (the options' until then).
  void SetSolveBudget(double seconds, uint64_t nodes);
  bool BudgetExhausted() const;
  // The independent re-check (solver/proof_check.h) of a mate within
  // `plies` for `winner` from `pos`, with this solver's proof moves as
  // hints and the options' node limit (SolveOptions::proof_check_nodes).
  solver::ProofCheckResult RecheckMate(const Position& pos, Color winner, int plies);
  // Slots of this solver's transposition table: the options' tt_bytes, or
  // fewer where the node budget could not fill them.
  size_t table_entries() const;
  uint64_t nodes() const;
  double seconds() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What a solve does with a mate whose re-check found a defence escaping (a
// fault of the search): the result withheld (kUnknown, no mate, no line,
// `proof_check` kFails). Returns the note that names the escaping line, in
// the variant's notation and coordinates. (Solver calls it; public so that
// its tests reach it without a faulty search.)
std::string WithholdUnsoundMate(const Position& root, const solver::ProofCheckResult& check, SolveResult* r);

// One-shot convenience wrapper.
SolveResult Solve(const Position& pos, const SolveOptions& options);

}  // namespace canju

// The verifier: checks a Record's claimed result with the solver, lists the
// cooks and audits the book's main line against best play. How to read a
// verdict: docs/solver.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "puzzles/record.h"
#include "solver/solver.h"
#include "variants/status.h"

namespace canju {

struct VerifyOptions {
  SolveOptions solve;      // budget per puzzle (max_seconds / max_nodes cover everything)
  bool audit_book = true;  // compare the book's main line with best play
  // The solve may use the whole budget (it stops as soon as it has decided,
  // its line and its cooks); the audit then takes what is left, and at least
  // this share of the budget (so a puzzle may take up to 1 + this share).
  double audit_reserve = 0.1;
  // A win claim the solve leaves open is checked along the book's mating
  // line; where a book defence is not the longest, the line may take up to
  // this many plies more in all (books often leave out delaying checks and
  // interpositions).
  int book_slack = 8;
  // A claimed win with a book line is also proved along the book's main
  // line, from its end back to the start (each position by the unbounded
  // full-width search, the book's other defences first): before the solve
  // with book_walk_share of the budget (the solve then finds its proofs in
  // the table), and after an undecided solve with what is left.
  bool book_walk = true;
  // On 适情雅趣 先胜局 0.3 confirmed 7 puzzles the solve had left open and
  // lost 6 at the edge of the solve's budget; on 梦入神机 6 and none.
  double book_walk_share = 0.3;
  // Where that first walk stops because its share ran out, at a position
  // where the loser has at most book_walk_near_open replies not yet proved
  // won (or at the winner's move), the proof is near: the walk goes on
  // until book_walk_near_share of the budget is used, before the solve.
  // On 适情雅趣 先胜局: 377 → 384 confirmed (five gained in both of two
  // runs, the rest at the edge of their budget), four shortest mates
  // fewer; docs/performance.md, round of stop 20.
  int book_walk_near_open = 5;
  double book_walk_near_share = 0.9;
  // The claim of a record that carries none (line lists) when the end of
  // its book line does not tell (see VerifyReport::claim_from): kUnknown
  // leaves it unknown ("no claim to check").
  Claim default_claim = Claim::kUnknown;
  // Before the default, the end of such a record's book line is solved with
  // this share of the budget (its end is often a few plies from the
  // composer's result); only a decided result counts. 0: the line's end is
  // not read.
  double claim_solve_share = 0.01;
  // Rule options applied to each record's own variant (LoadVariant's
  // overrides, e.g. "rules.perpetual_chase=loss"); the verdict's `solver`
  // text names them (VerdictRules), so that a stored verdict says which
  // rules it holds under.
  std::vector<std::string> rule_overrides;
};

// Where the book's main line departs from best play.
struct BookDeparture {
  enum class Kind {
    kIllegal,           // the move is not legal there (the line stops)
    kThrowsWin,         // a winner's move after which the win is gone (of the proved kind)
    kLengthens,         // a winner's move that makes the mate longer
    kShortens,          // a loser's move that is not the longest resistance
    kUndecided,         // the budget could not tell
    kStopsEarly,        // the line ends before mate
  };
  Kind kind = Kind::kUndecided;
  int ply = 0;              // 0-based index of the move in the main line
  std::string move;         // coordinate move as the book gives it
  std::string human;        // the variant's human notation (Chinese for Xiangqi)
  int best_plies = -1;      // distance to mate before the move, best play
  int book_plies = -1;      // distance to mate after the book's move, plus one (-1: no win)
  std::string text;         // one readable line
};

// How the book's main line ends.
enum class BookEnd {
  kNone,        // no line, or a move of it is not legal
  kMate,        // in mate (or a stalemate that loses by the variant's rule)
  kBeforeMate,  // in a position the book judges (a won ending, a draw), before mate
};
const char* BookEndName(BookEnd e);  // "mate", "before mate", "none"

struct VerifyReport {
  Verdict verdict;          // what goes into the store
  SolveResult solve;        // the solver's full answer
  std::vector<BookDeparture> book;
  bool book_audited = false;   // the main line was compared (completely when true)
  int book_plies = 0;          // length of the book's main line
  BookEnd book_end = BookEnd::kNone;  // when the line was played (an audit, or a record without a claim)
  // An unproven claimed win whose line stops before mate and whose walk ran
  // out of budget without finding a flaw: the book's win is a judgement of
  // its line's end (the first book note says so).
  bool open_on_judged_end = false;
  // The claim checked (side to move's view): the record's own, or, for a
  // record without one, what the end of its book line shows — a mate, a
  // position the endgame tables value, or one a short solve decides — or
  // else the options' default.
  Claim claimed = Claim::kUnknown;
  std::string claim_from;      // empty: the record's claim; else where it came from, readable
  // Where the verdict's seconds went besides the solve's phases
  // (solve.phase_seconds): before the solve, reading a claim from the
  // line's end and the walk along the book's line; after it, the book's
  // line proved or audited with what was left.
  double walk_seconds = 0;
  double audit_seconds = 0;
};

// Verifies one record. Returns non-OK (and a verdict saying why, unproven)
// when the record's position cannot be read; otherwise OK whatever the verdict.
Status VerifyRecord(const Record& record, const VerifyOptions& options, VerifyReport* out);

// The independent re-checks of a run's verdicts, counted (the verify
// summary table, solver_bench).
struct RecheckCounts {
  int mates_hold = 0, mates_incomplete = 0;
  int cooks = 0, cooks_hold = 0, cooks_incomplete = 0;
  void Add(const Verdict& v) {
    mates_hold += v.proof_check == 1;
    mates_incomplete += v.proof_check == 0;
    cooks += static_cast<int>(v.cooks.size());
    for (const int8_t c : v.cooks_check) {
      cooks_hold += c == 1;
      cooks_incomplete += c == 0;
    }
  }
};

// Name and version written into Verdict::solver, followed by the rule
// options the verdict was reached under (VerifyOptions::rule_overrides;
// VerdictSolverText and VerdictRules, puzzles/record.h).
const char* SolverVersion();

// How a verdict's line ends, replayed from `fen` under the rules the verdict
// was reached under (VerdictRules): the same moves can end in a perpetual
// check under one rule set and stay open under another. Nothing where it
// cannot be said (no line, no win or loss, an unreadable variant or position).
std::optional<LineEnd> VerdictLineEnd(const std::string& variant, const std::string& fen, const Verdict& v);

namespace verify_internal {
// The verdict a solve gives: its result read against the claim, its line
// and its cooks (every winning first move but the solution: the line's
// first move, or without a line the winning one with the shortest mate).
// VerifyRecord's own step, declared here for its tests.
void VerdictOfSolve(const Position& root, const SolveResult& sr, Claim claim, bool walked_first, int walk_variations,
                    Verdict* v);
}  // namespace verify_internal

}  // namespace canju

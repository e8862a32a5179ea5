// The independent re-check of proved mates (solver/proof_check.h): it
// confirms true mates at their length, finds the escape from a length one
// move too short, is not fooled by perpetual check, follows the rule that
// the perpetual checker loses, ignores a misleading hint, and agrees with
// the proof-number search on small random positions; a failed check withholds the result.
#include <gtest/gtest.h>

#include <string>

#include "solver/dfpn.h"
#include "solver/proof_check.h"
#include "solver/solver.h"
#include "variants/notation.h"
#include "variants/registry.h"
#include "random_positions.h"

namespace canju {
namespace {

using solver::CheckMate;
using solver::CheckStatus;
using solver::ProofCheckResult;

Position Pos(const std::string& variant, const std::string& fen) {
  Position p;
  Status st = Position::FromFen(BuiltinVariant(variant), fen, &p);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return p;
}

TEST(ProofCheck, TrueMatesHoldAndOneMoveShortEscapes) {
  struct Case {
    const char* variant;
    const char* fen;
    int plies;
  };
  const Case cases[] = {
      {"xiangqi", "2b2k3/1C7/9/9/9/9/9/4K4/3R5/9 w", 1},
      {"xiangqi", "5k3/1R2a4/9/8N/6b2/9/9/4K4/9/9 w", 3},
      {"xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w", 5},
      {"chess", "4N3/8/8/8/pK6/3R4/8/k7 w - - 0 1", 5},
  };
  for (const Case& c : cases) {
    const Position p = Pos(c.variant, c.fen);
    const ProofCheckResult ok = CheckMate(p, kFirst, c.plies, {}, nullptr, 0);
    EXPECT_EQ(ok.status, CheckStatus::kHolds) << c.fen;
    EXPECT_GT(ok.nodes, 0u);
    if (c.plies < 3) continue;
    const ProofCheckResult shorter = CheckMate(p, kFirst, c.plies - 2, {}, nullptr, 0);
    EXPECT_EQ(shorter.status, CheckStatus::kFails) << c.fen;
    // The escape starts with an attacker move and a defence, both legal.
    ASSERT_GE(shorter.escape.size(), 2u) << c.fen;
    Position q = p;
    for (Move m : shorter.escape) {
      MoveList ml;
      q.GenerateLegal(&ml);
      ASSERT_TRUE(ml.contains(m)) << c.fen;
      StateInfo st;
      q.DoMove(m, &st);
    }
  }
}

TEST(ProofCheck, PerpetualCheckIsNoMate) {
  // Red's rook can check for ever and Black's king always steps aside: a
  // check that counted the repetition as a win would say "holds".
  const Position p = Pos("xiangqi", "4k4/9/9/6R2/9/9/9/9/5K3/4r4 w");
  EXPECT_EQ(CheckMate(p, kFirst, 9, {}, nullptr, 0).status, CheckStatus::kFails);
}

TEST(ProofCheck, TheDefendersPerpetualCheckLoses) {
  // Black's only way out of the mate is to check for ever with the rook;
  // the Xiangqi rule makes that lose, a variant that allows it does not.
  const std::string fen = "4k4/9/3R5/9/9/9/9/8R/4r4/5K3 w";
  EXPECT_EQ(CheckMate(Pos("xiangqi", fen), kFirst, 5, {}, nullptr, 0).status, CheckStatus::kHolds);
  std::shared_ptr<const Variant> lenient;
  ASSERT_TRUE(LoadVariant("xiangqi", &lenient, {"rules.perpetual_check=draw"}).ok());
  Position q;
  ASSERT_TRUE(Position::FromFen(*lenient, fen, &q).ok());
  EXPECT_EQ(CheckMate(q, kFirst, 5, {}, nullptr, 0).status, CheckStatus::kFails);
}

TEST(ProofCheck, AWinByTheDefendersPerpetualCheckKeepsItsMovesAsHints) {
  // The mate in 5 rests on the defender's perpetual check losing: after
  // 车四进一 车５平６ (d7d8 e1e0) the proof holds on this path only (the
  // cycle goes back above that position), so the search keeps no fact
  // there, only the move that proved it — the hint the re-check needs to
  // walk the same path (a search from that position alone, without the
  // path, finds no mate within the plies left).
  const Position root = Pos("xiangqi", "4k4/9/3R5/9/9/9/9/8R/4r4/5K3 w");
  solver::TranspositionTable tt(size_t{1} << 20);
  solver::Budget budget(0, 0);
  solver::Prover prover(&tt, &budget);
  Position q = root;
  const solver::Question all{kFirst, solver::Mode::kAll, 5};
  const solver::Answer a = prover.Prove(q, all);
  ASSERT_EQ(a.status, solver::ProofStatus::kProven);
  ASSERT_EQ(a.length, 5);
  Position after = root;
  StateInfo st[2];
  Move m;
  ASSERT_TRUE(ParseCoordMove(after, "d7d8", &m).ok());
  after.DoMove(m, &st[0]);
  ASSERT_TRUE(ParseCoordMove(after, "e1e0", &m).ok());
  after.DoMove(m, &st[1]);
  uint16_t proof_len;
  int16_t disproof_depth;
  Move hint;
  prover.Facts(after, all, &proof_len, &disproof_depth, &hint);
  EXPECT_EQ(proof_len, solver::kNoProof);
  ASSERT_FALSE(hint.is_none());
  MoveList legal;
  after.GenerateLegal(&legal);
  EXPECT_TRUE(legal.contains(hint)) << MoveToCoord(after.variant(), hint);
  // Without the path there is no mate within the 3 plies left.
  solver::TranspositionTable fresh_tt(size_t{1} << 20);
  solver::Prover fresh(&fresh_tt, &budget);
  Position alone;
  ASSERT_TRUE(Position::FromFen(root.variant(), after.Fen(), &alone).ok());
  EXPECT_EQ(fresh.Prove(alone, {kFirst, solver::Mode::kAll, 3}).status, solver::ProofStatus::kDisproven);
}

TEST(ProofCheck, AMisleadingHintCostsNodesNotTheAnswer) {
  const Position p = Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");
  // A hint that names the last legal move (rarely the mating one), and one
  // that names a move of the wrong side.
  const solver::MateHint last = [](const Position& q, int) {
    MoveList ml;
    q.GenerateLegal(&ml);
    return ml.empty() ? Move() : ml[ml.size() - 1];
  };
  Position black_view = p;
  MoveList theirs;
  {
    StateInfo st;
    black_view.DoNullMove(&st);
    black_view.GenerateLegal(&theirs);
    black_view.UndoNullMove(st);
  }
  const Move foreign = theirs.empty() ? Move() : theirs[0];
  const solver::MateHint wrong = [foreign](const Position&, int) { return foreign; };
  EXPECT_EQ(CheckMate(p, kFirst, 5, last, nullptr, 0).status, CheckStatus::kHolds);
  EXPECT_EQ(CheckMate(p, kFirst, 5, wrong, nullptr, 0).status, CheckStatus::kHolds);
  EXPECT_EQ(CheckMate(p, kFirst, 3, last, nullptr, 0).status, CheckStatus::kFails);
}

TEST(ProofCheck, ANodeLimitLeavesItIncomplete) {
  const Position p = Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");
  const ProofCheckResult r = CheckMate(p, kFirst, 5, {}, nullptr, 3);
  EXPECT_EQ(r.status, CheckStatus::kIncomplete);
  EXPECT_LE(r.nodes, 4u);
}

TEST(ProofCheck, AgreesWithTheProofNumberSearchOnRandomPositions) {
  // Two implementations with nothing in common but the move generator:
  // "mate within 3 and 5 plies" by df-pn and by the check.
  testing_util::RandomPositions positions(BuiltinVariant("xiangqi"), "KkRCapb", 987654321);
  int checked = 0, mates = 0, no_mates = 0;
  Position p;
  while (checked < 60 && positions.Next(&p)) {
    ++checked;
    for (const int plies : {3, 5}) {
      solver::TranspositionTable tt(size_t{1} << 20);
      solver::Budget budget(0, 0);
      solver::Prover prover(&tt, &budget);
      Position q = p;
      const solver::Answer a = prover.Prove(q, {kFirst, solver::Mode::kAll, static_cast<uint16_t>(plies)});
      ASSERT_NE(a.status, solver::ProofStatus::kUnknown);
      const bool dfpn = a.status == solver::ProofStatus::kProven;
      const ProofCheckResult c = CheckMate(p, kFirst, plies, {}, nullptr, 0);
      EXPECT_EQ(c.status, dfpn ? CheckStatus::kHolds : CheckStatus::kFails) << p.Fen() << " within " << plies;
      (dfpn ? mates : no_mates) += 1;
    }
  }
  EXPECT_GE(checked, 50);
  EXPECT_GT(mates, 0);
  EXPECT_GT(no_mates, 0);
}

TEST(ProofCheck, TheSolverReChecksItsMates) {
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 500'000;
  const SolveResult r = Solve(Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w"), o);
  ASSERT_EQ(r.result, Claim::kWin);
  EXPECT_NE(r.proof_check, CheckStatus::kNotRun);
  EXPECT_EQ(r.proof_check, CheckStatus::kHolds);
  EXPECT_GT(r.proof_check_nodes, 0u);
  // The same check on request, with the solver's table as hints: the mate
  // holds at its length and not two plies shorter.
  Solver s(o);
  const Position p = Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");
  ASSERT_EQ(s.Solve(p).mate_plies, 5);
  EXPECT_EQ(s.RecheckMate(p, kFirst, 5).status, CheckStatus::kHolds);
  EXPECT_EQ(s.RecheckMate(p, kFirst, 3).status, CheckStatus::kFails);
  o.proof_check_nodes = 0;
  EXPECT_EQ(Solve(p, o).proof_check, CheckStatus::kNotRun);
}

TEST(ProofCheck, ASolveWhoseMateFailsItsReCheckIsWithheld) {
  // The whole path through Solve: the root's re-check is asked for two
  // plies fewer than the proof (SolveOptions::recheck_plies_for_test, the
  // fault injected), so the check finds an escape and the win is withheld.
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 500'000;
  o.recheck_plies_for_test = [](const Position&, int plies) { return plies - 2; };
  const SolveResult r = Solve(Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w"), o);
  EXPECT_EQ(r.result, Claim::kUnknown);
  EXPECT_EQ(r.mate_plies, -1);
  EXPECT_TRUE(r.pv.empty());
  EXPECT_EQ(r.proof_check, CheckStatus::kFails);
  EXPECT_NE(r.note.find("result withheld"), std::string::npos) << r.note;
}

TEST(ProofCheck, AFailedCheckWithholdsTheResult) {
  // No known fault of the search reaches this step, so it is given a real
  // failed check: the mate in 5 claimed as a mate in 3.
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 500'000;
  const Position p = Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");
  SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin);
  ASSERT_EQ(r.mate_plies, 5);
  r.mate_plies = 3;
  const ProofCheckResult failed = CheckMate(p, kFirst, 3, {}, nullptr, 0);
  ASSERT_EQ(failed.status, CheckStatus::kFails);
  ASSERT_GE(failed.escape.size(), 2u);
  const std::string note = WithholdUnsoundMate(p, failed, &r);
  EXPECT_EQ(r.result, Claim::kUnknown);
  EXPECT_EQ(r.mate_plies, -1);
  EXPECT_FALSE(r.mate_exact);
  EXPECT_TRUE(r.pv.empty());
  EXPECT_EQ(r.proof_check, CheckStatus::kFails);
  EXPECT_EQ(r.proof_check_nodes, failed.nodes);
  // The note names the claimed length and the escaping line, move by move
  // in Chinese notation and in coordinates.
  EXPECT_NE(note.find("the mate in 3 plies did not re-check"), std::string::npos) << note;
  EXPECT_NE(note.find("result withheld"), std::string::npos) << note;
  Position q = p;
  for (Move m : failed.escape) {
    EXPECT_NE(note.find(MoveToHuman(q, m) + " (" + MoveToCoord(q.variant(), m) + ")"), std::string::npos) << note;
    StateInfo st;
    q.DoMove(m, &st);
  }
}

}  // namespace
}  // namespace canju

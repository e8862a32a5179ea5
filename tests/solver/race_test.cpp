// Solves on several threads (solver/race.h): the racers' heuristics, the
// first decider cancelling the rest, and whole solves and verifications
// that race.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "solver/race.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "variants/notation.h"
#include "variants/registry.h"
#include "replay.h"

namespace canju {
namespace {

Position Pos(const std::string& fen) {
  Position p;
  const Status st = Position::FromFen(BuiltinVariant("xiangqi"), fen, &p);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return p;
}

TEST(Race, RacersDifferOnlyInTheirHeuristics) {
  SolveOptions base;
  base.threads = 5;
  base.material_weight = 8;
  base.killers = true;
  base.max_nodes = 1234;
  std::atomic<bool> cancel{false};
  const SolveOptions r0 = solver::RacerOptions(base, 0, &cancel);
  const SolveOptions r1 = solver::RacerOptions(base, 1, &cancel);
  const SolveOptions r2 = solver::RacerOptions(base, 2, &cancel);
  const SolveOptions r3 = solver::RacerOptions(base, 3, &cancel);
  const SolveOptions r4 = solver::RacerOptions(base, 4, &cancel);
  for (const SolveOptions* o : {&r0, &r1, &r2, &r3, &r4}) {
    EXPECT_EQ(o->threads, 1);  // a racer does not race again
    EXPECT_EQ(o->cancel, &cancel);
    EXPECT_FALSE(o->on_root_decided);  // the race sets it
    EXPECT_EQ(o->max_nodes, 1234u);  // the whole budget each
  }
  EXPECT_EQ(r0.material_weight, 8);
  EXPECT_TRUE(r0.killers);
  EXPECT_EQ(r1.material_weight, 0);
  EXPECT_EQ(r2.material_weight, 16);
  EXPECT_FALSE(r3.killers);
  EXPECT_EQ(r3.material_weight, 8);
  EXPECT_EQ(r4.material_weight, 4);
  EXPECT_NE(solver::RacerName(1), solver::RacerName(2));
  // The note names a racer only when it is not the one with the defaults.
  EXPECT_EQ(solver::RaceNote(0, 2), "");
  EXPECT_EQ(solver::RaceNote(1, 3), "; decided by searcher 2 of 3 (" + solver::RacerName(1) + ")");
}

// A racer that has not decided waits for its cancel and says whether it
// came (a broken race would leave it here until the limit).
bool WaitForCancel(const SolveOptions& o) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!o.cancel->load() && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return o.cancel->load();
}

TEST(Race, TheFirstToDecideCancelsTheRest) {
  SolveOptions base;
  base.threads = 3;
  std::vector<int> saw_cancel(3, 0);
  const int winner = solver::Race(base, [&](int i, const SolveOptions& o) {
    if (i == 1) return true;  // decides at once
    saw_cancel[i] = WaitForCancel(o);
    return false;
  });
  EXPECT_EQ(winner, 1);
  EXPECT_TRUE(saw_cancel[0]);
  EXPECT_TRUE(saw_cancel[2]);
}

TEST(Race, ARacerThatProvesTheRootStopsTheOthersButNotItself) {
  // on_root_decided: the proof is found, the shortest mate and cooks are
  // still to come — the others stop now, the decider goes on.
  SolveOptions base;
  base.threads = 2;
  bool own_cancel_after = true;
  std::vector<int> saw_cancel(2, 0);
  const int winner = solver::Race(base, [&](int i, const SolveOptions& o) {
    if (i == 1) {
      o.on_root_decided();
      own_cancel_after = o.cancel->load();
      return true;
    }
    saw_cancel[i] = WaitForCancel(o);
    return false;
  });
  EXPECT_EQ(winner, 1);
  EXPECT_FALSE(own_cancel_after);
  EXPECT_TRUE(saw_cancel[0]);
}

TEST(Race, OnlyTheFirstToProveTheRootCancels) {
  // Both racers prove the root, one after the other: the second neither
  // cancels the first (whose shortest mate would be cut short) nor wins,
  // even when it returns first.
  SolveOptions base;
  base.threads = 2;
  std::atomic<bool> first_proved{false}, second_returned{false};
  bool first_cancelled = true;
  const int winner = solver::Race(base, [&](int i, const SolveOptions& o) {
    if (i == 1) {
      o.on_root_decided();
      first_proved = true;
      while (!second_returned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      first_cancelled = o.cancel->load();
      return true;
    }
    while (!first_proved) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    o.on_root_decided();  // too late
    second_returned = true;
    return true;
  });
  EXPECT_EQ(winner, 1);
  EXPECT_FALSE(first_cancelled);
}

TEST(Race, WhenNoRacerDecidesTheFirstAnswers) {
  SolveOptions base;
  base.threads = 2;
  std::atomic<int> ran{0};
  const int winner = solver::Race(base, [&](int, const SolveOptions&) {
    ++ran;
    return false;
  });
  EXPECT_EQ(winner, 0);
  EXPECT_EQ(ran.load(), 2);
}

TEST(Race, ASolveOnThreeThreadsFindsTheShortestMate) {
  const Position p = Pos("3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");  // mate in 5 plies (solver_test)
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 2'000'000;
  o.tt_bytes = size_t{8} << 20;
  o.threads = 3;
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  EXPECT_EQ(r.mate_plies, 5);
  EXPECT_TRUE(r.mate_exact);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  EXPECT_EQ(r.proof_check, solver::CheckStatus::kHolds);
  EXPECT_GT(r.nodes, 0u);
}

TEST(Race, TheUsersStopEndsEveryRacer) {
  // The opening position is far beyond any budget; a stop already set ends
  // every racer at its first poll (every 1,024 nodes), unlimited as they are.
  const Position p = Pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
  std::atomic<bool> stop{true};
  SolveOptions o;
  o.max_seconds = 0;
  o.tt_bytes = size_t{4} << 20;
  o.threads = 2;
  o.stop = &stop;
  const SolveResult r = Solve(p, o);
  EXPECT_EQ(r.result, Claim::kUnknown);
  EXPECT_LT(r.nodes, 1'000'000u);
}

TEST(Race, AVerificationOnTwoThreadsConfirmsTheClaim) {
  Record rec;
  rec.fen = "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w";
  rec.title = "test";
  rec.source = "race_test";
  rec.claimed = Claim::kWin;
  VerifyOptions o;
  o.solve.max_seconds = 0;
  o.solve.max_nodes = 2'000'000;
  o.solve.tt_bytes = size_t{8} << 20;
  o.solve.threads = 2;
  VerifyReport rep;
  ASSERT_TRUE(VerifyRecord(rec, o, &rep).ok());
  EXPECT_EQ(rep.verdict.kind, VerdictKind::kConfirmed) << rep.verdict.reason;
  EXPECT_EQ(rep.verdict.mate_plies, 5);
  EXPECT_GT(rep.verdict.nodes, 0u);
}

}  // namespace
}  // namespace canju

// The solver on hand-made positions whose answers an independent brute-force
// minimax (below) confirms: mates in 1, 3, 5, a sacrifice, a win whose first
// move is not a check, a perpetual-check trap, chess mates and stalemate.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "solver/dfpn.h"
#include "solver/solver.h"
#include "variants/notation.h"
#include "variants/registry.h"
#include "random_positions.h"
#include "replay.h"

namespace canju {
namespace {

using solver::Answer;
using solver::Budget;
using solver::Mode;
using solver::ProofStatus;
using solver::Prover;
using solver::TranspositionTable;
using solver::kUnbounded;

Position Pos(const std::string& variant, const std::string& fen) {
  Position p;
  Status st = Position::FromFen(BuiltinVariant(variant), fen, &p);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return p;
}

// --- brute force: plain minimax, no table, no pruning beyond cut-offs -------

bool MatesWithin(Position& p, int plies, bool checks_only = false);
bool MatedWithin(Position& p, int plies, bool checks_only) {  // defender to move
  MoveList ml;
  p.GenerateLegal(&ml);
  if (ml.empty()) return p.InCheck() || p.variant().rules().stalemate == Outcome::kLoss;
  if (plies <= 0) return false;
  for (Move m : ml) {
    StateInfo st;
    p.DoMove(m, &st);
    const bool r = MatesWithin(p, plies - 1, checks_only);
    p.UndoMove(m, st);
    if (!r) return false;
  }
  return true;
}
bool MatesWithin(Position& p, int plies, bool checks_only) {
  if (plies <= 0) return false;
  MoveList ml;
  p.GenerateLegal(&ml);
  for (Move m : ml) {
    StateInfo st;
    p.DoMove(m, &st);
    const bool r = (!checks_only || p.InCheck()) && MatedWithin(p, plies - 1, checks_only);
    p.UndoMove(m, st);
    if (r) return true;
  }
  return false;
}

// Plays a line and tells whether it ends with the side to move lost.
SolveOptions Quick() {
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 3'000'000;
  o.tt_bytes = size_t{16} << 20;
  return o;
}

void ExpectShortestMate(const std::string& variant, const std::string& fen, int plies) {
  Position p = Pos(variant, fen);
  // The brute force says: a mate within `plies`, none within plies - 2.
  ASSERT_TRUE(MatesWithin(p, plies)) << fen;
  if (plies > 2) {
    ASSERT_FALSE(MatesWithin(p, plies - 2)) << fen;
  }
  const SolveResult r = Solve(p, Quick());
  EXPECT_EQ(r.result, Claim::kWin) << fen << " " << r.note;
  EXPECT_EQ(r.mate_plies, plies) << fen;
  EXPECT_TRUE(r.mate_exact) << fen;
  ASSERT_EQ(static_cast<int>(r.pv.size()), plies) << fen;
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv)) << fen;
  ASSERT_FALSE(r.first_moves.empty());
  EXPECT_EQ(r.first_moves[0].move, r.pv[0]);
  // Every move listed as winning wins (brute force, within the proof's
  // length, where that is short enough to brute-force).
  for (const FirstMove& f : r.first_moves) {
    if (f.result != Claim::kWin || f.mate_plies > plies) continue;
    StateInfo st;
    p.DoMove(f.move, &st);
    EXPECT_TRUE(MatedWithin(p, f.mate_plies - 1, false)) << MoveToCoord(p.variant(), f.move);
    p.UndoMove(f.move, st);
  }
}

TEST(Solver, XiangqiMateInOne) { ExpectShortestMate("xiangqi", "2b2k3/1C7/9/9/9/9/9/4K4/3R5/9 w", 1); }
TEST(Solver, XiangqiMateInThree) { ExpectShortestMate("xiangqi", "5k3/1R2a4/9/8N/6b2/9/9/4K4/9/9 w", 3); }
TEST(Solver, XiangqiMateInFive) { ExpectShortestMate("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w", 5); }
TEST(Solver, ChessMateInTwo) { ExpectShortestMate("chess", "6k1/8/8/8/Q7/4p3/8/R6K w - - 0 1", 3); }
TEST(Solver, ChessMateInThree) { ExpectShortestMate("chess", "4N3/8/8/8/pK6/3R4/8/k7 w - - 0 1", 5); }

// A full-width win whose shortest mate the budget leaves open still says what
// the tightening proved below it: 《适情雅趣》第063局 at 500,000 nodes is a mate
// within 11 plies (an upper bound) with none within 5, and the brute force
// agrees on the lower bound (deeper brute force takes minutes here).
TEST(Solver, AnUpperBoundKeepsTheLowerBoundProved) {
  Position p = Pos("xiangqi", "3akarr1/1NC2P2C/9/9/R8/9/6p2/4B4/2n1p4/5K3 w - - 0 1");
  SolveOptions o = Quick();
  o.max_nodes = 500'000;  // (400,000 to 800,000 nodes fit that; 300,000 no longer prove the win)
  o.cooks = false;
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  ASSERT_EQ(r.proof, ProofKind::kFullWidth);
  ASSERT_FALSE(r.mate_exact) << "the budget now proves the shortest mate: raise the position's difficulty";
  ASSERT_GT(r.no_mate_within, 0) << r.note;
  EXPECT_LT(r.no_mate_within, r.mate_plies);
  EXPECT_FALSE(MatesWithin(p, r.no_mate_within)) << "no mate within " << r.no_mate_within << " is claimed";
}

TEST(Solver, ChessClassicSacrifice) {
  // Légal-style finish: 1. Nf6+ gxf6 2. Bxf7#.
  const std::string fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
  Position p = Pos("chess", fen);
  ASSERT_TRUE(MatesWithin(p, 3));
  const SolveResult r = Solve(p, Quick());
  EXPECT_EQ(r.result, Claim::kWin);
  EXPECT_EQ(r.mate_plies, 3);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
}

TEST(Solver, ConsecutiveCheckMateWithSacrifice) {
  // 梦入神机 舍身无二: every Red move checks, and the first is taken at once.
  Position p = Pos("xiangqi", "3N1a3/3k5/4R4/1n4r2/R8/9/9/9/3p1r3/C3K4 w");
  SolveOptions o = Quick();
  o.checks_only = true;
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  EXPECT_EQ(r.proof, ProofKind::kChecks);
  ASSERT_GE(r.pv.size(), 2u);
  EXPECT_EQ(r.pv[1].to(), r.pv[0].to()) << "the first checking piece is captured";
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  // Every Red move of the line gives check.
  Position q = p;
  for (size_t i = 0; i < r.pv.size(); ++i) {
    StateInfo st;
    q.DoMove(r.pv[i], &st);
    if (i % 2 == 0) {
      EXPECT_TRUE(q.InCheck()) << "ply " << i;
    }
  }
  EXPECT_TRUE(MatesWithin(p, r.mate_plies, true));
  EXPECT_FALSE(MatesWithin(p, r.mate_plies - 2, true));
}

TEST(Solver, PhaseSecondsAddUpToTheSolve) {
  // A win goes through every phase, in order; the phases' seconds are the
  // solve's seconds split at the phases' ends.
  const SolveResult won = Solve(Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w"), Quick());
  ASSERT_EQ(won.result, Claim::kWin) << won.note;
  const SolvePhaseSeconds& w = won.phase_seconds;
  for (double x : {w.decide, w.shortest, w.line, w.cooks}) EXPECT_GE(x, 0);
  EXPECT_GT(w.decide, 0);
  EXPECT_GT(w.cooks, 0);  // every other first move was tried
  EXPECT_NEAR(w.decide + w.shortest + w.line + w.cooks, won.seconds, 1e-9);
  // Without a win, the whole solve is the root's phase.
  const SolveResult drawn = Solve(Pos("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w"), Quick());
  ASSERT_NE(drawn.result, Claim::kWin);
  EXPECT_EQ(drawn.phase_seconds.decide, drawn.seconds);
  EXPECT_EQ(drawn.phase_seconds.shortest + drawn.phase_seconds.line + drawn.phase_seconds.cooks, 0);
}

TEST(Solver, OnlyWinIsNotACheck) {
  // Red mates in 3, but only with a quiet first move; no mate by checks.
  const std::string fen = "3a5/9/5k3/9/9/9/6R2/9/9/2NK5 w";
  Position p = Pos("xiangqi", fen);
  ASSERT_TRUE(MatesWithin(p, 3));
  ASSERT_FALSE(MatesWithin(p, 9, true));

  SolveOptions checks = Quick();
  checks.checks_only = true;
  const SolveResult c = Solve(p, checks);
  EXPECT_NE(c.result, Claim::kWin);

  const SolveResult r = Solve(p, Quick());
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  EXPECT_EQ(r.mate_plies, 3);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  StateInfo st;
  p.DoMove(r.pv[0], &st);
  EXPECT_FALSE(p.InCheck()) << "the winning first move is quiet";
}

TEST(Solver, MaterialWeightReachesTheSearch) {
  // SolveOptions::material_weight orders the full-width search: the same
  // answer with and without it, found along another path.
  Position p = Pos("xiangqi", "2r2a3/c2C1k3/7P1/9/2b2N3/9/9/9/1p1p5/4K4 w");  // 梦入神机 三鳝登堂
  SolveOptions weighed = Quick(), plain = Quick();
  plain.material_weight = 0;
  ASSERT_GT(weighed.material_weight, 0);
  const SolveResult a = Solve(p, weighed), b = Solve(p, plain);
  ASSERT_EQ(a.result, Claim::kWin) << a.note;
  ASSERT_EQ(b.result, Claim::kWin) << b.note;
  EXPECT_EQ(a.mate_plies, b.mate_plies);
  EXPECT_TRUE(a.mate_exact && b.mate_exact);
  EXPECT_NE(a.nodes, b.nodes);
}

TEST(Solver, ThreatModeFindsQuietMoveMates) {
  // The quiet first move threatens a mate by checks, so the checks-and-
  // threats search proves what the checks-only search disproves.
  Position p = Pos("xiangqi", "3a5/9/5k3/9/9/9/6R2/9/9/2NK5 w");
  TranspositionTable tt(size_t{4} << 20);
  Budget budget(1'000'000, 0);
  Prover prover(&tt, &budget);
  EXPECT_EQ(prover.Prove(p, {kFirst, Mode::kChecks, kUnbounded}).status, ProofStatus::kDisproven);
  const Answer t = prover.Prove(p, {kFirst, Mode::kThreats, 3});
  EXPECT_EQ(t.status, ProofStatus::kProven);
  EXPECT_EQ(t.length, 3);
  SolveOptions o = Quick();
  o.threats = true;
  EXPECT_EQ(Solve(p, o).result, Claim::kWin);
}

// A check-only search that (wrongly) counts a repeated position as a win for
// the checking side, as a naive reading of "perpetual check loses" would.
bool NaiveWins(Position& p, std::vector<uint64_t>& path, int plies, bool attacker) {
  for (uint64_t k : path)
    if (k == p.key()) return true;
  MoveList ml;
  p.GenerateLegal(&ml);
  if (!attacker && ml.empty()) return true;
  if (plies <= 0) return false;
  path.push_back(p.key());
  bool result = !attacker;
  for (Move m : ml) {
    StateInfo st;
    p.DoMove(m, &st);
    const bool ok = attacker ? p.InCheck() && NaiveWins(p, path, plies - 1, false) : NaiveWins(p, path, plies - 1, true);
    p.UndoMove(m, st);
    if (attacker && ok) { result = true; break; }
    if (!attacker && !ok) { result = false; break; }
  }
  path.pop_back();
  return result;
}

TEST(Solver, PerpetualCheckIsNotAWin) {
  // Red's rook can check for ever, and Black's king can always step aside.
  const std::string fen = "4k4/9/9/6R2/9/9/9/9/5K3/4r4 w";
  Position p = Pos("xiangqi", fen);
  std::vector<uint64_t> path;
  ASSERT_TRUE(NaiveWins(p, path, 9, true)) << "the trap: a naive search claims a win";
  ASSERT_FALSE(MatesWithin(p, 9, true)) << "no real mate by checks";

  TranspositionTable tt(size_t{4} << 20);
  Budget budget(2'000'000, 0);
  Prover prover(&tt, &budget);
  const Answer a = prover.Prove(p, {kFirst, Mode::kChecks, kUnbounded});
  EXPECT_EQ(a.status, ProofStatus::kDisproven);
  SolveOptions o = Quick();
  o.max_nodes = 400'000;
  const SolveResult r = Solve(p, o);
  EXPECT_NE(r.result, Claim::kWin);
}

TEST(Solver, DefenderPerpetualCheckLoses) {
  // Red threatens mate; Black's only way out is to check for ever with the
  // rook. By the Xiangqi rule the perpetual checker loses, so Red wins within
  // 5 plies; where perpetual check is allowed (overridden to a draw), Red
  // has no win within 5 plies.
  const std::string fen = "4k4/9/3R5/9/9/9/9/8R/4r4/5K3 w";
  Position p = Pos("xiangqi", fen);
  TranspositionTable tt(size_t{4} << 20);
  Budget budget(2'000'000, 0);
  Prover prover(&tt, &budget);
  EXPECT_EQ(prover.Prove(p, {kFirst, Mode::kAll, 5}).status, ProofStatus::kProven);

  std::shared_ptr<const Variant> lenient;
  ASSERT_TRUE(LoadVariant("xiangqi", &lenient, {"rules.perpetual_check=draw"}).ok());
  Position q;
  ASSERT_TRUE(Position::FromFen(*lenient, fen, &q).ok());
  TranspositionTable tt2(size_t{4} << 20);
  Budget budget2(2'000'000, 0);
  Prover prover2(&tt2, &budget2);
  EXPECT_EQ(prover2.Prove(q, {kFirst, Mode::kAll, 5}).status, ProofStatus::kDisproven);
}

TEST(Solver, BoundedSearchAgreesWithBruteForce) {
  // Small random positions: "mate within 3 plies" by df-pn and by minimax.
  testing_util::RandomPositions positions(BuiltinVariant("xiangqi"), "KkRNap", 12345);
  int checked = 0, mates = 0;
  Position p;
  while (checked < 60 && positions.Next(&p)) {
    ++checked;
    const bool brute = MatesWithin(p, 3);
    const bool brute1 = MatesWithin(p, 1);
    mates += brute;
    // The heuristics — material (off, the solver's weight, an extreme one)
    // and killer moves (with depth 1 asked first, as the tightening asks
    // several depths of one table) — change the order of the search, never
    // its answer.
    struct Order {
      int weight;
      bool killers;
      uint32_t simulation = 0;
    };
    for (const Order o : {Order{0, false}, Order{8, false}, Order{400, false}, Order{0, true}, Order{8, true},
                          Order{8, true, 1000}}) {
      TranspositionTable tt(size_t{1} << 20);
      Budget budget(0, 0);
      Prover prover(&tt, &budget);
      prover.set_material_weight(o.weight);
      prover.set_killers(o.killers);
      prover.set_simulation_nodes(o.simulation);
      const std::string how = " weight " + std::to_string(o.weight) + " killers " + std::to_string(o.killers) +
                              " simulation " + std::to_string(o.simulation);
      const Answer a1 = prover.Prove(p, {kFirst, Mode::kAll, 1});
      EXPECT_EQ(a1.status, brute1 ? ProofStatus::kProven : ProofStatus::kDisproven) << p.Fen() << how;
      const Answer a = prover.Prove(p, {kFirst, Mode::kAll, 3});
      EXPECT_EQ(a.status, brute ? ProofStatus::kProven : ProofStatus::kDisproven) << p.Fen() << how;
      const Answer c = prover.Prove(p, {kFirst, Mode::kChecks, 3});
      EXPECT_EQ(c.status == ProofStatus::kProven, MatesWithin(p, 3, true)) << p.Fen() << how;
    }
  }
  EXPECT_GE(checked, 50);
  EXPECT_GT(mates, 0);
}

TEST(Solver, SimulationProvesWhatTheSearchProves) {
  // Deeper bounded questions (mate within 5 and 7 plies) on small random
  // positions of four materials: the search with simulation answers as the
  // one without, and it proves some defences by simulation. (A simulation
  // that checked only the first defence of each node fails here, and so
  // does one that plays the refuted line's move without testing that it
  // leaves the attacker's king safe in the sibling's position: the
  // defender's rook of KkRCr pins and faces kings.)
  int checked = 0, proved = 0;
  uint64_t simulated = 0;
  for (const char* pieces : {"KkRRNap", "KkRNab", "KkRCaa", "KkNNPab", "KkRCr"}) {
    testing_util::RandomPositions positions(BuiltinVariant("xiangqi"), pieces, 777);
    Position p;
    for (int n = 0; n < 30 && positions.Next(&p); ++n) {
      ++checked;
      for (const uint16_t depth : {uint16_t{5}, uint16_t{7}}) {
        for (const Mode mode : {Mode::kAll, Mode::kChecks}) {
          Answer answers[2];
          for (int sim = 0; sim < 2; ++sim) {
            TranspositionTable tt(size_t{1} << 20);
            Budget budget(0, 0);
            Prover prover(&tt, &budget);
            prover.set_material_weight(8);
            prover.set_killers(true);
            prover.set_simulation_nodes(sim ? 1000 : 0);
            answers[sim] = prover.Prove(p, {kFirst, mode, depth});
            simulated += prover.simulated();
          }
          const std::string how =
              p.Fen() + " depth " + std::to_string(depth) + (mode == Mode::kAll ? " all" : " checks");
          EXPECT_EQ(answers[1].status, answers[0].status) << how;
          proved += answers[0].status == ProofStatus::kProven;
        }
      }
    }
  }
  EXPECT_GE(checked, 100);
  EXPECT_GT(proved, 5);
  EXPECT_GT(simulated, 0u);
}

// After each defence of the line `r.pv` from `p`, with at most five plies
// left of `r.mate_plies`, the winner still mates in the plies left (brute
// force).
void ExpectMatedAfterEachDefence(const Position& p, const SolveResult& r) {
  Position q = p;
  std::vector<StateInfo> states(r.pv.size());
  for (size_t i = 0; i < r.pv.size(); ++i) {
    q.DoMove(r.pv[i], &states[i]);
    const int left = r.mate_plies - static_cast<int>(i) - 1;
    if (i % 2 == 1 && left <= 5) {
      EXPECT_TRUE(MatesWithin(q, left)) << p.Fen() << " after ply " << i + 1;
    }
  }
}

TEST(Solver, AWinWithoutItsShortestMateStillHasTheProofsLine) {
  // Without the tightening the length is the proof's, an upper bound; the
  // line is the proof's too: legal, ending in mate within that length, and
  // after each of its defences the winner still mates in the plies left
  // (brute force).
  SolveOptions o = Quick();
  o.shortest = false;
  const Position p = Pos("xiangqi", "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w");
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin);
  EXPECT_FALSE(r.mate_exact);
  ASSERT_FALSE(r.pv.empty());
  EXPECT_LE(static_cast<int>(r.pv.size()), r.mate_plies);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  ExpectMatedAfterEachDefence(p, r);
  EXPECT_NE(r.note.find("the line is the proof's"), std::string::npos) << r.note;
}

TEST(Solver, AProofsLineIsRefilledWhereTheTableLostItsProofs) {
  // A full table replaces entries, so the line of a long proof can meet
  // positions whose proof is gone; the line's walk proves them again (small
  // bounded searches). Here every proof is forgotten before the line is
  // made: it still reaches the mate within the proof's length, and after
  // each defence the winner still mates in the plies left (brute force).
  SolveOptions o = Quick();
  o.shortest = false;
  o.cooks = false;
  o.forget_proofs_before_line_for_test = true;
  for (const char* fen : {"3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w", "2bk5/9/4b4/9/9/9/9/9/5R3/4K4 w"}) {
    const Position p = Pos("xiangqi", fen);
    const SolveResult r = Solve(p, o);
    ASSERT_EQ(r.result, Claim::kWin) << fen;
    ASSERT_FALSE(r.pv.empty()) << fen << ": " << r.note;
    EXPECT_LE(static_cast<int>(r.pv.size()), r.mate_plies) << fen;
    EXPECT_EQ(HowLineEnds(p, r.pv, kFirst), LineEnd::kMate) << fen << ": " << r.note;
    EXPECT_EQ(r.note.find("stops before mate"), std::string::npos) << r.note;
    EXPECT_EQ(r.note.find("no line"), std::string::npos) << r.note;
    ExpectMatedAfterEachDefence(p, r);
  }
}

TEST(Solver, ALineEndsInMateOrWhereTheLosersChecksRepeat) {
  // Black's rook checks Red's king from a1/a0 while the king steps between
  // e0 and e1: after four plies the position repeats with every Black move
  // a check and no Red one — a win for Red where perpetual check loses.
  const Position p = Pos("xiangqi", "3k5/9/9/9/9/9/9/9/r8/4K4 b");
  auto line = [&](const Position& from, std::initializer_list<const char*> moves) {
    std::vector<Move> out;
    Position q = from;
    std::vector<StateInfo> states(moves.size());
    for (const char* text : moves) {
      Move m;
      EXPECT_TRUE(ParseCoordMove(q, text, &m).ok()) << text;
      out.push_back(m);
      q.DoMove(m, &states[out.size() - 1]);
    }
    return out;
  };
  const std::vector<Move> perpetual = line(p, {"a1a0", "e0e1", "a0a1", "e1e0"});
  EXPECT_EQ(HowLineEnds(p, perpetual, kFirst), LineEnd::kPerpetualCheck);
  // The repetition is seen from either side's move: one ply on, the
  // position after a0's check repeats too.
  EXPECT_EQ(HowLineEnds(p, line(p, {"a1a0", "e0e1", "a0a1", "e1e0", "a1a0"}), kFirst), LineEnd::kPerpetualCheck);
  // Short of the repetition, or a repetition in which not every Black
  // move checks (a1a2 does not): open.
  EXPECT_EQ(HowLineEnds(p, line(p, {"a1a0", "e0e1", "a0a1"}), kFirst), LineEnd::kOpen);
  EXPECT_EQ(HowLineEnds(p, line(p, {"a1a2", "e0e1", "a2a1", "e1e0"}), kFirst), LineEnd::kOpen);
  // Black's perpetual check is no win for Black.
  EXPECT_EQ(HowLineEnds(p, perpetual, kSecond), LineEnd::kOpen);
  // A variant where perpetual check is allowed (a draw) gives no win by it.
  std::shared_ptr<const Variant> lenient;
  ASSERT_TRUE(LoadVariant("xiangqi", &lenient, {"rules.perpetual_check=draw"}).ok());
  Position q;
  ASSERT_TRUE(Position::FromFen(*lenient, p.Fen(), &q).ok());
  EXPECT_EQ(HowLineEnds(q, line(q, {"a1a0", "e0e1", "a0a1", "e1e0"}), kFirst), LineEnd::kOpen);
  // The same from a line in coordinates (a verdict's pv) and the result for
  // the side to move (Black, who loses); nothing where there is no line, no
  // win or loss, or a move that is not legal.
  using Coords = std::vector<std::string>;  // (two strings would also read as an iterator range)
  LineEnd end = LineEnd::kMate;
  ASSERT_TRUE(HowLineEnds(p, Coords{"a1a0", "e0e1", "a0a1", "e1e0"}, Claim::kLoss, &end));
  EXPECT_EQ(end, LineEnd::kPerpetualCheck);
  ASSERT_TRUE(HowLineEnds(p, Coords{"a1a0", "e0e1", "a0a1"}, Claim::kLoss, &end));
  EXPECT_EQ(end, LineEnd::kOpen);
  EXPECT_FALSE(HowLineEnds(p, Coords{"a1a0", "e0e2"}, Claim::kLoss, &end));
  EXPECT_FALSE(HowLineEnds(p, Coords{"a1a0"}, Claim::kDraw, &end));
  EXPECT_FALSE(HowLineEnds(p, Coords{}, Claim::kLoss, &end));
  EXPECT_STREQ(LineEndName(LineEnd::kPerpetualCheck), "perpetual_check");
  // A mate.
  const Position m = Pos("xiangqi", "3a5/9/5k3/9/9/9/6R2/9/9/2NK5 w");
  const SolveResult r = Solve(m, Quick());
  ASSERT_EQ(r.result, Claim::kWin);
  EXPECT_EQ(HowLineEnds(m, r.pv, kFirst), LineEnd::kMate);
  std::vector<std::string> coords;
  for (Move mv : r.pv) coords.push_back(MoveToCoord(m.variant(), mv));
  ASSERT_TRUE(HowLineEnds(m, coords, Claim::kWin, &end));
  EXPECT_EQ(end, LineEnd::kMate);
  EXPECT_EQ(HowLineEnds(m, std::vector<Move>(r.pv.begin(), r.pv.end() - 1), kFirst), LineEnd::kOpen);
}

TEST(Solver, AMateThatRestsOnTheDefendersPerpetualCheckHasItsWholeLine) {
  // After 车六进一 车５进１ the mate rests on Black's perpetual check losing,
  // which a search from the line's position alone cannot see: best play is
  // proved for two plies, the proof's line (its moves kept as path hints)
  // goes on to the mate.
  const Position p = Pos("xiangqi", "4k4/9/3R5/9/9/9/9/8R/4r4/5K3 w");
  SolveOptions o = Quick();
  o.cooks = false;
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin);
  ASSERT_EQ(r.mate_plies, 5);
  EXPECT_TRUE(r.mate_exact);
  EXPECT_EQ(r.pv.size(), 5u);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  EXPECT_NE(r.note.find("best play proved for the first 2 plies of the line, the rest is the proof's"),
            std::string::npos)
      << r.note;
}

TEST(Solver, StalemateFollowsTheRules) {
  // Xiangqi: the stalemated side loses; chess: it is a draw.
  const SolveResult x = Solve(Pos("xiangqi", "3k5/R8/9/9/9/9/9/9/4RK3/9 b"), Quick());
  EXPECT_EQ(x.result, Claim::kLoss);
  EXPECT_EQ(x.proof, ProofKind::kTerminal);
  const SolveResult c = Solve(Pos("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Quick());
  EXPECT_EQ(c.result, Claim::kDraw);
  // White must not "win" by stalemating: Qf7 here would stalemate, Qf8 mates.
  Position p = Pos("chess", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
  const SolveResult r = Solve(p, Quick());
  EXPECT_EQ(r.result, Claim::kWin);
  EXPECT_EQ(r.mate_plies, 1);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  for (const FirstMove& f : r.first_moves) EXPECT_NE(MoveToCoord(p.variant(), f.move), "f1f7");
}

TEST(Solver, LossIsFoundFromTheDefendersSide) {
  // Black to move in the mate-in-3 position after Red's quiet first move:
  // whatever Black does, Red mates next move.
  Position p = Pos("xiangqi", "3a5/9/5k3/9/9/9/6R2/9/9/2NK5 w");
  const SolveResult win = Solve(p, Quick());
  ASSERT_EQ(win.result, Claim::kWin);
  StateInfo st;
  p.DoMove(win.pv[0], &st);
  const SolveResult r = Solve(p, Quick());
  EXPECT_EQ(r.result, Claim::kLoss) << r.note;
  EXPECT_EQ(r.mate_plies, 2);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
}

TEST(Solver, BudgetRunsOutHonestly) {
  // A real composition with too few nodes: unknown, never a wrong verdict.
  Position p = Pos("xiangqi", "3N1a3/3k5/4R4/1n4r2/R8/9/9/9/3p1r3/C3K4 w");
  SolveOptions o = Quick();
  o.max_nodes = 50;
  const SolveResult r = Solve(p, o);
  EXPECT_NE(r.result, Claim::kLoss);
  if (r.result == Claim::kUnknown) {
    EXPECT_FALSE(r.note.empty());
  }
}

TEST(Solver, CpuClockBudgetStopsTheSearch) {
  // The opening position is far beyond any budget: the search stops once the
  // thread has spent its CPU seconds, says unknown, and reports the CPU time
  // it used.
  Position p = Pos("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
  SolveOptions o;
  o.max_seconds = 0.2;
  o.cpu_clock = true;
  o.tt_bytes = size_t{4} << 20;
  const auto start = std::chrono::steady_clock::now();
  const SolveResult r = Solve(p, o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.result, Claim::kUnknown);
  // The phases share the budget (the last one leaves a little): most of it
  // is used, never much more, and CPU time never runs ahead of the clock.
  EXPECT_GE(r.seconds, 0.1);
  EXPECT_LE(r.seconds, 0.3);
  EXPECT_GE(wall + 0.01, r.seconds);
  EXPECT_GT(r.nodes, 0u);
  EXPECT_NE(r.note.find("undecided"), std::string::npos) << r.note;
}

TEST(Solver, TheTableIsNoLargerThanTheNodeBudgetCanFill) {
  // A small node budget gets a small table (the kernel's zeroed pages of a
  // full one cost more than the search), and still proves what it can reach;
  // without a node budget, or a budget beyond it, the table is tt_bytes.
  Position p = Pos("xiangqi", "4k4/R8/9/9/9/9/9/9/1R7/3K5 w");
  SolveOptions o;
  o.tt_bytes = size_t{64} << 20;
  const size_t full = o.tt_bytes / sizeof(solver::TTEntry);
  o.max_seconds = 0;
  EXPECT_EQ(Solver(o).table_entries(), full);
  o.max_nodes = 10000;
  Solver small(o);
  EXPECT_LE(small.table_entries(), size_t{20000});
  EXPECT_GE(small.table_entries(), size_t{10000});
  const SolveResult r = small.Solve(p);
  EXPECT_EQ(r.result, Claim::kWin);
  EXPECT_EQ(r.mate_plies, 1);
  o.max_nodes = 200000;
  EXPECT_GE(Solver(o).table_entries(), size_t{200000});
  o.max_nodes = 100000000;
  EXPECT_EQ(Solver(o).table_entries(), full);
}

TEST(Solver, CpuClockBudgetDoesNotCountWaiting) {
  // What --cpu-time is for: a thread that waits (for a core, the disk, a
  // sleep) spends none of its budget; the wall clock counts the wait.
  Budget cpu(0, 10.0, nullptr, /*cpu_clock=*/true);
  Budget wall(0, 10.0, nullptr, /*cpu_clock=*/false);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_LT(cpu.elapsed(), 0.1);
  EXPECT_GE(wall.elapsed(), 0.29);
  EXPECT_GT(cpu.seconds_left(), wall.seconds_left());
}

// A fake table for the 3-piece ending: every position there is a draw.
class DrawOracle : public TablebaseOracle {
 public:
  bool Probe(const Position& pos, TablebaseValue* out) const override {
    if (pos.piece_count(kFirst) + pos.piece_count(kSecond) > 3) return false;
    ++probes;
    out->result = Claim::kDraw;
    return true;
  }
  mutable int probes = 0;
};
// And one that says the side to move loses in `dtm` plies.
class LossOracle : public TablebaseOracle {
 public:
  bool Probe(const Position& pos, TablebaseValue* out) const override {
    if (pos.piece_count(kFirst) + pos.piece_count(kSecond) > 3) return false;
    out->result = pos.side_to_move() == kSecond ? Claim::kLoss : Claim::kWin;
    out->dtm = 10;
    return true;
  }
};

TEST(Solver, TablebaseValuesEndTheSearch) {
  // Red: king, rook, pawn; Black: king, advisor. Capturing the advisor
  // leaves four pieces; taking with... The oracle covers three pieces, so a
  // line that trades down into K+R v K is valued by the table.
  Position p = Pos("xiangqi", "4k4/4a4/9/9/9/9/9/9/4R4/3K5 w");
  DrawOracle draw;
  SolveOptions o = Quick();
  o.max_nodes = 300'000;
  o.tablebase = &draw;
  const SolveResult r = Solve(p, o);
  EXPECT_GT(draw.probes, 0);
  // Every line reaching three pieces is a draw: a win found here must mate
  // before any capture.
  if (r.result == Claim::kWin) {
    Position q = p;
    for (Move m : r.pv) {
      StateInfo st;
      q.DoMove(m, &st);
      EXPECT_GT(q.piece_count(kFirst) + q.piece_count(kSecond), 3);
    }
  }
  LossOracle loss;
  o.tablebase = &loss;
  const SolveResult w = Solve(p, o);
  // Rook takes advisor: a three-piece position Black loses in 10 plies.
  EXPECT_EQ(w.result, Claim::kWin) << w.note;
}

}  // namespace
}  // namespace canju


// Chasing (variants/chase.h): which moves chase, one hand-made Xiangqi
// position each; Black moves, Red's pieces are the targets.
#include <gtest/gtest.h>

#include <algorithm>

#include "variants/chase.h"
#include "variants/display.h"
#include "variants/registry.h"

namespace canju {
namespace {

// Whether Black's move `coord` chases in `fen`.
bool Chases(const std::string& fen, const std::string& coord) {
  const Variant& v = BuiltinVariant("xiangqi");
  Position before;
  const Status st = Position::FromFen(v, fen, &before);
  EXPECT_TRUE(st.ok()) << st.ToString();
  MoveList moves;
  before.GenerateLegal(&moves);
  const auto m = std::find_if(moves.begin(), moves.end(), [&](Move x) { return MoveToCoord(v, x) == coord; });
  EXPECT_NE(m, moves.end()) << coord << " is not legal in " << fen;
  if (m == moves.end()) return false;
  Position after = before;
  StateInfo undo;
  after.DoMove(*m, &undo);
  return MoveChases(before, *m, after);
}

TEST(Chase, AnUnprotectedPieceNewlyAttackedIsChased) {
  EXPECT_TRUE(Chases("4k4/9/9/r8/9/2N6/9/9/9/3K5 b", "a6a4"));
}

TEST(Chase, AProtectedPieceIsNotChasedByAStrongerOne) {
  // The red rook on c0 protects the horse: rook for horse is no gain.
  EXPECT_FALSE(Chases("4k4/9/9/r8/9/2N6/9/9/9/2RK5 b", "a6a4"));
}

TEST(Chase, AHorseAttackingAProtectedRookChases) {
  EXPECT_TRUE(Chases("4k4/2n6/9/9/9/2R6/9/9/9/2RK5 b", "c8b6"));
}

TEST(Chase, PawnsChaseFreely) {
  // The crossed black pawn attacks the unprotected horse on c3.
  EXPECT_FALSE(Chases("4k4/9/9/9/2p6/9/2N6/9/9/3K5 b", "c5c4"));
}

TEST(Chase, AnUncrossedPawnIsNoTargetACrossedOneIs) {
  EXPECT_FALSE(Chases("4k4/9/r8/9/9/9/2P6/9/9/3K5 b", "a7a3"));
  EXPECT_TRUE(Chases("4k4/9/r8/2P6/9/9/9/9/9/3K5 b", "a7a6"));
}

TEST(Chase, AThreatThatWasThereBeforeIsNotNewUnlessItsPieceMoved) {
  // The rook on a4 already attacks the horse; the king's move adds nothing.
  EXPECT_FALSE(Chases("4k4/9/9/9/9/r1N6/9/9/9/3K5 b", "e9f9"));
  // The rook moves along the file and still attacks it: it chases.
  EXPECT_TRUE(Chases("4k4/9/2r6/9/9/2N6/9/9/9/3K5 b", "c7c8"));
}

TEST(Chase, ADiscoveredAttackChases) {
  // The black horse steps off the rook's rank.
  EXPECT_TRUE(Chases("4k4/9/9/9/9/rnN6/9/9/9/3K5 b", "b4a6"));
}

TEST(Chase, APinnedAttackerThreatensNothing) {
  // The black rook on e5 shields its king from the red rook on e1's file:
  // its capture of the horse on c5 would be illegal (and the rook it could
  // take is protected by the advisor).
  EXPECT_TRUE(ChaseThreats([] {
                Position p;
                EXPECT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), "4k4/9/9/9/2N1r4/9/9/9/4R4/3K1A3 b", &p).ok());
                return p;
              }())
                  .empty());
}

}  // namespace
}  // namespace canju

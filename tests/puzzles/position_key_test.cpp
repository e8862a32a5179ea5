// Canonical positions: the same composition printed as is, mirrored, or with
// the colours swapped gets one key; different compositions do not.
#include <gtest/gtest.h>

#include "puzzles/position_key.h"
#include "variants/position.h"
#include "variants/registry.h"

namespace canju {
namespace {

const Variant& Xq() { return BuiltinVariant("xiangqi"); }

PositionKey KeyOf(const std::string& fen) {
  PositionKey k;
  Status st = ComputePositionKey(Xq(), fen, &k);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return k;
}

// 《梦入神机》 由中应外, and the same diagram reflected left-right.
const char* kPuzzle = "1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w";
const char* kMirrored = "4k1NR1/Cr3P3/2n6/9/9/9/9/4p4/5p3/4KAr1c w";

TEST(PositionKey, MirrorGivesTheSameCanonicalForm) {
  PositionKey a = KeyOf(kPuzzle), b = KeyOf(kMirrored);
  EXPECT_EQ(a.canonical, b.canonical);
  EXPECT_NE(a.transform, b.transform);
  EXPECT_EQ(a.transform ^ b.transform, kTransformMirror);
  EXPECT_EQ(a.material, b.material);
  EXPECT_TRUE(a.problem.empty()) << a.problem;
  EXPECT_FALSE(a.is_start);
}

TEST(PositionKey, ColourSwapGivesTheSameCanonicalForm) {
  Position p;
  ASSERT_TRUE(Position::FromFen(Xq(), kPuzzle, &p).ok());
  std::string swapped = p.ColorFlipped().Fen();
  std::string swapped_mirrored = p.ColorFlipped().Mirrored().Fen();
  PositionKey a = KeyOf(kPuzzle), b = KeyOf(swapped), c = KeyOf(swapped_mirrored);
  EXPECT_EQ(a.canonical, b.canonical);
  EXPECT_EQ(a.canonical, c.canonical);
  EXPECT_EQ(a.transform ^ b.transform, kTransformColorFlip);
  EXPECT_EQ(a.transform ^ c.transform, kTransformColorFlipMirror);
  EXPECT_STREQ(TransformName(a.transform ^ c.transform), "colours swapped + mirrored");
}

TEST(PositionKey, SideToMoveAndOnePieceMatter) {
  PositionKey a = KeyOf(kPuzzle);
  // Same board, Black to move: a different problem.
  EXPECT_NE(a.canonical, KeyOf("1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 b").canonical);
  // One pawn moved one file.
  EXPECT_NE(a.canonical, KeyOf("1RN1k4/3P3rC/6n2/9/9/9/9/5p3/3p5/c1rAK4 w").canonical);
}

TEST(PositionKey, MoveCountersDoNotMatter) {
  EXPECT_EQ(KeyOf(std::string(kPuzzle) + " - - 0 1").canonical, KeyOf(std::string(kPuzzle) + " - - 12 40").canonical);
}

TEST(PositionKey, CanonicalIsTheSmallestImage) {
  PositionKey a = KeyOf(kPuzzle);
  Position p;
  ASSERT_TRUE(Position::FromFen(Xq(), kPuzzle, &p).ok());
  for (const Position& q : {p, p.Mirrored(), p.ColorFlipped(), p.ColorFlipped().Mirrored()})
    EXPECT_LE(a.canonical, q.Fen(false));
}

TEST(PositionKey, StartPositionIsRecognised) {
  EXPECT_TRUE(KeyOf("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").is_start);
}

TEST(PositionKey, RejectedPositionStillGetsAKeyAndAProblem) {
  // Black (not to move) is in check from the rook: the engine rejects it,
  // the store still needs a key for it.
  PositionKey k;
  ASSERT_TRUE(ComputePositionKey(Xq(), "4k4/4R4/9/9/9/9/9/9/9/3K5 w", &k).ok());
  EXPECT_FALSE(k.problem.empty());
  EXPECT_FALSE(k.canonical.empty());
  EXPECT_EQ(k.material, "KRK");
  PositionKey m;
  ASSERT_TRUE(ComputePositionKey(Xq(), "4k4/4R4/9/9/9/9/9/9/9/5K3 w", &m).ok());
  EXPECT_EQ(k.canonical, m.canonical);
}

TEST(PositionKey, UnreadableBoardFails) {
  PositionKey k;
  EXPECT_FALSE(ComputePositionKey(Xq(), "4k4/9/9/xyz w", &k).ok());
  EXPECT_FALSE(ComputePositionKey(Xq(), "", &k).ok());
}

}  // namespace
}  // namespace canju

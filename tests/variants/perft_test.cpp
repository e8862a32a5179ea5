// Perft against published numbers (../shared/docs/reference-numbers.md).
#include <gtest/gtest.h>

#include "variants/perft.h"
#include "variants/registry.h"

namespace canju {
namespace {

uint64_t PerftOf(const std::string& variant, const std::string& fen, int depth) {
  const Variant& v = BuiltinVariant(variant);
  Position pos;
  Status st = Position::FromFen(v, fen, &pos);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return Perft(pos, depth);
}

struct PerftCase {
  const char* variant;
  const char* fen;
  std::vector<uint64_t> counts;  // depth 1, 2, ...
};

class PublishedPerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PublishedPerft, MatchesEveryDepth) {
  const PerftCase& c = GetParam();
  for (size_t d = 0; d < c.counts.size(); ++d)
    EXPECT_EQ(PerftOf(c.variant, c.fen, static_cast<int>(d + 1)), c.counts[d]) << c.fen << " depth " << d + 1;
}

// Xiangqi: the start position and five published positions, depth 1..4.
INSTANTIATE_TEST_SUITE_P(
    Xiangqi, PublishedPerft,
    ::testing::Values(
        PerftCase{"xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                  {44, 1920, 79666, 3290240}},
        PerftCase{"xiangqi", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
                  {38, 1128, 43929, 1339047}},
        PerftCase{"xiangqi", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w", {7, 281, 8620, 326201}},
        PerftCase{"xiangqi", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w", {25, 424, 9850, 202884}},
        PerftCase{"xiangqi", "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w", {28, 516, 14808, 395483}},
        PerftCase{"xiangqi", "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w", {21, 364, 7626, 162837}}));

// Chess: the start position to depth 5 and Kiwipete to depth 4.
INSTANTIATE_TEST_SUITE_P(
    Chess, PublishedPerft,
    ::testing::Values(PerftCase{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                {20, 400, 8902, 197281, 4865609}},
                      PerftCase{"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                {48, 2039, 97862, 4085603}}));

TEST(Perft, BulkCountingEqualsFullExpansion) {
  const Variant& v = BuiltinVariant("xiangqi");
  Position pos = Position::Start(v);
  EXPECT_EQ(Perft(pos, 3, true), Perft(pos, 3, false));
}

TEST(Perft, DivideSumsToPerft) {
  const Variant& v = BuiltinVariant("chess");
  Position pos = Position::Start(v);
  uint64_t sum = 0;
  auto div = PerftDivide(pos, 3);
  for (auto& [m, n] : div) sum += n;
  EXPECT_EQ(div.size(), 20u);
  EXPECT_EQ(sum, 8902u);
}

// The search's shortcuts agree with making the moves: KeyAfter with the key
// DoMove gives, CountPseudoLegal with the pseudo-legal list.
uint64_t CheckShortcuts(Position& pos, int depth, int* keyed) {
  MoveList pseudo;
  pos.GeneratePseudoLegal(&pseudo);
  EXPECT_EQ(pos.CountPseudoLegal(), static_cast<int>(pseudo.size())) << pos.Fen();
  MoveList moves;
  pos.GenerateLegal(&moves);
  uint64_t nodes = 0;
  for (Move m : moves) {
    uint64_t predicted = 0;
    const bool known = pos.KeyAfter(m, &predicted);
    StateInfo st;
    pos.DoMove(m, &st);
    if (known) {
      ++*keyed;
      EXPECT_EQ(predicted, pos.key()) << pos.Fen();
    }
    nodes += depth > 1 ? CheckShortcuts(pos, depth - 1, keyed) : 1;
    pos.UndoMove(m, st);
  }
  return nodes;
}

TEST(Perft, KeyAfterAndMoveCountAgreeWithMakingTheMoves) {
  const std::pair<const char*, const char*> cases[] = {
      {"xiangqi", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w"},
      {"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
      {"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},  // en passant, no castling
  };
  for (const auto& [variant, fen] : cases) {
    Position pos;
    ASSERT_TRUE(Position::FromFen(BuiltinVariant(variant), fen, &pos).ok()) << fen;
    int keyed = 0;
    EXPECT_GT(CheckShortcuts(pos, 3, &keyed), 0u);
    if (std::string(variant) == "xiangqi") {
      EXPECT_GT(keyed, 0) << "no move had its key predicted";
    }
  }
}

}  // namespace
}  // namespace canju

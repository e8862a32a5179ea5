// The transposition table's storage: a mapped table starts empty, keeps
// what is stored, and Clear() empties it again (tt.cpp maps zeroed pages
// instead of writing default entries, so "empty" rests on zero bytes).
#include <gtest/gtest.h>

#include <cstdint>

#include "solver/tt.h"

namespace canju::solver {
namespace {

// Keys spread over every bucket of a table of `entries` slots.
uint64_t KeyOf(uint64_t i) { return (i * 0x9E3779B97F4A7C15ull) | 1; }

void ExpectEmpty(const TranspositionTable& tt, uint64_t keys) {
  for (uint64_t i = 0; i < keys; ++i) {
    const TTProbe p = tt.Probe(KeyOf(i), 5);
    ASSERT_FALSE(p.found) << "key " << i;
    uint16_t proof_len = 0;
    int16_t disproof_depth = 0;
    uint32_t best = 1;
    tt.Facts(KeyOf(i), &proof_len, &disproof_depth, &best);
    ASSERT_EQ(proof_len, kNoProof);
    ASSERT_EQ(disproof_depth, kNoDisproof);
    ASSERT_EQ(best, 0u);
  }
  EXPECT_EQ(tt.Hashfull(), 0);
}

TEST(TranspositionTable, SizesAreWholeBucketsWithAFloorOf64KiB) {
  EXPECT_EQ(TranspositionTable(size_t{4} << 20).entries(), (size_t{4} << 20) / sizeof(TTEntry));
  EXPECT_EQ(TranspositionTable((size_t{4} << 20) + 100).entries(), (size_t{4} << 20) / sizeof(TTEntry));
  EXPECT_EQ(TranspositionTable(1).entries(), (size_t{64} << 10) / sizeof(TTEntry));
}

TEST(TranspositionTable, APathMoveIsAHintThatAProofReplaces) {
  // A move that proved a position on one path only is kept as its best
  // move while it has no proof of its own; a proof's move replaces it, and
  // a later path move does not replace a proof's.
  TranspositionTable tt(size_t{1} << 20);
  const uint64_t key = KeyOf(7);
  uint16_t proof_len;
  int16_t disproof_depth;
  uint32_t best;
  tt.StoreNumbers(key, 5, 1, 1'000'000, 3, 1234);
  tt.Facts(key, &proof_len, &disproof_depth, &best);
  EXPECT_EQ(proof_len, kNoProof);
  EXPECT_EQ(best, 1234u);
  tt.StoreNumbers(key, 5, 2, 2, 3);  // numbers alone keep the hint
  tt.Facts(key, &proof_len, &disproof_depth, &best);
  EXPECT_EQ(best, 1234u);
  tt.StoreProof(key, 7, 5678, 3);
  tt.StoreNumbers(key, 5, 1, 1'000'000, 3, 1234);
  tt.Facts(key, &proof_len, &disproof_depth, &best);
  EXPECT_EQ(proof_len, 7);
  EXPECT_EQ(best, 5678u);
}

// A table below a huge page (no alignment slack) and one of several.
class TableSizes : public ::testing::TestWithParam<size_t> {};

TEST_P(TableSizes, StartsEmptyKeepsWhatIsStoredAndClears) {
  TranspositionTable tt(GetParam());
  const uint64_t keys = tt.entries() / 8;  // few enough that nothing is replaced
  ExpectEmpty(tt, keys);

  for (uint64_t i = 0; i < keys; ++i) {
    if (i % 3 == 0) tt.StoreProof(KeyOf(i), static_cast<uint16_t>(i % 50 + 1), static_cast<uint32_t>(i + 7), 1);
    else if (i % 3 == 1) tt.StoreDisproof(KeyOf(i), static_cast<uint16_t>(i % 40 + 1), 1);
    else tt.StoreNumbers(KeyOf(i), 5, static_cast<uint32_t>(i + 2), 3, 1);
  }
  for (uint64_t i = 0; i < keys; ++i) {
    const TTProbe p = tt.Probe(KeyOf(i), kUnbounded - 1);
    ASSERT_TRUE(p.found) << "key " << i;
    uint16_t proof_len;
    int16_t disproof_depth;
    uint32_t best;
    tt.Facts(KeyOf(i), &proof_len, &disproof_depth, &best);
    if (i % 3 == 0) {
      ASSERT_EQ(proof_len, i % 50 + 1);
      ASSERT_EQ(best, i + 7);
    } else if (i % 3 == 1) {
      ASSERT_EQ(disproof_depth, static_cast<int>(i % 40 + 1));
    } else {
      const TTProbe n = tt.Probe(KeyOf(i), 5);
      ASSERT_TRUE(n.has_numbers);
      ASSERT_EQ(n.pn, i + 2);
      ASSERT_EQ(n.dn, 3u);
    }
  }
  EXPECT_GT(tt.Hashfull(), 0);

  tt.Clear();
  ExpectEmpty(tt, keys);
}

INSTANTIATE_TEST_SUITE_P(Bytes, TableSizes,
                         ::testing::Values(size_t{256} << 10, size_t{1} << 20, size_t{8} << 20));

}  // namespace
}  // namespace canju::solver
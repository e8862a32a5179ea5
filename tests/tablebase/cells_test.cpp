// The generator's word-at-a-time cell filters (cells.h): no missed match for
// any byte value at any position of a word, whatever the other bytes hold.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tablebase/cells.h"

namespace canju::tb {
namespace {

TEST(CellScan, FiltersMissNoByteAnywhere) {
  std::mt19937_64 rng(7);
  for (int pos = 0; pos < 8; ++pos)
    for (int b = 0; b < 256; ++b)
      for (int trial = 0; trial < 16; ++trial) {
        uint64_t w = trial == 0 ? 0 : trial == 1 ? ~0ULL : rng();
        w &= ~(0xFFULL << (8 * pos));
        w |= static_cast<uint64_t>(b) << (8 * pos);
        for (int want : {0, 2, 3, 4, 9, 200, 255})
          if (b == want) {
            EXPECT_NE(cellscan::HasByte(w, static_cast<uint8_t>(want)), 0u) << pos << " " << b;
          }
        if (b >= 10 && (b & 1)) {
          EXPECT_NE(cellscan::HasOddAtLeast(w, 10), 0u) << pos << " " << b;
        }
      }
  // Exact where it matters for speed: words of other codes pass nothing.
  EXPECT_EQ(cellscan::HasByte(0x0505050505050505ULL, 3), 0u);
  EXPECT_EQ(cellscan::HasOddAtLeast(0x090807060504030AULL, 10), 0u);
  EXPECT_EQ(cellscan::HasOddAtLeast(0x0C0C0C0C0C0C0C0CULL, 10), 0u);
}

TEST(CellScan, ScanVisitsEveryCandidateOnce) {
  std::vector<uint8_t> cells(1000);
  std::mt19937 rng(3);
  for (auto& c : cells) c = rng() % 5 == 0 ? 7 : static_cast<uint8_t>(rng() % 7);
  for (uint64_t begin : {0, 1, 5, 8, 13})
    for (uint64_t end : {999, 1000, 992, 20}) {
      std::vector<uint64_t> seen;
      cellscan::Scan(cells.data(), begin, end, [](uint64_t w) { return cellscan::HasByte(w, 7); }, [&](uint64_t i) {
        if (cells[i] == 7) seen.push_back(i);
      });
      std::vector<uint64_t> expected;
      for (uint64_t i = begin; i < end; ++i)
        if (cells[i] == 7) expected.push_back(i);
      EXPECT_EQ(seen, expected) << begin << " " << end;
    }
}

}  // namespace
}  // namespace canju::tb

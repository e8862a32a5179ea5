// The index: every entry that decodes to a board encodes back to itself; a
// symmetric image of a board encodes to the same entry; probing from many
// threads at once gives the answers of one thread.
#include <algorithm>
#include <random>
#include <thread>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

void RoundTrip(const Variant& v, const std::string& table, uint64_t step) {
  Material m;
  ASSERT_TRUE(Material::Parse(v, table, &m).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(v, m).ok());
  uint64_t decoded = 0;
  for (uint64_t i = 0; i < ix.size(); i += step) {
    uint8_t sq[kMaxTablePieces];
    if (!ix.Decode(i, sq)) continue;
    ++decoded;
    ASSERT_EQ(ix.Encode(sq), i) << table << " entry " << i;
    // Every symmetric image is stored under this entry, or under the entry
    // of another orientation when a transform fixes the royal pair (those
    // orientations are kept apart).
    std::vector<uint64_t> same{i};
    for (int t = 1; t < ix.symmetry().count(); ++t) {
      const auto& map = ix.symmetry().map[t];
      if (map[sq[0]] != sq[0] || map[sq[1]] != sq[1]) continue;
      uint8_t img[kMaxTablePieces];
      for (int s = 0; s < ix.slots(); ++s) img[s] = map[sq[s]];
      same.push_back(ix.EncodeCanonical(img));
    }
    for (int t = 1; t < ix.symmetry().count(); ++t) {
      uint8_t img[kMaxTablePieces];
      for (int s = 0; s < ix.slots(); ++s) img[s] = ix.symmetry().map[t][sq[s]];
      ASSERT_NE(std::find(same.begin(), same.end(), ix.Encode(img)), same.end())
          << table << " entry " << i << " transform " << t;
    }
  }
  EXPECT_GT(decoded, 0u);
}

TEST(TablebaseIndex, EncodeInvertsDecode) {
  const Variant& xq = BuiltinVariant("xiangqi");
  const Variant& chess = BuiltinVariant("chess");
  RoundTrip(xq, "KRKAABB", 1);
  RoundTrip(xq, "KPPPKAB", 7);   // three identical pieces: combination table
  RoundTrip(xq, "KNNNNK", 997);  // four of 90 squares: computed combinations
  RoundTrip(chess, "KQKR", 3);   // 8-fold symmetry
  RoundTrip(chess, "KPKP", 1);   // mirror only
}

TEST(TablebaseIndex, IndexSizesInTheDocs) {
  const Variant& xq = BuiltinVariant("xiangqi");
  auto size = [&](const Variant& v, const char* t) {
    Material m;
    EXPECT_TRUE(Material::Parse(v, t, &m).ok());
    Indexer ix;
    EXPECT_TRUE(ix.Init(v, m).ok());
    return ix.size();
  };
  EXPECT_EQ(size(xq, "KRK"), 4050u);
  EXPECT_EQ(size(xq, "KRKA"), 20250u);
  EXPECT_EQ(size(xq, "KRKAA"), 40500u);
  EXPECT_EQ(size(xq, "KCPKAB"), 7796250u);
  EXPECT_EQ(size(xq, "KRNKR"), 32805000u);
  EXPECT_EQ(size(BuiltinVariant("chess"), "KQKR"), 1892352u);
  EXPECT_EQ(size(BuiltinVariant("chess"), "KRPKR"), 355074048u);
}

TEST(TablebaseProbe, ManyThreadsAgreeWithOne) {
  const Variant& v = BuiltinVariant("xiangqi");
  testing::BuildTables(v, {"KRKA", "KNK"});
  TablebaseSet set;
  ASSERT_TRUE(set.Open(testing::ScratchDir(), v, /*cache_blocks=*/2).ok());
  Material m;
  ASSERT_TRUE(Material::Parse(v, "KRKA", &m).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(v, m).ok());
  std::vector<Position> positions;
  std::mt19937_64 rng(7);
  while (positions.size() < 2000) {
    uint8_t sq[kMaxTablePieces];
    if (!ix.Decode(rng() % ix.size(), sq)) continue;
    Position p;
    p.Clear(v, Color(rng() & 1));
    for (int i = 0; i < ix.slots(); ++i) p.Put(ix.slot_piece(i), sq[i]);
    if (p.Validate().ok()) positions.push_back(p);
  }
  std::vector<ProbeResult> one(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) ASSERT_TRUE(set.Probe(positions[i], &one[i]).ok());
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (size_t k = 0; k < positions.size(); ++k) {
        size_t i = (k * 7 + t * 131) % positions.size();
        ProbeResult r;
        if (!set.Probe(positions[i], &r).ok() || r.wdl != one[i].wdl || r.dtm_plies != one[i].dtm_plies)
          ++mismatches[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0);
}

}  // namespace
}  // namespace canju::tb

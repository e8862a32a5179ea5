// Regression pin: the generator's results on a set of small tables must not
// change when the generator is reworked for speed or memory. The expected
// values (per side: win/draw/loss/illegal counts, longest win and its entry,
// and an XXH64 of every stored value) are self-computed: recorded from the
// generator as of commit 690512c (16-bit cells, Position-based generation),
// whose tables were checked against published facts and brute force by the
// other tests. Set CANJU_TB_PIN_PRINT=1 to print the current values in the
// form of the table below.
#include <xxhash.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tablebase/format.h"
#include "tablebase/material.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

using testing::BuildTables;
using testing::ScratchDir;

struct Pin {
  const char* variant;
  const char* table;
  uint64_t win[2], draw[2], loss[2], illegal[2];
  uint32_t longest[2];
  uint64_t longest_index[2];
  uint64_t hash;  // XXH64 of the values of side 0 then side 1 (uint16 each)
};

// clang-format off
const Pin kPins[] = {
#include "regression_pins.inc"
};
// clang-format on

uint64_t ValueHash(const std::string& path, TableHeader* h) {
  std::unique_ptr<TableFile> f;
  Status st = TableFile::Open(path, &f);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (!st.ok()) return 0;
  *h = f->header();
  std::vector<uint16_t> values[2];
  st = f->ReadAll(values);
  EXPECT_TRUE(st.ok()) << st.ToString();
  XXH64_state_t* s = XXH64_createState();
  XXH64_reset(s, 0);
  for (auto& v : values) XXH64_update(s, v.data(), v.size() * sizeof(uint16_t));
  const uint64_t sum = XXH64_digest(s);
  XXH64_freeState(s);
  return sum;
}

TEST(TablebaseRegression, ResultsMatchThePinnedGenerator) {
  const bool print = std::getenv("CANJU_TB_PIN_PRINT") != nullptr;
  for (const Pin& pin : kPins) {
    const Variant& v = BuiltinVariant(pin.variant);
    const std::string dir = ScratchDir() + "/pins-" + pin.variant;
    std::filesystem::create_directories(dir);
    BuildTables(v, {pin.table}, dir);
    Material m;
    ASSERT_TRUE(Material::Parse(v, pin.table, &m).ok()) << pin.table;
    const std::string name = Canonical(v, m).Name(v);
    TableHeader h;
    const uint64_t hash = ValueHash(dir + "/" + TableFileName(v, name), &h);
    if (print) {
      const SideStats* s = h.stats;
      std::printf("    {\"%s\", \"%s\", {%" PRIu64 ", %" PRIu64 "}, {%" PRIu64 ", %" PRIu64 "}, {%" PRIu64
                  ", %" PRIu64 "}, {%" PRIu64 ", %" PRIu64 "}, {%u, %u}, {%" PRIu64 "u, %" PRIu64
                  "u}, 0x%016" PRIx64 "u},  // orders %u\n",
                  pin.variant, name.c_str(), s[0].win, s[1].win, s[0].draw, s[1].draw, s[0].loss, s[1].loss,
                  s[0].illegal, s[1].illegal, s[0].longest_win, s[1].longest_win, s[0].longest_win_index,
                  s[1].longest_win_index, hash, h.orders);
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const SideStats& s = h.stats[side];
      EXPECT_EQ(s.win, pin.win[side]) << pin.table << " side " << side;
      EXPECT_EQ(s.draw, pin.draw[side]) << pin.table << " side " << side;
      EXPECT_EQ(s.loss, pin.loss[side]) << pin.table << " side " << side;
      EXPECT_EQ(s.illegal, pin.illegal[side]) << pin.table << " side " << side;
      EXPECT_EQ(s.longest_win, pin.longest[side]) << pin.table << " side " << side;
      EXPECT_EQ(s.longest_win_index, pin.longest_index[side]) << pin.table << " side " << side;
    }
    EXPECT_EQ(hash, pin.hash) << pin.table << ": the stored values differ";
  }
}

}  // namespace
}  // namespace canju::tb

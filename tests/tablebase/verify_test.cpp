// The verification pass catches a wrong value: a table is built, then built
// again with one value made wrong just before verification (a win or a loss
// two plies longer, a draw a win in one, a loss by the perpetual-check rule
// two plies longer), in both cell layouts; the build must fail and name a
// position.
#include <filesystem>
#include <memory>

#include "tablebase/format.h"
#include "tablebase/generator.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

TEST(TablebaseVerify, AWrongValueStopsTheBuildAndNamesThePosition) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = testing::ScratchDir() + "/verify";
  std::filesystem::create_directories(dir);
  testing::BuildTables(v, {"KRKN"}, dir);
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRKN"}, dir, &plan).ok());
  const PlanItem& item = plan.back();
  ASSERT_EQ(item.name, "KRKN");
  std::unique_ptr<TableFile> file;
  ASSERT_TRUE(TableFile::Open(dir + "/" + TableFileName(v, "KRKN"), &file).ok());
  std::vector<uint16_t> values[2];
  ASSERT_TRUE(file->ReadAll(values).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(v, item.material).ok());
  // The first legal entry of each kind: win, loss, draw, loss by the rule.
  struct Target {
    const char* kind;
    uint64_t entry = kNoIndex;
    int side = 0;
  } targets[4] = {{"win"}, {"loss"}, {"draw"}, {"loss by the rule"}};
  for (int s = 0; s < 2; ++s)
    for (uint64_t i = 0; i < values[s].size(); ++i) {
      const uint16_t x = values[s][i];
      if (x == kValueIllegal) continue;
      const ProbeResult r = DecodeValue(x);
      Target& t = targets[x == kValueDraw ? 2 : r.by_rule ? 3 : r.wdl == Wdl::kWin ? 0 : 1];
      if (t.entry != kNoIndex) continue;
      // Files keep any value at illegal entries (probes never read them).
      Position pos;
      const std::string fen = IndexFen(ix, i, Color(s));
      if (fen.empty() || !Position::FromFen(v, fen, &pos).ok() || !pos.Validate().ok()) continue;
      t.entry = i;
      t.side = s;
    }
  for (const Target& t : targets) {
    ASSERT_NE(t.entry, kNoIndex) << "KRKN has no " << t.kind;
    for (bool compact : {false, true}) {
      GeneratorOptions gopts;
      gopts.compact_cells = compact;
      gopts.damage_entry = t.entry;
      gopts.damage_side = t.side;
      std::unique_ptr<TableGenerator> gen = MakeGenerator(v, item.material, 2, nullptr, gopts);
      ASSERT_TRUE(gen->Init(dir).ok());
      const Status st = gen->Run();
      EXPECT_EQ(st.code(), Status::Code::kCorruption)
          << t.kind << " at entry " << t.entry << (compact ? ", compact" : ", dense") << ": " << st.ToString();
      // The damaged entry or a predecessor (whose value no longer matches
      // its successors) is named with its FEN.
      EXPECT_NE(st.ToString().find("verification failed at"), std::string::npos) << st.ToString();
      EXPECT_NE(st.ToString().find(" (entry "), std::string::npos) << st.ToString();
    }
  }
}

}  // namespace
}  // namespace canju::tb

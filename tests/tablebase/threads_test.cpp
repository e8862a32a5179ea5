// The generator's result does not depend on the number of threads (a table
// with a perpetual-check order, built with one thread and with two, gives
// byte-identical files), on where its counters are kept, nor on the cells'
// layout (dense or compact).
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tb_test_util.h"

namespace canju::tb {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Status Build(const Variant& v, const std::string& table, const std::string& dir, int threads) {
  std::vector<PlanItem> plan;
  if (Status st = MakePlan(v, {table}, dir, &plan); !st.ok()) return st;
  BuildOptions opts;
  opts.dir = dir;
  opts.threads = threads;
  opts.compression_level = 3;
  return BuildPlan(v, plan, opts);
}

// Copies the tables of `from` into `to`, all but `file` (the one to build).
void CopySubTables(const std::string& from, const std::string& to, const std::string& file) {
  namespace fs = std::filesystem;
  for (const auto& e : fs::directory_iterator(from))
    if (e.path().filename() != file)
      fs::copy_file(e.path(), to + "/" + e.path().filename().string(), fs::copy_options::overwrite_existing);
}

// The plan item of `table` (its sub-tables already in `dir`).
PlanItem ItemOf(const Variant& v, const std::string& table, const std::string& dir) {
  std::vector<PlanItem> plan;
  EXPECT_TRUE(MakePlan(v, {table}, dir, &plan).ok());
  EXPECT_FALSE(plan.empty());
  if (plan.empty()) return {};
  EXPECT_EQ(plan.back().name, table);
  return plan.back();
}

// Generates `item` with these options into a scratch file of `dir` and
// returns the file's bytes and the number of perpetual-check orders.
std::string Generate(const Variant& v, const PlanItem& item, const std::string& dir, const GeneratorOptions& gopts,
                     int* orders) {
  std::unique_ptr<TableGenerator> gen = MakeGenerator(v, item.material, 2, nullptr, gopts);
  Status st = gen->Init(dir);
  if (st.ok()) st = gen->Run();
  const std::string path = dir + "/generated.ctb";
  if (st.ok()) st = gen->Write(path, 3);
  EXPECT_TRUE(st.ok()) << st.ToString();
  *orders = gen->orders();
  return st.ok() ? ReadFile(path) : std::string();
}

TEST(TablebaseThreads, OneAndTwoThreadsWriteTheSameFile) {
  namespace fs = std::filesystem;
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string one = testing::ScratchDir() + "/threads1", two = testing::ScratchDir() + "/threads2";
  fs::create_directories(one);
  fs::create_directories(two);
  // KRKN: 364,500 entries per side (enough for two threads), one
  // perpetual-check order.
  Status st = Build(v, "KRKN", one, 1);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string file = TableFileName(v, "KRKN");
  CopySubTables(one, two, file);
  st = Build(v, "KRKN", two, 2);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const TableHeader h = testing::Header(v, "KRKN", two);
  EXPECT_GT(h.orders, 0u);
  const std::string a = ReadFile(one + "/" + file), b = ReadFile(two + "/" + file);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "files differ (" << a.size() << " and " << b.size() << " bytes)";
}

// Counters and distances that do not fit in a cell live in the overflow
// map, and the propagation takes the levels beyond the cells' distance
// codes from the lists of such entries instead of a scan; the table must
// come out the same. With two counter codes almost every counter of KRKN
// (ordinary, and those of losses by the perpetual-check rule in the
// distance pass) goes there; with at most 1 or 5 plies in a cell nearly
// every distance does — KRKP at 1 (tentative wins by the pawn's capture
// into KRK that quiet moves shorten while both are beyond the cells: about
// 15,000 of them; at 5 plies there are none) and KRKN at 5 (a
// perpetual-check order, so a final distance pass too).
TEST(TablebaseThreads, CountersAndDistancesInTheOverflowMapGiveTheSameFile) {
  namespace fs = std::filesystem;
  const Variant& v = BuiltinVariant("xiangqi");
  struct Config {
    std::string material;
    int counter_codes, max_cell_distance;
  };
  for (const Config& config : {Config{"KRKN", 2, 0}, Config{"KRKP", 0, 1}, Config{"KRKN", 0, 5}}) {
    const std::string dir = testing::ScratchDir() + "/overflow-" + config.material;
    fs::create_directories(dir);
    ASSERT_TRUE(Build(v, config.material, dir, 2).ok());
    const PlanItem item = ItemOf(v, config.material, dir);
    const std::string a = ReadFile(dir + "/" + TableFileName(v, config.material));
    ASSERT_FALSE(a.empty());
    for (bool compact : {false, true}) {
      GeneratorOptions gopts;
      gopts.counter_codes = config.counter_codes;
      gopts.max_cell_distance = config.max_cell_distance;
      gopts.compact_cells = compact;
      int orders = 0;
      const std::string b = Generate(v, item, dir, gopts, &orders);
      if (config.material == "KRKN") {
        EXPECT_GT(orders, 0);
      }
      EXPECT_TRUE(a == b) << config.material << ", counter codes " << config.counter_codes << ", cell distances "
                          << config.max_cell_distance << ", " << (compact ? "compact" : "dense")
                          << " cells: files differ (" << a.size() << " and " << b.size() << " bytes)";
    }
  }
}

// Later perpetual-check orders grow S from the positions flagged since the
// side's previous order instead of seeding it with every candidate again:
// KCAKN (four orders, some sides with several) comes out the same both ways,
// in both cell layouts, and with its counters in the overflow map.
TEST(TablebaseThreads, GrowingTheSetsGivesTheSameFileAsReseeding) {
  namespace fs = std::filesystem;
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = testing::ScratchDir() + "/grow";
  fs::create_directories(dir);
  ASSERT_TRUE(Build(v, "KCAKN", dir, 2).ok());
  const PlanItem item = ItemOf(v, "KCAKN", dir);
  const std::string grown = ReadFile(dir + "/" + TableFileName(v, "KCAKN"));
  ASSERT_FALSE(grown.empty());
  const int grown_orders = static_cast<int>(testing::Header(v, "KCAKN", dir).orders);
  EXPECT_GE(grown_orders, 3);
  // Re-seeded (dense, compact) and grown with the counters in the overflow
  // map (two counter codes), which S's members keep while they are in S.
  struct Config {
    bool grow, compact;
    int counter_codes;
  };
  for (const Config& config : {Config{false, false, 0}, Config{false, true, 0}, Config{true, true, 2}}) {
    GeneratorOptions gopts;
    gopts.grow_sets = config.grow;
    gopts.compact_cells = config.compact;
    gopts.counter_codes = config.counter_codes;
    int orders = 0;
    const std::string other = Generate(v, item, dir, gopts, &orders);
    EXPECT_EQ(orders, grown_orders);
    EXPECT_TRUE(grown == other) << (config.compact ? "compact" : "dense") << " cells, grow " << config.grow
                                << ", counter codes " << config.counter_codes << ": files differ ("
                                << grown.size() << " and " << other.size() << " bytes)";
  }
}

// A memory limit between the two layouts' estimates: auto builds the table
// with compact cells (the same file as dense ones), dense cells are refused
// before anything is built.
TEST(TablebaseThreads, CompactCellsFitWhereDenseOnesDoNot) {
  namespace fs = std::filesystem;
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dense = testing::ScratchDir() + "/cells-dense", compact = testing::ScratchDir() + "/cells-auto";
  fs::create_directories(dense);
  fs::create_directories(compact);
  ASSERT_TRUE(Build(v, "KRKN", dense, 2).ok());
  CopySubTables(dense, compact, TableFileName(v, "KRKN"));
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRKN"}, compact, &plan).ok());
  const PlanItem& item = plan.back();
  ASSERT_EQ(item.name, "KRKN");
  ASSERT_FALSE(item.complete);
  ASSERT_LT(item.compact_peak_bytes, item.peak_bytes);
  const uint64_t limit = (item.compact_peak_bytes + item.peak_bytes) / 2;
  EXPECT_EQ(ChooseLayout(item, CellLayout::kAuto, limit), CellLayout::kCompact);
  EXPECT_EQ(ChooseLayout(item, CellLayout::kAuto, 0), CellLayout::kDense);
  BuildOptions opts;
  opts.dir = compact;
  opts.threads = 2;
  opts.compression_level = 3;
  opts.memory_limit = limit;
  opts.cells = CellLayout::kDense;
  EXPECT_EQ(BuildPlan(v, plan, opts).code(), Status::Code::kResourceExhausted);
  opts.cells = CellLayout::kAuto;
  Status st = BuildPlan(v, plan, opts);
  ASSERT_TRUE(st.ok()) << st.ToString();
  const std::string a = ReadFile(dense + "/" + TableFileName(v, "KRKN"));
  const std::string b = ReadFile(compact + "/" + TableFileName(v, "KRKN"));
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "files differ (" << a.size() << " and " << b.size() << " bytes)";
}

}  // namespace
}  // namespace canju::tb

// Probe answers against a brute-force minimax search on random positions of
// small tables, and the file format's failure modes: truncated and damaged
// files give errors, never answers; an interrupted build is resumed.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <random>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

using testing::BuildTables;
using testing::ScratchDir;

constexpr int kMate = 1000;

// Exact within `depth` plies: +(kMate - n) = win in n, -(kMate - n) = loss in
// n, 0 = no forced result within the horizon (or a draw).
int Search(Position& p, int depth) {
  MoveList ml;
  p.GenerateLegal(&ml);
  if (ml.empty()) {
    const bool lost = p.InCheck() || p.variant().rules().stalemate == Outcome::kLoss;
    return lost ? -kMate : 0;
  }
  if (depth == 0) return 0;
  int best = -kMate - 1;
  for (Move m : ml) {
    StateInfo st;
    p.DoMove(m, &st);
    int s = -Search(p, depth - 1);
    p.UndoMove(m, st);
    if (s > 0) --s;
    else if (s < 0) ++s;
    best = std::max(best, s);
  }
  return best;
}

void CompareWithSearch(const Variant& v, const std::string& table, int depth, int samples) {
  BuildTables(v, {table});
  TablebaseSet set;
  ASSERT_TRUE(set.Open(ScratchDir(), v).ok());
  Material m;
  ASSERT_TRUE(Material::Parse(v, table, &m).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(v, m).ok());
  std::mt19937_64 rng(12345);
  // Half the sample with results inside the horizon (exact distances to
  // compare), half with longer ones or draws (the search must find nothing).
  int tested = 0, short_results = 0;
  for (int attempt = 0; tested < samples && attempt < samples * 2000; ++attempt) {
    uint8_t sq[kMaxTablePieces];
    const uint64_t idx = rng() % ix.size();
    if (!ix.Decode(idx, sq)) continue;
    Position p;
    p.Clear(v, Color(rng() & 1));
    for (int i = 0; i < ix.slots(); ++i) p.Put(ix.slot_piece(i), sq[i]);
    if (!p.Validate().ok()) continue;
    ProbeResult r;
    ASSERT_TRUE(set.Probe(p, &r).ok()) << p.Fen();
    if (r.by_rule) continue;  // a search without repetition rules cannot see these
    const int expect = r.wdl == Wdl::kDraw || r.dtm_plies > depth ? 0
                       : r.wdl == Wdl::kWin                       ? kMate - r.dtm_plies
                                                                  : -(kMate - r.dtm_plies);
    if ((expect != 0) != (tested % 2 == 0)) continue;
    EXPECT_EQ(Search(p, depth), expect) << table << " " << p.Fen() << " probe " << WdlName(r.wdl) << " "
                                        << r.dtm_plies;
    ++tested;
    short_results += expect != 0;
  }
  EXPECT_EQ(tested, samples);
  EXPECT_EQ(short_results, (samples + 1) / 2);
}

TEST(ProbeVsSearch, XiangqiSmallTables) {
  const Variant& v = BuiltinVariant("xiangqi");
  CompareWithSearch(v, "KRK", 5, 150);
  CompareWithSearch(v, "KNK", 5, 150);
  CompareWithSearch(v, "KPKA", 5, 100);
}

TEST(ProbeVsSearch, ChessSmallTables) {
  const Variant& v = BuiltinVariant("chess");
  CompareWithSearch(v, "KQK", 4, 150);
  CompareWithSearch(v, "KPK", 4, 150);
}

std::string Path(const std::string& dir, const std::string& t) { return dir + "/" + t + ".xiangqi.ctb"; }

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

Position KrkPosition(const Variant& v) {
  Position p;
  EXPECT_TRUE(Position::FromFen(v, "5k3/9/9/9/9/9/9/9/9/3RK4 w", &p).ok());
  return p;
}

TEST(TableFiles, TruncatedAndDamagedFilesGiveErrors) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/damaged";
  ::mkdir(dir.c_str(), 0755);
  BuildTables(v, {"KRK"}, dir);
  const std::string path = Path(dir, "KRK");
  const std::string good = Slurp(path);
  ASSERT_GT(good.size(), 100u);
  {
    TablebaseSet set;
    ASSERT_TRUE(set.Open(dir, v).ok());
    ProbeResult r;
    ASSERT_TRUE(set.Probe(KrkPosition(v), &r).ok());
    EXPECT_EQ(r.wdl, Wdl::kWin);
  }
  // Truncated: refused when opened, naming the file.
  Spit(path, good.substr(0, good.size() - 5));
  {
    TablebaseSet set;
    Status st = set.Open(dir, v);
    EXPECT_EQ(st.code(), Status::Code::kCorruption);
    EXPECT_NE(st.message().find("KRK.xiangqi.ctb"), std::string::npos) << st.message();
  }
  // One byte flipped inside a block: the checksum stops the first probe.
  std::string bad = good;
  bad[bad.size() - 20] ^= 0x55;
  Spit(path, bad);
  {
    TablebaseSet set;
    ASSERT_TRUE(set.Open(dir, v).ok());
    ProbeResult r;
    Status st = set.Probe(KrkPosition(v), &r);
    EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
    EXPECT_NE(st.message().find("checksum"), std::string::npos) << st.message();
  }
  // Not a table at all.
  Spit(path, "hello");
  {
    TablebaseSet set;
    EXPECT_FALSE(set.Open(dir, v).ok());
  }
  // A rebuild replaces the damaged file.
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRK"}, dir, &plan).ok());
  EXPECT_FALSE(plan.back().complete);
  BuildTables(v, {"KRK"}, dir);
  EXPECT_EQ(Slurp(path), good);
}

TEST(TableFiles, ABuildUnderPerpetualChasingIsRefusedAndWritesNothing) {
  std::shared_ptr<const Variant> v;
  ASSERT_TRUE(LoadVariant("xiangqi", &v, {"rules.perpetual_chase=loss"}).ok());
  const std::string dir = ScratchDir() + "/chase";
  ::mkdir(dir.c_str(), 0755);
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(*v, {"KRK"}, dir, &plan).ok());
  BuildOptions opts;
  opts.dir = dir;
  const Status st = BuildPlan(*v, plan, opts);
  EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.ToString();
  EXPECT_NE(st.message().find("perpetual chasing"), std::string::npos) << st.message();
  struct stat info;
  EXPECT_NE(::stat(Path(dir, "KRK").c_str(), &info), 0);
}

TEST(TableFiles, InterruptedBuildIsResumed) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/resume";
  ::mkdir(dir.c_str(), 0755);
  BuildTables(v, {"KNK"}, dir);
  // A killed build leaves only a temporary file: it is not a table.
  const std::string tmp = Path(dir, "KRKA") + ".tmp.99999";
  Spit(tmp, std::string(1000, 'x'));
  {
    TablebaseSet set;
    ASSERT_TRUE(set.Open(dir, v).ok());
    EXPECT_FALSE(set.Has("KRKA"));
    EXPECT_TRUE(set.Has("KNK"));
  }
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRKA", "KNK"}, dir, &plan).ok());
  int complete = 0, missing = 0;
  for (const auto& it : plan) (it.complete ? complete : missing)++;
  EXPECT_GE(complete, 2);  // KK and KNK are kept
  EXPECT_GE(missing, 1);
  BuildTables(v, {"KRKA", "KNK"}, dir);
  EXPECT_NE(::access(tmp.c_str(), F_OK), 0) << "stale temporary file left behind";
  TablebaseSet set;
  ASSERT_TRUE(set.Open(dir, v).ok());
  EXPECT_TRUE(set.Has("KRKA"));
  EXPECT_TRUE(set.Has("KAKR"));  // colour-flipped name, same table
}

TEST(TableFiles, SubPlanKeepsWhatItsTargetsNeedInThePlansOrder) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/subplan";
  std::vector<PlanItem> all, alone, sub;
  ASSERT_TRUE(MakePlan(v, {"KRKA", "KNKA", "KCK"}, dir, &all).ok());
  ASSERT_TRUE(MakePlan(v, {"KRKA"}, dir, &alone).ok());
  ASSERT_TRUE(SubPlan(v, all, {"KRKA"}, &sub).ok());
  // The same tables as a plan of its own, and none of KNKA's or KCK's.
  std::vector<std::string> a, b;
  for (const auto& it : alone) a.push_back(it.name);
  for (const auto& it : sub) b.push_back(it.name);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
  EXPECT_LT(sub.size(), all.size());
  // Sub-tables still come before the tables that need them.
  EXPECT_EQ(sub.back().name, "KRKA");
  std::vector<PlanItem> none;
  EXPECT_EQ(SubPlan(v, alone, {"KNKA"}, &none).code(), Status::Code::kInvalidArgument);
}

// A capture leaves the captured piece's owner to move; the plan counts the
// sub-table's memory for those sides only, as the generator reads them.
TEST(TableFiles, SubTableReadsNameTheSideACaptureLeavesToMove) {
  const Variant& v = BuiltinVariant("xiangqi");
  Material m;
  ASSERT_TRUE(Material::Parse(v, "KRKA", &m).ok());
  std::map<std::string, unsigned> reads;
  for (const SubTableRead& r : SubTableReads(v, m)) reads[r.material.Name(v)] = r.sides;
  // Red takes the advisor: KRK with Black to move. Black takes the rook:
  // K against KA with Red to move, stored as KAK with its second side to move.
  EXPECT_EQ(reads, (std::map<std::string, unsigned>{{"KRK", 2u}, {"KAK", 2u}}));
  // In KRNKR Black taking the knight leaves Red, the stronger side, to move
  // (KRKR's first side); Black taking the rook leaves Red to move in K+N
  // against K+R, stored as KRKN with its second side to move.
  ASSERT_TRUE(Material::Parse(v, "KRNKR", &m).ok());
  reads.clear();
  for (const SubTableRead& r : SubTableReads(v, m)) reads[r.material.Name(v)] = r.sides;
  EXPECT_EQ(reads, (std::map<std::string, unsigned>{{"KRNK", 2u}, {"KRKR", 1u}, {"KRKN", 2u}}));
  const Variant& chess = BuiltinVariant("chess");
  ASSERT_TRUE(Material::Parse(chess, "KPK", &m).ok());
  reads.clear();
  for (const SubTableRead& r : SubTableReads(chess, m)) reads[r.material.Name(chess)] = r.sides;
  EXPECT_EQ(reads.at("KQK"), 2u);  // White promotes: Black to move
}

// KRNK's plan made from nothing (`fresh`), then its sub-tables built and
// the plan made again (`known`).
void PlanKrnkBeforeAndAfterItsSubTables(const Variant& v, const std::string& dir, std::vector<PlanItem>* fresh,
                                        std::vector<PlanItem>* known) {
  ASSERT_TRUE(MakePlan(v, {"KRNK"}, dir, fresh).ok());
  BuildOptions opts;
  opts.dir = dir;
  ASSERT_TRUE(BuildPlan(v, std::vector<PlanItem>(fresh->begin(), fresh->end() - 1), opts).ok());
  ASSERT_TRUE(MakePlan(v, {"KRNK"}, dir, known).ok());
}

// The plan counts sub-tables not yet built at two bytes an entry; once they
// are built (one byte here) the table's layout is chosen again, so a memory
// limit between the two dense estimates gets dense cells, not compact.
TEST(TableFiles, LayoutIsChosenAgainOnceTheSubTablesAreBuilt) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/relayout";
  std::vector<PlanItem> fresh, known;
  ASSERT_NO_FATAL_FAILURE(PlanKrnkBeforeAndAfterItsSubTables(v, dir, &fresh, &known));
  BuildOptions opts;
  opts.dir = dir;
  const PlanItem& before = fresh.back();
  const PlanItem& after = known.back();
  ASSERT_EQ(after.name, "KRNK");
  ASSERT_LT(after.peak_bytes, before.peak_bytes);
  // The plan's lower bound is the exact figure when the sub-tables turn out
  // to store one byte an entry.
  EXPECT_EQ(LowerBound(before).peak_bytes, after.peak_bytes);
  EXPECT_EQ(LowerBound(before).compact_peak_bytes, after.compact_peak_bytes);
  EXPECT_EQ(LowerBound(after).peak_bytes, after.peak_bytes);
  opts.memory_limit = (before.peak_bytes + after.peak_bytes) / 2;
  ASSERT_LT(before.compact_peak_bytes, opts.memory_limit);
  EXPECT_EQ(ChooseLayout(before, CellLayout::kAuto, opts.memory_limit), CellLayout::kCompact);
  std::vector<BuildReport> reports;
  ASSERT_TRUE(BuildPlan(v, fresh, opts, &reports).ok());
  ASSERT_EQ(reports.back().name, "KRNK");
  EXPECT_FALSE(reports.back().skipped);
  EXPECT_FALSE(reports.back().compact_cells);
}

// A plan made with the sub-tables complete skips them and takes their
// widths from the plan's items: at a limit of exactly the one-byte dense
// estimate the table is built dense (with the sub-tables counted at two
// bytes the check before the build would refuse it).
TEST(TableFiles, SkippedSubTablesBringTheirWidthsFromThePlan) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/skipped-widths";
  std::vector<PlanItem> fresh, known;
  ASSERT_NO_FATAL_FAILURE(PlanKrnkBeforeAndAfterItsSubTables(v, dir, &fresh, &known));
  BuildOptions opts;
  opts.dir = dir;
  for (size_t i = 0; i + 1 < known.size(); ++i) {
    EXPECT_TRUE(known[i].complete) << known[i].name;
    EXPECT_EQ(known[i].value_bytes, 1u) << known[i].name;
  }
  ASSERT_LT(known.back().peak_bytes, fresh.back().peak_bytes);
  opts.cells = CellLayout::kDense;
  opts.memory_limit = known.back().peak_bytes;
  std::vector<BuildReport> reports;
  Status st = BuildPlan(v, known, opts, &reports);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(reports.size(), known.size());
  for (size_t i = 0; i + 1 < reports.size(); ++i) EXPECT_TRUE(reports[i].skipped) << reports[i].name;
  EXPECT_FALSE(reports.back().skipped);
}

TEST(TableFiles, MemoryLimitRefusesBeforeBuilding) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/memory";
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRNKR"}, dir, &plan).ok());
  BuildOptions opts;
  opts.dir = dir;
  opts.memory_limit = 1 << 20;
  Status st = BuildPlan(v, plan, opts);
  EXPECT_EQ(st.code(), Status::Code::kResourceExhausted);
  EXPECT_NE(st.message().find("MiB"), std::string::npos);
  EXPECT_NE(::access((dir + "/KK.xiangqi.ctb").c_str(), F_OK), 0);  // nothing built
}

// Up front a plan is refused only when a table cannot fit even with its
// sub-tables at one byte an entry: a limit between that bound and the
// two-byte estimate builds (here with dense cells, which fit exactly).
TEST(TableFiles, UpFrontRefusalTakesTheLowerBound) {
  const Variant& v = BuiltinVariant("xiangqi");
  std::vector<PlanItem> plan;
  const std::string fits = ScratchDir() + "/lower-bound-fits";
  ASSERT_TRUE(MakePlan(v, {"KRNK"}, fits, &plan).ok());
  const PlanItem low = LowerBound(plan.back());
  ASSERT_LT(low.peak_bytes, plan.back().peak_bytes);
  BuildOptions opts;
  opts.dir = fits;
  opts.cells = CellLayout::kDense;
  opts.memory_limit = (low.peak_bytes + plan.back().peak_bytes) / 2;
  std::vector<BuildReport> reports;
  Status st = BuildPlan(v, plan, opts, &reports);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(reports.back().name, "KRNK");
  EXPECT_FALSE(reports.back().compact_cells);
  const std::string short_of = ScratchDir() + "/lower-bound-short";
  opts.dir = short_of;
  opts.memory_limit = low.peak_bytes - 1;
  st = BuildPlan(v, plan, opts);
  EXPECT_EQ(st.code(), Status::Code::kResourceExhausted);
  EXPECT_NE(st.message().find("at least"), std::string::npos) << st.message();
  EXPECT_NE(::access((short_of + "/KK.xiangqi.ctb").c_str(), F_OK), 0);  // nothing built
}

// Just before a table, with its sub-tables built, the estimate is exact; a
// table that does not fit then is refused and the sub-tables stay. (The
// plan's bound is lowered by hand here: with real widths it is exact.)
TEST(TableFiles, ATableThatDoesNotFitOnceItsSubTablesAreBuiltIsRefusedTheyAreKept) {
  const Variant& v = BuiltinVariant("xiangqi");
  const std::string dir = ScratchDir() + "/exact-refusal";
  std::vector<PlanItem> plan;
  ASSERT_TRUE(MakePlan(v, {"KRNK"}, dir, &plan).ok());
  ASSERT_EQ(plan.back().name, "KRNK");
  const uint64_t exact = LowerBound(plan.back()).peak_bytes;
  plan.back().low_sub_bytes = 0;
  BuildOptions opts;
  opts.dir = dir;
  opts.cells = CellLayout::kDense;
  opts.memory_limit = exact - 1;
  Status st = BuildPlan(v, plan, opts);
  EXPECT_EQ(st.code(), Status::Code::kResourceExhausted);
  EXPECT_NE(st.message().find("kept in " + dir), std::string::npos) << st.message();
  EXPECT_NE(::access(Path(dir, "KRNK").c_str(), F_OK), 0);
  std::vector<PlanItem> again;
  ASSERT_TRUE(MakePlan(v, {"KRNK"}, dir, &again).ok());
  ASSERT_EQ(again.size(), plan.size());
  for (const PlanItem& it : again) EXPECT_EQ(it.complete, it.name != "KRNK") << it.name;
}

}  // namespace
}  // namespace canju::tb

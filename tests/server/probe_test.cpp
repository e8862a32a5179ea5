// /api/probe with real tables: the Xiangqi KRK table is built into a scratch
// directory, then the value of a position and of each of its moves is
// checked against the values of the positions those moves lead to.
#include <httplib.h>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "serve_fixture.h"
#include "variants/registry.h"
#ifdef CANJU_HAVE_TABLEBASE
#include "tablebase/build.h"
#endif

namespace canju {
namespace {

#ifdef CANJU_HAVE_TABLEBASE

using nlohmann::json;
using testing_util::UrlEncode;

class ProbeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tb_dir_ = (std::filesystem::temp_directory_path() / ("canju-serve-tb-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(tb_dir_);
    const Variant& v = BuiltinVariant("xiangqi");
    std::vector<tb::PlanItem> plan;
    Status st = tb::MakePlan(v, {"KRK"}, tb_dir_, &plan);
    ASSERT_TRUE(st.ok()) << st.ToString();
    tb::BuildOptions opts;
    opts.dir = tb_dir_;
    opts.threads = 2;
    opts.compression_level = 3;
    st = tb::BuildPlan(v, plan, opts);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(tb_dir_, ec);
  }

  void SetUp() override {
    fx_.Build();
    fx_.Serve(tb_dir_);
  }

  json Probe(const std::string& fen, const std::string& variant = "xiangqi") {
    httplib::Client cli("127.0.0.1", fx_.port());
    cli.set_read_timeout(60, 0);  // httplib's default of 5 s is short on a loaded machine
    auto res = cli.Get(("/api/probe?variant=" + variant + "&fen=" + UrlEncode(fen)).c_str());
    EXPECT_TRUE(res);
    if (!res) return json();
    EXPECT_EQ(res->status, 200) << res->body;
    return json::parse(res->body);
  }

  static std::string tb_dir_;
  testing_util::ServeFixture fx_;
};

std::string ProbeTest::tb_dir_;

// /api/solve probes the server's tables and agrees with them on the length.
TEST_F(ProbeTest, SolveUsesTheTablesAndAgreesWithThem) {
  const std::string fen = "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1";
  const json probe = Probe(fen);
  ASSERT_TRUE(probe["available"].get<bool>()) << probe.dump();
  ASSERT_EQ(probe["value"]["wdl"], "win");
  ASSERT_GT(probe["value"]["dtm_plies"].get<int>(), 1);  // not a mate in one: the length means something
  httplib::Client cli("127.0.0.1", fx_.port());
  cli.set_read_timeout(60, 0);
  auto res = cli.Get(("/api/solve?seconds=10&fen=" + UrlEncode(fen)).c_str());
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json r = json::parse(res->body);
  EXPECT_EQ(r["tables"], tb_dir_);
  EXPECT_EQ(r["result"], "win");
  EXPECT_EQ(r["mate_plies"], probe["value"]["dtm_plies"]) << res->body;
  EXPECT_EQ(r["mate_exact"], true);
  EXPECT_EQ(r["pv"].size(), probe["value"]["dtm_plies"].get<size_t>()) << res->body;
  EXPECT_EQ(r["line_end"], "mate");
}

TEST_F(ProbeTest, InfoListsTheTables) {
  const auto mats = fx_.api().tablebase_materials();
  ASSERT_EQ(mats.count("xiangqi"), 1u);
  EXPECT_NE(std::find(mats.at("xiangqi").begin(), mats.at("xiangqi").end(), "KRK"), mats.at("xiangqi").end());
}

TEST_F(ProbeTest, PositionAndEveryMoveHaveValues) {
  json r = Probe(testing_util::kRookFen);
  ASSERT_TRUE(r["available"].get<bool>()) << r.dump();
  EXPECT_EQ(r["material"], "KRK");
  // 车五进七 leaves the king no move: 困毙 at once.
  EXPECT_EQ(r["value"]["wdl"], "win");
  EXPECT_EQ(r["value"]["dtm_plies"], 1);
  EXPECT_EQ(r["value"]["text"], "win in 1");
  ASSERT_FALSE(r["moves"].empty());
  EXPECT_EQ(r["moves"][0]["move"], "e1e8");
  EXPECT_EQ(r["moves"][0]["text"], "车五进七");

  // Each move's value is its resulting position's value turned round, one
  // ply longer; the position's value is the best of them.
  int best_win = 1 << 30;
  int previous_key = -1;
  for (const json& m : r["moves"]) {
    SCOPED_TRACE(m["move"].get<std::string>());
    ASSERT_FALSE(m["value"].is_null()) << m.dump();
    json child = Probe(m["fen"]);
    ASSERT_TRUE(child["available"].get<bool>()) << child.dump();
    const std::string w = m["value"]["wdl"], cw = child["value"]["wdl"];
    EXPECT_EQ(w, cw == "win" ? "loss" : cw == "loss" ? "win" : "draw");
    if (w != "draw") {
      EXPECT_EQ(m["value"]["dtm_plies"].get<int>(), child["value"]["dtm_plies"].get<int>() + 1);
    }
    if (w == "win") best_win = std::min(best_win, m["value"]["dtm_plies"].get<int>());
    // Sorted: quickest wins, draws, slowest losses.
    const int key = w == "win" ? m["value"]["dtm_plies"].get<int>() : w == "draw" ? 100000 : 200000 - m["value"]["dtm_plies"].get<int>();
    EXPECT_GE(key, previous_key);
    previous_key = key;
  }
  EXPECT_EQ(best_win, r["value"]["dtm_plies"].get<int>());
}

TEST_F(ProbeTest, LosingSideSeesItsLongestDefence) {
  // Black to move after 车五平六: every king move loses.
  json r = Probe("3k5/9/9/9/9/9/9/9/3R5/5K3 b - - 1 1");
  ASSERT_TRUE(r["available"].get<bool>()) << r.dump();
  EXPECT_EQ(r["value"]["wdl"], "loss");
  for (const json& m : r["moves"]) EXPECT_EQ(m["value"]["wdl"], "loss") << m.dump();
}

TEST_F(ProbeTest, MaterialWithoutTableSaysSo) {
  json r = Probe("3k5/9/9/9/9/9/9/9/4C4/5K3 w");
  EXPECT_FALSE(r["available"].get<bool>());
  EXPECT_EQ(r["reason"], "no table for KCK");
  json chess = Probe(testing_util::kChessFen, "chess");
  EXPECT_FALSE(chess["available"].get<bool>());
  EXPECT_NE(chess["reason"].get<std::string>().find("no chess tables"), std::string::npos) << chess.dump();
}

#else

TEST(ProbeTest, NeedsTheTablebaseModule) { GTEST_SKIP() << "built without canju_tablebase"; }

#endif

}  // namespace
}  // namespace canju

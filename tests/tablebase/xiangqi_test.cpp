// Xiangqi tables: every small table with at most one attacking piece (R, N,
// C or P) per side plus advisors/elephants builds and verifies (the build
// runs the verification pass and fails on any mismatch), and facts every
// player knows hold.
#include <algorithm>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

using testing::BuildTables;
using testing::Header;
using testing::ScratchDir;

const Variant& Xq() { return BuiltinVariant("xiangqi"); }

uint64_t Legal(const SideStats& s) { return s.win + s.draw + s.loss; }

// Every material K + {one attacker or none} + defenders vs the same, up to
// 150,000 index entries per side (the tests stay small; bigger ones are in
// bench/tablebase_bench.cpp).
std::vector<std::string> SmallTables() {
  const std::vector<std::string> attackers = {"", "R", "N", "C", "P"};
  const std::vector<std::string> defenders = {"", "A", "B", "AA", "AB", "BB"};
  std::vector<std::string> sides;
  for (const auto& a : attackers)
    for (const auto& d : defenders) sides.push_back("K" + a + d);
  std::vector<std::string> out;
  for (const auto& s1 : sides)
    for (const auto& s2 : sides) {
      Material m;
      if (!Material::Parse(Xq(), s1 + s2, &m).ok()) continue;
      Material c = Canonical(Xq(), m);
      Indexer ix;
      if (!ix.Init(Xq(), c).ok() || ix.size() > 150000) continue;
      const std::string name = c.Name(Xq());
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  return out;
}

TEST(XiangqiTablebase, SmallTablesBuildAndVerify) {
  std::vector<std::string> tables = SmallTables();
  EXPECT_GE(tables.size(), 60u);
  BuildTables(Xq(), tables);
  for (const std::string& t : tables) {
    TableHeader h = Header(Xq(), t);
    EXPECT_EQ(h.material, t);
    EXPECT_GT(h.positions(), 0u) << t;
  }
}

TEST(XiangqiTablebase, LoneRookAlwaysBeatsBareKing) {
  BuildTables(Xq(), {"KRK"});
  TableHeader h = Header(Xq(), "KRK");
  EXPECT_GT(h.stats[kFirst].win, 0u);
  EXPECT_EQ(h.stats[kFirst].draw, 0u);
  EXPECT_EQ(h.stats[kFirst].loss, 0u);
}

TEST(XiangqiTablebase, LoneCannonNeverWins) {
  BuildTables(Xq(), {"KCK", "KCKA", "KCKB"});
  for (const char* t : {"KCK", "KCKA", "KCKB"}) {
    TableHeader h = Header(Xq(), t);
    EXPECT_EQ(h.stats[kFirst].win, 0u) << t;
    EXPECT_GT(Legal(h.stats[kFirst]), 0u) << t;
  }
}

TEST(XiangqiTablebase, PawnOnTheLastRankCannotWin) {
  BuildTables(Xq(), {"KPK"});
  TablebaseSet set;
  ASSERT_TRUE(set.Open(ScratchDir(), Xq()).ok());
  const Variant& v = Xq();
  const int K = v.royal_kind(), P = v.KindForLetter('P');
  int checked = 0, wins_lower = 0;
  for (int rk : {0, 1, 2}) {
    for (int rf = 3; rf <= 5; ++rf)
      for (int bk = 0; bk < kSquareSlots; ++bk) {
        if (!v.legal_squares(kSecond, K)[bk]) continue;
        for (int pf = 0; pf < 9; ++pf)
          for (int pr : {9, 6}) {
            Position p;
            p.Clear(v, kFirst);
            p.Put(MakePiece(kFirst, K), MakeSquare(rf, rk));
            p.Put(MakePiece(kSecond, K), bk);
            const int ps = MakeSquare(pf, pr);
            if (ps == bk) continue;
            p.Put(MakePiece(kFirst, P), ps);
            if (!p.Validate().ok()) continue;
            ProbeResult r;
            ASSERT_TRUE(set.Probe(p, &r).ok());
            if (pr == 9) {
              // 底兵 (a pawn on the last rank): no win, except where Black is
              // already mated or stalemated at once.
              if (r.wdl == Wdl::kWin) {
                MoveList ml;
                p.GenerateLegal(&ml);
                EXPECT_LE(r.dtm_plies, 1) << p.Fen();
              }
              ++checked;
            } else if (r.wdl == Wdl::kWin) {
              ++wins_lower;
            }
          }
      }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(wins_lower, 0);  // a pawn higher up does win
}

TEST(XiangqiTablebase, RookAgainstFullDefenceDrawsOften) {
  // 单车难胜士象全: with both advisors and both elephants the defence holds
  // many positions; with one elephant or both advisors only, it does not.
  BuildTables(Xq(), {"KRKAABB"});
  TableHeader full = Header(Xq(), "KRKAABB");
  EXPECT_GT(full.stats[kFirst].draw * 10, Legal(full.stats[kFirst]));   // > 10% with Red to move
  EXPECT_GT(full.stats[kSecond].draw * 4, Legal(full.stats[kSecond]));  // > 25% with Black to move
  EXPECT_EQ(Header(Xq(), "KRKAAB").stats[kFirst].draw, 0u);
  EXPECT_EQ(Header(Xq(), "KRKAA").stats[kFirst].draw, 0u);  // 车胜双士
}

// The same table with every repetition a draw: the rule turns some of the
// defender's drawn positions (endless checks with the horse) into losses and
// nothing the other way.
TEST(XiangqiTablebase, PerpetualCheckRuleOnlyAddsWins) {
  std::shared_ptr<const Variant> draws;
  ASSERT_TRUE(LoadVariant("xiangqi", &draws, {"rules.perpetual_check=draw"}).ok());
  const std::string dir = ScratchDir() + "/cycles-draw";
  BuildTables(*draws, {"KRKN"}, dir);
  BuildTables(Xq(), {"KRKN"});
  TableHeader plain = Header(*draws, "KRKN", dir);
  TableHeader rule = Header(Xq(), "KRKN");
  EXPECT_EQ(plain.orders, 0u);
  EXPECT_NE(plain.rules.find("every repetition is a draw"), std::string::npos);
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(Legal(plain.stats[s]), Legal(rule.stats[s]));
    EXPECT_GE(rule.stats[s].win, plain.stats[s].win);
    EXPECT_GE(rule.stats[s].loss, plain.stats[s].loss);
  }
  EXPECT_GT(rule.stats[kFirst].win, plain.stats[kFirst].win);  // Red wins more
  // A table of other rules is refused, not overwritten.
  std::vector<PlanItem> plan;
  EXPECT_EQ(MakePlan(Xq(), {"KRKN"}, dir, &plan).code(), Status::Code::kInvalidArgument);
}

TEST(XiangqiTablebase, PerpetualCheckRuleIsApplied) {
  // The defender's lone horse can keep checking; those cycles are losses for
  // the checker, so some positions need the rule (orders > 0).
  BuildTables(Xq(), {"KRKN"});
  TableHeader h = Header(Xq(), "KRKN");
  EXPECT_GE(h.orders, 1u);
  EXPECT_NE(h.rules.find("perpetual check loses"), std::string::npos);
}

}  // namespace
}  // namespace canju::tb

// `canju tb build --for PATH`: the tables a collection's records reach (the
// start, and each position after a capture along the main line), within a
// piece count and the memory limit, built with their sub-tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_canju.h"

namespace {

using namespace canju_cli_test;

class TablebaseCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(Binary().c_str(), X_OK) != 0) GTEST_SKIP() << Binary() << " not built";
    dir_ = ::testing::TempDir() + "canju_tb_for_" + std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    // 车 against 卒 (KRKP), where the main line's first move takes the pawn (KRK).
    std::ofstream(dir_ + "/capture.pgn") << "[Game \"Chinese Chess\"]\n"
                                            "[FEN \"3k5/9/9/9/9/9/9/4p4/4R4/4K4 w - - 0 1\"]\n"
                                            "[Format \"ICCS\"]\n[Title \"capture\"]\n\n1. E1-E2 *\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(TablebaseCommands, BuildForACollectionPlansTheMaterialsItsRecordsReach) {
  const std::string tb = dir_ + "/tb";
  Result plan = RunCanju({"tb", "build", "--for", dir_ + "/capture.pgn", "--max-pieces", "4", "--dry-run", "--dir", tb});
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_NE(plan.err.find("tables for 1 record(s)"), std::string::npos) << plan.err;
  EXPECT_NE(plan.err.find("KRKP           1 record(s), e.g. capture"), std::string::npos) << plan.err;
  EXPECT_NE(plan.err.find("KRK            1 record(s)"), std::string::npos) << plan.err;
  EXPECT_NE(plan.err.find("4 table(s) to build"), std::string::npos) << plan.err;  // with KK and KPK
  EXPECT_FALSE(std::filesystem::exists(tb + "/KRKP.xiangqi.ctb")) << "a dry run builds nothing";
  // Three pieces at most: only the end of the line, built.
  Result small = RunCanju({"tb", "build", "--quiet", "--for", dir_, "--max-pieces", "3", "--dir", tb});
  ASSERT_EQ(small.code, 0) << small.err;
  EXPECT_EQ(small.err.find("KRKP "), std::string::npos) << small.err;
  Result list = RunCanju({"tb", "list", "--dir", tb});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("KRK"), std::string::npos) << list.out;
  EXPECT_EQ(list.out.find("KRKP"), std::string::npos) << list.out;
  // Again: nothing left to build.
  Result again = RunCanju({"tb", "build", "--quiet", "--for", dir_, "--max-pieces", "3", "--dir", tb});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("0 table(s) to build"), std::string::npos) << again.err;
}

TEST_F(TablebaseCommands, BuildForWalksTheVariationsOnlyWhenAsked) {
  // 车 against 马卒: the main line takes the pawn (KRKN), the book's
  // variation the horse (KRKP).
  const std::string file = dir_ + "/branch.pgn";
  std::ofstream(file) << "[Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/9/p8/R7n/4K4 w - - 0 1\"]\n"
                         "[Format \"ICCS\"]\n[Title \"branch\"]\n\n1. A1-A2 (1. A1-I1) *\n";
  Result main_line = RunCanju({"tb", "build", "--for", file, "--max-pieces", "4", "--dry-run", "--dir", dir_ + "/tb"});
  ASSERT_EQ(main_line.code, 0) << main_line.err;
  EXPECT_NE(main_line.err.find("KRKN           1 record(s)"), std::string::npos) << main_line.err;
  EXPECT_EQ(main_line.err.find("KRKP "), std::string::npos) << main_line.err;
  Result all = RunCanju(
      {"tb", "build", "--for", file, "--variations", "--max-pieces", "4", "--dry-run", "--dir", dir_ + "/tb"});
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.err.find("along the book's lines: 2"), std::string::npos) << all.err;
  EXPECT_NE(all.err.find("KRKN           1 record(s)"), std::string::npos) << all.err;
  EXPECT_NE(all.err.find("KRKP           1 record(s)"), std::string::npos) << all.err;
}

TEST_F(TablebaseCommands, BuildForNamesAColourFlipByItsTable) {
  // 车 against 卒 with either side holding the rook: one table, two records.
  const std::string file = dir_ + "/flip.fen";
  std::ofstream(file) << "3k5/9/9/9/9/9/9/4p4/R8/4K4 w; id \"red rook\"\n"
                         "3k5/9/9/4P4/r8/9/9/9/9/4K4 w; id \"black rook\"\n";
  Result plan = RunCanju({"tb", "build", "--for", file, "--max-pieces", "4", "--dry-run", "--dir", dir_ + "/tb"});
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_NE(plan.err.find("reached at the start or after a capture along the main line: 1"), std::string::npos)
      << plan.err;
  EXPECT_NE(plan.err.find("KRKP           2 record(s), e.g. red rook"), std::string::npos) << plan.err;
  EXPECT_EQ(plan.err.find("KPKR"), std::string::npos) << plan.err;
}

TEST_F(TablebaseCommands, BuildForAStoreReadsItsRecords) {
  const std::string store = dir_ + "/store";
  ASSERT_EQ(RunCanju({"import", "--quiet", "--store", store, dir_ + "/capture.pgn"}).code, 0);
  Result plan = RunCanju({"tb", "build", "--for-store", store, "--max-pieces", "4", "--dry-run", "--dir", dir_ + "/tb"});
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_NE(plan.err.find("tables for 1 record(s)"), std::string::npos) << plan.err;
  EXPECT_NE(plan.err.find("KRKP           1 record(s), e.g. capture"), std::string::npos) << plan.err;
  // Another collection's records only: none here.
  Result other = RunCanju({"tb", "build", "--for-store", store, "--collection", "nothing", "--dir", dir_ + "/tb"});
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_NE(other.err.find("tables for 0 record(s)"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("no table to build"), std::string::npos) << other.err;
  // A store that is not there is an error, and reading does not create it.
  Result missing = RunCanju({"tb", "build", "--for-store", dir_ + "/nostore", "--dir", dir_ + "/tb"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find(dir_ + "/nostore"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/nostore"));
  Result stray = RunCanju({"tb", "build", "--collection", "x", "--dir", dir_ + "/tb", "KRK"});
  EXPECT_EQ(stray.code, 2);
  EXPECT_NE(stray.err.find("--collection needs --for-store"), std::string::npos) << stray.err;
}

TEST_F(TablebaseCommands, BuildForLeavesOutWhatDoesNotFitAndNamesBadInput) {
  // A memory limit below every table's build: each is named and left out.
  Result tight = RunCanju({"tb", "build", "--for", dir_, "--max-pieces", "4", "--memory-limit", "1", "--dir", dir_ + "/tb"});
  ASSERT_EQ(tight.code, 0) << tight.err;
  EXPECT_NE(tight.err.find("KRKP           1 record(s), e.g. capture (" + dir_ + "/capture.pgn)  — left out: needs about"),
            std::string::npos)
      << tight.err;
  EXPECT_NE(tight.err.find("no table to build"), std::string::npos) << tight.err;
  // A cap on a table's entries: KRKP (tens of thousands a side) goes, KRK
  // (a few thousand) stays.
  Result capped =
      RunCanju({"tb", "build", "--for", dir_, "--max-pieces", "4", "--max-entries", "10k", "--dry-run", "--dir", dir_ + "/tb"});
  ASSERT_EQ(capped.code, 0) << capped.err;
  EXPECT_NE(capped.err.find("KRKP           1 record(s), e.g. capture (" + dir_ + "/capture.pgn)  — left out: "),
            std::string::npos)
      << capped.err;
  EXPECT_NE(capped.err.find("entries a side, over --max-entries 10k"), std::string::npos) << capped.err;
  EXPECT_NE(capped.err.find("KRK            1 record(s), e.g. capture (" + dir_ + "/capture.pgn)\n"), std::string::npos)
      << capped.err;
  Result bad = RunCanju({"tb", "build", "--for", dir_, "--max-entries", "5X", "--dir", dir_ + "/tb"});
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("a count such as 500M"), std::string::npos) << bad.err;
  Result unplanned = RunCanju({"tb", "build", "--max-entries", "5M", "--dir", dir_ + "/tb", "KRK"});
  EXPECT_EQ(unplanned.code, 2);
  EXPECT_NE(unplanned.err.find("--max-entries needs --for"), std::string::npos) << unplanned.err;
  Result nothing = RunCanju({"tb", "build", "--dir", dir_ + "/tb"});
  EXPECT_EQ(nothing.code, 2);
  EXPECT_NE(nothing.err.find("name the tables (e.g. KRKAA) or give --for PATH or --for-store DIR"), std::string::npos)
      << nothing.err;
  Result missing = RunCanju({"tb", "build", "--for", dir_ + "/nope.xqf", "--dir", dir_ + "/tb"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find(dir_ + "/nope.xqf"), std::string::npos) << missing.err;
}

}  // namespace

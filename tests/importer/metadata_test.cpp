// Claims, numbers, titles and collections from titles, file names and folders.
#include <gtest/gtest.h>

#include "importer/metadata.h"

namespace canju {
namespace {

using meta::ClaimFromText;
using meta::ForSideToMove;

Claim RedToMove(const std::string& title) { return ForSideToMove(ClaimFromText(title), kFirst); }
Claim BlackToMove(const std::string& title) { return ForSideToMove(ClaimFromText(title), kSecond); }

TEST(Claims, TitleWords) {
  EXPECT_EQ(RedToMove("一夫发难 红胜"), Claim::kWin);
  EXPECT_EQ(RedToMove("七星聚会 红先和"), Claim::kDraw);
  EXPECT_EQ(RedToMove("一击惊人 正和"), Claim::kDraw);
  EXPECT_EQ(RedToMove("某局 红先负"), Claim::kLoss);
  // Red's view turned to Black's when Black moves first.
  EXPECT_EQ(BlackToMove("一夫发难 红胜"), Claim::kLoss);
  EXPECT_EQ(BlackToMove("某局 黑先胜"), Claim::kWin);
  // 先胜 / 先负 are already the mover's view.
  EXPECT_EQ(BlackToMove("甲 先胜 乙"), Claim::kWin);
  EXPECT_EQ(BlackToMove("甲 先负 乙"), Claim::kLoss);
  // Endgame names: the first side named is Red's.
  EXPECT_EQ(RedToMove("车胜士象全（第9局）"), Claim::kWin);
  EXPECT_EQ(RedToMove("车兵胜4卒双士026"), Claim::kWin);
  EXPECT_EQ(RedToMove("马兵和炮079"), Claim::kDraw);
  // Names that merely contain the characters.
  EXPECT_EQ(RedToMove("一战胜齐"), Claim::kUnknown);
  EXPECT_EQ(RedToMove("以少胜多"), Claim::kUnknown);
  EXPECT_EQ(RedToMove("马灵兵胜"), Claim::kUnknown);
  EXPECT_EQ(RedToMove("车马冷着（第1局）007"), Claim::kUnknown);
}

TEST(Claims, FoldersAndResults) {
  EXPECT_EQ(ForSideToMove(meta::ClaimFromFolder("先胜局"), kSecond), Claim::kWin);
  EXPECT_EQ(ForSideToMove(meta::ClaimFromFolder("先和局"), kFirst), Claim::kDraw);
  EXPECT_EQ(ForSideToMove(meta::ClaimFromFolder("先负局"), kFirst), Claim::kLoss);
  EXPECT_FALSE(meta::ClaimFromFolder("小征东").known());
  EXPECT_EQ(ForSideToMove(meta::ClaimFromRedResult(2, "x"), kSecond), Claim::kWin);
  EXPECT_EQ(ForSideToMove(meta::ClaimFromPgnResult("1-0"), kSecond), Claim::kLoss);
  EXPECT_STREQ(meta::PgnResult(Claim::kWin, kSecond), "0-1");
}

TEST(Numbers, TitlesAndStems) {
  std::string rest;
  EXPECT_EQ(meta::NumberFromTitle("第020局 气吞关右", &rest), 20);
  EXPECT_EQ(rest, " 气吞关右");
  EXPECT_EQ(meta::NumberFromTitle("竹香斋初集－第56局两仙传道"), 56);
  EXPECT_EQ(meta::NumberFromTitle("车兵和车卒士（第2局）"), 0);  // a sub-number in parentheses
  EXPECT_EQ(meta::NumberFromTitle("第二局"), 0);
  EXPECT_EQ(meta::NumberFromStem("马兵胜士象全070", &rest), 70);
  EXPECT_EQ(rest, "马兵胜士象全");
  EXPECT_EQ(meta::NumberFromStem("非连杀小局001参考着法"), 1);
  EXPECT_EQ(meta::NumberFromStem("炮兵胜士象全1"), 0);
}

TEST(Titles, Cleaned) {
  std::string series;
  EXPECT_EQ(meta::CleanTitle("第001局 气吞关右"), "气吞关右");
  EXPECT_EQ(meta::CleanTitle("一夫拼命 红胜(1)"), "一夫拼命 (1)");
  EXPECT_EQ(meta::CleanTitle("竹香斋初集－第56局两仙传道", &series), "两仙传道");
  EXPECT_EQ(series, "竹香斋初集");
  EXPECT_EQ(meta::CleanTitle("车胜士象全"), "车胜士象全");
}

TEST(Paths, CollectionFolder) {
  EXPECT_EQ(meta::CollectionFromPath("data/xqf/适情雅趣550局/先胜局/第001局 气吞关右.XQF"), "适情雅趣550局");
  EXPECT_EQ(meta::ResultFolderOf("data/xqf/适情雅趣550局/先胜局/a.XQF"), "先胜局");
  EXPECT_EQ(meta::CollectionFromPath("data/xqf/江湖八大排局/小征东/a.XQF"), "小征东");
  EXPECT_EQ(meta::CollectionFromPath("a.XQF"), "");
  EXPECT_EQ(meta::FileStem("x/y/梦入神机.eglib"), "梦入神机");
  EXPECT_EQ(meta::FileExtension("x/y/a.XQF"), "xqf");
}

}  // namespace
}  // namespace canju

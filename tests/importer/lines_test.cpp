// Line lists (title|FEN|moves), FEN/EPD lists and tagged FEN blocks,
// written by the tests.
#include <gtest/gtest.h>

#include "importer/importer.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

using testing::ReadText;

constexpr const char* kPos = "3ak4/9/9/9/9/9/9/9/8R/3K5";  // Red K d0 R i1; Black K e9 A d9

TEST(LineList, LinesOfOnePuzzleBecomeOneTree) {
  std::string text = std::string("第012局 测试 红先胜|") + kPos + " w|i1i9,e9e8,i9i8\n" +  //
                     "第012局 测试 红先胜|" + kPos + " w|i1i8\n" +                   //
                     "第012局 测试 红先胜|" + kPos + " w|i1i9,e9e8,i9i8\n" +              // a duplicate
                     "另一局|" + kPos + " w|i1i8\n";
  Status st;
  ReadResult r = ReadText("lib/某书.eglib", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 2u);
  const Record& a = r.records[0];
  EXPECT_EQ(a.fen, std::string(kPos) + " w - - 0 1");
  EXPECT_EQ(testing::TreeText(a.moves), "[i1i9 e9e8 i9i8 | i1i8]");
  EXPECT_EQ(a.number, 12);
  EXPECT_EQ(a.title, "测试");
  EXPECT_EQ(a.claimed, Claim::kWin);
  EXPECT_EQ(a.collection, "某书");
  EXPECT_EQ(a.source, "lib/某书.eglib#1");
  EXPECT_EQ(r.records[1].title, "另一局");
  EXPECT_EQ(r.records[1].source, "lib/某书.eglib#2");
  ASSERT_EQ(r.issues.size(), 1u) << testing::AllIssues(r);
  EXPECT_EQ(r.issues[0].where, "line 3");
  EXPECT_NE(r.issues[0].reason.find("duplicate"), std::string::npos);
}

TEST(LineList, WrongSideInTheFenIsCorrectedByTheFirstMove) {
  // The 第482局 case: the list says "w" but Black moves first.
  ReadResult r = ReadText("x.eglib", std::string("t|") + kPos + " w|e9e8,i1i8\n");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].fen, std::string(kPos) + " b - - 0 1");
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "e9e8 i1i8");
  EXPECT_TRUE(testing::HasIssue(r, "line 1: side to move: the file says red, but the first move is black's"))
      << testing::AllIssues(r);
}

TEST(LineList, IllegalMoveKeepsWhatCameBefore) {
  ReadResult r = ReadText("x.eglib", std::string("t|") + kPos + " w|i1i9,e9e8,i9h7,e8e7\n");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "i1i9 e9e8");
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, "line 1, ply 3 (i9h7)");
}

TEST(LineList, BadFenIsReportedAndTheRestIsRead) {
  ReadResult r = ReadText("x.eglib", std::string("bad|rnbakabnr/9/9 w|a0a1\nok|") + kPos + " w|i1i9\n");
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_TRUE(r.records[0].tags.count(kImportErrorTag));
  EXPECT_TRUE(r.records[0].moves.empty());
  EXPECT_EQ(testing::TreeText(r.records[1].moves), "i1i9");
  EXPECT_TRUE(testing::HasIssue(r, "line 1: start position rejected")) << testing::AllIssues(r);
}

TEST(FenList, ReadsFensWithEpdOperations) {
  std::string text = std::string("# comment line\n") + kPos + " w - - 0 1 id \"第3局 三\"; c0 \"开局\"; claim \"draw\"\n" +
                     kPos + " b; collection \"甲\"; number 9; pv \"e9e8 i1i8\"\n" + kPos + " w 自由标题\n";
  Status st;
  ReadResult r = ReadText("some/list.fen", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 3u) << testing::AllIssues(r);
  EXPECT_EQ(r.records[0].title, "三");
  EXPECT_EQ(r.records[0].number, 3);
  EXPECT_EQ(r.records[0].comment, "开局");
  EXPECT_EQ(r.records[0].claimed, Claim::kDraw);
  EXPECT_EQ(r.records[0].collection, "list");
  EXPECT_EQ(r.records[1].fen, std::string(kPos) + " b - - 0 1");
  EXPECT_EQ(r.records[1].collection, "甲");
  EXPECT_EQ(r.records[1].number, 9);
  EXPECT_EQ(testing::TreeText(r.records[1].moves), "e9e8 i1i8");
  EXPECT_EQ(r.records[2].title, "自由标题");
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
}

TEST(FenList, GarbageLineIsReportedPerLine) {
  ReadResult r = ReadText("l.fen", std::string("hello world\n") + kPos + " w\n");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(testing::HasIssue(r, "line 1: not a FEN")) << testing::AllIssues(r);
}

TEST(TaggedFen, BlocksBecomeRecords) {
  std::string text = std::string("\xEF\xBB\xBF") +  // UTF-8 byte-order mark
                     "[FEN_INDEX \"x-001\"]\n[EVENT \"某书新版 第001局 气吞关右\"]\n[FEN \"" + kPos +
                     " w - - 0 1\"]\n\n[FEN_INDEX \"x-002\"]\n[EVENT \"某书新版 *第002局 马蹀阏氏\"]\n[FEN \"" + kPos +
                     " b - - 0 1\"]\n";
  Status st;
  ReadResult r = ReadText("d/x.fen", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 2u) << testing::AllIssues(r);
  EXPECT_EQ(r.records[0].collection, "某书新版");
  EXPECT_EQ(r.records[0].number, 1);
  EXPECT_EQ(r.records[0].title, "气吞关右");
  EXPECT_EQ(r.records[0].tags.at("fen_index"), "x-001");
  EXPECT_EQ(r.records[1].number, 2);
  EXPECT_EQ(r.records[1].title, "马蹀阏氏");
  EXPECT_EQ(r.records[1].tags.at("mark"), "*");
  EXPECT_EQ(r.records[1].fen, std::string(kPos) + " b - - 0 1");
  EXPECT_EQ(r.records[1].source, "d/x.fen#2");
}

TEST(Detect, FormatsFromExtensionAndContent) {
  EXPECT_EQ(DetectFormat("a.XQF", "XQ\x12"), Format::kXqf);
  EXPECT_EQ(DetectFormat("a.bin", "XQ\x0a"), Format::kXqf);
  EXPECT_EQ(DetectFormat("a.eglib", "t|x w|"), Format::kLineList);
  EXPECT_EQ(DetectFormat("a.txt", std::string("t|") + kPos + " w|a0a1"), Format::kLineList);
  EXPECT_EQ(DetectFormat("a.fen", "[FEN \"x\"]"), Format::kTaggedFen);
  EXPECT_EQ(DetectFormat("a.fen", std::string(kPos) + " w"), Format::kFenList);
  EXPECT_EQ(DetectFormat("a.txt", std::string(kPos) + " w"), Format::kFenList);
  EXPECT_EQ(DetectFormat("a.pgn", "[Event \"x\"]"), Format::kPgn);
  EXPECT_EQ(DetectFormat("a.txt", "[DhtmlXQ][DhtmlXQ_binit]"), Format::kDhtmlXq);
  EXPECT_EQ(DetectFormat("x.cbl", "CCBridgeLibrary"), Format::kCbl);
  EXPECT_EQ(DetectFormat("x", std::string("CCBridge Record\0", 16)), Format::kCbr);
  EXPECT_EQ(DetectFormat("README.md", "# Real collections"), Format::kUnknown);
  EXPECT_EQ(DetectFormat("a.doc", "\xD0\xCF\x11\xE0"), Format::kUnknown);
  EXPECT_EQ(DetectFormat("notes.txt", "just some words"), Format::kUnknown);
}

}  // namespace
}  // namespace canju

// XQF: synthetic files written by the test in every layout we read
// (0x0A plain; 0x0B keys without rotation; 0x0C and later rotated and
// encrypted), plus broken ones.
#include <gtest/gtest.h>

#include "importer/importer.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

using testing::WriteXqf;
using testing::XqfRecord;
using testing::XqfSpec;
using testing::Xy;

// Red: king d0, rook i1. Black: king e9, advisor d9.
// 1. i1i9+ (1. i1i8) e9e8 {好棋} 2. i9i8+
XqfSpec ExampleSpec(int version) {
  XqfSpec s;
  s.version = version;
  s.pieces[4] = static_cast<uint8_t>(Xy(3, 0));       // red king
  s.pieces[8] = static_cast<uint8_t>(Xy(8, 1));       // red rook (right)
  s.pieces[16 + 4] = static_cast<uint8_t>(Xy(4, 9));  // black king
  s.pieces[16 + 3] = static_cast<uint8_t>(Xy(3, 9));  // black advisor
  s.title = "\xB5\xDA\x30\x31\x32\xBE\xD6\x20\xB2\xE2\xCA\xD4\x20\xBA\xEC\xCF\xC8\xCA\xA4";  // 第012局 测试 红先胜
  s.records = {
      {0, 0, true, false, "\xBA\xEC\xB7\xBD\xCF\xC8\xD7\xDF"},  // start: 红方先走
      {Xy(8, 1), Xy(8, 9), true, true, ""},                     // i1i9, has an alternative
      {Xy(4, 9), Xy(4, 8), true, false, "\xBA\xC3\xC6\xE5"},    // e9e8 {好棋}
      {Xy(8, 9), Xy(8, 8), false, false, ""},                   // i9i8
      {Xy(8, 1), Xy(8, 8), false, false, ""},                   // i1i8 (the alternative)
  };
  return s;
}

ReadResult Read(const std::string& bytes, Status* st = nullptr, const std::string& name = "test/例.xqf") {
  ReadResult r;
  Status s = ReadCollectionData(name, bytes, Format::kUnknown, &r);
  if (st) *st = s;
  return r;
}

class XqfVersions : public ::testing::TestWithParam<int> {};

TEST_P(XqfVersions, ReadsPositionTreeCommentsAndMetadata) {
  Status st;
  ReadResult r = Read(WriteXqf(ExampleSpec(GetParam())), &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
  const Record& rec = r.records[0];
  EXPECT_EQ(rec.fen, "3ak4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1");
  EXPECT_EQ(testing::TreeText(rec.moves), "[i1i9 e9e8 {好棋} i9i8 | i1i8]");
  EXPECT_EQ(rec.comment, "红方先走");
  EXPECT_EQ(rec.number, 12);
  EXPECT_EQ(rec.title, "测试");
  EXPECT_EQ(rec.claimed, Claim::kWin);
  EXPECT_EQ(rec.collection, "test");
  EXPECT_EQ(rec.source, "test/例.xqf");
  EXPECT_EQ(rec.variant, "xiangqi");
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, XqfVersions, ::testing::Values(0x0A, 0x0B, 0x0C, 0x0D, 0x10, 0x12));

TEST(Xqf, DifferentKeysGiveTheSameGame) {
  XqfSpec a = ExampleSpec(0x12), b = ExampleSpec(0x12);
  b.key_xy = 0xC4;
  b.key_xyf = 0x09;
  b.key_xyt = 0x7E;
  b.key_mask = 0xFF;
  b.key_or[0] = 0x00;
  std::string fa = WriteXqf(a), fb = WriteXqf(b);
  EXPECT_NE(fa, fb);  // the bytes differ ...
  ReadResult ra = Read(fa), rb = Read(fb);
  ASSERT_EQ(ra.records.size(), 1u);
  ASSERT_EQ(rb.records.size(), 1u);
  EXPECT_EQ(ra.records[0].fen, rb.records[0].fen);  // ... the game does not
  EXPECT_EQ(testing::TreeText(ra.records[0].moves), testing::TreeText(rb.records[0].moves));
}

TEST(Xqf, SideToMoveComesFromTheFirstMoveNotWhoPlay) {
  XqfSpec s = ExampleSpec(0x10);
  s.who_play = 0;  // says Red, but Black moves first
  s.result = 1;    // Red wins: a loss for the side to move
  s.title = "";
  s.records = {{0, 0, true, false, ""}, {Xy(4, 9), Xy(4, 8), false, false, ""}};
  ReadResult r = Read(WriteXqf(s));
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].fen, "3ak4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1");
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "e9e8");
  EXPECT_EQ(r.records[0].claimed, Claim::kLoss);
  EXPECT_EQ(r.records[0].title, "例");  // no title in the header: the file name
  EXPECT_TRUE(testing::HasIssue(r, "the first move is black's")) << testing::AllIssues(r);
}

TEST(Xqf, ResultFolderGivesTheClaim) {
  XqfSpec s = ExampleSpec(0x10);
  s.title = "";
  ReadResult r = Read(WriteXqf(s), nullptr, "books/某谱/先和局/第007局 某局.XQF");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].claimed, Claim::kDraw);
  EXPECT_EQ(r.records[0].collection, "某谱");
  EXPECT_EQ(r.records[0].number, 7);
  EXPECT_EQ(r.records[0].title, "某局");
}

TEST(Xqf, TruncatedBodyKeepsTheMovesBeforeTheCut) {
  std::string f = WriteXqf(ExampleSpec(0x12));
  Status st;
  ReadResult r = Read(f.substr(0, f.size() - 2), &st);  // the last record loses half its bytes
  ASSERT_TRUE(st.ok());
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "i1i9 e9e8 {好棋} i9i8");
  EXPECT_TRUE(testing::HasIssue(r, "truncated")) << testing::AllIssues(r);
}

TEST(Xqf, TruncatedHeaderIsAClearErrorNamingTheFile) {
  std::string f = WriteXqf(ExampleSpec(0x12));
  Status st;
  ReadResult r = Read(f.substr(0, 700), &st);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("test/例.xqf"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("header"), std::string::npos) << st.message();
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_TRUE(r.issues[0].fatal);
  EXPECT_TRUE(r.records.empty());
}

TEST(Xqf, WrongKeyBytesAreReported) {
  std::string f = WriteXqf(ExampleSpec(0x12));
  f[0x0C] = static_cast<char>(f[0x0C] + 1);
  Status st;
  ReadResult r = Read(f, &st);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("wrong key bytes"), std::string::npos) << st.message();
  EXPECT_TRUE(r.records.empty());
}

TEST(Xqf, IllegalMoveEndsItsBranchOnly) {
  XqfSpec s = ExampleSpec(0x12);
  s.records[3].to = Xy(7, 7);  // i9h7: a rook does not move like that
  ReadResult r = Read(WriteXqf(s));
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "[i1i9 e9e8 {好棋} | i1i8]");
  ASSERT_EQ(r.issues.size(), 1u) << testing::AllIssues(r);
  EXPECT_EQ(r.issues[0].file, "test/例.xqf");
  EXPECT_NE(r.issues[0].where.find("ply 3 (i9h7)"), std::string::npos) << r.issues[0].where;
}

TEST(Xqf, InvalidGbkInTheTitleBecomesReplacementCharacters) {
  XqfSpec s = ExampleSpec(0x0A);
  s.title = "\xB2\xE2\xFF\xFF";  // 测 then two bytes that are not GBK
  ReadResult r = Read(WriteXqf(s));
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].title, "测\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_TRUE(testing::HasIssue(r, "not valid GBK")) << testing::AllIssues(r);
}

TEST(Xqf, ImpossiblePositionIsKeptAsBroken) {
  XqfSpec s = ExampleSpec(0x12);
  s.pieces[16 + 3] = 0xFF;  // without the advisor on d9 the kings face each other
  s.pieces[4] = static_cast<uint8_t>(Xy(4, 0));
  s.records = {{0, 0, false, false, ""}};
  ReadResult r = Read(WriteXqf(s));
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(r.records[0].tags.count(kImportErrorTag));
  EXPECT_TRUE(testing::HasIssue(r, "start position rejected")) << testing::AllIssues(r);
}

TEST(Xqf, GarbageNeverCrashes) {
  std::string f = WriteXqf(ExampleSpec(0x12));
  for (size_t cut = 0; cut < f.size(); cut += 7) {
    ReadResult r;
    ReadCollectionData("cut.xqf", f.substr(0, cut), Format::kXqf, &r);
  }
  for (int flip = 0x400; flip < static_cast<int>(f.size()); ++flip) {
    std::string g = f;
    g[flip] = static_cast<char>(g[flip] ^ 0x5A);
    ReadResult r;
    ReadCollectionData("flip.xqf", g, Format::kXqf, &r);
  }
  SUCCEED();
}

}  // namespace
}  // namespace canju

// PGN in (tags, FEN, ICCS / WXF / Chinese moves, variations, comments,
// GBK and UTF-8) and out (a round trip keeps the tree and the comments).
#include <gtest/gtest.h>

#include "importer/importer.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

using testing::ReadText;

TEST(PgnReader, ChineseMovesVariationsAndComments) {
  const std::string text =
      "[Game \"Chinese Chess\"]\n[Event \"某赛\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n"
      "{开局} 1. 炮二平五 {当头炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三) 2. 马二进三 车９平８ 1-0\n";
  Status st;
  ReadResult r = ReadText("games/a.pgn", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 1u) << testing::AllIssues(r);
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
  const Record& rec = r.records[0];
  EXPECT_EQ(rec.fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
  EXPECT_EQ(rec.comment, "开局");
  EXPECT_EQ(testing::TreeText(rec.moves), "h2e2 {当头炮} [h9g7 h0g2 i9h9 | h7e7 {顺炮} h0g2]");
  EXPECT_EQ(rec.claimed, Claim::kWin);
  EXPECT_EQ(rec.collection, "某赛");
  EXPECT_EQ(rec.title, "甲 - 乙");
  EXPECT_EQ(rec.tags.at("red"), "甲");
}

TEST(PgnReader, GamesWithoutTagsAreSplitAtTheirResults) {
  const std::string text = "1. h2e2 h9g7 2. h0g2 1-0\n\n1. b2e2 b9c7 0-1\nsome notes after the last game\n";
  Status st;
  ReadResult r = ReadText("games/b.pgn", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 2u) << testing::AllIssues(r);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "h2e2 h9g7 h0g2");
  EXPECT_EQ(testing::TreeText(r.records[1].moves), "b2e2 b9c7");
  EXPECT_EQ(r.records[1].source, "games/b.pgn#2");
  // Unnumbered words after a result are still reported, not read as a game.
  EXPECT_TRUE(testing::HasIssue(r, "text after the result ignored")) << testing::AllIssues(r);
}

TEST(PgnReader, WxfAndIccsWithAFen) {
  const std::string fen = "3ak4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1";
  const std::string text = "[Game \"Chinese Chess\"]\n[FEN \"" + fen + "\"]\n[Format \"WXF\"]\n\n1. R1+8 K5+1 2. R1-1 *\n\n" +
                           "[Game \"Chinese Chess\"]\n[FEN \"" + fen + "\"]\n[Format \"ICCS\"]\n\n1. I1-I9 E9-E8 *\n";
  ReadResult r = ReadText("x.pgn", text);
  ASSERT_EQ(r.records.size(), 2u) << testing::AllIssues(r);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "i1i9 e9e8 i9i8");
  EXPECT_EQ(testing::TreeText(r.records[1].moves), "i1i9 e9e8");
  EXPECT_EQ(r.records[1].source, "x.pgn#2");
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
}

TEST(PgnReader, GbkFileIsDecoded) {
  // [Event "测试"] 1. 炮二平五 in GBK.
  const std::string text = "[Event \"\xB2\xE2\xCA\xD4\"]\n\n1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 *\n";
  ReadResult r = ReadText("gbk.pgn", text);
  ASSERT_EQ(r.records.size(), 1u) << testing::AllIssues(r);
  EXPECT_EQ(r.records[0].collection, "测试");
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "h2e2");
}

TEST(PgnReader, IllegalMoveInATreeKeepsTheRest) {
  const std::string text = "[Event \"x\"]\n\n1. 炮二平五 马８进７ (1... 车９进９ 2. 马二进三) 2. 马二进三 *\n";
  ReadResult r = ReadText("t.pgn", text);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "h2e2 h9g7 h0g2");
  ASSERT_EQ(r.issues.size(), 1u) << testing::AllIssues(r);
  EXPECT_NE(r.issues[0].where.find("ply 2 (车９进９), in a variation"), std::string::npos) << r.issues[0].where;
}

TEST(PgnReader, GarbageIsAClearErrorPerFile) {
  Status st;
  ReadResult r = ReadText("junk.pgn", "\x01\x02 this is ) not ( a game {", &st);
  // Words are read as moves and rejected one by one; nothing crashes.
  for (const ImportIssue& i : r.issues) EXPECT_EQ(i.file, "junk.pgn");
  EXPECT_FALSE(r.issues.empty());
  ReadResult empty = ReadText("empty.pgn", "", &st);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("empty.pgn"), std::string::npos);
}

// A record with everything a writer must keep.
Record Example() {
  ReadResult r;
  const std::string text =
      "[Game \"Chinese Chess\"]\n[Event \"某赛\"]\n[Title \"第7局 例局\"]\n[Result \"1/2-1/2\"]\n\n"
      "{开局说明} 1. 炮二平五 {当头炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三 (2. 马八进七) 马８进７) "
      "2. 马二进三 车９平８ *\n";
  EXPECT_TRUE(ReadCollectionData("book/例.pgn", text, Format::kPgn, &r).ok());
  EXPECT_EQ(r.records.size(), 1u);
  return r.records.at(0);
}

class PgnRoundTrip : public ::testing::TestWithParam<PgnMoveStyle> {};

TEST_P(PgnRoundTrip, KeepsTreeCommentsAndMetadata) {
  Record rec = Example();
  ASSERT_EQ(testing::TreeText(rec.moves),
            "h2e2 {当头炮} [h9g7 h0g2 i9h9 | h7e7 {顺炮} [h0g2 h9g7 | b0c2]]");
  std::string pgn;
  ASSERT_TRUE(WritePgn({rec}, GetParam(), &pgn).ok());
  ReadResult back;
  Status st = ReadCollectionData("back.pgn", pgn, Format::kPgn, &back);
  ASSERT_TRUE(st.ok()) << st.ToString() << "\n" << pgn;
  ASSERT_EQ(back.records.size(), 1u) << pgn;
  EXPECT_TRUE(back.issues.empty()) << testing::AllIssues(back) << pgn;
  const Record& b = back.records[0];
  EXPECT_EQ(b.fen, rec.fen);
  EXPECT_EQ(testing::TreeText(b.moves), testing::TreeText(rec.moves)) << pgn;
  EXPECT_EQ(b.comment, rec.comment);
  EXPECT_EQ(b.title, "例局");
  EXPECT_EQ(b.number, 7);
  EXPECT_EQ(b.collection, rec.collection);
  EXPECT_EQ(b.claimed, Claim::kDraw);
}

INSTANTIATE_TEST_SUITE_P(Styles, PgnRoundTrip,
                         ::testing::Values(PgnMoveStyle::kIccs, PgnMoveStyle::kChinese, PgnMoveStyle::kWxf));

TEST(PgnWriter, BlackToMoveAndMoveNumbers) {
  Record rec;
  rec.fen = "3ak4/9/9/9/9/9/9/9/8R/3K5 b - - 0 1";
  rec.moves.push_back(MoveNode{"e9e8", "", {MoveNode{"i1i8", "将", {}}}});
  rec.claimed = Claim::kLoss;
  std::string pgn;
  ASSERT_TRUE(WritePgn({rec}, PgnMoveStyle::kIccs, &pgn).ok());
  EXPECT_NE(pgn.find("1... E9-E8 2. I1-I8 {将} 1-0"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
}

TEST(PgnWriter, TagNamesThatCleanUpAlikeStayOneGame) {
  // Found by fuzzing: two tags whose names differ only in characters a PGN
  // tag name cannot hold were written under one name, and the repeated tag
  // split the game in two when read back.
  Record rec = Example();
  rec.tags["甲x"] = "1";
  rec.tags["乙x"] = "2";
  rec.tags["red"] = "红方";
  rec.tags["r@ed"] = "3";
  std::string pgn;
  ASSERT_TRUE(WritePgn({rec}, PgnMoveStyle::kIccs, &pgn).ok());
  ReadResult back;
  ASSERT_TRUE(ReadCollectionData("b.pgn", pgn, Format::kPgn, &back).ok());
  ASSERT_EQ(back.records.size(), 1u) << pgn;
  EXPECT_EQ(back.records[0].tags.at("red"), "红方");
  ASSERT_TRUE(back.records[0].tags.count("___x") && back.records[0].tags.count("___x_2")) << pgn;
  EXPECT_EQ(back.records[0].tags.at("___x") + back.records[0].tags.at("___x_2"), "21") << pgn;  // 乙 sorts first
  EXPECT_EQ(back.records[0].tags.at("r_ed"), "3") << pgn;
}

TEST(PgnWriter, ClosingBraceInACommentIsKeptReadable) {
  Record rec = Example();
  rec.moves[0].comment = "a}b";
  std::string pgn;
  ASSERT_TRUE(WritePgn({rec}, PgnMoveStyle::kChinese, &pgn).ok());
  ReadResult back;
  ASSERT_TRUE(ReadCollectionData("b.pgn", pgn, Format::kPgn, &back).ok());
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].moves[0].comment, "a\xEF\xBD\x9D" "b");  // a｝b
  EXPECT_EQ(testing::TreeText(back.records[0].moves).size(), testing::TreeText(rec.moves).size() + 2);
}

// A rest-of-line comment may hold '}' (a braced one cannot): it reads as the
// full-width brace the writer would give it, so read → write → read keeps
// the comment (found by fuzz_pgn).
TEST(PgnReader, ClosingBraceInALineCommentSurvivesARoundTrip) {
  const std::string text = "[Game \"Chinese Chess\"]\n; a}b}\n1. 炮二平五 ;x}\n马８进７ *\n";
  Status st;
  ReadResult r = ReadText("games/brace.pgn", text, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 1u) << testing::AllIssues(r);
  const Record& rec = r.records[0];
  EXPECT_EQ(rec.comment, "a\xEF\xBD\x9D" "b\xEF\xBD\x9D");  // a｝b｝
  ASSERT_FALSE(rec.moves.empty());
  EXPECT_EQ(rec.moves[0].comment, "x\xEF\xBD\x9D");
  std::string pgn;
  ASSERT_TRUE(WritePgn({rec}, PgnMoveStyle::kIccs, &pgn).ok());
  ReadResult back;
  ASSERT_TRUE(ReadCollectionData("b.pgn", pgn, Format::kPgn, &back).ok());
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].comment, rec.comment) << pgn;
  EXPECT_EQ(testing::TreeText(back.records[0].moves), testing::TreeText(rec.moves)) << pgn;
}

TEST(PgnWriter, IllegalStoredMoveIsAnErrorNamingTheRecord) {
  Record rec;
  rec.source = "somewhere.xqf";
  rec.fen = "3ak4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1";
  rec.moves.push_back(MoveNode{"i1h3", "", {}});
  std::string pgn;
  Status st = WritePgn({rec}, PgnMoveStyle::kChinese, &pgn);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("somewhere.xqf: ply 1"), std::string::npos) << st.message();
}

TEST(FenListWriter, RoundTripKeepsMetadataAndMainLine) {
  Record rec = Example();
  rec.author = "某人";
  rec.tags["endgame"] = "车炮和车";
  std::string text;
  ASSERT_TRUE(WriteFenList({rec, rec}, &text).ok());
  ReadResult back;
  ASSERT_TRUE(ReadCollectionData("out.fen", text, Format::kUnknown, &back).ok()) << text;
  ASSERT_EQ(back.records.size(), 2u) << testing::AllIssues(back) << text;
  const Record& b = back.records[1];
  EXPECT_EQ(b.fen, rec.fen);
  EXPECT_EQ(b.title, rec.title);
  EXPECT_EQ(b.collection, rec.collection);
  EXPECT_EQ(b.number, rec.number);
  EXPECT_EQ(b.claimed, rec.claimed);
  EXPECT_EQ(b.author, "某人");
  EXPECT_EQ(b.comment, rec.comment);
  EXPECT_EQ(b.tags.at("endgame"), "车炮和车");
  EXPECT_EQ(testing::TreeText(b.moves), "h2e2 h9g7 h0g2 i9h9");  // the main line only
  EXPECT_EQ(b.source, "out.fen#2");
  EXPECT_TRUE(back.issues.empty()) << testing::AllIssues(back);
}

}  // namespace
}  // namespace canju

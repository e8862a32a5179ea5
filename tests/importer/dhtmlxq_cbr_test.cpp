// DhtmlXQ text and CBR/CBL binaries, written by the tests.
#include <gtest/gtest.h>

#include <cstring>

#include "importer/importer.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

// Red: king d0, rook i1. Black: king e9, advisor d9 (as in xqf_test.cpp).
const std::string kFen = "3ak4/9/9/9/9/9/9/9/8R/3K5 w - - 0 1";

std::string Binit() {
  std::string slots[32];
  for (auto& s : slots) s = "99";
  slots[4] = "39";   // red king d0 (x 3, row 9 from the top)
  slots[8] = "88";   // red rook i1
  slots[19] = "30";  // black advisor d9
  slots[20] = "40";  // black king e9
  std::string b;
  for (auto& s : slots) b += s;
  return b;
}

TEST(DhtmlXq, BoardMovesVariationsAndComments) {
  const std::string text = "<html>[DhtmlXQ]\n[DhtmlXQ_title]第3局 例局[/DhtmlXQ_title]\n[DhtmlXQ_result]红胜[/DhtmlXQ_result]\n"
                           "[DhtmlXQ_binit]" + Binit() + "[/DhtmlXQ_binit]\n"
                           "[DhtmlXQ_movelist]888040418081[/DhtmlXQ_movelist]\n"
                           "[DhtmlXQ_move_1_2_2]3041[/DhtmlXQ_move_1_2_2]\n"  // defined before the route it branches from
                           "[DhtmlXQ_move_0_1_1]88814050[/DhtmlXQ_move_0_1_1]\n"
                           "[DhtmlXQ_comment0]开局||第二行[/DhtmlXQ_comment0]\n"
                           "[DhtmlXQ_comment2]好棋[/DhtmlXQ_comment2]\n"
                           "[DhtmlXQ_comment1_1]另一着[/DhtmlXQ_comment1_1]\n"
                           "[DhtmlXQ_red]甲[/DhtmlXQ_red]\n[/DhtmlXQ]</html>";
  Status st;
  ReadResult r;
  st = ReadCollectionData("web/page.txt", text, Format::kUnknown, &r);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
  const Record& rec = r.records[0];
  EXPECT_EQ(rec.fen, kFen);
  EXPECT_EQ(testing::TreeText(rec.moves), "[i1i9 e9e8 {好棋} i9i8 | i1i8 {另一着} [e9f9 | d9e8]]");
  EXPECT_EQ(rec.comment, "开局\n第二行");
  EXPECT_EQ(rec.title, "例局");
  EXPECT_EQ(rec.number, 3);
  EXPECT_EQ(rec.claimed, Claim::kWin);
  EXPECT_EQ(rec.tags.at("red"), "甲");
}

TEST(DhtmlXq, CharacterReferencesFromWebPagesAreDecoded) {
  const std::string text = "[DhtmlXQ_title]&#31532;5&#23616; &#20363;&#23616;[/DhtmlXQ_title]\n"
                           "[DhtmlXQ_binit]" + Binit() + "[/DhtmlXQ_binit]\n"
                           "[DhtmlXQ_movelist]8880[/DhtmlXQ_movelist]\n"
                           "[DhtmlXQ_comment1]&lt;好&gt; &amp; 妙<br>次行[/DhtmlXQ_comment1]\n";
  ReadResult r;
  ASSERT_TRUE(ReadCollectionData("page.html", text, Format::kDhtmlXq, &r).ok());
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].title, "例局");
  EXPECT_EQ(r.records[0].number, 5);
  ASSERT_EQ(r.records[0].moves.size(), 1u);
  EXPECT_EQ(r.records[0].moves[0].comment, "<好> & 妙\n次行");
}

TEST(DhtmlXq, SideWithoutMovesIsTheOneThatMakesThePositionLegal) {
  // Black king e9 faces a red rook on e5: only Black can be to move.
  std::string slots[32];
  for (auto& s : slots) s = "99";
  slots[4] = "39";
  slots[0] = "44";   // red rook e5 (row 4 from the top)
  slots[20] = "40";  // black king e9
  std::string b;
  for (auto& s : slots) b += s;
  ReadResult r;
  ASSERT_TRUE(ReadCollectionData("p.txt", "[DhtmlXQ_binit]" + b + "[/DhtmlXQ_binit]", Format::kDhtmlXq, &r).ok());
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].fen, "4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1");
}

TEST(DhtmlXq, BadInputIsReported) {
  ReadResult r;
  ReadCollectionData("p.txt",
                     "[DhtmlXQ_binit]" + Binit() + "[/DhtmlXQ_binit][DhtmlXQ_movelist]8880404x[/DhtmlXQ_movelist]"
                     "[DhtmlXQ_move_7_3_9]1234[/DhtmlXQ_move_7_3_9][DhtmlXQ_comment5]x[/DhtmlXQ_comment5]",
                     Format::kDhtmlXq, &r);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "i1i9");
  EXPECT_TRUE(testing::HasIssue(r, "groups of 4 digits")) << testing::AllIssues(r);
  EXPECT_TRUE(testing::HasIssue(r, "move that does not exist")) << testing::AllIssues(r);
}

// --- CBR / CBL ---------------------------------------------------------------

std::string Utf16(const std::u16string& s) {
  std::string b;
  for (char16_t c : s) {
    b += static_cast<char>(c & 0xFF);
    b += static_cast<char>(c >> 8);
  }
  return b;
}

struct CbrMove {
  int flags;
  int from, to;  // V2: row * 9 + column, row 0 at the top
  std::u16string comment;
};

// i1 = column 8 row 8; i9 = 8 row 0; e9 = 4 row 0; e8 = 4 row 1; i8 = 8 row 1.
int Sq(int col, int row) { return row * 9 + col; }

std::string WriteCbr(int version, const std::u16string& title, int result, const std::vector<CbrMove>& moves,
                     const std::u16string& opening_comment) {
  const bool v1 = version == 1;
  std::string f(v1 ? 1958 : 2214, '\0');
  std::memcpy(f.data(), "CCBridge Record\0", 16);
  f[19] = static_cast<char>(version);
  std::string t = Utf16(title);
  std::memcpy(f.data() + (v1 ? 52 : 180), t.data(), t.size());
  f[v1 ? 1820 : 2076] = static_cast<char>(result);
  f[v1 ? 1856 : 2112] = 1;  // Red to move
  const size_t board = v1 ? 1864 : 2120;
  f[board + Sq(3, 9)] = 0x15;  // red king d0
  f[board + Sq(8, 8)] = 0x11;  // red rook i1
  f[board + Sq(4, 0)] = 0x25;  // black king e9
  f[board + Sq(3, 0)] = 0x24;  // black advisor d9
  auto square = [&](int sq) { return v1 ? static_cast<char>(((sq % 9) << 4) | (sq / 9)) : static_cast<char>(sq); };
  auto record = [&](int flags, int from, int to, const std::u16string& comment) {
    f += static_cast<char>(flags | (comment.empty() ? 0 : 4));
    f += '\0';
    f += square(from);
    f += square(to);
    if (!comment.empty()) {
      std::string c = Utf16(comment);
      uint32_t n = static_cast<uint32_t>(c.size());
      for (int i = 0; i < 4; ++i) f += static_cast<char>((n >> (8 * i)) & 0xFF);
      f += c;
    }
  };
  record(0, 0, 0, opening_comment);
  for (const CbrMove& m : moves) record(m.flags, m.from, m.to, m.comment);
  f += std::string(4, '\0');  // end mark
  return f;
}

// [i1i9 e9e8 {好棋} i9i8 | i1i8]: flags 1 = line ends, 2 = an alternative follows.
std::vector<CbrMove> ExampleMoves() {
  return {{2, Sq(8, 8), Sq(8, 0), u""}, {0, Sq(4, 0), Sq(4, 1), u"好棋"}, {1, Sq(8, 0), Sq(8, 1), u""},
          {1, Sq(8, 8), Sq(8, 1), u""}};
}

class CbrVersions : public ::testing::TestWithParam<int> {};

TEST_P(CbrVersions, ReadsBoardTreeAndComments) {
  ReadResult r;
  Status st = ReadCollectionData("a/b.cbr", WriteCbr(GetParam(), u"甲 先胜 乙", 0, ExampleMoves(), u"开局"),
                                 Format::kUnknown, &r);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_TRUE(r.issues.empty()) << testing::AllIssues(r);
  EXPECT_EQ(r.records[0].fen, kFen);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "[i1i9 e9e8 {好棋} i9i8 | i1i8]");
  EXPECT_EQ(r.records[0].comment, "开局");
  EXPECT_EQ(r.records[0].title, "甲 乙");
  EXPECT_EQ(r.records[0].claimed, Claim::kWin);
}

INSTANTIATE_TEST_SUITE_P(V1AndV2, CbrVersions, ::testing::Values(1, 2));

TEST(Cbr, TruncatedKeepsWhatCameBefore) {
  std::string f = WriteCbr(2, u"t", 3, ExampleMoves(), u"");
  ReadResult r;
  ASSERT_TRUE(ReadCollectionData("t.cbr", f.substr(0, f.size() - 8), Format::kCbr, &r).ok());
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(r.records[0].moves), "i1i9 e9e8 {好棋} i9i8");
  EXPECT_EQ(r.records[0].claimed, Claim::kDraw);
  EXPECT_TRUE(testing::HasIssue(r, "truncated")) << testing::AllIssues(r);
  ReadResult h;
  Status st = ReadCollectionData("h.cbr", f.substr(0, 1000), Format::kCbr, &h);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("h.cbr"), std::string::npos);
}

TEST(Cbl, LibraryOfRecords) {
  const uint32_t slots = 3;
  std::string lib(66624 + slots * 276, '\0');
  std::memcpy(lib.data(), "CCBridgeLibrary\0", 16);
  for (int i = 0; i < 4; ++i) lib[60 + i] = static_cast<char>((slots >> (8 * i)) & 0xFF);
  std::string name = Utf16(u"某专辑");
  std::memcpy(lib.data() + 64, name.data(), name.size());
  for (int g = 0; g < 2; ++g) {
    std::string rec = WriteCbr(2, g == 0 ? u"第1局 甲" : u"第2局 乙", 1, ExampleMoves(), u"");
    rec.resize(4096, '\0');
    lib += rec;
  }
  ReadResult r;
  Status st = ReadCollectionData("x/lib.cbl", lib, Format::kUnknown, &r);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(r.records.size(), 2u) << testing::AllIssues(r);
  EXPECT_EQ(r.records[0].collection, "某专辑");
  EXPECT_EQ(r.records[1].number, 2);
  EXPECT_EQ(r.records[1].title, "乙");
  EXPECT_EQ(r.records[1].source, "x/lib.cbl#2");
  EXPECT_EQ(testing::TreeText(r.records[1].moves), "[i1i9 e9e8 {好棋} i9i8 | i1i8]");
}

}  // namespace
}  // namespace canju

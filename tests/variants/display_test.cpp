// Board display and terminal widths.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "variants/display.h"
#include "variants/registry.h"

namespace canju {
namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(DisplayWidth, CountsWideCharactersTwice) {
  EXPECT_EQ(DisplayWidth("abc"), 3);
  EXPECT_EQ(DisplayWidth("炮二平五"), 8);
  EXPECT_EQ(DisplayWidth("马８进７"), 8);  // full-width digits
  EXPECT_EQ(DisplayWidth("加炮国际象棋2"), 13);
  EXPECT_EQ(DisplayWidth("\033[1;31m帅\033[0m"), 2);  // escapes take no room
  EXPECT_EQ(DisplayWidth("e\xCC\x81"), 1);             // e + combining acute
  EXPECT_EQ(DisplayWidth("\xff"), 1);                  // a broken byte shows as one
  EXPECT_EQ(PadRight("炮", 5), "炮   ");
  EXPECT_EQ(PadRight("long text", 3), "long text");
}

TEST(Display, XiangqiStartPlainText) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  const std::string board = RenderBoard(pos);
  const std::string expected =
      "  1  2  3  4  5  6  7  8  9\n"
      "9 車-馬-象-士-将-士-象-馬-車\n"
      "  |  |  |  | \\|/ |  |  |  |\n"
      "8 +--+--+--+--+--+--+--+--+\n"
      "  |  |  |  | /|\\ |  |  |  |\n"
      "7 +--砲-+--+--+--+--+--砲-+\n"
      "  |  |  |  |  |  |  |  |  |\n"
      "6 卒-+--卒-+--卒-+--卒-+--卒\n"
      "  |  |  |  |  |  |  |  |  |\n"
      "5 +--+--+--+--+--+--+--+--+\n"
      "  |   楚 河       汉 界   |\n"
      "4 +--+--+--+--+--+--+--+--+\n"
      "  |  |  |  |  |  |  |  |  |\n"
      "3 兵-+--兵-+--兵-+--兵-+--兵\n"
      "  |  |  |  |  |  |  |  |  |\n"
      "2 +--炮-+--+--+--+--+--炮-+\n"
      "  |  |  |  | \\|/ |  |  |  |\n"
      "1 +--+--+--+--+--+--+--+--+\n"
      "  |  |  |  | /|\\ |  |  |  |\n"
      "0 车-马-相-仕-帅-仕-相-马-车\n"
      "  九 八 七 六 五 四 三 二 一\n"
      "  a  b  c  d  e  f  g  h  i\n"
      "(plain text: Black's 马车炮 drawn as 馬車砲)\n";
  EXPECT_EQ(board, expected) << board;
  EXPECT_FALSE(Contains(board, "\033"));
}

// Every point sits at column 2 + 3 * file, whatever the pieces.
TEST(Display, XiangqiPointsLineUpInColumns) {
  Position pos;
  ASSERT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), "2bak4/4a4/4b4/p1P1p3p/2p6/9/P3c3P/2N1C4/9/3AKAB2 w", &pos).ok());
  for (const std::string& line : Lines(RenderBoard(pos))) {
    if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    // Walk the row: a point is one column ("+") or a two-column name.
    std::string rest = line.substr(2);
    int col = 0, points = 0;
    size_t i = 0;
    while (i < rest.size()) {
      if (rest[i] == '-') { ++col, ++i; continue; }
      EXPECT_EQ(col % 3, 0) << line;
      ++points;
      if (rest[i] == '+') { ++col, ++i; continue; }
      size_t len = (static_cast<unsigned char>(rest[i]) >= 0xE0) ? 3 : 1;
      col += DisplayWidth(rest.substr(i, len));
      i += len;
    }
    EXPECT_EQ(points, 9) << line;
  }
}

TEST(Display, XiangqiColours) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  BoardStyle style;
  style.color = true;
  const std::string board = RenderBoard(pos, style);
  EXPECT_TRUE(Contains(board, "\033[1;31m帅\033[0m"));
  EXPECT_TRUE(Contains(board, "\033[1;34m将\033[0m"));
  EXPECT_TRUE(Contains(board, "\033[1;34m马\033[0m"));  // colour tells the sides apart
  EXPECT_FALSE(Contains(board, "馬"));
  // Same layout as plain text once the escapes are taken out.
  std::vector<std::string> plain = Lines(RenderBoard(pos)), coloured = Lines(board);
  ASSERT_GE(plain.size(), coloured.size());
  for (size_t i = 0; i < coloured.size(); ++i) EXPECT_EQ(DisplayWidth(coloured[i]), DisplayWidth(plain[i])) << i;
}

TEST(Display, SquareGrids) {
  Position chess = Position::Start(BuiltinVariant("chess"));
  std::vector<std::string> lines = Lines(RenderBoard(chess));
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0], "8 r n b q k b n r");
  EXPECT_EQ(lines[7], "1 R N B Q K B N R");
  EXPECT_EQ(lines[8], "  a b c d e f g h");
  BoardStyle unicode;
  unicode.unicode = true;
  EXPECT_EQ(Lines(RenderBoard(chess, unicode))[0], "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜");

  Position cannon = Position::Start(BuiltinVariant("cannonchess"));
  lines = Lines(RenderBoard(cannon));
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[0], "10 r n b c q k c b n r");
  EXPECT_EQ(lines[9], " 1 R N B C Q K C B N R");
  EXPECT_EQ(lines[10], "   a b c d e f g h i j");
  // The cannon has no symbol: its letter stays.
  EXPECT_EQ(Lines(RenderBoard(cannon, unicode))[0], "10 ♜ ♞ ♝ c ♛ ♚ c ♝ ♞ ♜");
}

TEST(Display, SixteenBySixteen) {
  std::string def =
      "[variant]\nid = big\nboard = 16x16\n"
      "start = k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w\n"
      "[piece king]\nletter = K\nbetza = K\nroyal = yes\n";
  std::unique_ptr<Variant> v;
  Status st = Variant::Parse(def, "big.ini", &v);
  ASSERT_TRUE(st.ok()) << st.ToString();
  Position pos;
  ASSERT_TRUE(Position::FromFen(*v, v->start_fen(), &pos).ok());
  std::vector<std::string> lines = Lines(RenderBoard(pos));
  ASSERT_EQ(lines.size(), 17u);
  EXPECT_EQ(lines[0].substr(0, 5), "16 k ");
  EXPECT_EQ(lines[15].substr(0, 3), " 1 ");
  EXPECT_EQ(lines[16], "   a b c d e f g h i j k l m n o p");
  for (const std::string& l : lines) EXPECT_EQ(DisplayWidth(l), 34) << l;
}

TEST(Display, DescribeState) {
  Position start = Position::Start(BuiltinVariant("xiangqi"));
  EXPECT_EQ(DescribeState(start), "Red to move");
  Position check;
  ASSERT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), "4k4/2N6/9/9/9/9/9/9/9/3K5 b", &check).ok());
  EXPECT_EQ(StateOf(check), GameState::kCheck);
  EXPECT_TRUE(Contains(DescribeState(check), "Black to move, in check"));
  Position mate;
  ASSERT_TRUE(Position::FromFen(BuiltinVariant("chess"), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", &mate).ok());
  EXPECT_EQ(StateOf(mate), GameState::kCheckmate);
  EXPECT_EQ(DescribeState(mate), "checkmate: Black wins");
}

}  // namespace
}  // namespace canju

// Notation: WXF, Chinese and SAN, out and in. Hand-written expectations for
// the classic cases, then round trips over every legal move of many
// positions (random games from the start and the published perft positions,
// random placements, and positions built to have tandem pieces).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "variants/notation.h"
#include "variants/registry.h"

namespace canju {
namespace {

Position FromFen(const std::string& variant, const std::string& fen) {
  Position pos;
  Status st = Position::FromFen(BuiltinVariant(variant), fen, &pos);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return pos;
}

std::string Coord(const Position& pos, Move m) { return MoveToCoord(pos.variant(), m); }

Move ByCoord(const Position& pos, const std::string& text) {
  Move m;
  Status st = ParseCoordMove(pos, text, &m);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return m;
}

// Parses with every reader that should accept `text` and returns ICCS.
std::string ChineseToCoord(const Position& pos, const std::string& text) {
  Move m;
  Status st = ParseChinese(pos, text, &m);
  if (!st.ok()) return "error: " + st.message();
  Move any;
  Status st2 = ParseAnyMove(pos, text, &any);
  EXPECT_TRUE(st2.ok() && any == m) << text;
  return Coord(pos, m);
}

std::string WxfToCoord(const Position& pos, const std::string& text) {
  Move m;
  Status st = ParseWxf(pos, text, &m);
  if (!st.ok()) return "error: " + st.message();
  Move any;
  Status st2 = ParseAnyMove(pos, text, &any);
  EXPECT_TRUE(st2.ok() && any == m) << text;
  return Coord(pos, m);
}

std::string SanToCoord(const Position& pos, const std::string& text) {
  Move m;
  Status st = ParseSan(pos, text, &m);
  if (!st.ok()) return "error: " + st.message();
  return Coord(pos, m);
}

void ExpectMove(const Position& pos, const std::string& iccs, const std::string& chinese, const std::string& wxf) {
  Move m = ByCoord(pos, iccs);
  EXPECT_EQ(MoveToChinese(pos, m), chinese) << iccs << " in " << pos.Fen();
  EXPECT_EQ(MoveToWxf(pos, m), wxf) << iccs << " in " << pos.Fen();
  EXPECT_EQ(ChineseToCoord(pos, chinese), iccs);
  EXPECT_EQ(WxfToCoord(pos, wxf), iccs);
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// --- classic Xiangqi cases --------------------------------------------------

TEST(Notation, CentralCannonFromTheStart) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  ExpectMove(pos, "h2e2", "炮二平五", "C2.5");
  ExpectMove(pos, "b0c2", "马八进七", "N8+7");
  ExpectMove(pos, "a0a2", "车九进二", "R9+2");
  ExpectMove(pos, "e0e1", "帅五进一", "K5+1");
  ExpectMove(pos, "f0e1", "仕四进五", "A4+5");
  ExpectMove(pos, "g0e2", "相三进五", "B3+5");
  ExpectMove(pos, "g3g4", "兵三进一", "P3+1");
  ExpectMove(pos, "b2b9", "炮八进七", "C8+7");
  ExpectMove(pos, "h2h1", "炮二退一", "C2-1");
  // Same move, other spellings.
  EXPECT_EQ(ChineseToCoord(pos, "炮2平5"), "h2e2");
  EXPECT_EQ(ChineseToCoord(pos, "炮２平５"), "h2e2");
  EXPECT_EQ(ChineseToCoord(pos, " 炮二 平五 "), "h2e2");
  EXPECT_EQ(WxfToCoord(pos, "C2=5"), "h2e2");
  EXPECT_EQ(WxfToCoord(pos, "C2.5!?"), "h2e2");
  EXPECT_EQ(ChineseToCoord(pos, "炮二平五！"), "h2e2");
  EXPECT_EQ(WxfToCoord(pos, "c2.5"), "h2e2");
  EXPECT_EQ(WxfToCoord(pos, "E3+5"), "g0e2");
  EXPECT_EQ(WxfToCoord(pos, "H2+3"), "h0g2");
  Move m;
  ASSERT_TRUE(ParseAnyMove(pos, "h2e2", &m).ok());
  EXPECT_EQ(Coord(pos, m), "h2e2");
  ASSERT_TRUE(ParseAnyMove(pos, "H2-E2", &m).ok());
  EXPECT_EQ(Coord(pos, m), "h2e2");
}

TEST(Notation, BlackUsesFullWidthDigitsAndCountsFromItsRight) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  StateInfo st;
  pos.DoMove(ByCoord(pos, "h2e2"), &st);
  ExpectMove(pos, "h9g7", "马８进７", "N8+7");
  ExpectMove(pos, "b9c7", "马２进３", "N2+3");
  ExpectMove(pos, "h7e7", "炮８平５", "C8.5");
  ExpectMove(pos, "b7b0", "炮２进７", "C2+7");
  ExpectMove(pos, "e9e8", "将５进１", "K5+1");
  ExpectMove(pos, "c6c5", "卒３进１", "P3+1");
  // Either side may be written with ASCII digits, full-width digits or numerals.
  EXPECT_EQ(ChineseToCoord(pos, "马8进7"), "h9g7");
  EXPECT_EQ(ChineseToCoord(pos, "马八进七"), "h9g7");
  EXPECT_EQ(ChineseToCoord(pos, "馬８進７"), "h9g7");
  EXPECT_EQ(ChineseToCoord(pos, "包２进７"), "b7b0");
  EXPECT_EQ(ChineseToCoord(pos, "砲8平5"), "h7e7");
  EXPECT_EQ(ChineseToCoord(pos, "將5進1"), "e9e8");
}

TEST(Notation, TraditionalCharactersAndOldDirectionWords) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  EXPECT_EQ(ChineseToCoord(pos, "傌二進三"), "h0g2");
  EXPECT_EQ(ChineseToCoord(pos, "馬二上三"), "h0g2");
  EXPECT_EQ(ChineseToCoord(pos, "俥九進一"), "a0a1");
  EXPECT_EQ(ChineseToCoord(pos, "車一进二"), "i0i2");
  EXPECT_EQ(ChineseToCoord(pos, "帥五進一"), "e0e1");
  EXPECT_EQ(ChineseToCoord(pos, "士四上五"), "f0e1");
  EXPECT_EQ(ChineseToCoord(pos, "象三上五"), "g0e2");
  EXPECT_EQ(ChineseToCoord(pos, "砲二平五"), "h2e2");
  EXPECT_EQ(ChineseToCoord(pos, "卒三进一"), "g3g4");
  StateInfo st;
  Move m = ByCoord(pos, "g0e2");
  pos.DoMove(m, &st);
  StateInfo st2;
  pos.DoMove(ByCoord(pos, "h9g7"), &st2);
  EXPECT_EQ(ChineseToCoord(pos, "相五下三"), "e2g0");
  EXPECT_EQ(ChineseToCoord(pos, "相五退三"), "e2g0");
}

TEST(Notation, TwoRooksOnAFileAreFrontAndRear) {
  Position pos = FromFen("xiangqi", "3k5/9/9/9/9/9/R8/9/R8/4K4 w");
  ExpectMove(pos, "a3a4", "前车进一", "+R+1");
  ExpectMove(pos, "a1a2", "后车进一", "-R+1");
  ExpectMove(pos, "a3b3", "前车平八", "+R.8");
  ExpectMove(pos, "a1a0", "后车退一", "-R-1");
  EXPECT_EQ(ChineseToCoord(pos, "後車進一"), "a1a2");
  EXPECT_EQ(ChineseToCoord(pos, "车前进一"), "a3a4");
  EXPECT_EQ(WxfToCoord(pos, "R+.8"), "a3b3");  // official WXF order
  EXPECT_EQ(WxfToCoord(pos, "R-+1"), "a1a2");
  // The plain form names two pieces.
  EXPECT_TRUE(Contains(WxfToCoord(pos, "R9+1"), "ambiguous")) << WxfToCoord(pos, "R9+1");
  EXPECT_TRUE(Contains(ChineseToCoord(pos, "车九进一"), "ambiguous"));
}

TEST(Notation, AdvisorsAndElephantsOnAFileNeedNoFrontOrRear) {
  Position pos = FromFen("xiangqi", "5k3/9/9/9/9/2B6/9/3A5/9/2BAK4 w");
  ExpectMove(pos, "d0e1", "仕六进五", "A6+5");
  ExpectMove(pos, "d2e1", "仕六退五", "A6-5");
  ExpectMove(pos, "c0e2", "相七进五", "B7+5");
  ExpectMove(pos, "c4e2", "相七退五", "B7-5");
  ExpectMove(pos, "c4a2", "相七退九", "B7-9");
  // Front/rear is understood too.
  EXPECT_EQ(ChineseToCoord(pos, "前仕退五"), "d2e1");
  EXPECT_EQ(WxfToCoord(pos, "-A+5"), "d0e1");
}

TEST(Notation, ThreePawnsOnAFile) {
  Position pos = FromFen("xiangqi", "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w");
  ExpectMove(pos, "e7e8", "前兵进一", "+P+1");
  ExpectMove(pos, "e7d7", "前兵平六", "+P.6");
  ExpectMove(pos, "e6f6", "中兵平四", "P5.4");
  ExpectMove(pos, "e6d6", "中兵平六", "P5.6");
  ExpectMove(pos, "e5f5", "后兵平四", "-P.4");
  EXPECT_EQ(WxfToCoord(pos, "P+.6"), "e7d7");
  EXPECT_EQ(ChineseToCoord(pos, "二兵平四"), "e6f6");
}

TEST(Notation, FourAndFivePawnsOnAFile) {
  Position four = FromFen("xiangqi", "3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w");
  ExpectMove(four, "e8f8", "一兵平四", "++.4");
  ExpectMove(four, "e7f7", "二兵平四", "+P.4");
  ExpectMove(four, "e6f6", "三兵平四", "-P.4");
  ExpectMove(four, "e5f5", "四兵平四", "--.4");
  EXPECT_EQ(ChineseToCoord(four, "前兵平四"), "e8f8");
  EXPECT_EQ(ChineseToCoord(four, "后兵平四"), "e5f5");
  Position five = FromFen("xiangqi", "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w");
  ExpectMove(five, "c9d9", "一兵平六", "++.6");
  ExpectMove(five, "c8d8", "二兵平六", "+P.6");
  ExpectMove(five, "c7d7", "三兵平六", "P7.6");
  ExpectMove(five, "c6d6", "四兵平六", "-P.6");
  ExpectMove(five, "c5d5", "五兵平六", "--.6");
  EXPECT_EQ(ChineseToCoord(five, "中兵平六"), "c7d7");
}

TEST(Notation, TandemPawnsOnTwoFilesDropThePieceName) {
  Position pos = FromFen("xiangqi", "3k5/9/9/P1P6/P1P6/9/9/9/9/4K4 w");
  ExpectMove(pos, "a6b6", "前九平八", "9+.8");
  ExpectMove(pos, "a5b5", "后九平八", "9-.8");
  ExpectMove(pos, "c6d6", "前七平六", "7+.6");
  ExpectMove(pos, "c5d5", "后七平六", "7-.6");
  ExpectMove(pos, "a6a7", "前九进一", "9++1");
  EXPECT_TRUE(Contains(ChineseToCoord(pos, "前兵平八"), "ambiguous"));
  // Three on one file and two on another.
  Position five = FromFen("xiangqi", "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w");
  ExpectMove(five, "c7d7", "前七平六", "7+.6");
  ExpectMove(five, "c6d6", "中七平六", "77.6");
  ExpectMove(five, "c5d5", "后七平六", "7-.6");
  ExpectMove(five, "g6f6", "前三平四", "3+.4");
  ExpectMove(five, "g5h5", "后三平二", "3-.2");
}

TEST(Notation, BlackTandemPieces) {
  Position pos = FromFen("xiangqi", "4k4/9/9/9/2p6/4p4/4p4/4p4/9/3K5 b");
  // Black's front is towards rank 0: e2 is its foremost pawn.
  ExpectMove(pos, "e2f2", "前卒平６", "+P.6");
  ExpectMove(pos, "e3d3", "中卒平４", "P5.4");
  ExpectMove(pos, "e4d4", "后卒平４", "-P.4");
  ExpectMove(pos, "c5c4", "卒３进１", "P3+1");
}

TEST(Notation, ErrorsSayWhatIsWrong) {
  Position pos = Position::Start(BuiltinVariant("xiangqi"));
  Move m;
  Status st = ParseChinese(pos, "龙二平五", &m);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "unknown piece")) << st.message();
  EXPECT_TRUE(Contains(st.message(), "龙二平五")) << st.message();
  st = ParseChinese(pos, "炮三平五", &m);
  EXPECT_TRUE(Contains(st.message(), "no such piece on that file")) << st.message();
  st = ParseChinese(pos, "炮二进九", &m);
  EXPECT_TRUE(Contains(st.message(), "not a legal move")) << st.message();
  st = ParseChinese(pos, "炮二进", &m);
  EXPECT_TRUE(Contains(st.message(), "four parts")) << st.message();
  st = ParseWxf(pos, "X2.5", &m);
  EXPECT_TRUE(Contains(st.message(), "unknown piece")) << st.message();
  st = ParseWxf(pos, "C2.5.", &m);
  EXPECT_FALSE(st.ok());
  st = ParseAnyMove(pos, "h2h8", &m);
  EXPECT_TRUE(Contains(st.message(), "not a legal move")) << st.message();
  st = ParseAnyMove(pos, "", &m);
  EXPECT_FALSE(st.ok());
  st = ParseChinese(pos, "\xff\xfe", &m);
  EXPECT_FALSE(st.ok());
  Position flying = FromFen("xiangqi", "4k4/9/9/9/4n4/9/9/9/9/4K4 b");
  st = ParseChinese(flying, "马５进４", &m);
  EXPECT_TRUE(Contains(st.message(), "illegal")) << st.message();
  st = ParseWxf(flying, "N5+4", &m);
  EXPECT_TRUE(Contains(st.message(), "illegal")) << st.message();
}

// --- SAN ---------------------------------------------------------------------

TEST(Notation, SanClassicCases) {
  Position start = Position::Start(BuiltinVariant("chess"));
  Move m = ByCoord(start, "g1f3");
  EXPECT_EQ(MoveToSan(start, m), "Nf3");
  EXPECT_EQ(SanToCoord(start, "Nf3"), "g1f3");
  EXPECT_EQ(SanToCoord(start, "e4"), "e2e4");
  EXPECT_EQ(MoveToHuman(start, ByCoord(start, "e2e4")), "e4");

  Position kiwi = FromFen("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "e1g1")), "O-O");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "e1c1")), "O-O-O");
  EXPECT_EQ(SanToCoord(kiwi, "O-O"), "e1g1");
  EXPECT_EQ(SanToCoord(kiwi, "0-0-0"), "e1c1");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "d5e6")), "dxe6");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "e5f7")), "Nxf7");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "c3b5")), "Nb5");
  EXPECT_EQ(MoveToSan(kiwi, ByCoord(kiwi, "e5d7")), "Nxd7");

  // Disambiguation by file, by rank, by both.
  Position knights = FromFen("chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_EQ(MoveToSan(knights, ByCoord(knights, "b1d2")), "Nbd2");
  EXPECT_EQ(SanToCoord(knights, "Nfd2"), "f1d2");
  EXPECT_TRUE(Contains(SanToCoord(knights, "Nd2"), "ambiguous"));
  Position rooks = FromFen("chess", "k7/8/8/8/4R3/8/8/4R1K1 w - - 0 1");
  EXPECT_EQ(MoveToSan(rooks, ByCoord(rooks, "e1e2")), "R1e2");
  EXPECT_EQ(SanToCoord(rooks, "R4e2"), "e4e2");
  Position queens = FromFen("chess", "1k6/8/8/8/Q2Q4/8/8/Q5K1 w - - 0 1");
  EXPECT_EQ(MoveToSan(queens, ByCoord(queens, "a4d1")), "Qa4d1");

  // Promotion, check and mate suffixes; inputs with or without them.
  Position promo = FromFen("chess", "8/4P3/8/8/8/8/6k1/K7 w - - 0 1");
  EXPECT_EQ(MoveToSan(promo, ByCoord(promo, "e7e8q")), "e8=Q");
  EXPECT_EQ(SanToCoord(promo, "e8=N"), "e7e8n");
  EXPECT_EQ(SanToCoord(promo, "e8Q"), "e7e8q");
  EXPECT_TRUE(Contains(SanToCoord(promo, "e8"), "promotion"));
  Position fool = FromFen("chess", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  EXPECT_EQ(MoveToSan(fool, ByCoord(fool, "d8h4")), "Qh4#");
  EXPECT_EQ(SanToCoord(fool, "Qh4#"), "d8h4");
  EXPECT_EQ(SanToCoord(fool, "Qh4"), "d8h4");
  EXPECT_EQ(SanToCoord(fool, "Qh4+"), "d8h4");
  Position check = FromFen("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(MoveToSan(check, ByCoord(check, "a1a8")), "Ra8+");

  // En passant.
  Position ep = FromFen("chess", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
  EXPECT_EQ(MoveToSan(ep, ByCoord(ep, "d5e6")), "dxe6");
  EXPECT_EQ(SanToCoord(ep, "dxe6 e.p."), "d5e6");

  // Errors.
  EXPECT_TRUE(Contains(SanToCoord(start, "Zf3"), "unknown piece"));
  EXPECT_TRUE(Contains(SanToCoord(start, "Nf4"), "not a legal move"));
  EXPECT_TRUE(Contains(SanToCoord(start, "O-O"), "castling"));
  Move m2;
  EXPECT_TRUE(ParseAnyMove(start, "e2e4", &m2).ok());
  EXPECT_TRUE(ParseAnyMove(start, "Nc3", &m2).ok());
  EXPECT_EQ(Coord(start, m2), "b1c3");
}

TEST(Notation, SanOnTenByTen) {
  Position pos = Position::Start(BuiltinVariant("cannonchess"));
  EXPECT_EQ(MoveToSan(pos, ByCoord(pos, "b1c3")), "Nc3");
  EXPECT_EQ(SanToCoord(pos, "e4"), "e2e4");
  Position promo = FromFen("cannonchess", "4k5/1P8/10/10/10/10/10/10/10/K9 w - - 0 1");
  EXPECT_EQ(MoveToSan(promo, ByCoord(promo, "b9b10c")), "b10=C");
  EXPECT_EQ(SanToCoord(promo, "b10=C"), "b9b10c");
  Position rooks = FromFen("cannonchess", "4k5/R9/10/10/10/10/10/10/R9/9K w - - 0 1");
  EXPECT_EQ(MoveToSan(rooks, ByCoord(rooks, "a2a5")), "R2a5");
  EXPECT_EQ(SanToCoord(rooks, "R9a5"), "a9a5");
}

// --- round trips ---------------------------------------------------------------

// Every legal move: each notation reads back to the same move, and no two
// moves share a text.
void CheckAllMoves(const Position& pos) {
  const Variant& v = pos.variant();
  MoveList list;
  pos.GenerateLegal(&list);
  std::set<std::string> wxf_seen, chinese_seen, san_seen;
  for (Move m : list) {
    Move back;
    if (v.notation() == NotationStyle::kXiangqi) {
      std::string chinese = MoveToChinese(pos, m), wxf = MoveToWxf(pos, m);
      Status st = ParseChinese(pos, chinese, &back);
      ASSERT_TRUE(st.ok()) << chinese << " " << st.ToString() << " in " << pos.Fen();
      ASSERT_EQ(back, m) << chinese << " in " << pos.Fen();
      st = ParseWxf(pos, wxf, &back);
      ASSERT_TRUE(st.ok()) << wxf << " " << st.ToString() << " in " << pos.Fen();
      ASSERT_EQ(back, m) << wxf << " in " << pos.Fen();
      // No coordinate fallback in positions from real play.
      ASSERT_NE(chinese, MoveToCoord(v, m)) << pos.Fen();
      ASSERT_NE(wxf, MoveToCoord(v, m)) << pos.Fen();
      ASSERT_TRUE(wxf_seen.insert(wxf).second) << wxf;
      ASSERT_TRUE(chinese_seen.insert(chinese).second) << chinese;
      ASSERT_TRUE(ParseAnyMove(pos, chinese, &back).ok() && back == m) << chinese;
      ASSERT_TRUE(ParseAnyMove(pos, wxf, &back).ok() && back == m) << wxf;
    } else {
      std::string san = MoveToSan(pos, m);
      Status st = ParseSan(pos, san, &back);
      ASSERT_TRUE(st.ok()) << san << " " << st.ToString() << " in " << pos.Fen();
      ASSERT_EQ(back, m) << san << " in " << pos.Fen();
      ASSERT_TRUE(san_seen.insert(san).second) << san;
      // Without the check suffix too.
      std::string bare = san;
      while (!bare.empty() && (bare.back() == '+' || bare.back() == '#')) bare.pop_back();
      ASSERT_TRUE(ParseSan(pos, bare, &back).ok() && back == m) << bare;
      ASSERT_TRUE(ParseAnyMove(pos, san, &back).ok() && back == m) << san;
    }
    std::string coord = MoveToCoord(v, m);
    ASSERT_TRUE(ParseAnyMove(pos, coord, &back).ok() && back == m) << coord;
  }
}

// Random games from `fen`, checking every position on the way.
int WalkRandomGames(const std::string& variant, const std::string& fen, int games, int plies, uint32_t seed) {
  const Variant& v = BuiltinVariant(variant);
  std::mt19937 rng(seed);
  int checked = 0;
  for (int g = 0; g < games; ++g) {
    Position pos;
    EXPECT_TRUE(Position::FromFen(v, fen, &pos).ok());
    for (int ply = 0; ply < plies; ++ply) {
      CheckAllMoves(pos);
      if (::testing::Test::HasFatalFailure()) return checked;
      ++checked;
      MoveList list;
      pos.GenerateLegal(&list);
      if (list.empty()) break;
      StateInfo st;
      pos.DoMove(list[static_cast<int>(rng() % list.size())], &st);
    }
  }
  return checked;
}

TEST(NotationRoundTrip, XiangqiRandomGamesFromStartAndPerftPositions) {
  const char* fens[] = {
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
      "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
      "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
      "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
      "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
      "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w",
  };
  int checked = 0;
  uint32_t seed = 1;
  for (const char* fen : fens) checked += WalkRandomGames("xiangqi", fen, 4, 100, seed++);
  EXPECT_GT(checked, 1000);
}

// Random placements: pieces on squares they may stand on, so that tandem
// pieces, pawns piled on files and pawns doubled on two files all occur.
TEST(NotationRoundTrip, XiangqiRandomPlacements) {
  const Variant& v = BuiltinVariant("xiangqi");
  std::mt19937 rng(20240601);
  int checked = 0, with_tandem = 0;
  const int counts[] = {1, 2, 2, 2, 2, 2, 5};  // K A B N R C P
  for (int trial = 0; trial < 4000 && checked < 600; ++trial) {
    Position pos;
    pos.Clear(v, rng() % 2 ? kFirst : kSecond);
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < v.kind_count(); ++k) {
        int n = k == v.royal_kind() ? 1 : static_cast<int>(rng() % (counts[k] + 1));
        for (int i = 0; i < n; ++i) {
          std::vector<int> squares;
          for (int sq = 0; sq < kSquareSlots; ++sq)
            if (v.legal_squares(Color(c), k)[sq] && pos.empty(sq)) squares.push_back(sq);
          // Pawns prefer few files, so that they pile up.
          if (v.kind(k).letter == 'P') {
            std::vector<int> narrow;
            for (int sq : squares)
              if (FileOf(sq) == 2 || FileOf(sq) == 4 || FileOf(sq) == 6) narrow.push_back(sq);
            if (!narrow.empty() && rng() % 4) squares = narrow;
          }
          if (!squares.empty()) pos.Put(MakePiece(Color(c), k), squares[rng() % squares.size()]);
        }
      }
    if (!pos.Validate().ok()) continue;
    CheckAllMoves(pos);
    if (HasFatalFailure()) return;
    ++checked;
    for (int f = 0; f < 9; ++f) {
      int n = 0;
      for (int r = 0; r < 10; ++r)
        if (pos.piece_on(MakeSquare(f, r)) == MakePiece(pos.side_to_move(), 6)) ++n;
      if (n >= 3) ++with_tandem;
    }
  }
  EXPECT_GE(checked, 600);
  EXPECT_GT(with_tandem, 20);
}

TEST(NotationRoundTrip, ChessAndCannonChessRandomGames) {
  EXPECT_GT(WalkRandomGames("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8, 150, 7), 500);
  EXPECT_GT(WalkRandomGames("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, 100, 8),
            300);
  EXPECT_GT(WalkRandomGames("cannonchess", BuiltinVariant("cannonchess").start_fen(), 8, 150, 9), 500);
}

}  // namespace
}  // namespace canju

// Special rules, one hand-made position each, asserting exact move sets or
// the legality of single moves; malformed FENs and definition files.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "variants/display.h"
#include "variants/registry.h"

namespace canju {
namespace {

using MoveSet = std::set<std::string>;

Position Load(const Variant& v, const std::string& fen) {
  Position pos;
  Status st = Position::FromFen(v, fen, &pos);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return pos;
}

Position Load(const std::string& variant, const std::string& fen) { return Load(BuiltinVariant(variant), fen); }

// Legal moves (coordinates), optionally only those from one square.
MoveSet Legal(const Position& pos, const std::string& from = "") {
  MoveList list;
  pos.GenerateLegal(&list);
  MoveSet out;
  for (Move m : list) {
    std::string s = MoveToCoord(pos.variant(), m);
    if (from.empty() || SquareName(pos.variant(), m.from()) == from) out.insert(s);
  }
  return out;
}

bool IsLegalMove(const Position& pos, const std::string& coord) { return Legal(pos).count(coord) > 0; }

Status FenStatus(const std::string& variant, const std::string& fen) {
  Position pos;
  return Position::FromFen(BuiltinVariant(variant), fen, &pos);
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// --- Xiangqi ------------------------------------------------------------------

TEST(XiangqiRules, FlyingGeneralPinsTheOnlyPieceBetweenTheKings) {
  // Red horse e1 is the only piece between the kings: it may not move.
  Position pos = Load("xiangqi", "4k4/9/9/9/9/9/9/9/4N4/4K4 w");
  EXPECT_EQ(Legal(pos), (MoveSet{"e0d0", "e0f0"}));
}

TEST(XiangqiRules, KingMayNotStepOntoTheEnemyKingsOpenFile) {
  Position pos = Load("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w");
  EXPECT_EQ(Legal(pos), (MoveSet{"e0e1", "e0f0"}));  // d0 would face the king on d9
  // With a piece on the d-file in between, d0 is fine.
  Position blocked = Load("xiangqi", "3k5/9/9/9/3P5/9/9/9/9/4K4 w");
  EXPECT_EQ(Legal(blocked, "e0"), (MoveSet{"e0e1", "e0f0", "e0d0"}));
}

TEST(XiangqiRules, HorseLegBlocksMoves) {
  // Horse e2; legs: e3 (to d4, f4), d2 (to c3, c1), f2 (to g3, g1), e1 (to d0, f0).
  Position free = Load("xiangqi", "3k5/9/9/9/9/9/9/4N4/9/5K3 w");
  EXPECT_EQ(Legal(free, "e2"), (MoveSet{"e2d4", "e2f4", "e2c3", "e2c1", "e2g3", "e2g1", "e2d0"}));
  // A pawn on e3 and an advisor on d2 (either colour blocks) take four away.
  Position blocked = Load("xiangqi", "3k5/9/9/9/9/9/4P4/3AN4/9/5K3 w");
  EXPECT_EQ(Legal(blocked, "e2"), (MoveSet{"e2g3", "e2g1", "e2d0"}));
  Position enemy_leg = Load("xiangqi", "3k5/9/9/9/9/9/4p4/4N4/9/5K3 w");
  EXPECT_EQ(Legal(enemy_leg, "e2"), (MoveSet{"e2c3", "e2c1", "e2g3", "e2g1", "e2d0"}));
}

TEST(XiangqiRules, HorseLegBlocksChecks) {
  // Horse c8 attacks e9 through its leg d8.
  Position check = Load("xiangqi", "4k4/2N6/9/9/9/9/9/9/9/3K5 b");
  EXPECT_TRUE(check.InCheck());
  Position blocked = Load("xiangqi", "4k4/2NP5/9/9/9/9/9/9/9/3K5 b");
  EXPECT_FALSE(blocked.InCheck());
  // Black may answer the check by blocking the leg.
  Position answer = Load("xiangqi", "4k4/2N6/9/9/3r5/9/9/9/9/5K3 b");
  EXPECT_TRUE(answer.InCheck());
  EXPECT_TRUE(IsLegalMove(answer, "d5d8"));
  EXPECT_FALSE(IsLegalMove(answer, "d5d6"));
  // A king may not step where a horse attacks it, unless the leg is blocked.
  Position step = Load("xiangqi", "3k5/9/9/4N4/9/9/9/9/9/5K3 b");  // horse e6 attacks d8 via e7
  EXPECT_FALSE(IsLegalMove(step, "d9d8"));
  Position step_blocked = Load("xiangqi", "3k5/9/4P4/4N4/9/9/9/9/9/5K3 b");
  EXPECT_TRUE(IsLegalMove(step_blocked, "d9d8"));
}

TEST(XiangqiRules, ElephantEyeAndRiver) {
  Position free = Load("xiangqi", "3k5/9/9/9/9/9/9/4B4/9/5K3 w");
  EXPECT_EQ(Legal(free, "e2"), (MoveSet{"e2c4", "e2g4", "e2c0", "e2g0"}));
  // 塞象眼: a piece on d3 (the eye towards c4) blocks that move only.
  Position eye = Load("xiangqi", "3k5/9/9/9/9/9/3p5/4B4/9/5K3 w");
  EXPECT_EQ(Legal(eye, "e2"), (MoveSet{"e2g4", "e2c0", "e2g0"}));
  // On the river bank it may not cross: only back.
  Position bank = Load("xiangqi", "3k5/9/9/9/9/2B6/9/9/9/5K3 w");
  EXPECT_EQ(Legal(bank, "c4"), (MoveSet{"c4a2", "c4e2"}));
  Position black_bank = Load("xiangqi", "3k5/9/9/9/2b6/9/9/9/9/5K3 b");
  EXPECT_EQ(Legal(black_bank, "c5"), (MoveSet{"c5a7", "c5e7"}));
}

TEST(XiangqiRules, AdvisorAndKingStayInThePalace) {
  Position corner = Load("xiangqi", "3k5/9/9/9/9/9/9/9/9/3A1K3 w");
  EXPECT_EQ(Legal(corner, "d0"), (MoveSet{"d0e1"}));
  Position centre = Load("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/5K3 w");
  EXPECT_EQ(Legal(centre, "e1"), (MoveSet{"e1d0", "e1d2", "e1f2"}));  // f0 holds the king
  Position king = Load("xiangqi", "5k3/9/9/9/9/9/9/3K5/9/9 w");
  EXPECT_EQ(Legal(king), (MoveSet{"d2d1", "d2e2"}));  // not c2, not d3
}

TEST(XiangqiRules, CannonNeedsExactlyOneScreenToCapture) {
  // Cannon b2, black rook b7, nothing between: moves up to b6, no capture.
  Position none = Load("xiangqi", "3k5/9/1r7/9/9/9/9/1C7/9/5K3 w");
  MoveSet up;
  for (const std::string& m : Legal(none, "b2"))
    if (m[2] == 'b' && m[3] > '2') up.insert(m);
  EXPECT_EQ(up, (MoveSet{"b2b3", "b2b4", "b2b5", "b2b6"}));
  // One screen on b5: captures b7, cannot stop beyond the screen.
  Position one = Load("xiangqi", "3k5/9/1r7/9/1P7/9/9/1C7/9/5K3 w");
  up.clear();
  for (const std::string& m : Legal(one, "b2"))
    if (m[2] == 'b' && m[3] > '2') up.insert(m);
  EXPECT_EQ(up, (MoveSet{"b2b3", "b2b4", "b2b7"}));
  // Two screens: no capture.
  Position two = Load("xiangqi", "3k5/9/1r7/1P7/1P7/9/9/1C7/9/5K3 w");
  EXPECT_FALSE(IsLegalMove(two, "b2b7"));
  EXPECT_FALSE(IsLegalMove(two, "b2b6"));
}

TEST(XiangqiRules, CannonChecksThroughAScreen) {
  // Red cannon e2, black horse e6 as the screen: Black is in check and may
  // end it by moving the screen away.
  Position check = Load("xiangqi", "4k4/9/9/4n4/9/9/9/4C4/9/3K5 b");
  EXPECT_TRUE(check.InCheck());
  EXPECT_TRUE(IsLegalMove(check, "e6d4"));
  EXPECT_TRUE(IsLegalMove(check, "e6g7"));
  // No screen: no check; Black may not move a piece into the screen square.
  Position open = Load("xiangqi", "4k4/9/9/9/9/9/9/4C4/9/3K5 b");
  EXPECT_FALSE(open.InCheck());
  Position horse = Load("xiangqi", "4k4/9/6n2/9/9/9/9/4C4/9/3K5 b");  // horse g7 could go to e6
  EXPECT_FALSE(IsLegalMove(horse, "g7e6"));
  EXPECT_TRUE(IsLegalMove(horse, "g7f5"));
  // Red gives check by moving a piece (that does not attack e9 itself) into
  // the screen square.
  Position red = Load("xiangqi", "4k4/9/9/6N2/9/9/9/4C4/9/3K5 w");  // horse g6
  Move m;
  ASSERT_TRUE(ParseCoordMove(red, "g6e5", &m).ok());
  EXPECT_TRUE(red.GivesCheck(m));
  ASSERT_TRUE(ParseCoordMove(red, "g6f4", &m).ok());
  EXPECT_FALSE(red.GivesCheck(m));
}

TEST(XiangqiRules, PawnGoesSidewaysOnlyAcrossTheRiver) {
  Position home = Load("xiangqi", "3k5/9/9/9/9/9/4P4/9/9/5K3 w");
  EXPECT_EQ(Legal(home, "e3"), (MoveSet{"e3e4"}));
  Position bank = Load("xiangqi", "3k5/9/9/9/9/4P4/9/9/9/5K3 w");
  EXPECT_EQ(Legal(bank, "e4"), (MoveSet{"e4e5"}));
  Position across = Load("xiangqi", "3k5/9/9/9/4P4/9/9/9/9/5K3 w");
  EXPECT_EQ(Legal(across, "e5"), (MoveSet{"e5e6", "e5d5", "e5f5"}));
  Position top = Load("xiangqi", "P4k3/9/9/9/9/9/9/9/9/4K4 w");
  EXPECT_EQ(Legal(top, "a9"), (MoveSet{"a9b9"}));  // never backwards
  Position black = Load("xiangqi", "3k5/9/9/9/9/4p4/9/9/9/5K3 b");
  EXPECT_EQ(Legal(black, "e4"), (MoveSet{"e4e3", "e4d4", "e4f4"}));
}

TEST(XiangqiRules, StalemateLosesInXiangqiButDrawsInChess) {
  // Black king e9 alone: d9 faces the Red king, f9 is on the rook's file,
  // e8 is the horse's; e9 itself is not attacked.
  Position pos = Load("xiangqi", "4k4/9/2N6/9/9/9/9/9/9/3K1R3 b");
  EXPECT_FALSE(pos.InCheck());
  EXPECT_TRUE(Legal(pos).empty());
  EXPECT_EQ(StateOf(pos), GameState::kStalemate);
  EXPECT_EQ(pos.variant().rules().stalemate, Outcome::kLoss);
  EXPECT_TRUE(Contains(DescribeState(pos), "loses")) << DescribeState(pos);
  Position chess = Load("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(StateOf(chess), GameState::kStalemate);
  EXPECT_TRUE(Contains(DescribeState(chess), "draw")) << DescribeState(chess);
  Position mate = Load("xiangqi", "3aka3/6N2/4P4/9/9/9/9/9/9/3K5 b");
  EXPECT_EQ(StateOf(mate), GameState::kCheckmate);
}

// --- 加炮国际象棋2 ----------------------------------------------------------------

TEST(CannonChessRules, CannonCapturesBeyondExactlyOneEmptySquare) {
  // Rank 5: C(a5) p(b5) _(c5) n(d5) P(e5) b(f5) _(g5) r(h5) _ _
  Position pos = Load("cannonchess", "9k/10/10/10/10/Cp1nPb1r2/10/10/9K/10 w - - 0 1");
  MoveSet captures;
  for (const std::string& m : Legal(pos, "a5")) {
    int to = ParseSquareName(pos.variant(), m.substr(2));
    if (!pos.empty(to)) captures.insert(m);
  }
  // d5: one empty (c5) between, b5 passed. f5: still one empty, three pieces
  // passed. b5: adjacent, no empty square: no capture. h5: two empty squares.
  EXPECT_EQ(captures, (MoveSet{"a5d5", "a5f5"}));
  // Quiet moves as a queen.
  EXPECT_TRUE(IsLegalMove(pos, "a5a10"));
  EXPECT_TRUE(IsLegalMove(pos, "a5e1"));
  EXPECT_TRUE(IsLegalMove(pos, "a5f10"));
  EXPECT_FALSE(IsLegalMove(pos, "a5c5"));  // b5 is in the way of a queen move
}

TEST(CannonChessRules, CannonCaptureNeedsTheGap) {
  // One empty square and nothing else: capture. Two empty squares: none.
  Position one = Load("cannonchess", "9k/10/10/10/10/C1p7/10/10/9K/10 w - - 0 1");
  EXPECT_TRUE(IsLegalMove(one, "a5c5"));
  Position two = Load("cannonchess", "9k/10/10/10/10/C2p6/10/10/9K/10 w - - 0 1");
  EXPECT_FALSE(IsLegalMove(two, "a5d5"));
  EXPECT_TRUE(IsLegalMove(two, "a5c5"));  // a quiet move onto the empty square
  // The cannon gives check the same way, pieces in between notwithstanding.
  Position check = Load("cannonchess", "4k5/4p5/4P5/10/4p5/10/10/10/10/K3C5 b - - 0 1");
  EXPECT_FALSE(check.InCheck());  // e1 to e10: e4 e6 e7... two empty squares or more
  Position check2 = Load("cannonchess", "4k5/4p5/4P5/4p5/4p5/4p5/4P5/4p5/10/K3C5 b - - 0 1");
  EXPECT_TRUE(check2.InCheck());  // only e2 is empty between e1 and e10
}

TEST(CannonChessRules, PromotionOnTheTenthRankIncludingToACannon) {
  Position pos = Load("cannonchess", "4k5/1P8/10/10/10/10/10/10/10/K9 w - - 0 1");
  EXPECT_EQ(Legal(pos, "b9"), (MoveSet{"b9b10q", "b9b10r", "b9b10b", "b9b10n", "b9b10c"}));
  // Players who disagree drop the cannon: --set rules.promotion_pieces=Q R B N.
  std::shared_ptr<const Variant> without;
  ASSERT_TRUE(LoadVariant("cannonchess", &without, {"rules.promotion_pieces=Q R B N"}).ok());
  Position pos2 = Load(*without, "4k5/1P8/10/10/10/10/10/10/10/K9 w - - 0 1");
  EXPECT_EQ(Legal(pos2, "b9"), (MoveSet{"b9b10q", "b9b10r", "b9b10b", "b9b10n"}));
  // The eighth rank is not a promotion rank on this board.
  Position eighth = Load("cannonchess", "4k5/10/10/1P8/10/10/10/10/10/K9 w - - 0 1");
  EXPECT_EQ(Legal(eighth, "b7"), (MoveSet{"b7b8"}));
}

TEST(CannonChessRules, NoCastlingButDoubleStepAndEnPassant) {
  Status st = FenStatus("cannonchess", "r4k3r/10/10/10/10/10/10/10/10/R4K3R w KQkq - 0 1");
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "castling")) << st.message();
  Position start = Position::Start(BuiltinVariant("cannonchess"));
  EXPECT_EQ(Legal(start, "e2"), (MoveSet{"e2e3", "e2e4"}));
  // Black's d9-d7 double step next to a white pawn on e7 allows e.p.
  Position pos = Load("cannonchess", "4k5/3p6/10/4P5/10/10/10/10/10/K9 b - - 0 1");
  Move m;
  ASSERT_TRUE(ParseCoordMove(pos, "d9d7", &m).ok());
  StateInfo si;
  pos.DoMove(m, &si);
  EXPECT_EQ(SquareName(pos.variant(), pos.ep_square()), "d8");
  ASSERT_TRUE(ParseCoordMove(pos, "e7d8", &m).ok());
  EXPECT_EQ(m.type(), MoveType::kEnPassant);
}

// --- chess ----------------------------------------------------------------------

TEST(ChessRules, CastlingThroughCheckIsRefused) {
  // The black rook on f2 covers f1: no O-O; O-O-O passes d1 and c1, free.
  Position pos = Load("chess", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
  MoveSet king = Legal(pos, "e1");
  EXPECT_EQ(king.count("e1g1"), 0u);
  EXPECT_EQ(king.count("e1c1"), 1u);
  // Out of check: no castling at all.
  Position check = Load("chess", "4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(Legal(check, "e1").count("e1g1") + Legal(check, "e1").count("e1c1"), 0u);
  // Into check: g1 covered by a bishop.
  Position into = Load("chess", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(Legal(into, "e1").count("e1g1"), 1u);
  Position into2 = Load("chess", "4k3/8/8/8/8/8/7b/R3K2R w KQ - 0 1");  // h2 bishop covers g1
  EXPECT_EQ(Legal(into2, "e1").count("e1g1"), 0u);
  // b1 may be attacked for O-O-O: only the king's path matters.
  Position b1 = Load("chess", "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(Legal(b1, "e1").count("e1c1"), 1u);
}

TEST(ChessRules, EnPassant) {
  Position pos = Load("chess", "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
  Move m;
  ASSERT_TRUE(ParseCoordMove(pos, "e7e5", &m).ok());
  StateInfo si;
  pos.DoMove(m, &si);
  ASSERT_TRUE(ParseCoordMove(pos, "d5e6", &m).ok());
  EXPECT_EQ(m.type(), MoveType::kEnPassant);
  StateInfo si2;
  pos.DoMove(m, &si2);
  EXPECT_TRUE(pos.empty(ParseSquareName(pos.variant(), "e5")));
  // Not when it exposes the king along the rank.
  Position pinned = Load("chess", "8/8/8/K2Pp2r/8/8/8/4k3 w - e6 0 1");
  EXPECT_FALSE(IsLegalMove(pinned, "d5e6"));
  EXPECT_TRUE(IsLegalMove(pinned, "d5d6"));
}

// --- malformed FENs -------------------------------------------------------------

TEST(FenErrors, MalformedPositionsAreRejectedWithAReason) {
  struct Case {
    const char* variant;
    const char* fen;
    const char* words;
  } cases[] = {
      {"xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "ranks"},
      {"xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w", "ranks"},
      {"xiangqi", "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "unknown piece 'x'"},
      {"xiangqi", "rnbakabnr/10/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "files"},
      {"xiangqi", "3kk4/9/9/9/9/9/9/9/9/4K4 w", "2 kings"},
      {"xiangqi", "9/9/9/9/9/9/9/9/9/4K4 w", "0 kings"},
      {"xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w", "not to move) is in check"},
      {"xiangqi", "3k5/9/9/9/9/9/4B4/9/9/4K4 w", "elephant on e3 cannot stand there"},
      {"xiangqi", "3k5/9/9/9/9/9/9/9/9/P3K4 w", "pawn on a0 cannot stand there"},
      {"xiangqi", "3k5/9/9/9/9/9/9/9/9/3AK4 w", ""},  // advisor d0 is fine: see below
      {"xiangqi", "3k5/9/9/9/9/9/9/9/A8/4K4 w", "advisor on a1 cannot stand there"},
      {"xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 x", "side to move"},
      {"chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on a1 cannot stand there"},
      {"chess", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en-passant"},
      {"chess", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move"},
      // En-passant squares that no double step can have left (found by fuzz_fen).
      {"chess", "8/8/8/K2P2pb/8/8/8/4k3 w - e6 0 1", "does not follow a double step"},
      {"chess", "8/8/8/K2PP2b/8/8/8/4k3 w - e6 0 1", "does not follow a double step"},
      {"chess", "4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 1", "does not follow a double step"},
      {"chess", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", ""},
      {"chess", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", ""},
      {"chess", "4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1", "does not follow a double step"},
      {"chess", "", "empty"},
  };
  for (const Case& c : cases) {
    Status st = FenStatus(c.variant, c.fen);
    if (std::string(c.words).empty()) {
      EXPECT_TRUE(st.ok()) << c.fen << ": " << st.ToString();
      continue;
    }
    EXPECT_FALSE(st.ok()) << c.fen;
    EXPECT_TRUE(Contains(st.message(), c.words)) << c.fen << " -> " << st.message();
  }
}

// --- definition files -----------------------------------------------------------

const char* kTinyDefinition =
    "[variant]\n"           // 1
    "id = tiny\n"           // 2
    "board = 3x3\n"         // 3
    "start = k2/3/2K w\n"   // 4
    "[piece king]\n"        // 5
    "letter = K\n"          // 6
    "betza = K\n"           // 7
    "royal = yes\n"         // 8
    "[piece rook]\n"        // 9
    "letter = R\n"          // 10
    "betza = R\n";          // 11

Status ParseDefinition(const std::string& text) {
  std::unique_ptr<Variant> v;
  return Variant::Parse(text, "tiny.ini", &v);
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(DefinitionErrors, ReportFileLineAndReason) {
  ASSERT_TRUE(ParseDefinition(kTinyDefinition).ok()) << ParseDefinition(kTinyDefinition).ToString();
  struct Case {
    std::string text;
    const char* where;
    const char* words;
  } cases[] = {
      {Replace(kTinyDefinition, "board = 3x3\n", "board = 3x3\ncolour = red\n"), "tiny.ini:4:", "unknown key 'colour'"},
      {Replace(kTinyDefinition, "betza = R\n", "betza = Y\n"), "tiny.ini:11:", "unknown piece letter 'Y'"},
      {Replace(kTinyDefinition, "betza = R\n", "betza = qR\n"), "tiny.ini:11:", "unknown modifier 'q'"},
      {Replace(kTinyDefinition, "betza = R\n", "betza = W{to:nowhere}\n"), "tiny.ini:11:", "unknown region 'nowhere'"},
      {Replace(kTinyDefinition, "betza = R\n", "betza = R\nregion = palace\n"), "tiny.ini:12:", "unknown region 'palace'"},
      {Replace(kTinyDefinition, "letter = R\n", "letter = K\n"), "tiny.ini:10:", "letter 'K' already used"},
      {Replace(kTinyDefinition, "[piece rook]\n", "[piece rook\n"), "tiny.ini:9:", "without ']'"},
      {Replace(kTinyDefinition, "board = 3x3\n", "board = 3x30\n"), "tiny.ini:3:", "board"},
      {Replace(kTinyDefinition, "start = k2/3/2K w\n", "start = k2/3/2Z w\n"), "tiny.ini:4:", "unknown piece 'Z'"},
      {Replace(kTinyDefinition, "[piece rook]\n", "[pieces rook]\n"), "tiny.ini:9:", "unknown section"},
      {std::string(kTinyDefinition) + "[rules]\nperpetual_chase = sometimes\n", "tiny.ini:13:",
       "perpetual_chase must be loss or draw"},
      {std::string(kTinyDefinition) + "[rules]\nperpetual_chase = win\n", "tiny.ini:13:",
       "perpetual_chase must be loss or draw"},
  };
  for (const Case& c : cases) {
    Status st = ParseDefinition(c.text);
    EXPECT_FALSE(st.ok()) << c.text;
    EXPECT_TRUE(Contains(st.message(), c.where)) << st.message();
    EXPECT_TRUE(Contains(st.message(), c.words)) << st.message();
  }
}

TEST(DefinitionErrors, OverridesNameTheOption) {
  std::shared_ptr<const Variant> v;
  Status st = LoadVariant("cannonchess", &v, {"rules.promotion_pieces=Q X"});
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "cannot promote to 'X'")) << st.message();
  st = LoadVariant("cannonchess", &v, {"nonsense"});
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "SECTION.KEY=VALUE")) << st.message();
  // A value the rule does not take: the option is named (not a line of the
  // definition file, which it is not on).
  st = LoadVariant("xiangqi", &v, {"rules.perpetual_check=loss", "rules.perpetual_chase=win"});
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "option 'rules.perpetual_chase=win'")) << st.message();
  EXPECT_TRUE(Contains(st.message(), "perpetual_chase must be loss or draw")) << st.message();
  EXPECT_FALSE(Contains(st.message(), ":0:")) << st.message();
  st = LoadVariant("xiangqi", &v, {"rules.chase=loss"});
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Contains(st.message(), "option 'rules.chase=loss'")) << st.message();
  EXPECT_TRUE(Contains(st.message(), "unknown key 'chase'")) << st.message();
  // Both settings load, and the default is a draw.
  ASSERT_TRUE(LoadVariant("xiangqi", &v, {"rules.perpetual_chase=loss"}).ok());
  EXPECT_EQ(v->rules().perpetual_chase, Outcome::kLoss);
  EXPECT_EQ(BuiltinVariant("xiangqi").rules().perpetual_chase, Outcome::kDraw);
}

TEST(Registry, ABuiltinIsParsedOncePerSetOfOverrides) {
  // `verify --set` loads each puzzle's variant with the same options: one
  // parse, shared; other options, or none, a variant of their own.
  std::shared_ptr<const Variant> a, b, c, plain;
  ASSERT_TRUE(LoadVariant("xiangqi", &a, {"rules.perpetual_chase=loss"}).ok());
  ASSERT_TRUE(LoadVariant("xiangqi", &b, {"rules.perpetual_chase=loss"}).ok());
  ASSERT_TRUE(LoadVariant("xiangqi", &c, {"rules.perpetual_check=draw"}).ok());
  ASSERT_TRUE(LoadVariant("xiangqi", &plain).ok());
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());
  EXPECT_NE(a.get(), plain.get());
  EXPECT_EQ(plain.get(), &BuiltinVariant("xiangqi"));
  EXPECT_EQ(c->rules().perpetual_check, Outcome::kDraw);
  EXPECT_EQ(c->rules().perpetual_chase, Outcome::kDraw);
  EXPECT_EQ(plain->rules().perpetual_check, Outcome::kLoss);
  // A refused option names itself, every time (a failed parse is not
  // cached as a variant), and leaves the caller's pointer and the cached
  // variants as they were.
  std::shared_ptr<const Variant> bad;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const Status st = LoadVariant("xiangqi", &bad, {"rules.perpetual_chase=win"});
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.ToString().find("perpetual_chase"), std::string::npos) << st.ToString();
    EXPECT_EQ(bad, nullptr);
  }
  std::shared_ptr<const Variant> again;
  ASSERT_TRUE(LoadVariant("xiangqi", &again, {"rules.perpetual_chase=loss"}).ok());
  EXPECT_EQ(again.get(), a.get());
}

// IsPseudoLegal (which generates one piece's moves) agrees with the full
// list: on every move of the list, every from-to pair of the board, and the
// list's moves of the other side, along random games of each built-in
// variant.
TEST(PseudoLegality, OnePiecesMovesAgreeWithTheFullList) {
  std::mt19937 rng(77);
  for (const std::string& id : BuiltinVariantIds()) {
    const Variant& v = BuiltinVariant(id);
    if (v.start_fen().empty()) continue;
    int positions = 0;
    for (int game = 0; game < 6; ++game) {
      Position pos = Load(v, v.start_fen());
      std::vector<StateInfo> states(60);
      for (int ply = 0; ply < 60; ++ply, ++positions) {
        MoveList pseudo;
        pos.GeneratePseudoLegal(&pseudo);
        for (Move m : pseudo) ASSERT_TRUE(pos.IsPseudoLegal(m)) << id << " " << pos.Fen() << " " << MoveToCoord(v, m);
        std::vector<int> squares;
        for (int rank = 0; rank < v.ranks(); ++rank)
          for (int file = 0; file < v.files(); ++file) squares.push_back(MakeSquare(file, rank));
        for (const int from : squares)
          for (const int to : squares) {
            const Move m(from, to);
            ASSERT_EQ(pos.IsPseudoLegal(m), pseudo.contains(m)) << id << " " << pos.Fen() << " " << MoveToCoord(v, m);
          }
        Position other = pos;
        StateInfo null_state;
        if (!other.InCheck()) {
          other.DoNullMove(&null_state);
          MoveList theirs;
          other.GeneratePseudoLegal(&theirs);
          for (Move m : theirs) ASSERT_EQ(pos.IsPseudoLegal(m), pseudo.contains(m)) << id << " " << pos.Fen();
        }
        MoveList legal;
        pos.GenerateLegal(&legal);
        if (legal.empty()) break;
        pos.DoMove(legal[static_cast<int>(rng() % static_cast<uint32_t>(legal.size()))], &states[ply]);
      }
    }
    EXPECT_GT(positions, 100) << id;
  }
}

// A move made and taken back leaves the position as it was, down to the
// order its moves are generated in (UndoMove puts a captured piece, a
// promoted pawn and a castling rook back in their piece-list slots): a
// search's children come in the same order whatever was searched before.
// Each legal move is made, followed by one reply of each kind (a capture
// first), and taken back, along random games of each built-in variant and
// on chess positions with promotions, castling and en passant.
// Both sides' moves, in generation order (the other side's after a null
// move, where the side to move is not in check).
std::vector<Move> PseudoLegalOrder(const Position& pos) {
  MoveList list;
  pos.GeneratePseudoLegal(&list);
  std::vector<Move> out(list.begin(), list.end());
  if (!pos.InCheck()) {
    Position other = pos;
    StateInfo null_state;
    other.DoNullMove(&null_state);
    MoveList theirs;
    other.GeneratePseudoLegal(&theirs);
    out.push_back(Move());
    out.insert(out.end(), theirs.begin(), theirs.end());
  }
  return out;
}

void ExpectUndoRestoresOrder(Position& pos, const std::string& id) {
  const std::vector<Move> before = PseudoLegalOrder(pos);
  const std::string fen = pos.Fen();
  const uint64_t key = pos.key();
  MoveList legal;
  pos.GenerateLegal(&legal);
  for (Move m : legal) {
    StateInfo st, reply_state;
    pos.DoMove(m, &st);
    MoveList replies;
    pos.GenerateLegal(&replies);
    const auto capture = std::find_if(replies.begin(), replies.end(), [&](Move r) { return !pos.empty(r.to()); });
    if (capture != replies.end()) {
      pos.DoMove(*capture, &reply_state);
      pos.UndoMove(*capture, reply_state);
    }
    pos.UndoMove(m, st);
    ASSERT_EQ(PseudoLegalOrder(pos), before) << id << " " << fen << " after " << MoveToCoord(pos.variant(), m);
    ASSERT_EQ(pos.Fen(), fen);
    ASSERT_EQ(pos.key(), key);
  }
}

TEST(UndoMove, RestoresTheOrderOfTheMoves) {
  std::mt19937 rng(91);
  for (const std::string& id : BuiltinVariantIds()) {
    const Variant& v = BuiltinVariant(id);
    if (v.start_fen().empty()) continue;
    for (int game = 0; game < 4; ++game) {
      Position pos = Load(v, v.start_fen());
      std::vector<StateInfo> states(80);
      for (int ply = 0; ply < 80; ++ply) {
        ExpectUndoRestoresOrder(pos, id);
        if (HasFatalFailure()) return;
        MoveList legal;
        pos.GenerateLegal(&legal);
        if (legal.empty()) break;
        // Captures twice as likely, so that the games thin out the lists.
        std::vector<Move> pick(legal.begin(), legal.end());
        for (Move m : legal)
          if (!pos.empty(m.to())) pick.push_back(m);
        pos.DoMove(pick[rng() % pick.size()], &states[ply]);
      }
    }
  }
  for (const char* fen : {"r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
                          "r3k2r/1P4P1/8/8/3pP3/8/1p4p1/R3K2R b KQkq e3 0 1"}) {
    Position pos = Load("chess", fen);
    ExpectUndoRestoresOrder(pos, "chess");
    if (HasFatalFailure()) return;
  }
}

// Rule options in one spelling: the variant reads " rules . x = y " as
// "rules.x=y", and the last of two settings of a key.
TEST(RuleOptions, CanonicalSpellingIsHowTheVariantReadsThem) {
  EXPECT_EQ(CanonicalOverrides({" rules . perpetual_chase = loss ", "piece   horse.betza=N"}),
            (std::vector<std::string>{"piece horse.betza=N", "rules.perpetual_chase=loss"}));
  EXPECT_EQ(CanonicalOverrides({"rules.stalemate=draw", "rules.perpetual_chase=loss", "rules.stalemate=loss"}),
            (std::vector<std::string>{"rules.perpetual_chase=loss", "rules.stalemate=loss"}));
  EXPECT_EQ(CanonicalOverrides({"no equals sign", "rules.x="}), (std::vector<std::string>{"no equals sign", "rules.x="}));
  // Spellings that come out the same load the same variant.
  std::shared_ptr<const Variant> a, b;
  ASSERT_TRUE(LoadVariant("xiangqi", &a, {" rules . stalemate = draw "}).ok());
  ASSERT_TRUE(LoadVariant("xiangqi", &b, CanonicalOverrides({" rules . stalemate = draw "})).ok());
  EXPECT_EQ(a->rules().stalemate, Outcome::kDraw);
  EXPECT_EQ(b->rules().stalemate, Outcome::kDraw);
}

}  // namespace
}  // namespace canju

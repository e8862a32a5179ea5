// The solver and the verifier with real endgame tables: a root the tables
// cover is answered from them, its line replays to mate, and the book audit
// reads its distances from the tables too.
#include <gtest/gtest.h>

#ifdef CANJU_HAVE_TABLEBASE

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "solver/tablebase_oracle.h"
#include "solver/verify.h"
#include "tablebase/build.h"
#include "variants/notation.h"
#include "variants/registry.h"
#include "replay.h"

namespace canju {
namespace {

// KRKA, KNKA and their sub-tables, built once into a temporary directory
// (a second).
class Tables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = (std::filesystem::temp_directory_path() / ("canju-solver-tables-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir_);
    const Variant& v = BuiltinVariant("xiangqi");
    std::vector<tb::PlanItem> plan;
    ASSERT_TRUE(tb::MakePlan(v, {"KRKA", "KNKA"}, dir_, &plan).ok());
    tb::BuildOptions bo;
    bo.dir = dir_;
    bo.threads = 1;
    ASSERT_TRUE(tb::BuildPlan(v, plan, bo).ok());
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  void SetUp() override { ASSERT_TRUE(OpenTablebaseOracle(dir_, BuiltinVariant("xiangqi"), &oracle_).ok()); }

  // A node budget (no clock) and the tables.
  SolveOptions WithTables(uint64_t nodes, size_t tt_mib) const {
    SolveOptions o;
    o.max_seconds = 0;
    o.max_nodes = nodes;
    o.tt_bytes = tt_mib << 20;
    o.tablebase = oracle_.get();
    return o;
  }

  static std::string dir_;
  std::unique_ptr<TablebaseOracle> oracle_;
};
std::string Tables::dir_;

Position Pos(const std::string& fen) {
  Position p;
  EXPECT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), fen, &p).ok());
  return p;
}

TEST_F(Tables, TheOracleCountsTheMaterialsItHasNoTableFor) {
  // --tb-missing: which table to build next. The directory holds KRKA and
  // KNKA (and their sub-tables), not KRKAA.
  std::unique_ptr<TablebaseOracle> counting;
  ASSERT_TRUE(OpenTablebaseOracle(dir_, BuiltinVariant("xiangqi"), &counting, 5).ok());
  TablebaseValue tv;
  EXPECT_TRUE(counting->Probe(Pos("4k4/4a4/9/9/9/9/9/9/9/3K1R3 w"), &tv));  // KRKA: a table
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(counting->Probe(Pos("3ak4/4a4/9/9/9/9/9/9/9/3K1R3 w"), &tv));  // KRKAA
  // The same material with the colours swapped is the same table.
  EXPECT_FALSE(counting->Probe(Pos("3k1r3/9/9/9/9/9/9/9/4A4/3AK4 b"), &tv));
  // More pieces than asked for: not counted.
  EXPECT_FALSE(counting->Probe(Pos("3ak4/4a4/4b4/9/9/9/9/9/9/3K1R3 w"), &tv));
  const std::vector<MissingTable> missing = counting->MissingTables();
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].material, "KRKAA");
  EXPECT_EQ(missing[0].probes, 4u);
  // Without counting, nothing is listed.
  EXPECT_FALSE(oracle_->Probe(Pos("3ak4/4a4/9/9/9/9/9/9/9/3K1R3 w"), &tv));
  EXPECT_TRUE(oracle_->MissingTables().empty());
}

const char* kRookAgainstAdvisor = "4k4/4a4/9/9/9/9/9/9/9/3K1R3 w";

TEST_F(Tables, RootInTheTablesIsAnsweredFromThem) {
  const Position p = Pos(kRookAgainstAdvisor);
  TablebaseValue tv;
  ASSERT_TRUE(oracle_->Probe(p, &tv));
  ASSERT_EQ(tv.result, Claim::kWin);
  const SolveOptions o = WithTables(1'000'000, 4);
  const SolveResult r = Solve(p, o);
  EXPECT_EQ(r.result, Claim::kWin);
  EXPECT_EQ(r.proof, ProofKind::kTablebase);
  EXPECT_EQ(r.mate_plies, tv.dtm);
  EXPECT_TRUE(r.mate_exact);
  ASSERT_EQ(static_cast<int>(r.pv.size()), tv.dtm);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  ASSERT_FALSE(r.first_moves.empty());
  EXPECT_EQ(r.first_moves[0].move, r.pv[0]);
}

// The tables count a cycle of chases a draw; where perpetual chasing loses
// (rules.perpetual_chase=loss) such a draw may be a win, so the oracle
// answers only the tables' wins and losses and leaves their draws to the
// search.
TEST_F(Tables, UnderPerpetualChasingTheOracleLeavesTheTablesDrawsToTheSearch) {
  std::shared_ptr<const Variant> chasing;
  ASSERT_TRUE(LoadVariant("xiangqi", &chasing, {"rules.perpetual_chase=loss"}).ok());
  std::unique_ptr<TablebaseOracle> strict;
  ASSERT_TRUE(OpenTablebaseOracle(dir_, *chasing, &strict).ok());
  auto under = [&](const Variant& v, const char* fen) {
    Position p;
    EXPECT_TRUE(Position::FromFen(v, fen, &p).ok()) << fen;
    return p;
  };
  // A bare king against king and advisor (KRKA's table after the rook is
  // taken): a draw.
  const char* kBareKing = "3k5/4a4/9/9/9/9/9/9/9/4K4 w";
  TablebaseValue tv;
  ASSERT_TRUE(oracle_->Probe(Pos(kBareKing), &tv));
  ASSERT_EQ(tv.result, Claim::kDraw);
  EXPECT_FALSE(strict->Probe(under(*chasing, kBareKing), &tv));
  // A win is a win under either rule.
  TablebaseValue plain, chase;
  ASSERT_TRUE(oracle_->Probe(Pos(kRookAgainstAdvisor), &plain));
  ASSERT_TRUE(strict->Probe(under(*chasing, kRookAgainstAdvisor), &chase));
  EXPECT_EQ(chase.result, Claim::kWin);
  EXPECT_EQ(chase.dtm, plain.dtm);
}

TEST_F(Tables, BookAuditReadsTheTables) {
  const Position p = Pos(kRookAgainstAdvisor);
  const SolveOptions so = WithTables(1'000'000, 4);
  const SolveResult best = Solve(p, so);
  ASSERT_EQ(best.result, Claim::kWin);
  ASSERT_GE(best.mate_plies, 3);

  // The tables' own line: confirmed, audited to the end, no departure.
  Record rec;
  rec.fen = kRookAgainstAdvisor;
  rec.title = "tables";
  rec.claimed = Claim::kWin;
  std::vector<MoveNode>* at = &rec.moves;
  for (Move m : best.pv) {
    at->push_back(MoveNode{MoveToCoord(p.variant(), m), "", {}});
    at = &at->back().next;
  }
  VerifyOptions vo;
  vo.solve = so;
  VerifyReport rep;
  ASSERT_TRUE(VerifyRecord(rec, vo, &rep).ok());
  EXPECT_EQ(rep.verdict.kind, VerdictKind::kConfirmed);
  EXPECT_TRUE(rep.book_audited);
  EXPECT_TRUE(rep.book.empty()) << rep.book[0].text;

  // A first move that still wins but more slowly is flagged with both lengths.
  Move slower;
  int slower_plies = -1;
  for (const FirstMove& f : best.first_moves)
    if (f.result == Claim::kWin && f.mate_plies > best.mate_plies) slower = f.move, slower_plies = f.mate_plies;
  ASSERT_FALSE(slower.is_none()) << "every winning first move is fastest";
  rec.moves.clear();
  rec.moves.push_back(MoveNode{MoveToCoord(p.variant(), slower), "", {}});
  ASSERT_TRUE(VerifyRecord(rec, vo, &rep).ok());
  ASSERT_FALSE(rep.book.empty());
  EXPECT_EQ(rep.book[0].kind, BookDeparture::Kind::kLengthens);
  EXPECT_EQ(rep.book[0].best_plies, best.mate_plies);
  EXPECT_EQ(rep.book[0].book_plies, slower_plies);
}

TEST_F(Tables, CaptureIntoATableIsALeaf) {
  // One more Black piece: the root has no table, but captures lead into
  // KRKA, whose values the search reads at those leaves. The proof, its
  // exact length and its line (replayed legally to mate) must stand with
  // table leaves in the tree. (This position is also won without tables;
  // the test checks that table leaves keep the search sound, not that they
  // make it faster.)
  const Position p = Pos("4k4/4a4/9/9/9/9/9/9/5p3/3K1R3 w");
  SolveOptions o = WithTables(2'000'000, 8);
  o.cooks = false;
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  EXPECT_NE(r.proof, ProofKind::kTablebase);
  ASSERT_TRUE(r.mate_exact);
  ASSERT_EQ(static_cast<int>(r.pv.size()), r.mate_plies);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
}

TEST_F(Tables, TableLeavesReachAWinTheSearchAloneCannot) {
  // Knight against advisor (马胜单士) is a win in up to 37 plies: far beyond
  // what the search proves in 50,000 nodes on its own (it needs more than
  // 120,000). Here the knight's capture of the pawn leads into that longest
  // win, so with the tables the capture is a leaf and the win is proved,
  // with its exact length, within the same budget.
  const Position p = Pos("9/9/3ak4/9/9/9/9/9/2p6/N2K5 w");
  SolveOptions o = WithTables(50'000, 8);
  o.cooks = false;
  o.tablebase = nullptr;
  const SolveResult alone = Solve(p, o);
  EXPECT_NE(alone.result, Claim::kWin) << "the search alone proved it: the test no longer shows the leaves' help";

  o.tablebase = oracle_.get();
  const SolveResult r = Solve(p, o);
  ASSERT_EQ(r.result, Claim::kWin) << r.note;
  EXPECT_NE(r.proof, ProofKind::kTablebase);  // the root itself has no table
  ASSERT_TRUE(r.mate_exact);
  EXPECT_EQ(r.mate_plies, 37);
  ASSERT_EQ(static_cast<int>(r.pv.size()), r.mate_plies);
  EXPECT_TRUE(testing_util::LineEndsInMate(p, r.pv));
  // The line enters the table at once, with the capture.
  Position after = p;
  StateInfo st;
  after.DoMove(r.pv[0], &st);
  TablebaseValue tv;
  ASSERT_TRUE(oracle_->Probe(after, &tv));
  EXPECT_EQ(tv.result, Claim::kLoss);
  EXPECT_EQ(tv.dtm, r.mate_plies - 1);

  // Without the shortest-mate search the line is the proof's: the capture,
  // then from the table's position the table's line, to mate.
  o.shortest = false;
  const SolveResult proof = Solve(p, o);
  ASSERT_EQ(proof.result, Claim::kWin) << proof.note;
  EXPECT_FALSE(proof.mate_exact);
  ASSERT_FALSE(proof.pv.empty()) << proof.note;
  EXPECT_TRUE(testing_util::LineEndsInMate(p, proof.pv)) << proof.note;
  EXPECT_LE(static_cast<int>(proof.pv.size()), proof.mate_plies);
  EXPECT_EQ(proof.note.find("stops before mate"), std::string::npos) << proof.note;
}

TEST_F(Tables, TightenedMateBoundsMeetTheTables) {
  // 马胜单士 positions solved by the search alone (no table at the root or
  // the leaves), their distances read from the KNKA table. A proved bound
  // may never undercut the table's distance, an exact one must equal it;
  // the halving steps of the shortest-mate search bring every bound to
  // within a few plies of the truth in the budget (stepping down two plies
  // at a time from df-pn's first proof left 49 for the longest one's 37).
  const std::vector<std::string> fens = {"9/9/3ak4/9/9/9/9/9/9/N2K5 w", "9/9/3ak4/9/9/9/9/9/9/3K1N3 w",
                                         "4k4/4a4/9/9/9/9/9/9/9/N2K5 w", "9/4k4/5a3/9/9/9/9/9/9/2NK5 w"};
  for (const std::string& fen : fens) {
    SCOPED_TRACE(fen);
    const Position p = Pos(fen);
    TablebaseValue tv;
    ASSERT_TRUE(oracle_->Probe(p, &tv));
    ASSERT_EQ(tv.result, Claim::kWin);
    // (At 5 M nodes the last one's bound stayed at 43 once UndoMove kept
    // the order of the moves: the budget sits near that edge.)
    SolveOptions o = WithTables(6'000'000, 16);
    o.tablebase = nullptr;
    o.cooks = false;
    const SolveResult r = Solve(p, o);
    ASSERT_EQ(r.result, Claim::kWin) << r.note;
    EXPECT_GE(r.mate_plies, tv.dtm);
    if (r.mate_exact) {
      EXPECT_EQ(r.mate_plies, tv.dtm);
    }
    EXPECT_LE(r.mate_plies, tv.dtm + 6);
    EXPECT_EQ(r.mate_plies % 2, 1);
  }
}

// A 4×4 board with kings, rooks, horses and cannons: its knight endings are
// small enough for a table of every position (a few milliseconds) and long
// enough for the df-pn to meet many cycles. Under perpetual chasing most
// cycles are decisive; the df-pn once lured itself to the nodes proved on
// one path only (stored as "nearly proved") and thrashed: the first position
// below, a mate in 33 without the rule, stayed open after 14 M nodes with it.
const char* kSmallBoard =
    "[variant]\nid = chasing\nboard = 4x4\nstart = k3/4/4/3K w\n"
    "[rules]\nwin = checkmate\nstalemate = loss\nperpetual_check = loss\n"
    "[piece king]\nletter = K\nbetza = W\nroyal = yes\n"
    "[piece rook]\nletter = R\nbetza = R\nvalue = 9\n"
    "[piece horse]\nletter = N\nbetza = N\nvalue = 4\n"
    "[piece cannon]\nletter = C\nbetza = mRcpR\nvalue = 4\n";

TEST(SmallBoardTables, UnderPerpetualChasingTheSearchStillFindsTheTablesMates) {
  std::unique_ptr<Variant> plain, chasing;
  ASSERT_TRUE(Variant::Parse(kSmallBoard, "chasing.ini", &plain).ok());
  ASSERT_TRUE(Variant::Parse(kSmallBoard, "chasing.ini", &chasing, {"rules.perpetual_chase=loss"}).ok());
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("canju-chasing-tables-" + std::to_string(::getpid()))).string();
  std::filesystem::create_directories(dir);
  std::vector<tb::PlanItem> plan;
  ASSERT_TRUE(tb::MakePlan(*plain, {"KNKN"}, dir, &plan).ok());
  tb::BuildOptions bo;
  bo.dir = dir;
  bo.threads = 1;
  ASSERT_TRUE(tb::BuildPlan(*plain, plan, bo).ok());
  std::unique_ptr<TablebaseOracle> table;
  ASSERT_TRUE(OpenTablebaseOracle(dir, *plain, &table).ok());
  // The chase rule is not in the tables' rules (they follow the variant's
  // other rules, which the search under it trusts for wins and losses); a
  // rule they do model, changed, makes them refused by name.
  {
    std::unique_ptr<Variant> lenient;
    ASSERT_TRUE(Variant::Parse(kSmallBoard, "chasing.ini", &lenient, {"rules.perpetual_check=draw"}).ok());
    std::unique_ptr<TablebaseOracle> wrong;
    const Status refused = OpenTablebaseOracle(dir, *lenient, &wrong);
    EXPECT_EQ(refused.code(), Status::Code::kInvalidArgument) << refused.ToString();
    EXPECT_NE(refused.message().find(".chasing.ctb"), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("other rules"), std::string::npos) << refused.message();
    EXPECT_NE(refused.message().find("every repetition is a draw"), std::string::npos) << refused.message();
    std::unique_ptr<TablebaseOracle> same;
    EXPECT_TRUE(OpenTablebaseOracle(dir, *chasing, &same).ok());
  }

  // Red to move wins; Red to move loses (Black's horse mates). The tables
  // count every cycle but perpetual check a draw, so a side that wins by
  // them wins under either chase rule. Their distances are to mate with the
  // perpetual checker made to stop; the solver's end a line where the
  // loser's checks repeat, and chasing that loses can only shorten a mate:
  // table ≥ without the rule ≥ with it. Without the rule the second
  // position's cycles are draws for Red, each decided on its path only: the
  // df-pn once stored those as "nearly disproved" and never came back to
  // them (open after 9.5 M nodes; 1.12 M since they keep their numbers).
  SolveOptions o;
  o.max_seconds = 0;
  o.max_nodes = 3'000'000;
  o.tt_bytes = size_t{16} << 20;
  o.cooks = false;
  for (const char* fen : {"4/4/K1k1/2Nn w", "1K1k/n1N1/4/4 w"}) {
    Position p, q;
    ASSERT_TRUE(Position::FromFen(*plain, fen, &p).ok());
    ASSERT_TRUE(Position::FromFen(*chasing, fen, &q).ok());
    TablebaseValue tv;
    ASSERT_TRUE(table->Probe(p, &tv)) << fen;
    ASSERT_NE(tv.result, Claim::kDraw) << fen;
    const SolveResult r = Solve(q, o);
    ASSERT_EQ(r.result, tv.result) << fen << ": " << r.note;
    ASSERT_TRUE(r.mate_exact) << fen;
    EXPECT_LE(r.mate_plies, tv.dtm) << fen;
    // Best play all the way, or as far as a search from the line's position
    // can see (a win resting on the loser's perpetual chase goes back above
    // it) and then the proof's line, whose defences need not be the longest.
    if (r.note.find("the rest is the proof's") == std::string::npos)
      ASSERT_EQ(static_cast<int>(r.pv.size()), r.mate_plies) << fen << " " << r.note;
    else
      ASSERT_LE(static_cast<int>(r.pv.size()), r.mate_plies) << fen << " " << r.note;
    EXPECT_TRUE(testing_util::LineEndsInMate(q, r.pv)) << fen;
    const SolveResult by_default = Solve(p, o);
    ASSERT_EQ(by_default.result, tv.result) << fen << ": " << by_default.note;
    ASSERT_TRUE(by_default.mate_exact) << fen;
    EXPECT_LE(by_default.mate_plies, tv.dtm) << fen;
    EXPECT_LE(r.mate_plies, by_default.mate_plies) << fen;
    EXPECT_TRUE(testing_util::LineEndsInMate(p, by_default.pv)) << fen;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace canju

#endif  // CANJU_HAVE_TABLEBASE

// Promotions into sub-tables, and the sub-tables a build reads. A variant may
// have two pawn kinds (a definition file is data); each must promote into its
// own material. The table is checked against the engine's own route: every
// entry's value is recomputed from the values of the positions its legal
// moves lead to, each probed through TablebaseSet (Position, its material's
// table, that table's index), not through the generator's links.
#include <fstream>
#include <map>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

using testing::BuildTables;
using testing::ScratchDir;

// 5x5, promotion to a queen only; the pawn moves straight and takes
// diagonally, the berolina pawn (O) the other way round.
constexpr const char* kTwoPawns = R"([variant]
id = twopawns
name = Two pawns
description = 5x5 test board with two pawn kinds.
board = 5x5
notation = chess
colors = white black
start = 4k/5/5/5/K4 w - - 0 1

[rules]
win = checkmate
stalemate = draw
perpetual_check = draw
castling = off
double_step = off
en_passant = off
promotion_region = last_rank
promotion_pieces = Q

[region last_rank]
squares = a5-e5

[piece king]
letter = K
zh = 王 王
symbol = K k
betza = K
royal = yes

[piece queen]
letter = Q
zh = 后 后
symbol = Q q
betza = Q
value = 9

[piece pawn]
letter = P
zh = 兵 兵
symbol = P p
betza = fmW fcF
pawn = yes
value = 1

[piece berolina]
letter = O
zh = 卒 卒
symbol = O o
betza = fmF fcW
pawn = yes
value = 1
)";

std::shared_ptr<const Variant> TwoPawns() {
  static std::shared_ptr<const Variant> v = [] {
    const std::string path = ScratchDir() + "/twopawns.ini";
    std::ofstream(path) << kTwoPawns;
    std::shared_ptr<const Variant> out;
    Status st = LoadVariant(path, &out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return out;
  }();
  return v;
}

// The value of `pos` from its successors' probed values (no perpetual-check
// rule here: repetition draws).
ProbeResult FromSuccessors(const TablebaseSet& set, const Position& pos) {
  MoveList ml;
  pos.GenerateLegal(&ml);
  int best_win = -1, worst_loss = -1;
  bool draw = false;
  for (int k = 0; k < ml.size(); ++k) {
    Position after = pos;
    StateInfo st;
    after.DoMove(ml[k], &st);
    ProbeResult r;
    EXPECT_TRUE(set.Probe(after, &r).ok()) << after.Fen();
    if (r.wdl == Wdl::kLoss) {
      if (best_win < 0 || r.dtm_plies + 1 < best_win) best_win = r.dtm_plies + 1;
    } else if (r.wdl == Wdl::kDraw) {
      draw = true;
    } else {
      worst_loss = std::max(worst_loss, r.dtm_plies + 1);
    }
  }
  ProbeResult out;
  if (ml.size() == 0) {
    if (pos.InCheck()) out.wdl = Wdl::kLoss;
  } else if (best_win >= 0) {
    out.wdl = Wdl::kWin, out.dtm_plies = best_win;
  } else if (!draw) {
    out.wdl = Wdl::kLoss, out.dtm_plies = worst_loss;
  }
  return out;
}

TEST(Promotion, EachPawnKindPromotesIntoItsOwnMaterial) {
  const std::shared_ptr<const Variant> v = TwoPawns();
  ASSERT_TRUE(v);
  const std::string dir = ScratchDir() + "/twopawns";
  BuildTables(*v, {"KPOK"}, dir);
  TablebaseSet set;
  ASSERT_TRUE(set.Open(dir, *v).ok());
  Material m;
  ASSERT_TRUE(Material::Parse(*v, "KPOK", &m).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(*v, m).ok());
  int checked = 0, promotions = 0, wrong = 0;
  uint8_t sq[kMaxTablePieces];
  for (uint64_t i = 0; i < ix.size(); ++i) {
    if (!ix.Decode(i, sq)) continue;
    for (Color side : {kFirst, kSecond}) {
      Position pos;
      pos.Clear(*v, side);
      for (int s = 0; s < ix.slots(); ++s) pos.Put(ix.slot_piece(s), sq[s]);
      if (!pos.Validate().ok()) continue;
      ProbeResult stored;
      ASSERT_TRUE(set.Probe(pos, &stored).ok()) << pos.Fen();
      const ProbeResult expected = FromSuccessors(set, pos);
      ++checked;
      MoveList ml;
      pos.GenerateLegal(&ml);
      for (int k = 0; k < ml.size(); ++k) promotions += ml[k].promo_kind() >= 0;
      if (stored.wdl != expected.wdl || stored.dtm_plies != expected.dtm_plies) {
        if (++wrong <= 5)
          ADD_FAILURE() << pos.Fen() << ": stored " << WdlName(stored.wdl) << " " << stored.dtm_plies
                        << ", successors give " << WdlName(expected.wdl) << " " << expected.dtm_plies;
      }
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(promotions, 1000);  // both pawn kinds promote often enough to matter
  EXPECT_EQ(wrong, 0);
}

// The sides to move a generator reads of each sub-table are those the plan
// sizes (SubTableReads), on every variant's kinds of capture and promotion.
TEST(Promotion, GeneratorReadsTheSubTableSidesThePlanCounts) {
  const std::shared_ptr<const Variant> two = TwoPawns();
  ASSERT_TRUE(two);
  struct Case {
    const Variant* v;
    std::vector<std::string> materials;
  };
  const std::vector<Case> cases = {
      {&BuiltinVariant("xiangqi"), {"KRKA", "KRNKR", "KCPKA"}},
      {&BuiltinVariant("chess"), {"KPK"}},
      {&BuiltinVariant("cannonchess"), {"KPK"}},
      {two.get(), {"KPOK", "KPKO", "KOKQ"}},
  };
  for (const Case& c : cases) {
    const std::string dir = ScratchDir() + "/reads-" + c.v->id();
    for (const std::string& name : c.materials) {
      SCOPED_TRACE(c.v->id() + " " + name);
      Material given;
      ASSERT_TRUE(Material::Parse(*c.v, name, &given).ok());
      const Material m = Canonical(*c.v, given);
      std::vector<std::string> subs;
      std::map<std::string, unsigned> planned;
      for (const SubTableRead& r : SubTableReads(*c.v, m)) {
        planned[r.material.Name(*c.v)] = r.sides;
        subs.push_back(r.material.Name(*c.v));
      }
      if (!subs.empty()) BuildTables(*c.v, subs, dir);
      std::unique_ptr<TableGenerator> gen = MakeGenerator(*c.v, m, 1, nullptr);
      ASSERT_TRUE(gen->Init(dir).ok());
      EXPECT_EQ(gen->sub_table_sides(), planned);
    }
  }
}

}  // namespace
}  // namespace canju::tb

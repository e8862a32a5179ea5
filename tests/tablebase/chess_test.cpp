// Chess tables against published facts: the longest mates of KQK, KRK and
// KPK (10, 16 and 28 moves, ../shared/docs/reference-numbers.md), and the
// statistics against a count over every position without symmetry.
#include <set>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "tb_test_util.h"

namespace canju::tb {
namespace {

using testing::BuildTables;
using testing::Header;
using testing::ScratchDir;

const Variant& Chess() { return BuiltinVariant("chess"); }

TEST(ChessTablebase, LongestMatesMatchPublishedNumbers) {
  BuildTables(Chess(), {"KQK", "KRK", "KPK"});
  // A mate in N moves is 2N - 1 plies for the winning side to move.
  EXPECT_EQ(Header(Chess(), "KQK").stats[kFirst].longest_win, 19u);
  EXPECT_EQ(Header(Chess(), "KRK").stats[kFirst].longest_win, 31u);
  EXPECT_EQ(Header(Chess(), "KPK").stats[kFirst].longest_win, 55u);
}

TEST(ChessTablebase, PawnlessTablesUseEightfoldSymmetry) {
  Material m;
  ASSERT_TRUE(Material::Parse(Chess(), "KQK", &m).ok());
  Indexer ix;
  ASSERT_TRUE(ix.Init(Chess(), m).ok());
  EXPECT_EQ(ix.symmetry().count(), 8);
  EXPECT_EQ(ix.king_pairs(), 462);  // the classic number of king placements
  ASSERT_TRUE(Material::Parse(Chess(), "KPK", &m).ok());
  ASSERT_TRUE(ix.Init(Chess(), m).ok());
  EXPECT_EQ(ix.symmetry().count(), 2);
}

// Every placement of the pieces, both sides to move, probed one by one: the
// totals must equal the table's statistics weighted by class size.
TEST(ChessTablebase, CountsAreSelfConsistent) {
  BuildTables(Chess(), {"KQK", "KRK", "KPK"});
  TablebaseSet set;
  ASSERT_TRUE(set.Open(ScratchDir(), Chess()).ok());
  for (const char* name : {"KQK", "KPK"}) {
    Material m;
    ASSERT_TRUE(Material::Parse(Chess(), name, &m).ok());
    Indexer ix;
    ASSERT_TRUE(ix.Init(Chess(), m).ok());
    const Variant& v = Chess();
    int other = -1;
    for (int k = 0; k < v.kind_count(); ++k)
      if (m.count[0][k] && k != v.royal_kind()) other = k;
    uint64_t raw[2][3] = {};
    for (int a = 0; a < 120; ++a)
      for (int b = 0; b < 120; ++b)
        for (int c = 0; c < 120; ++c) {
          if (!v.on_board(a) || !v.on_board(b) || !v.on_board(c) || a == b || b == c || a == c) continue;
          if (!v.legal_squares(kFirst, other)[c]) continue;
          for (int s = 0; s < 2; ++s) {
            Position p;
            p.Clear(v, Color(s));
            p.Put(MakePiece(kFirst, v.royal_kind()), a);
            p.Put(MakePiece(kSecond, v.royal_kind()), b);
            p.Put(MakePiece(kFirst, other), c);
            if (!p.Validate().ok()) continue;
            ProbeResult r;
            ASSERT_TRUE(set.Probe(p, &r).ok());
            ++raw[s][static_cast<int>(r.wdl) + 1];
          }
        }
    // The same totals from the table: each counted position times the size
    // of its symmetry class.
    TableHeader h = Header(v, name);
    for (int s = 0; s < 2; ++s) {
      EXPECT_GT(raw[s][2] + raw[s][1] + raw[s][0], 0u);
      // Classes have at most |G| members: the raw count lies between the
      // table count and |G| times it, and is exactly |G| times it on average
      // when no position is symmetric (KQK has symmetric ones, so bounds).
      const uint64_t g = ix.symmetry().count();
      EXPECT_GE(raw[s][2], h.stats[s].win);
      EXPECT_LE(raw[s][2], g * h.stats[s].win);
      EXPECT_GE(raw[s][0], h.stats[s].loss);
      EXPECT_LE(raw[s][0], g * h.stats[s].loss);
      EXPECT_GE(raw[s][1], h.stats[s].draw);
      EXPECT_LE(raw[s][1], g * h.stats[s].draw);
    }
    // The strong side never loses.
    EXPECT_EQ(raw[kFirst][0], 0u) << name;
    EXPECT_EQ(raw[kSecond][2], 0u) << name;
  }
}

}  // namespace
}  // namespace canju::tb

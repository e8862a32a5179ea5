// The repetition rule shared by the df-pn, the re-check and the proof's
// line (solver/repetition.h), on hand-written lines of keys and checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "solver/repetition.h"

namespace canju {
namespace {

int Occurrence(const std::vector<uint64_t>& keys, int since) {
  return EarlierOccurrence(static_cast<int>(keys.size()) - 1, since,
                           [&keys](int i) { return keys[static_cast<size_t>(i)]; });
}

CycleLoser Loser(const std::vector<bool>& checks, int from, Outcome perpetual = Outcome::kLoss) {
  Rules rules;
  rules.perpetual_check = perpetual;
  return LoserOfCycle(
      rules, from, static_cast<int>(checks.size()) - 1,
      [&checks](int i) { return static_cast<bool>(checks[static_cast<size_t>(i)]); },
      [](int) -> bool { ADD_FAILURE() << "chases asked where chasing is not a rule"; return false; });
}

// The same with chasing a loss too: chases[i], the move into ply i chased;
// *asked counts the chases looked at.
CycleLoser ChaseLoser(const std::vector<bool>& checks, const std::vector<bool>& chases, int from, bool* by_chase,
                      int* asked = nullptr) {
  Rules rules;
  rules.perpetual_check = Outcome::kLoss;
  rules.perpetual_chase = Outcome::kLoss;
  return LoserOfCycle(
      rules, from, static_cast<int>(checks.size()) - 1,
      [&checks](int i) { return static_cast<bool>(checks[static_cast<size_t>(i)]); },
      [&chases, asked](int i) {
        if (asked) ++*asked;
        return static_cast<bool>(chases[static_cast<size_t>(i)]);
      },
      by_chase);
}

TEST(Repetition, TheLatestEarlierPositionWithTheSameSideToMoveSinceTheLastCapture) {
  // Plies 0..6; ply 6 repeats plies 2 and 4 (same side to move) and ply 3
  // (the other side to move, not a repetition).
  const std::vector<uint64_t> keys = {10, 11, 7, 7, 7, 12, 7};
  EXPECT_EQ(Occurrence(keys, 0), 4);
  EXPECT_EQ(Occurrence(keys, 5), -1);  // a capture into ply 5
  const std::vector<uint64_t> other_side = {10, 7, 11, 12, 13, 14, 7};
  EXPECT_EQ(Occurrence(other_side, 0), -1);
  EXPECT_EQ(Occurrence({7}, 0), -1);
}

TEST(Repetition, TheSideThatCheckedThroughoutLosesWhereTheRuleSaysSo) {
  // A cycle from ply 0 to ply 4: moves into plies 1 and 3 by one side (the
  // side to move at ply 4), 2 and 4 by the other (the side that moved last).
  EXPECT_EQ(Loser({false, true, false, true, false}, 0), CycleLoser::kSideToMove);
  EXPECT_EQ(Loser({false, false, true, false, true}, 0), CycleLoser::kSideThatMoved);
  // Both check throughout, or neither: no loser.
  EXPECT_EQ(Loser({false, true, true, true, true}, 0), CycleLoser::kNone);
  EXPECT_EQ(Loser({false, false, false, false, false}, 0), CycleLoser::kNone);
  // One quiet move breaks the checker's chain.
  EXPECT_EQ(Loser({false, true, false, false, false, true, false}, 0), CycleLoser::kNone);
  // Moves before the cycle's first ply are not part of it (the quiet move
  // into ply 1 would break the chain).
  EXPECT_EQ(Loser({false, false, false, true, false, true, false}, 2), CycleLoser::kSideToMove);
  EXPECT_EQ(Loser({false, false, false, true, false, true, false}, 0), CycleLoser::kNone);
  // Where perpetual check is not a loss (chess), a repetition has no loser.
  EXPECT_EQ(Loser({false, true, false, true, false}, 0, Outcome::kDraw), CycleLoser::kNone);
}

TEST(Repetition, WhereChasingLosesTheSideThatCheckedOrChasedThroughoutLoses) {
  bool by_chase = true;
  // The side to move at ply 4 chased with both its moves (plies 1, 3).
  EXPECT_EQ(ChaseLoser({false, false, false, false, false}, {false, true, false, true, false}, 0, &by_chase),
            CycleLoser::kSideToMove);
  EXPECT_TRUE(by_chase);
  // One check and one chase (一将一捉) are both forbidden moves.
  EXPECT_EQ(ChaseLoser({false, false, true, false, false}, {false, false, false, false, true}, 0, &by_chase),
            CycleLoser::kSideThatMoved);
  EXPECT_TRUE(by_chase);
  // Both sides chase throughout: a draw.
  EXPECT_EQ(ChaseLoser({false, false, false, false, false}, {false, true, true, true, true}, 0, &by_chase),
            CycleLoser::kNone);
  EXPECT_FALSE(by_chase);
  // Perpetual check against perpetual chase: the checker loses, by the
  // checks, and the chases are not asked.
  int asked = 0;
  EXPECT_EQ(ChaseLoser({false, true, false, true, false}, {false, false, true, false, true}, 0, &by_chase, &asked),
            CycleLoser::kSideToMove);
  EXPECT_FALSE(by_chase);
  EXPECT_EQ(asked, 0);
  // Mutual perpetual check stays a draw whatever the chases.
  EXPECT_EQ(ChaseLoser({false, true, true, true, true}, {false, true, false, true, false}, 0, &by_chase),
            CycleLoser::kNone);
  // A quiet move that neither checks nor chases breaks the chain; moves
  // before the cycle's first ply are not part of it.
  EXPECT_EQ(ChaseLoser({false, false, false, false, false, false, false},
                       {false, false, false, true, false, true, false}, 0, &by_chase),
            CycleLoser::kNone);
  EXPECT_EQ(ChaseLoser({false, false, false, false, false, false, false},
                       {false, false, false, true, false, true, false}, 2, &by_chase),
            CycleLoser::kSideToMove);
}

TEST(Repetition, LosesNamesTheSideAsked) {
  EXPECT_TRUE(Loses(CycleLoser::kSideToMove, true));
  EXPECT_FALSE(Loses(CycleLoser::kSideToMove, false));
  EXPECT_TRUE(Loses(CycleLoser::kSideThatMoved, false));
  EXPECT_FALSE(Loses(CycleLoser::kSideThatMoved, true));
  EXPECT_FALSE(Loses(CycleLoser::kNone, true));
  EXPECT_FALSE(Loses(CycleLoser::kNone, false));
}

}  // namespace
}  // namespace canju

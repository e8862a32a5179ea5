// Verification pass, run on every build: each entry's value must equal the
// best over its successors (sub-table probes included), with the same move
// bans as the generator: in a loss by the perpetual-check rule the checking
// moves do not count towards the distance.
#include <mutex>

#include "tablebase/generator.h"

namespace canju::tb {

namespace {

std::string CellText(uint16_t c) {
  if (c == cell::kIllegal) return "illegal";
  if (c == cell::kDraw) return "draw";
  if (!cell::Resolved(c)) return "unresolved";
  std::string s = (cell::Dtm(c) & 1) ? "win in " : "loss in ";
  s += std::to_string(cell::Dtm(c)) + " plies";
  if (c & cell::kRule) s += " (perpetual-check rule)";
  return s;
}

}  // namespace

Status Generator::Verify() {
  std::mutex mu;
  std::string failure;
  std::atomic<bool> failed{false};
  ForRanges("verify", [&](Work& w, uint64_t begin, uint64_t end) {
    bool placed = false;
    for (uint64_t ii = 2 * begin; ii < 2 * end && !failed.load(std::memory_order_relaxed); ++ii) {
      const uint64_t i = ii >> 1;
      const Color side = Color(ii & 1);
      uint16_t stored = Load(side, i);
      if (cell::Resolved(stored)) stored = static_cast<uint16_t>(stored & ~cell::kPending);
      uint16_t expected;
      if (side == kFirst) placed = Setup(w, i, side);
      else if (placed) w.pos.SetSideToMove(side);
      if (!placed || w.pos.Attacked(w.pos.royal_square(~side), side)) {
        expected = cell::kIllegal;
      } else {
        w.pos.GenerateLegal(&w.moves);
        if (w.moves.empty()) {
          const bool mate = w.pos.InCheck() || v_.rules().stalemate == Outcome::kLoss;
          expected = mate ? cell::kResolved : cell::kDraw;
        } else {
          const bool rule = stored != cell::kIllegal && cell::Resolved(stored) && (stored & cell::kRule);
          int best_win = -1, worst = -1, worst_quiet = 0;
          bool draw = false, bad = false;
          for (Move m : w.moves) {
            uint16_t sv;
            if (LeavesTable(w, m)) {
              sv = ProbeSub(w, m);
            } else {
              const uint16_t c = Load(~side, SuccessorIndex(w, m));
              sv = c == cell::kDraw ? kValueDraw
                   : cell::Resolved(c) ? EncodeValue(cell::Dtm(c), c & cell::kRule)
                                       : kValueIllegal;
            }
            if (sv == kValueIllegal) {
              bad = true;
              break;
            }
            if (sv == kValueDraw) {
              draw = true;
              continue;
            }
            ProbeResult r = DecodeValue(sv);
            if (r.wdl == Wdl::kLoss) {
              if (best_win < 0 || r.dtm_plies + 1 < best_win) best_win = r.dtm_plies + 1;
            } else {
              worst = std::max(worst, r.dtm_plies + 1);
              if (rule && !w.pos.GivesCheck(m)) worst_quiet = std::max(worst_quiet, r.dtm_plies + 1);
            }
          }
          if (bad) expected = 0xFFFF;
          else if (best_win >= 0) expected = static_cast<uint16_t>(cell::kResolved | best_win);
          else if (draw) expected = cell::kDraw;
          else if (rule) expected = static_cast<uint16_t>(cell::kResolved | cell::kRule | worst_quiet);
          else expected = static_cast<uint16_t>(cell::kResolved | worst);
        }
      }
      if (expected != stored) {
        std::lock_guard<std::mutex> lock(mu);
        if (failure.empty())
          failure = name_ + ": verification failed at " + IndexFen(index_, i, side) + " (entry " +
                    std::to_string(i) + "): stored " + CellText(stored) + ", its successors give " +
                    (expected == 0xFFFF ? std::string("an unresolved successor") : CellText(expected));
        failed = true;
      }
    }
  });
  if (failed) return Status::Corruption(failure);
  return Status::OK();
}

}  // namespace canju::tb

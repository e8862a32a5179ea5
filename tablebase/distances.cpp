// Distances once the perpetual-check rule has decided the results. The
// orders find results in an order that is not by distance, so distances are
// computed from scratch with every result fixed: wins take the shortest move
// into a loss, losses the longest move (counted down as in the first pass),
// and a loss by the rule the longest of its non-checking moves: it is looked
// at each time one of its non-checking successors gets its distance, and
// takes 1 + the longest once they all have one (few positions lose by the
// rule, so looking at their moves again costs little).
#include <algorithm>
#include <climits>

#include "tablebase/generator.h"

namespace canju::tb {

int Generator::RuleLossDistance(Board& b, Color x, int level) {
  const bool in_check = geo_.InCheck(b, x);
  const uint8_t* other = cells_[~x].data();
  int worst = -1;
  const bool complete = geo_.ForEachMove(b, x, [&](int slot, int to, int cap, int promo) {
    if (cap < 0 && promo < 0) {
      const uint64_t j = geo_.QuietSuccessor(b, slot, to);
      if (j == kNoIndex) return true;
      const uint8_t code = __atomic_load_n(&other[j], __ATOMIC_RELAXED);
      if (code == DtmCodes::kIllegal || geo_.GivesCheck(b, x, slot, to, -1)) return true;
      const int d = dtm_.IsDist(code) ? DistAt(~x, j, code) : -1;
      if (d < 0 || d >= level) return false;  // not known yet
      worst = std::max(worst, d + 1);
      return true;
    }
    if (!geo_.Legal(b, x, slot, to, cap, in_check) || geo_.GivesCheck(b, x, slot, to, cap, promo)) return true;
    worst = std::max(worst, DecodeValue(geo_.ProbeSub(b, x, slot, to, cap, promo)).dtm_plies + 1);
    return true;
  });
  return complete ? std::max(worst, level) : -1;
}

Status Generator::RecomputeDistances() {
  max_dtm_ = 0;
  for (auto& m : level_mask_) std::fill(m.begin(), m.end(), 0);
  overflow_.Filter([](Color, uint64_t) { return false; });
  const bool stalemate_loses = v_.rules().stalemate == Outcome::kLoss;
  // Each entry's two cells are converted by the thread that owns the entry;
  // the moves' legality comes from the boards, not from other cells.
  ForRanges("distances: set-up", [&](Work& w, uint64_t begin, uint64_t end) {
    Board& b = w.b;
    for (uint64_t i = begin; i < end; ++i) {
      const uint8_t cells[2] = {Load(kFirst, i), Load(kSecond, i)};
      if (cells[0] == WdlCodes::kIllegal && cells[1] == WdlCodes::kIllegal) continue;
      geo_.Set(b, i);
      for (int si = 0; si < 2; ++si) {
        const Color side = Color(si);
        const uint8_t c = cells[si];
        if (c == WdlCodes::kIllegal) continue;
        if (wdl_.Open(c)) {
          Store(side, i, DtmCodes::kDraw);
          continue;
        }
        const bool in_check = geo_.InCheck(b, side);
        const bool win = WdlCodes::Win(c), rule = c == WdlCodes::kRuleDone || c == WdlCodes::kRulePending;
        int quiet = 0, best = INT_MAX, worst = -1;
        bool any = false;
        geo_.ForEachMove(b, side, [&](int slot, int to, int cap, int promo) {
          if (!geo_.Legal(b, side, slot, to, cap, in_check)) return true;
          any = true;
          if (rule && geo_.GivesCheck(b, side, slot, to, cap, promo)) return true;
          if (cap < 0 && promo < 0) {
            ++quiet;
            return true;
          }
          const uint16_t sv = geo_.ProbeSub(b, side, slot, to, cap, promo);
          if (sv < 2) return true;
          const ProbeResult r = DecodeValue(sv);
          if (r.wdl == Wdl::kLoss) best = std::min(best, r.dtm_plies + 1);
          else worst = std::max(worst, r.dtm_plies + 1);
          return true;
        });
        if (!any) {
          if (in_check || stalemate_loses) StoreDist(side, i, 0, false);
          else Store(side, i, DtmCodes::kDraw);
        } else if (win) {
          if (best != INT_MAX) StoreDist(side, i, best, false);
          else Store(side, i, DtmCodes::kWinUnknown);
        } else if (quiet == 0) {
          StoreDist(side, i, std::max(worst, 0), rule);
        } else if (rule) {
          Store(side, i, DtmCodes::kRuleUnknown);
        } else {
          const uint8_t code = dtm_.Counter(quiet);
          if (code == dtm_.big_counter()) overflow_.Put(side, i, static_cast<uint32_t>(quiet));
          Store(side, i, code);
        }
      }
    }
  });
  Propagate(true);
  std::atomic<uint64_t> left{0};
  ForChunks("", [&](Work&, Color side, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const uint8_t c = Load(side, i);
      if (c == DtmCodes::kWinUnknown || c == DtmCodes::kRuleUnknown || dtm_.IsCounter(c))
        left.fetch_add(1, std::memory_order_relaxed);
    }
  });
  if (left.load())
    return Status::Aborted(name_ + ": " + std::to_string(left.load()) +
                           " results got no distance (internal error in the perpetual-check pass)");
  return Status::OK();
}

}  // namespace canju::tb

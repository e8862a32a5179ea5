// Distances once the perpetual-check rule has decided the results. The
// orders find results in an order that is not by distance, so distances are
// computed from scratch with every result fixed: wins take the shortest move
// into a loss, losses the longest move (counted down as in the first pass),
// and a loss by the rule the longest of its non-checking moves (a counter of
// its own kind, counted down only by non-checking moves). Wins look at their
// captures only here: their quiet moves are the propagation's business.
#include <algorithm>
#include <climits>

#include "tablebase/generator.h"

namespace canju::tb {

template <class Cells>
Status Generator<Cells>::RecomputeDistances() {
  max_dtm_ = 0;
  for (auto& m : level_mask_) std::fill(m.begin(), m.end(), 0);
  overflow_.Clear();
  big_dist_.Clear();
  tentative_big_wins_.Clear();
  const bool stalemate_loses = v_.rules().stalemate == Outcome::kLoss;
  // Each entry's two cells are converted by the thread that owns the entry;
  // a quiet move's legality is read from the other side's cells, which may
  // be converted meanwhile but stay legal (not 0) either way.
  ForRanges("distances: set-up", [&](Work& w, uint64_t begin, uint64_t end) {
    Board& b = w.b;
    // The places of the next legal entry's cells, side by side (compact
    // cells; dense ones are at the entry's own place).
    constexpr bool compact = Cells::kNeedsLegality;
    uint64_t place[2] = {cells_[kFirst].Rank(begin), cells_[kSecond].Rank(begin)};
    for (uint64_t i = begin; i < end; ++i) {
      const bool legal[2] = {cells_[kFirst].IsLegal(i), cells_[kSecond].IsLegal(i)};
      if (!(legal[0] | legal[1])) continue;
      geo_.Set(b, i);
      for (int si = 0; si < 2; ++si) {
        if (!legal[si]) continue;
        const Color side = Color(si);
        uint8_t& cell = cells_[si].at(compact ? place[si]++ : i);
        const uint8_t c = cell;
        auto store = [&](uint8_t code) { __atomic_store_n(&cell, code, __ATOMIC_RELAXED); };
        if (wdl_.Open(c)) {
          store(DtmCodes::kDraw);
          continue;
        }
        const bool in_check = !legal[~side];  // only a check makes the other side's entry illegal
        const bool win = WdlCodes::Win(c), rule = c == WdlCodes::kRuleDone || c == WdlCodes::kRulePending;
        int quiet = 0, best = INT_MAX, worst = -1;
        bool any = win;  // a won position has a move
        // A win's distance comes from a capture here or from the
        // propagation: its quiet moves need no look.
        geo_.ListMoves(b, side, win, w.moves);
        for (const TableMove& m : w.moves) {
          const int slot = m.slot, to = m.to, cap = m.cap, promo = m.promo;
          if (cap < 0 && promo < 0 ? !QuietLegal(b, side, slot, to, in_check)
                                   : !geo_.Legal(b, side, slot, to, cap, in_check))
            continue;
          any = true;
          if (rule && geo_.GivesCheck(b, side, slot, to, cap, promo)) continue;
          if (cap < 0 && promo < 0) {
            ++quiet;
            continue;
          }
          const uint16_t sv = geo_.ProbeSub(b, side, slot, to, cap, promo);
          if (sv < 2) continue;
          const ProbeResult r = DecodeValue(sv);
          if (r.wdl == Wdl::kLoss) best = std::min(best, r.dtm_plies + 1);
          else worst = std::max(worst, r.dtm_plies + 1);
        }
        if (!any) {
          if (in_check || stalemate_loses) StoreDist(side, i, 0, false);
          else store(DtmCodes::kDraw);
        } else if (win) {
          if (best != INT_MAX) StoreDist(side, i, best, false);
          else store(DtmCodes::kWinUnknown);
        } else if (quiet == 0) {
          StoreDist(side, i, std::max(worst, 0), rule);
        } else {
          const uint8_t code = rule ? dtm_.RuleCounter(quiet) : dtm_.Counter(quiet);
          if (code == dtm_.big_counter() || code == dtm_.big_rule_counter())
            overflow_.Put(side, i, static_cast<uint32_t>(quiet));
          store(code);
        }
      }
    }
  });
  EndPhase("perpetual check: distance set-up");
  Propagate(true);
  tentative_big_wins_.Clear();
  std::atomic<uint64_t> left{0};
  for (const Cells& cells : cells_) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < static_cast<int64_t>(cells.places()); ++k) {
      const uint8_t c = cells.at(k);
      if (c == DtmCodes::kWinUnknown || dtm_.IsRuleCounter(c) || dtm_.IsCounter(c))
        left.fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (left.load())
    return Status::Aborted(name_ + ": " + std::to_string(left.load()) +
                           " results got no distance (internal error in the perpetual-check pass)");
  return Status::OK();
}

template class Generator<DenseCells>;
template class Generator<CompactCells>;

}  // namespace canju::tb

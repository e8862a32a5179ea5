// Perpetual check (docs/tablebase.md, "Repetition rules"). After ordinary
// propagation the open positions are those in cycles. For a side X, S is the
// largest set of open positions such that
//   X to move in S: every move that does not lose outright is a check into S;
//   Y to move in S: Y is in check and has a non-checking move into S.
// X's positions in S lose (X can only avoid defeat by checking forever) and
// their distance counts X's best non-checking move; the new results are
// propagated by distance, then the next side and the next order, until no
// set is found.
#include <atomic>

#include "tablebase/generator.h"
#include "tablebase/unmoves.h"

namespace canju::tb {

struct Phases {
  // X to move: every non-losing move is a check into S. Pseudo-legal moves,
  // with the legality test only for a move that would break the condition.
  static bool CheckerStays(const Generator& g, Generator::Work& w) {
    const Color x = w.pos.side_to_move();
    w.pos.GeneratePseudoLegal(&w.moves);
    for (Move m : w.moves) {
      bool fine;
      if (g.LeavesTable(w, m)) {
        const uint16_t sv = g.ProbeSub(w, m);
        fine = sv >= 2 && DecodeValue(sv).wdl == Wdl::kWin;
      } else {
        const uint16_t c = g.Load(~x, g.SuccessorIndex(w, m));
        fine = cell::Resolved(c) ? (cell::Dtm(c) & 1) != 0 : cell::Open(c) && (c & cell::kInS);
      }
      if (!fine && w.pos.IsLegal(m)) return false;
    }
    return true;
  }

  // Y to move (in check): some non-checking move stays in S.
  static bool DefenderStays(const Generator& g, Generator::Work& w) {
    const Color y = w.pos.side_to_move();
    w.pos.GeneratePseudoLegal(&w.moves);
    for (Move m : w.moves) {
      if (g.LeavesTable(w, m)) continue;
      const uint16_t c = g.Load(~y, g.SuccessorIndex(w, m));
      if (!cell::Open(c) || !(c & cell::kInS)) continue;
      if (w.pos.IsLegal(m) && !w.pos.GivesCheck(m)) return true;
    }
    return false;
  }

  // 1 + the longest loss among X's non-checking moves; 0 if X has none.
  static int RuleLossDistance(const Generator& g, Generator::Work& w) {
    const Color x = w.pos.side_to_move();
    w.pos.GenerateLegal(&w.moves);
    int worst = 0;
    for (Move m : w.moves) {
      if (w.pos.GivesCheck(m)) continue;
      if (g.LeavesTable(w, m)) {
        worst = std::max(worst, DecodeValue(g.ProbeSub(w, m)).dtm_plies + 1);
      } else {
        const uint16_t c = g.Load(~x, g.SuccessorIndex(w, m));
        worst = std::max(worst, cell::Dtm(c) + 1);
      }
    }
    return worst;
  }
};

Status Generator::Perpetual() {
  for (;;) {
    bool any = false;
    for (int xi = 0; xi < 2; ++xi) {
      const Color X = Color(xi);
      ForChunks("perpetual check: candidates", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          const uint16_t c = Load(side, i);
          if (!cell::Open(c)) continue;
          if (side != X) {
            Setup(w, i, side);
            if (!w.pos.InCheck()) continue;
          }
          Store(side, i, static_cast<uint16_t>(c | cell::kInS));
        }
      });
      // Pruning: the first round checks every position of S; a position that
      // leaves S marks its predecessors still in S, and later rounds check
      // only those.
      for (int round = 1;; ++round) {
        std::atomic<uint64_t> removed{0};
        ForChunks("perpetual check: set round " + std::to_string(round),
                  [&](Work& w, Color side, uint64_t begin, uint64_t end) {
                    for (uint64_t i = begin; i < end; ++i) {
                      const uint16_t c = Load(side, i);
                      if (!cell::Open(c) || !(c & cell::kInS)) continue;
                      if (round > 1 && !ClearBits(side, i, cell::kDirty)) continue;
                      Setup(w, i, side);
                      const bool stays =
                          side == X ? Phases::CheckerStays(*this, w) : Phases::DefenderStays(*this, w);
                      if (stays || !ClearBits(side, i, cell::kInS | cell::kDirty)) continue;
                      removed.fetch_add(1, std::memory_order_relaxed);
                      const Color ps = ~side;
                      ForEachPredecessor(w, [&](uint64_t j) {
                        uint16_t pc = Load(ps, j);
                        while (cell::Open(pc) && (pc & cell::kInS) && !(pc & cell::kDirty))
                          if (Cas(ps, j, pc, static_cast<uint16_t>(pc | cell::kDirty))) break;
                      });
                    }
                  });
        if (removed.load() == 0) break;
      }
      // X's positions in S lose by the rule; Y's stay open and are won by
      // the propagation below (each has a move into S). Distances read only
      // resolved cells of Y, which this pass does not change.
      std::atomic<uint64_t> losses{0};
      ForChunks("perpetual check: resolve", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          const uint16_t c = Load(side, i);
          if (!cell::Open(c) || !(c & cell::kInS)) continue;
          if (side != X) {
            ClearBits(side, i, cell::kInS | cell::kDirty);
            continue;
          }
          Setup(w, i, side);
          const int d = Phases::RuleLossDistance(*this, w);
          Store(side, i, static_cast<uint16_t>(cell::kResolved | cell::kRule | cell::kPending | d));
          NoteDtm(d);
          Mark(side, i, d);
          losses.fetch_add(1, std::memory_order_relaxed);
        }
      });
      if (losses.load() == 0) continue;
      Propagate(true);
      any = true;
      ++orders_;
    }
    if (!any) break;
  }
  return Status::OK();
}

}  // namespace canju::tb

namespace canju::tb {

// Distances once the results are known. The propagation after each order
// finds the new results, but a win it shortens was already used by the
// distances of older losses; so, when the rule changed anything, distances
// are computed again from scratch with every result fixed: wins take the
// shortest move into a loss, losses the longest allowed move (in a loss by
// the rule, non-checking moves only), level by level as before.
Status Generator::RecomputeDistances() {
  ForChunks("distances: reset", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const uint16_t c = Load(side, i);
      if (!cell::Resolved(c)) {
        if (cell::Open(c)) Store(side, i, cell::kDraw);
        continue;
      }
      Setup(w, i, side);
      w.pos.GenerateLegal(&w.moves);
      if (w.moves.empty()) {
        Store(side, i, cell::kResolved);
        Mark(side, i, 0);
        continue;
      }
      const bool win = cell::Dtm(c) & 1, rule = c & cell::kRule;
      int count = 0, best = -1, worst = -1;
      for (Move m : w.moves) {
        if (rule && w.pos.GivesCheck(m)) continue;
        if (!LeavesTable(w, m)) {
          ++count;
          continue;
        }
        uint16_t sv = ProbeSub(w, m);
        if (sv < 2) continue;
        ProbeResult r = DecodeValue(sv);
        if (r.wdl == Wdl::kLoss) best = best < 0 ? r.dtm_plies + 1 : std::min(best, r.dtm_plies + 1);
        else worst = std::max(worst, r.dtm_plies + 1);
      }
      uint16_t nc;
      if (win) {
        nc = best >= 0 ? static_cast<uint16_t>(cell::kResolved | best) : cell::kNotLoss;
        if (best >= 0) NoteDtm(best);
      } else if (count == 0) {
        const int d = std::max(worst, 0);
        nc = static_cast<uint16_t>(cell::kResolved | d | (rule ? cell::kRule : 0));
        NoteDtm(d);
      } else {
        nc = static_cast<uint16_t>(std::min(count, static_cast<int>(cell::kCounterMax)) | (rule ? cell::kInS : 0));
      }
      Store(side, i, nc);
      if (cell::Resolved(nc)) Mark(side, i, cell::Dtm(nc));
    }
  });
  distance_pass_ = true;
  Propagate(false);
  distance_pass_ = false;
  std::atomic<uint64_t> left{0};
  ForChunks("", [&](Work&, Color side, uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i)
      if (cell::Open(Load(side, i))) left.fetch_add(1, std::memory_order_relaxed);
  });
  if (left.load())
    return Status::Aborted(name_ + ": " + std::to_string(left.load()) +
                           " results got no distance (internal error in the perpetual-check pass)");
  return Status::OK();
}

}  // namespace canju::tb

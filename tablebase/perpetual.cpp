// Perpetual check (docs/tablebase.md, "Repetition rules"). After ordinary
// propagation the open positions are those in cycles. For a side X, S is the
// largest set of open positions such that
//   X to move in S: every move that does not lose outright is a check into S;
//   Y to move in S: Y is in check and has a non-checking move into S.
// X's positions in S lose (X can only avoid defeat by checking forever), Y's
// positions in S win (they have a move into S); the new results are
// propagated, then the next side and the next order, until no set is found.
//
// The work is incremental: an X position can belong to S only if all its
// moves that do not lose outright are checks (a "candidate"); that changes
// only when one of its successors comes to lose outright for X, which the
// propagation notes by flagging the predecessor's cell. Each order
// therefore examines the flagged positions only. A side's first order seeds
// S with the candidates and their successors; later ones grow S backwards
// from the flagged candidates (Grow: the new S can only hold positions from
// which one of them is reachable). S is pruned by re-examining only the
// predecessors of positions that left it. Results are found without
// distances (the result layout of cells.h); distances.cpp computes them
// afterwards.
#include <algorithm>
#include <atomic>

#include "tablebase/generator.h"

namespace canju::tb {

namespace {

enum class Succ { kLoses, kOpen, kBad };

// A successor's cell in the result layout, for IsCandidate: won for the
// other side (the move loses outright), open or in S, or anything else.
Succ ResultSucc(const WdlCodes& wdl, uint8_t code) {
  if (WdlCodes::Win(code)) return Succ::kLoses;
  if (wdl.Open(code) || WdlCodes::InS(code)) return Succ::kOpen;
  return Succ::kBad;
}

}  // namespace

// X to move on `b`: is every legal move that does not lose outright a check
// into an open position? classify(code) tells a successor cell apart;
// `targets` gets the open successors (if not null).
template <class CellsT, class Classify>
static bool IsCandidate(const Geometry& geo, Board& b, Color x, const CellsT& other, Classify&& classify,
                        std::vector<uint64_t>* targets) {
  const bool in_check = geo.InCheck(b, x);
  bool ok = true;
  geo.ForEachMove(b, x, [&](int slot, int to, int cap, int promo) {
    if (cap < 0 && promo < 0) {
      const uint64_t j = geo.QuietSuccessor(b, slot, to);
      if (j == kNoIndex) return true;
      const uint8_t code = other.Load(j);
      if (code == 0) return true;  // illegal move
      switch (classify(j, code)) {
        case Succ::kLoses:
          return true;
        case Succ::kBad:
          ok = false;
          return false;
        case Succ::kOpen:
          if (!geo.GivesCheck(b, x, slot, to, -1)) {
            ok = false;
            return false;
          }
          if (targets) targets->push_back(j);
          return true;
      }
      return true;
    }
    if (!geo.Legal(b, x, slot, to, cap, in_check)) return true;
    const uint16_t sv = geo.ProbeSub(b, x, slot, to, cap, promo);
    if (sv >= 2 && DecodeValue(sv).wdl == Wdl::kWin) return true;
    ok = false;
    return false;
  });
  return ok;
}

// Before any order, in the distance layout: is there a candidate at all? If
// not, the rule changes nothing and the distances stay as they are.
template <class Cells>
bool Generator<Cells>::AnyCandidate() {
  std::atomic<bool> found{false};
  ForChunks("perpetual check: candidates", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
    const Cells& other = cells_[~side];
    cells_[side].ForEachLegal(begin, end, [&](uint64_t i, uint64_t place) {
      if (found.load(std::memory_order_relaxed)) return;
      const uint8_t c = cells_[side].at(place);
      if (!dtm_.IsCounter(c)) return;  // "cannot lose" cells have a drawing capture
      geo_.Set(w.b, i);
      auto classify = [&](uint64_t j, uint8_t code) {
        if (dtm_.Open(code)) return Succ::kOpen;
        if (dtm_.IsDist(code)) return (DistAt(~side, j, code) & 1) ? Succ::kLoses : Succ::kBad;
        return Succ::kBad;
      };
      if (IsCandidate(geo_, w.b, side, other, classify, nullptr)) found = true;
    });
  });
  return found.load();
}

template <class Cells>
void Generator<Cells>::ToResultLayout() {
  const uint64_t chunk = 1ULL << kChunkBits;
  const int64_t chunks = static_cast<int64_t>((index_.size() + chunk - 1) / chunk);
  for (int s = 0; s < 2; ++s) {
    Cells& cells = cells_[s];
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t ch = 0; ch < chunks; ++ch) {
      const uint64_t begin = static_cast<uint64_t>(ch) * chunk;
      cells.ForEachLegal(begin, std::min(index_.size(), begin + chunk), [&](uint64_t i, uint64_t place) {
        const uint8_t c = cells.at(place);
        uint8_t r;
        if (c == DtmCodes::kDraw) r = WdlCodes::kOpenDraw;
        else if (c == dtm_.big_counter()) r = wdl_.Counter(wdl_.counters() + 1, true);
        else if (dtm_.IsCounter(c)) r = wdl_.Counter(dtm_.CounterOf(c), true);
        else r = (DistAt(Color(s), i, c) & 1) ? WdlCodes::kWinDone : WdlCodes::kLossDone;
        cells.at(place) = r;
      });
    }
    std::fill(level_mask_[s].begin(), level_mask_[s].end(), kFlaggedChunk);
  }
  // Only counters stay in the overflow map; every open cell is flagged, so
  // the first order of each side examines them all.
  overflow_.Filter([&](Color s, uint64_t i) { return wdl_.IsBig(Load(s, i)); });
}

template <class Cells>
void Generator<Cells>::MarkCandidates(Color x, bool with_targets) {
  ForChunks("perpetual check: candidates", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
    if (side != x || !TakeBits(x, begin, kFlaggedChunk)) return;
    std::vector<uint64_t> targets;
    auto flagged = [](uint64_t word) { return cellscan::HasOddAtLeast(word, WdlCodes::kCounter0); };
    Cells& mine = cells_[x];
    Cells& theirs = cells_[~x];
    mine.Scan(begin, end, flagged, [&](uint64_t i, uint64_t place) {
      uint8_t c = mine.LoadAt(place);
      if (!wdl_.Flagged(c)) return;
      const uint8_t clean = WdlCodes::Unflagged(c);
      if (!mine.CasAt(place, c, clean)) return;  // nothing else writes X's open cells now
      geo_.Set(w.b, i);
      targets.clear();
      auto classify = [&](uint64_t, uint8_t code) { return ResultSucc(wdl_, code); };
      if (!IsCandidate(geo_, w.b, x, theirs, classify, with_targets ? &targets : nullptr)) return;
      if (!with_targets) {  // Grow starts from here
        mine.StoreAt(place, WdlCodes::kInSDirty);
        MarkBits(x, i, kInSChunk | kDirtyChunk);
        return;
      }
      mine.StoreAt(place, WdlCodes::kInS);
      MarkBits(x, i, kInSChunk);
      for (uint64_t j : targets) {
        const uint64_t pj = theirs.Rank(j);  // an open target: legal
        uint8_t t = theirs.LoadAt(pj);
        while (wdl_.Open(t)) {
          if (theirs.CasAt(pj, t, WdlCodes::kInS)) {
            MarkBits(~x, j, kInSChunk);
            break;
          }
        }
      }
    });
  });
}

// Later orders of a side: S can only hold positions from which a flagged
// candidate (one with a move that has come to lose outright since the
// side's last order) is reachable through S's own moves (docs/tablebase.md,
// "Perpetual-check orders"), so the set to prune is grown backwards from
// those candidates instead of being seeded with every candidate again:
// Y's predecessors by a non-checking move, in check and open, and X's
// predecessors by a check, open candidates. Members found in a round are
// "dirty" (to expand) until the next round expands them.
template <class Cells>
void Generator<Cells>::Grow(Color x) {
  for (int round = 1;; ++round) {
    std::atomic<uint64_t> added{0};
    ForChunks("perpetual check: grow " + std::to_string(round), [&](Work& w, Color side, uint64_t begin,
                                                                    uint64_t end) {
      if (!TakeBits(side, begin, kDirtyChunk)) return;
      auto dirty = [](uint64_t word) { return cellscan::HasByte(word, WdlCodes::kInSDirty); };
      Cells& mine = cells_[side];
      Cells& theirs = cells_[~side];
      const Color ps = ~side;
      mine.Scan(begin, end, dirty, [&](uint64_t i, uint64_t place) {
        if (mine.LoadAt(place) != WdlCodes::kInSDirty) return;
        mine.StoreAt(place, WdlCodes::kInS);  // only this thread expands it
        geo_.Set(w.b, i);
        // Y's moves into an X position where X is in check are checks: they
        // do not count for Y.
        if (side == x && geo_.InCheck(w.b, x)) return;
        ForEachPredecessorCell(w, ps, [&](uint64_t j, uint64_t pj) {
          uint8_t pc = theirs.LoadAt(pj);
          if (!wdl_.Open(pc)) return;
          if (ps == x) {
            // An X position's counter says whether it is a candidate: none
            // is flagged now (MarkCandidates has just examined every flagged
            // one, and nothing flags during growing), so a candidate has the
            // candidate state and anything else (clean, or open with a
            // drawing capture) is none.
            if (!wdl_.KnownCandidate(pc)) return;
          } else {
            geo_.Set(w.aux, j);
            if (!geo_.InCheck(w.aux, ps)) return;
          }
          while (wdl_.Open(pc)) {
            if (theirs.CasAt(pj, pc, WdlCodes::kInSDirty)) {
              MarkBits(ps, j, kInSChunk | kDirtyChunk);
              added.fetch_add(1, std::memory_order_relaxed);
              break;
            }
          }
        });
      });
    });
    if (added.load() == 0) break;
  }
}

// A position leaves S: its counter comes back (recounted: nothing is
// resolved while S is pruned, so the count equals the one it had).
template <class Cells>
uint8_t Generator<Cells>::Recount(Board& b, Color s, uint64_t idx, bool candidate) {
  const bool in_check = geo_.InCheck(b, s);
  const Cells& other = cells_[~s];
  int count = 0;
  bool draw = false;
  geo_.ForEachMove(b, s, [&](int slot, int to, int cap, int promo) {
    if (cap < 0 && promo < 0) {
      const uint64_t j = geo_.QuietSuccessor(b, slot, to);
      if (j == kNoIndex) return true;
      const uint8_t code = other.Load(j);
      if (code != WdlCodes::kIllegal && !WdlCodes::Win(code)) ++count;
      return true;
    }
    if (geo_.Legal(b, s, slot, to, cap, in_check) && geo_.ProbeSub(b, s, slot, to, cap, promo) == kValueDraw)
      draw = true;
    return true;
  });
  if (draw) return WdlCodes::kOpenDraw;
  if (count == 0) return WdlCodes::kLossPending;  // cannot happen: it would have been lost already
  const uint8_t code = candidate ? wdl_.CandidateCounter(count) : wdl_.Counter(count, true);
  if (wdl_.IsBig(code)) overflow_.Put(s, idx, static_cast<uint32_t>(count));
  return code;
}

template <class Cells>
void Generator<Cells>::Prune(Color x) {
  for (int round = 1;; ++round) {
    std::atomic<uint64_t> removed{0};
    ForChunks("perpetual check: set round " + std::to_string(round),
              [&](Work& w, Color side, uint64_t begin, uint64_t end) {
                // Round 1 examines all of S, later rounds its dirty members.
                if (round == 1 ? (TakeBits(side, begin, kDirtyChunk), !HasBits(side, begin, kInSChunk))
                               : !TakeBits(side, begin, kDirtyChunk))
                  return;
                auto wanted = [&](uint64_t word) {
                  return round == 1 ? cellscan::HasByte(word | cellscan::kLow, WdlCodes::kInSDirty)  // 2 or 3
                                    : cellscan::HasByte(word, WdlCodes::kInSDirty);
                };
                Cells& mine = cells_[side];
                Cells& theirs = cells_[~side];
                mine.Scan(begin, end, wanted, [&](uint64_t i, uint64_t place) {
                  uint8_t c = mine.LoadAt(place);
                  if (!WdlCodes::InS(c)) return;
                  if (c == WdlCodes::kInSDirty) mine.CasAt(place, c, WdlCodes::kInS);
                  else if (round > 1) return;
                  geo_.Set(w.b, i);
                  Board& b = w.b;
                  bool stays;
                  if (side == x) {
                    // Every move that does not lose outright goes into S.
                    const bool in_check = geo_.InCheck(b, x);
                    stays = geo_.ForEachMove(b, x, [&](int slot, int to, int cap, int promo) {
                      if (cap < 0 && promo < 0) {
                        const uint64_t j = geo_.QuietSuccessor(b, slot, to);
                        if (j == kNoIndex) return true;
                        const uint8_t code = theirs.Load(j);
                        return code == WdlCodes::kIllegal || WdlCodes::Win(code) || WdlCodes::InS(code);
                      }
                      if (!geo_.Legal(b, x, slot, to, cap, in_check)) return true;
                      const uint16_t sv = geo_.ProbeSub(b, x, slot, to, cap, promo);
                      return sv >= 2 && DecodeValue(sv).wdl == Wdl::kWin;
                    });
                  } else {
                    // Some non-checking move goes into S.
                    stays = !geo_.ForEachMove(b, side, [&](int slot, int to, int cap, int promo) {
                      if (cap >= 0 || promo >= 0) return true;
                      const uint64_t j = geo_.QuietSuccessor(b, slot, to);
                      if (j == kNoIndex) return true;
                      if (!WdlCodes::InS(theirs.Load(j))) return true;
                      return geo_.GivesCheck(b, side, slot, to, -1);
                    });
                  }
                  if (stays) return;
                  // X's position was a candidate and stays one (growing
                  // finds it again through its state; re-seeding examines
                  // every candidate again, so it is flagged); Y's position
                  // may have been flagged before it joined S.
                  const uint8_t back = Recount(b, side, i, side == x && opts_.grow_sets);
                  c = mine.LoadAt(place);
                  while (!mine.CasAt(place, c, back)) {
                  }
                  if (back == WdlCodes::kLossPending) MarkBits(side, i, kPendingChunk);
                  else if (wdl_.Flagged(back)) MarkBits(side, i, kFlaggedChunk);
                  removed.fetch_add(1, std::memory_order_relaxed);
                  // The predecessors in S look at this position again. Y's
                  // moves into an X position where X is in check are checks:
                  // they do not count for Y.
                  if (side == x && geo_.InCheck(b, x)) return;
                  const Color ps = ~side;
                  ForEachPredecessorCell(w, ps, [&](uint64_t j, uint64_t pj) {
                    uint8_t pc = theirs.LoadAt(pj);
                    while (pc == WdlCodes::kInS) {
                      if (theirs.CasAt(pj, pc, WdlCodes::kInSDirty)) {
                        MarkBits(ps, j, kDirtyChunk);
                        break;
                      }
                    }
                  });
                });
              });
    if (removed.load() == 0) break;
  }
}

template <class Cells>
uint64_t Generator<Cells>::ResolveSet(Color x) {
  std::atomic<uint64_t> losses{0};
  ForChunks("perpetual check: resolve", [&](Work&, Color side, uint64_t begin, uint64_t end) {
    if (!TakeBits(side, begin, kInSChunk | kDirtyChunk)) return;
    auto in_s = [](uint64_t word) { return cellscan::HasByte(word | cellscan::kLow, WdlCodes::kInSDirty); };
    Cells& cells = cells_[side];
    cells.Scan(begin, end, in_s, [&](uint64_t i, uint64_t place) {
      if (!WdlCodes::InS(cells.LoadAt(place))) return;
      if (side == x) losses.fetch_add(1, std::memory_order_relaxed);
      cells.StoreAt(place, side == x ? WdlCodes::kRulePending : WdlCodes::kWinPending);
      MarkBits(side, i, kPendingChunk);
    });
  });
  return losses.load();
}

// Results without distances, in any order: sweeps over the chunks holding
// pending results until none is left.
template <class Cells>
void Generator<Cells>::PropagateResults() {
  for (int sweep = 1;; ++sweep) {
    std::atomic<uint64_t> processed{0};
    ForChunks("", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
      if (!TakeBits(side, begin, kPendingChunk)) return;
      auto pending = [](uint64_t word) {
        return cellscan::HasByte(word, WdlCodes::kWinPending) | cellscan::HasByte(word, WdlCodes::kLossPending) |
               cellscan::HasByte(word, WdlCodes::kRulePending);
      };
      Cells& mine = cells_[side];
      Cells& theirs = cells_[~side];
      mine.Scan(begin, end, pending, [&](uint64_t i, uint64_t place) {
        const uint8_t c = mine.LoadAt(place);
        if (!WdlCodes::Pending(c)) return;
        mine.StoreAt(place, static_cast<uint8_t>(c + 1));  // pending -> done
        processed.fetch_add(1, std::memory_order_relaxed);
        geo_.Set(w.b, i);
        const Color x = ~side;
        if (c != WdlCodes::kWinPending) {
          ForEachPredecessorCell(w, x, [&](uint64_t j, uint64_t pj) {
            uint8_t pc = theirs.LoadAt(pj);
            while (wdl_.Open(pc)) {
              if (theirs.CasAt(pj, pc, WdlCodes::kWinPending)) {
                if (wdl_.IsBig(pc)) overflow_.Erase(x, j);
                MarkBits(x, j, kPendingChunk);
                break;
              }
            }
          });
          return;
        }
        // A win for `side`: its predecessors have one move fewer that does
        // not lose, so they are flagged: their candidacy as perpetual
        // checkers is to be examined again and, if that move was a check,
        // their side's next set S may now hold them (Grow starts there).
        // Except a clean one (not a candidate) losing a check: it keeps the
        // non-checking move that made it no candidate.
        int8_t check = -1;  // MovedIntoCheck's answer, not asked yet
        ForEachPredecessorCell(w, x, [&](uint64_t j, uint64_t pj) {
          uint8_t pc = theirs.LoadAt(pj);
          for (;;) {
            if (!wdl_.IsCounter(pc)) return;
            const bool flag = !wdl_.Clean(pc) || !MovedIntoCheck(w.b, side, check);
            if (wdl_.IsBig(pc)) {
              const uint8_t code = flag ? wdl_.Counter(wdl_.counters() + 1, true) : pc;
              if (code != pc && !theirs.CasAt(pj, pc, code)) continue;
              if (flag) MarkBits(x, j, kFlaggedChunk);
              if (overflow_.Decrement(x, j) != 0) return;
              overflow_.Erase(x, j);
              theirs.StoreAt(pj, WdlCodes::kLossPending);
              MarkBits(x, j, kPendingChunk);
              return;
            }
            const int n = wdl_.CounterOf(pc);
            if (n == 1) {
              if (theirs.CasAt(pj, pc, WdlCodes::kLossPending)) {
                MarkBits(x, j, kPendingChunk);
                return;
              }
              continue;
            }
            if (theirs.CasAt(pj, pc, wdl_.Counter(n - 1, flag))) {
              if (flag) MarkBits(x, j, kFlaggedChunk);
              return;
            }
          }
        });
      });
    });
    if (progress_)
      progress_(Progress{name_, "perpetual check: propagate", static_cast<uint64_t>(sweep), 0});
    if (processed.load() == 0) break;
  }
}

template <class Cells>
Status Generator<Cells>::Perpetual() {
  if (!AnyCandidate()) {
    EndPhase("perpetual check: none");
    return Status::OK();
  }
  ToResultLayout();
  for (;;) {
    bool any = false;
    for (int xi = 0; xi < 2; ++xi) {
      const Color x = Color(xi);
      // A side's first order seeds S with every candidate and its targets,
      // later ones grow S from the candidates flagged since.
      const bool first = !seeded_[xi] || !opts_.grow_sets;
      seeded_[xi] = true;
      MarkCandidates(x, first);
      if (!first) Grow(x);
      Prune(x);
      if (ResolveSet(x) == 0) continue;
      PropagateResults();
      any = true;
      ++orders_;
    }
    if (!any) break;
  }
  EndPhase("perpetual check: orders");
  Status st = RecomputeDistances();
  EndPhase("perpetual check: distances");
  return st;
}

template class Generator<DenseCells>;
template class Generator<CompactCells>;

}  // namespace canju::tb

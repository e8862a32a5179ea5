// Un-move generation (internal to tablebase/): the predecessors of a stored
// board, used by the propagation (generate.cpp) and by the perpetual-check
// pruning (perpetual.cpp).
#pragma once

#include "tablebase/generator.h"

namespace canju::tb {

template <class F>
void Generator::Unmoves(Work& w, bool royal_only, F&& f) const {
  const Color s = w.pos.side_to_move(), x = ~s;
  const int K = v_.kind_count();
  const int ksq = w.pos.royal_square(s);
  // A predecessor is legal if s is not in check there; un-moves that touch
  // no square relevant to s's royal leave that as it is now.
  const bool in_check = w.pos.Attacked(ksq, x);
  for (int i = 0; i < index_.slots(); ++i) {
    if (index_.slot_color(i) != x || (royal_only && i >= 2)) continue;
    const int to = w.sq[i], kind = index_.slot_kind(i);
    const Piece p = index_.slot_piece(i);
    const int g = index_.slot_group(i);
    auto try_origin = [&](int from) {
      if (i < 2) {
        if (!v_.legal_squares(x, kind)[from]) return;
        if (!index_.IsRepresentative(i == 0 ? from : w.sq[0], i == 1 ? from : w.sq[1])) return;
      } else if (index_.groups()[g].local[from] < 0) {
        return;
      }
      bool legal;
      if (!v_.relevance(s, ksq, from) && !v_.relevance(s, ksq, to)) {
        legal = !in_check;
      } else {
        w.pos.Remove(to);
        w.pos.Put(p, from);
        legal = !w.pos.Attacked(ksq, x);
        w.pos.Remove(from);
        w.pos.Put(p, to);
      }
      if (legal) {
        w.sq[i] = static_cast<uint8_t>(from);
        uint64_t j = index_.EncodeCanonical(w.sq);
        w.sq[i] = static_cast<uint8_t>(to);
        if (j != kNoIndex) f(j);
      }
    };
    auto [lb, le] = v_.quiet_leaps_to(x, kind, to);
    for (const ReverseLeap* r = lb; r != le; ++r)
      if (w.pos.empty(r->origin) && w.pos.empty(r->leg1) && w.pos.empty(r->leg2)) try_origin(r->origin);
    for (int d : ride_dirs_[x * K + kind]) {
      auto [sqs, len] = v_.line(to, opposite_[d]);
      for (int k = 0; k < len && w.pos.empty(sqs[k]); ++k)
        if (v_.ride_move_len(x, kind, sqs[k], d) > k) try_origin(sqs[k]);
    }
  }
}

// Every canonical predecessor of the stored board in `w`: un-moves from each
// member of its symmetry class (only royal un-moves can make a canonical
// board from the other members), so that each move of a predecessor into the
// class is seen exactly once.
template <class F>
void Generator::ForEachPredecessor(Work& w, F&& f) const {
  Unmoves(w, false, f);
  const int kp = static_cast<int>(index_.EncodeCanonical(w.sq) / index_.kp_stride());
  const auto& orbit = index_.Orbit(kp);
  if (orbit.empty()) return;
  uint8_t base[kMaxTablePieces], o[kMaxTablePieces];
  std::copy(w.sq, w.sq + index_.slots(), base);
  const Color side = w.pos.side_to_move();
  for (uint8_t t : orbit) {
    const auto& map = index_.symmetry().map[t];
    for (int i = 0; i < index_.slots(); ++i) o[i] = map[base[i]];
    SetupSquares(w, o, side);
    Unmoves(w, true, f);
  }
  SetupSquares(w, base, side);
}

}  // namespace canju::tb

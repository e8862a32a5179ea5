// Move generation for every variant: walks the precomputed tables of
// variant.cpp. No virtual call and no per-move allocation.
#include <algorithm>
#include <cstdlib>

#include "variants/position.h"

namespace canju {

__attribute__((always_inline)) inline int Position::Blockers(int sq, int d, int len, int* second) const {
  const Variant& v = *v_;
  const int family = v.direction_family(d);
  if (family == Variant::kNoLine) {
    auto [sqs, n] = v.line(sq, d);
    if (n > len) n = len;
    int i = 0;
    while (i < n && !board_[sqs[i]]) ++i;
    int j = i + 1;
    while (j < n && !board_[sqs[j]]) ++j;
    *second = j < n ? j : len;
    return i < n ? i : len;
  }
  uint32_t o = occ_[LineIndex(family, sq)];
  const int b = LineBit(family, sq);
  if (v.direction_positive(d)) {
    o &= ~((2u << b) - 1);
    if (!o) return *second = len, len;
    const int first = __builtin_ctz(o) - b - 1;
    o &= o - 1;
    *second = o ? __builtin_ctz(o) - b - 1 : len;
    return first;
  }
  o &= (1u << b) - 1;
  if (!o) return *second = len, len;
  const int high = 31 - __builtin_clz(o);
  o &= ~(1u << high);
  *second = o ? b - (31 - __builtin_clz(o)) - 1 : len;
  return b - high - 1;
}

// Attacks on t by `by` along the walks selected in `mask` (bit i =
// attack_walks(by)[i]) and, with Variant::kLeapRelevant, by leaps.
bool Position::AttackedMasked(int t, Color by, uint32_t mask) const {
  const Variant& v = *v_;
  const Piece* B = board_;
  if (mask & Variant::kLeapRelevant) {
    auto [lb, le] = v.capture_leaps_to(by, t);
    for (const ReverseLeap* r = lb; r != le; ++r)
      if (B[r->origin] == r->piece && !(B[r->leg1] | B[r->leg2])) return true;
  }
  const bool hop = v.has_hop_attackers(by), gap = v.has_gap_attackers(by);
  const auto& walks = v.attack_walks(by);
  for (uint32_t m = mask & ((1u << walks.size()) - 1); m; m &= m - 1) {
    const Variant::AttackWalk& aw = walks[__builtin_ctz(m)];
    const int d = aw.dir;
    auto [sqs, len] = v.line(t, aw.walk);
    int j;
    const int i = Blockers(t, aw.walk, len, &j);
    if (i < len) {
      const Piece p = B[sqs[i]];
      if ((aw.ride_always >> p) & 1) return true;
      if (((aw.ride_maybe >> p) & 1) && v.ride_capture_len(by, KindOf(p), sqs[i], d) > i) return true;
      if (hop && j < len) {
        const Piece q = B[sqs[j]];
        if ((aw.hop_always >> q) & 1) return true;
        if (((aw.hop_maybe >> q) & 1) && v.hop_capture_len(by, KindOf(q), sqs[j], d) > j) return true;
      }
    }
    if (gap) {
      // Exactly one empty square strictly between the attacker and t.
      int empties = 0;
      for (int j = 0; j < len; ++j) {
        Piece q = B[sqs[j]];
        if (!q) {
          if (++empties == 2) break;
        } else if (empties == 1 && ColorOf(q) == by && v.gap_capture_len(by, KindOf(q), sqs[j], d) > j) {
          return true;
        }
      }
    }
  }
  return false;
}

uint32_t Position::AttackingLines(int t, Color by) const {
  uint32_t lines = AttackedMasked(t, by, Variant::kLeapRelevant) ? Variant::kLeapRelevant : 0;
  const uint32_t walks = static_cast<uint32_t>(v_->attack_walks(by).size());
  for (uint32_t w = 0; w < walks; ++w)
    if (AttackedMasked(t, by, 1u << w)) lines |= 1u << w;
  return lines;
}

bool Position::Attacked(int t, Color by) const {
  return AttackedMasked(t, by, kAllAttacks);
}

bool Position::InCheck() const {
  int k = royal_[side_];
  return k >= 0 && Attacked(k, ~side_);
}

bool Position::CanCastle(int side) const {
  const Variant& v = *v_;
  const Color us = side_;
  if (!(castling_ & (1 << (2 * us + side)))) return false;
  int king = v.castle_royal_square(us), rook = v.castle_rook_square(us, side);
  if (royal_[us] != king || rook < 0) return false;
  int rank = RankOf(king);
  int king_to = MakeSquare(side == 0 ? v.files() - 2 : 2, rank);
  int rook_to = king_to + (side == 0 ? -1 : 1);
  // Every square between king and rook, and both destinations, empty (apart
  // from the king and rook themselves).
  int lo = std::min({FileOf(king), FileOf(rook), FileOf(king_to), FileOf(rook_to)});
  int hi = std::max({FileOf(king), FileOf(rook), FileOf(king_to), FileOf(rook_to)});
  for (int f = lo; f <= hi; ++f) {
    int sq = MakeSquare(f, rank);
    if (sq != king && sq != rook && board_[sq]) return false;
  }
  // The king may not be in check, pass through or land on an attacked square.
  int step = king_to > king ? 1 : -1;
  for (int sq = king;; sq += step) {
    if (Attacked(sq, ~us)) return false;
    if (sq == king_to) break;
  }
  return true;
}

// kCount: count the moves instead of listing them (list unused).
template <bool kCount>
int Position::GenerateImpl(MoveList* list, int only_from) const {
  const Variant& v = *v_;
  const Color us = side_;
  const Piece* B = board_;
  const LeapEntry* leaps = v.leaps();
  const RayEntry* rays = v.rays();
  const uint8_t* rsq = v.ray_squares();
  const auto& promos = v.rules().promotion_kinds;
  int count = 0;

  auto push = [&](Move m) {
    if constexpr (kCount) ++count;
    else list->push(m);
  };
  auto add = [&](int from, int to, uint8_t flags) {
    if (flags & kPromotes) {
      if (!v.InRegion(v.rules().promotion_region, us, to)) {
        push(Move(from, to));
        return;
      }
      for (int k : promos) push(Move(from, to, MoveType::kPromotion, k));
    } else {
      push(Move(from, to));
    }
  };

  const Square one = static_cast<Square>(only_from);
  const Square* squares = list_[us];
  int n_squares = list_size_[us];
  if (only_from >= 0) squares = &one, n_squares = 1;
  for (int i = 0; i < n_squares; ++i) {
    const int from = squares[i];
    const Slot& s = v.slot(us, KindOf(B[from]), from);
    for (uint32_t j = s.leap_begin; j < s.leap_end; ++j) {
      const LeapEntry& e = leaps[j];
      if (B[e.leg1] | B[e.leg2]) continue;
      const Piece t = B[e.to];
      if (!t) {
        if (e.flags & kCanMove) add(from, e.to, e.flags);
      } else if (ColorOf(t) != us && (e.flags & kCanCapture)) {
        add(from, e.to, e.flags);
      }
    }
    for (uint32_t j = s.ray_begin; j < s.ray_end; ++j) {
      const RayEntry& r = rays[j];
      const uint8_t* sq = rsq + r.first;
      const int len = r.len;
      switch (static_cast<AtomMode>(r.mode)) {
        case AtomMode::kRide: {
          int second;
          const int k = std::min(Blockers(from, r.dir, len, &second), len);
          if (kCount && (r.flags & (kCanMove | kPromotes)) == kCanMove) count += k;
          else if (r.flags & kCanMove)
            for (int q = 0; q < k; ++q) add(from, sq[q], r.flags);
          if (k < len && (r.flags & kCanCapture) && ColorOf(B[sq[k]]) != us) add(from, sq[k], r.flags);
          break;
        }
        case AtomMode::kRideHop: {
          int second;
          const int k = std::min(Blockers(from, r.dir, len, &second), len);
          if (kCount && !(r.flags & kPromotes)) count += k;
          else
            for (int q = 0; q < k; ++q) add(from, sq[q], r.flags);
          if (second < len && ColorOf(B[sq[second]]) != us) add(from, sq[second], r.flags);
          break;
        }
        case AtomMode::kHop: {
          int k = 0;
          while (k < len && !B[sq[k]]) ++k;
          for (++k; k < len; ++k) {
            const Piece t = B[sq[k]];
            if (!t) {
              if (r.flags & kCanMove) add(from, sq[k], r.flags);
            } else {
              if (ColorOf(t) != us && (r.flags & kCanCapture)) add(from, sq[k], r.flags);
              break;
            }
          }
          break;
        }
        case AtomMode::kGap: {
          int empties = 0;
          for (int k = 0; k < len; ++k) {
            const Piece t = B[sq[k]];
            if (!t) {
              if (++empties == 2) break;
            } else if (empties == 1 && ColorOf(t) != us) {
              add(from, sq[k], r.flags);
            }
          }
          break;
        }
        default:
          break;
      }
    }
  }

  if (only_from >= 0) return count;
  if (ep_ >= 0) {
    auto [b, e] = v.capture_leaps_to(us, ep_);
    for (const ReverseLeap* r = b; r != e; ++r)
      if (B[r->origin] == r->piece && v.kind(KindOf(r->piece)).pawn && !B[ep_])
        push(Move(r->origin, ep_, MoveType::kEnPassant));
  }
  if (castling_ & (3 << (2 * us))) {
    for (int side = 0; side < 2; ++side)
      if (CanCastle(side)) {
        int king = royal_[us];
        int king_to = MakeSquare(side == 0 ? v.files() - 2 : 2, RankOf(king));
        push(Move(king, king_to, MoveType::kCastle));
      }
  }
  return count;
}

void Position::Generate(MoveList* list) const { GenerateImpl<false>(list); }

int Position::CountPseudoLegal() const { return GenerateImpl<true>(nullptr); }

void Position::GeneratePseudoLegal(MoveList* list) const {
  list->clear();
  Generate(list);
}

bool Position::LegalSlow(Move m, uint32_t mask) const {
  // Apply the move to the board cells (and occupancy) only, test, restore.
  Position& self = const_cast<Position&>(*this);
  auto set = [&self](int sq, Piece p) {
    if (!self.board_[sq] != !p) self.ToggleOccupancy(sq);
    self.board_[sq] = p;
  };
  const Color us = side_;
  const int from = m.from(), to = m.to();
  const Piece p = board_[from];
  if (m.type() <= MoveType::kPromotion) {
    // The common case, without the general bookkeeping below.
    const Piece cap = board_[to];
    self.board_[from] = kNoPiece;
    self.board_[to] = p;
    self.ToggleOccupancy(from);
    if (!cap) self.ToggleOccupancy(to);
    const int king = from == royal_[us] ? to : royal_[us];
    const bool ok = !AttackedMasked(king, ~us, mask);
    self.board_[from] = p;
    self.board_[to] = cap;
    self.ToggleOccupancy(from);
    if (!cap) self.ToggleOccupancy(to);
    return ok;
  }
  int cap_sq = to;
  if (m.type() == MoveType::kEnPassant) cap_sq = MakeSquare(FileOf(to), RankOf(from));
  const Piece cap = board_[cap_sq];
  int rook_from = -1, rook_to = -1;
  Piece rook = kNoPiece;
  if (m.type() == MoveType::kCastle) {
    CastleRookSquares(m, us, &rook_from, &rook_to);
    rook = board_[rook_from];
    set(rook_from, kNoPiece);
  }
  set(cap_sq, kNoPiece);
  set(from, kNoPiece);
  set(to, p);
  if (rook) set(rook_to, rook);
  const int king = from == royal_[us] ? to : royal_[us];
  const bool ok = !AttackedMasked(king, ~us, mask);
  if (rook) set(rook_to, kNoPiece), set(rook_from, rook);
  set(to, kNoPiece);
  set(cap_sq, cap);
  set(from, p);
  return ok;
}

bool Position::IsLegal(Move m) const {
  const int king = royal_[side_];
  if (king < 0 || v_->rules().win == WinCondition::kCaptureRoyal) return true;
  return LegalSlow(m, kAllAttacks);
}

bool Position::IsPseudoLegal(Move m) const {
  MoveList list;
  if (m.type() <= MoveType::kPromotion) {
    const Piece p = board_[m.from()];
    if (!p || ColorOf(p) != side_) return false;
    GenerateImpl<false>(&list, m.from());
  } else {
    Generate(&list);
  }
  return list.contains(m);
}

void Position::GenerateLegal(MoveList* list) const {
  list->clear();
  Generate(list);
  const Color us = side_;
  const int king = royal_[us];
  if (king < 0 || v_->rules().win == WinCondition::kCaptureRoyal) return;
  const Variant& v = *v_;
  // In check: the lines and leaps that attack the royal. A move of another
  // piece that touches none of them (neither its origin nor its target lies
  // on one) leaves the check standing.
  const uint32_t attacking = Attacked(king, ~us) ? AttackingLines(king, ~us) : 0;
  int n = 0;
  for (int i = 0, size = list->size(); i < size; ++i) {
    const Move m = (*list)[i];
    bool legal;
    if (m.from() == king || m.type() > MoveType::kPromotion) {
      legal = LegalSlow(m, kAllAttacks);
    } else {
      // Only the lines and leaps through the two changed squares can expose
      // the royal, or (in check) stop attacking it.
      const uint32_t touched = v.relevance(us, king, m.from()) | v.relevance(us, king, m.to());
      if (attacking) legal = (touched & attacking) && LegalSlow(m, touched | attacking);
      else legal = !touched || LegalSlow(m, touched);
    }
    if (legal) (*list)[n++] = m;
  }
  list->resize(n);
}

bool Position::GivesCheck(Move m) const {
  Position& self = const_cast<Position&>(*this);
  StateInfo st;
  self.DoMove(m, &st);
  const bool check = self.InCheck();
  self.UndoMove(m, st);
  return check;
}

void Position::GenerateQuietUnmoves(MoveList* list) const {
  list->clear();
  const Variant& v = *v_;
  const Color mover = ~side_;
  const int nd = v.direction_count();
  for (int i = 0; i < list_size_[mover]; ++i) {
    const int to = list_[mover][i];
    const int kind = KindOf(board_[to]);
    auto [b, e] = v.quiet_leaps_to(mover, kind, to);
    for (const ReverseLeap* r = b; r != e; ++r)
      if (!board_[r->origin] && !(board_[r->leg1] | board_[r->leg2])) list->push(Move(r->origin, to));
    for (int d = 0; d < nd; ++d) {
      // Walk backwards from `to`: origins lie in the opposite direction.
      const Step s = v.directions()[d];
      int back = -1;
      for (int k = 0; k < nd; ++k)
        if (v.directions()[k].dx == -s.dx && v.directions()[k].dy == -s.dy) back = k;
      auto [sqs, len] = v.line(to, back);
      for (int k = 0; k < len && !board_[sqs[k]]; ++k)
        if (v.ride_move_len(mover, kind, sqs[k], d) > k) list->push(Move(sqs[k], to));
    }
  }
}

}  // namespace canju

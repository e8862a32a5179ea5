// Table-specialised boards for the generator's hot loops (internal to
// tablebase/). A board is the squares of the table's few pieces plus a
// mailbox; moves and un-moves walk the variant's tables and change the index
// by arithmetic (each piece's weight in the index), and legality comes from
// attack records precomputed for the table's pieces against every square a
// royal piece can stand on: no Position, no generic line walks. Everything
// is derived from the variant's data and the table's material, nothing is
// written for one game by hand.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tablebase/index.h"

namespace canju::tb {

// A finished table held in memory while a larger one is generated (a
// sub-table): its stored values (format.h) at the file's width.
struct LoadedTable {
  Indexer index;
  // Per side to move, `width` bytes per entry (little-endian); a side that
  // no capture or promotion of the table being built reaches stays empty.
  std::vector<uint8_t> raw[2];
  int width = 1;
  uint16_t Value(int side, uint64_t i) const {
    return width == 1 ? raw[side][i]
                      : static_cast<uint16_t>(raw[side][2 * i] | (raw[side][2 * i + 1] << 8));
  }
  uint64_t bytes() const { return raw[0].size() + raw[1].size(); }
};

// The pieces of one entry. Slot 0 is the first player's royal, slot 1 the
// second's, then the groups (Indexer order).
struct Board {
  uint8_t sq[kMaxTablePieces] = {};
  uint8_t at[kSquareSlots + 1] = {};  // slot + 1 on each square, 0 if empty; at[kNullCell] stays 0
  uint64_t idx = kNoIndex;            // the entry (canonical boards only)
  uint64_t rest = 0;                  // the groups' part of the index
  uint32_t inner = 0;                 // Set(): the last group's number (its stride is 1)
  bool valid = false;                 // no two pieces on one square
};

// A pseudo-legal move as ListMoves gives it: the moving slot, its target,
// the captured slot or -1, the promotion kind or -1.
struct TableMove {
  uint8_t slot, to;
  int8_t cap, promo;
};
using TableMoves = std::vector<TableMove>;

class Geometry {
 public:
  Status Init(const Indexer& ix);

  const Indexer& index() const { return *ix_; }
  int slots() const { return n_; }
  Color color(int slot) const { return color_[slot]; }

  // Decodes entry `idx` onto `b` (only the pieces that moved are updated).
  // Going forward within one run of the last group (a single piece, stride
  // 1) moves that piece without decoding: the scans' common case.
  void Set(Board& b, uint64_t idx) const;
  // Set's general case: decodes, or moves the last group's piece onto any
  // square (two pieces may then share one).
  void SetDecoded(Board& b, uint64_t idx) const;
  // Puts the pieces on `sq` (any orientation); b.idx becomes kNoIndex, b.rest
  // is not set.
  void SetSquares(Board& b, const uint8_t* sq) const;

  // True if a royal of the other colour on `target` is attacked by `by`'s
  // pieces (the engine's Position::Attacked for this material); `skip` is a
  // slot that has just been captured.
  bool Attacked(const Board& b, int target, Color by, int skip = -1) const;
  bool InCheck(const Board& b, Color s) const { return Attacked(b, b.sq[s], ~s); }
  // A pseudo-legal move of `s` (slot to `to`, capturing slot `cap` or -1):
  // does it leave s's royal safe? `in_check`: s is in check before it.
  bool Legal(Board& b, Color s, int slot, int to, int cap, bool in_check) const;
  // Legal's quick answer without a board test: a move of a piece other than
  // the royal, made while not in check, whose two squares no line or leap
  // to the royal passes through.
  bool SurelyLegal(const Board& b, Color s, int slot, int to, bool in_check) const {
    return !in_check && slot != s &&
           !(v_->relevance(s, b.sq[s], b.sq[slot]) | v_->relevance(s, b.sq[s], to));
  }
  // Does the move give check? (Promotions ask the engine: rare.)
  bool GivesCheck(Board& b, Color s, int slot, int to, int cap, int promo = -1) const;

  // Pseudo-legal moves of `s` in the engine's order, without castling and en
  // passant: f(slot, to, captured slot or -1, promotion kind or -1) returns
  // false to stop; the result is false if it was stopped.
  template <class F>
  bool ForEachMove(const Board& b, Color s, F&& f) const {
    return GenerateMoves<true>(b, s, f);
  }
  // The same for the moves that leave the table only: captures and
  // promotions.
  template <class F>
  bool ForEachCapture(const Board& b, Color s, F&& f) const {
    return GenerateMoves<false>(b, s, f);
  }
  // The moves of ForEachMove (captures_only: of ForEachCapture) listed in
  // `out`. Passes that look at every move loop over the list: a plain loop
  // compiles to much less than a callback inlined at each of the move
  // generator's emit points (a tenth of the verification's instructions).
  void ListMoves(const Board& b, Color s, bool captures_only, TableMoves& out) const;
  // Index of the board after a quiet, non-promoting move (canonical
  // orientation); kNoIndex if the royals could never stand so.
  __attribute__((always_inline)) uint64_t QuietSuccessor(const Board& b, int slot, int to) const;

  // Every stored predecessor of the canonical board `b` (side to move ~x):
  // un-moves of x from each member of its symmetry class (only royal
  // un-moves lead to a stored orientation from the other members), so each
  // move into the class is seen once. f(index) for each; the predecessor's
  // legality is its cell's business (illegal entries are marked as such).
  template <class F>
  void ForEachPredecessor(const Board& b, Board& scratch, Color x, F&& f) const;

  // Captures and promotions: the stored value (format.h) of the position
  // after the move, from the view of the side to move there.
  uint16_t ProbeSub(const Board& b, Color mover, int slot, int to, int cap, int promo) const;

  // Sub-tables: `find(material)` returns the loaded table of a canonical
  // material name (and whether the colours are flipped).
  struct SubLink {
    const LoadedTable* table = nullptr;
    bool flip = false;
    int8_t map[kMaxTablePieces];  // captures: slot here -> slot there (-1: the captured piece)
  };
  std::vector<SubLink> capture_links;  // per captured slot
  void SetCaptureLink(int cap, const LoadedTable* table, bool flip);
  // Per (mover, captured group + 1, promoting pawn's kind, promoted kind):
  // a variant may have two pawn kinds, each promoting into its own material.
  std::vector<SubLink> promo_links;
  size_t PromoLinkIndex(Color mover, int cap_group, int pawn_kind, int promo) const {
    const size_t G = ix_->groups().size(), K = static_cast<size_t>(v_->kind_count());
    return ((static_cast<size_t>(mover) * (G + 1) + static_cast<size_t>(cap_group + 1)) * K +
            static_cast<size_t>(pawn_kind)) * K + static_cast<size_t>(promo);
  }

  // Most quiet moves a side can have (sum over its pieces of the most quiet
  // moves from any square): the counters' range.
  int max_quiet_moves() const { return max_quiet_; }

 private:
  template <bool kQuiet, class F>
  __attribute__((always_inline)) bool GenerateMoves(const Board& b, Color s, F&& f) const;
  template <class F>
  void Unmoves(const Board& b, Color x, bool royal_only, uint64_t idx, F&& f) const;
  uint64_t GroupCode(int g, const uint8_t* sq, int slot, int to) const;
  bool PromotionGivesCheck(const Board& b, Color s, int slot, int to, int promo) const;
  __attribute__((always_inline)) uint64_t PredecessorIndex(const Board& b, uint64_t idx, int slot, int from) const;

  enum AttackMode : uint8_t { kLeapAttack = 1, kRideAttack, kHopAttack, kGapAttack };
  struct AttackRec {
    uint8_t mode;
    uint8_t between;   // line modes: squares strictly between attacker and target
    uint16_t leg1, leg2;  // leaps: blocking squares (kNullCell when none)
    uint32_t first;    // line modes: Variant::ray_squares() index of the line from the target
  };
  static constexpr uint64_t kNoWeight = ~0ULL;

  const Variant* v_ = nullptr;
  const Indexer* ix_ = nullptr;
  int n_ = 0;
  Color color_[kMaxTablePieces] = {};
  int kind_[kMaxTablePieces] = {};
  int group_[kMaxTablePieces] = {};
  bool single_[kMaxTablePieces] = {};  // alone in its group
  int side_slots_[2][kMaxTablePieces] = {};
  int side_count_[2] = {0, 0};
  std::vector<uint64_t> weight_;  // slot * 256 + square: local * stride for single-piece groups
  uint64_t kp_stride_ = 1;
  FastDiv kp_div_;
  int inner_slot_ = -1;  // the last group's slot if it is a single piece
  uint32_t inner_size_ = 0;
  const uint8_t* inner_squares_ = nullptr;
  // Attack records of each slot against a royal square of the other colour:
  // per slot, (royal row * 256 + attacker square) -> offset << 2 | count.
  std::vector<uint32_t> attack_index_[kMaxTablePieces];
  std::vector<AttackRec> attack_recs_;
  std::vector<int16_t> royal_row_[2];  // square -> row among the royal's legal squares
  std::vector<std::vector<int>> ride_dirs_;  // per slot: directions of its quiet rides
  std::vector<int> opposite_;
  int promotion_region_ = -1;
  std::vector<int> promotion_kinds_;
  int max_quiet_ = 1;
  uint8_t flip_sq_[kSquareSlots] = {};
};

// ---------------------------------------------------------------------------
// Hot paths (header-inline).

inline void Geometry::Set(Board& b, uint64_t idx) const {
  // The scans' common case: the next entries of one run of the last group,
  // whose piece moves onto an empty square of a valid board.
  if (inner_slot_ >= 0 && b.valid && b.idx != kNoIndex && idx > b.idx && idx - b.idx < inner_size_ - b.inner) {
    const uint32_t step = static_cast<uint32_t>(idx - b.idx);
    const uint32_t inner = b.inner + step;
    const uint8_t to = inner_squares_[inner];
    if (!b.at[to]) {
      b.at[b.sq[inner_slot_]] = 0;
      b.at[to] = static_cast<uint8_t>(inner_slot_ + 1);
      b.sq[inner_slot_] = to;
      b.idx = idx;
      b.rest += step;
      b.inner = inner;
      return;
    }
  }
  SetDecoded(b, idx);
}

inline bool Geometry::Attacked(const Board& b, int target, Color by, int skip) const {
  const int row = royal_row_[~by][target];
  if (row < 0) return false;
  const uint8_t* rsq = v_->ray_squares();
  for (int n = 0; n < side_count_[by]; ++n) {
    const int i = side_slots_[by][n];
    if (i == skip) continue;
    const uint32_t e = attack_index_[i][row * kSquareSlots + b.sq[i]];
    if (!e) continue;
    for (uint32_t r = e >> 2, end = (e >> 2) + (e & 3); r < end; ++r) {
      const AttackRec& a = attack_recs_[r];
      if (a.mode == kLeapAttack) {
        if (!(b.at[a.leg1] | b.at[a.leg2])) return true;
        continue;
      }
      const uint8_t* line = rsq + a.first;
      int occupied = 0;
      for (int k = 0; k < a.between; ++k) occupied += b.at[line[k]] != 0;
      if (a.mode == kRideAttack ? occupied == 0 : a.mode == kHopAttack ? occupied == 1 : occupied + 1 == a.between)
        return true;
    }
  }
  return false;
}

inline bool Geometry::Legal(Board& b, Color s, int slot, int to, int cap, bool in_check) const {
  if (SurelyLegal(b, s, slot, to, in_check)) return true;
  const int from = b.sq[slot];
  const uint8_t saved = b.at[to];
  b.at[from] = 0;
  b.at[to] = static_cast<uint8_t>(slot + 1);
  b.sq[slot] = static_cast<uint8_t>(to);
  const bool ok = !Attacked(b, b.sq[s], ~s, cap);
  b.sq[slot] = static_cast<uint8_t>(from);
  b.at[to] = saved;
  b.at[from] = static_cast<uint8_t>(slot + 1);
  return ok;
}

inline bool Geometry::GivesCheck(Board& b, Color s, int slot, int to, int cap, int promo) const {
  if (promo >= 0) return PromotionGivesCheck(b, s, slot, to, promo);
  const int from = b.sq[slot];
  const uint8_t saved = b.at[to];
  b.at[from] = 0;
  b.at[to] = static_cast<uint8_t>(slot + 1);
  b.sq[slot] = static_cast<uint8_t>(to);
  (void)cap;  // the captured piece is the opponent's: never one of the attackers
  const bool check = Attacked(b, b.sq[~s], s);
  b.sq[slot] = static_cast<uint8_t>(from);
  b.at[to] = saved;
  b.at[from] = static_cast<uint8_t>(slot + 1);
  return check;
}

template <bool kQuiet, class F>
inline bool Geometry::GenerateMoves(const Board& b, Color s, F&& f) const {
  const Variant& v = *v_;
  const LeapEntry* leaps = v.leaps();
  const RayEntry* rays = v.rays();
  const uint8_t* rsq = v.ray_squares();
  auto emit = [&](int slot, int to, int cap, uint8_t flags) {
    if ((flags & kPromotes) && v.InRegion(promotion_region_, s, to)) {
      for (int k : promotion_kinds_)
        if (!f(slot, to, cap, k)) return false;
      return true;
    }
    if (!kQuiet && cap < 0) return true;  // a quiet move that does not promote
    return static_cast<bool>(f(slot, to, cap, -1));
  };
  auto enemy = [&](int occ) { return color_[occ - 1] != s; };
  for (int n = 0; n < side_count_[s]; ++n) {
    const int i = side_slots_[s][n];
    const Slot& sl = v.slot(s, kind_[i], b.sq[i]);
    for (uint32_t j = sl.leap_begin; j < sl.leap_end; ++j) {
      const LeapEntry& e = leaps[j];
      if (b.at[e.leg1] | b.at[e.leg2]) continue;
      const int occ = b.at[e.to];
      if (!occ) {
        if ((e.flags & kCanMove) && !emit(i, e.to, -1, e.flags)) return false;
      } else if (enemy(occ) && (e.flags & kCanCapture)) {
        if (!emit(i, e.to, occ - 1, e.flags)) return false;
      }
    }
    for (uint32_t j = sl.ray_begin; j < sl.ray_end; ++j) {
      const RayEntry& r = rays[j];
      const uint8_t* line = rsq + r.first;
      const int len = r.len;
      switch (static_cast<AtomMode>(r.mode)) {
        case AtomMode::kRide: {
          int q = 0;
          for (; q < len && !b.at[line[q]]; ++q)
            if ((r.flags & kCanMove) && !emit(i, line[q], -1, r.flags)) return false;
          if (q < len && (r.flags & kCanCapture) && enemy(b.at[line[q]]) && !emit(i, line[q], b.at[line[q]] - 1, r.flags))
            return false;
          break;
        }
        case AtomMode::kRideHop: {
          int q = 0;
          for (; q < len && !b.at[line[q]]; ++q)
            if (!emit(i, line[q], -1, r.flags)) return false;
          for (++q; q < len && !b.at[line[q]]; ++q) {
          }
          if (q < len && enemy(b.at[line[q]]) && !emit(i, line[q], b.at[line[q]] - 1, r.flags)) return false;
          break;
        }
        case AtomMode::kHop: {
          int q = 0;
          while (q < len && !b.at[line[q]]) ++q;
          for (++q; q < len; ++q) {
            const int occ = b.at[line[q]];
            if (!occ) {
              if ((r.flags & kCanMove) && !emit(i, line[q], -1, r.flags)) return false;
            } else {
              if (enemy(occ) && (r.flags & kCanCapture) && !emit(i, line[q], occ - 1, r.flags)) return false;
              break;
            }
          }
          break;
        }
        case AtomMode::kGap: {
          int empties = 0;
          for (int q = 0; q < len; ++q) {
            const int occ = b.at[line[q]];
            if (!occ) {
              if (++empties == 2) break;
            } else if (empties == 1 && enemy(occ)) {
              if (!emit(i, line[q], occ - 1, r.flags)) return false;
            }
          }
          break;
        }
        default:
          break;
      }
    }
  }
  return true;
}

inline uint64_t Geometry::QuietSuccessor(const Board& b, int slot, int to) const {
  if (slot >= 2) {
    if (single_[slot]) return b.idx - weight_[slot * kSquareSlots + b.sq[slot]] + weight_[slot * kSquareSlots + to];
    const int g = group_[slot];
    const uint64_t stride = ix_->groups()[g].stride;
    return b.idx - GroupCode(g, b.sq, -1, 0) * stride + GroupCode(g, b.sq, slot, to) * stride;
  }
  const int a = slot == 0 ? to : b.sq[0], c = slot == 1 ? to : b.sq[1];
  const int t = ix_->PairTransform(a, c);
  if (t == 0xFF) return kNoIndex;
  if (t == 0) return ix_->PairIndex(a, c) * kp_stride_ + b.rest;
  uint8_t sq[kMaxTablePieces];
  for (int i = 0; i < n_; ++i) sq[i] = b.sq[i];
  sq[slot] = static_cast<uint8_t>(to);
  return ix_->Encode(sq);
}

inline uint64_t Geometry::PredecessorIndex(const Board& b, uint64_t idx, int slot, int from) const {
  if (slot < 2) {
    const int kp = ix_->PairIndex(slot == 0 ? from : b.sq[0], slot == 1 ? from : b.sq[1]);
    return kp == 0xFFFF ? kNoIndex : kp * kp_stride_ + b.rest;
  }
  if (single_[slot]) {
    const uint64_t w = weight_[slot * kSquareSlots + from];
    return w == kNoWeight ? kNoIndex : idx - weight_[slot * kSquareSlots + b.sq[slot]] + w;
  }
  const int g = group_[slot];
  if (ix_->groups()[g].local[from] < 0) return kNoIndex;
  const uint64_t stride = ix_->groups()[g].stride;
  return idx - GroupCode(g, b.sq, -1, 0) * stride + GroupCode(g, b.sq, slot, from) * stride;
}

template <class F>
void Geometry::Unmoves(const Board& b, Color x, bool royal_only, uint64_t idx, F&& f) const {
  const Variant& v = *v_;
  for (int n = 0; n < side_count_[x]; ++n) {
    const int i = side_slots_[x][n];
    if (royal_only && i >= 2) continue;
    const int to = b.sq[i], kind = kind_[i];
    auto [lb, le] = v.quiet_leaps_to(x, kind, to);
    for (const ReverseLeap* r = lb; r != le; ++r)
      if (!(b.at[r->origin] | b.at[r->leg1] | b.at[r->leg2])) {
        const uint64_t j = PredecessorIndex(b, idx, i, r->origin);
        if (j != kNoIndex) f(j);
      }
    for (int d : ride_dirs_[i]) {
      auto [line, len] = v.line(to, opposite_[d]);
      for (int k = 0; k < len && !b.at[line[k]]; ++k)
        if (v.ride_move_len(x, kind, line[k], d) > k) {
          const uint64_t j = PredecessorIndex(b, idx, i, line[k]);
          if (j != kNoIndex) f(j);
        }
    }
  }
}

template <class F>
void Geometry::ForEachPredecessor(const Board& b, Board& scratch, Color x, F&& f) const {
  Unmoves(b, x, false, b.idx, f);
  const int kp = static_cast<int>(b.idx >= (1ULL << 32) || kp_stride_ >= (1ULL << 32)
                                      ? b.idx / kp_stride_
                                      : kp_div_.Div(static_cast<uint32_t>(b.idx)));
  const auto& orbit = ix_->Orbit(kp);
  if (orbit.empty()) return;
  uint8_t o[kMaxTablePieces];
  for (uint8_t t : orbit) {
    const auto& map = ix_->symmetry().map[t];
    for (int i = 0; i < n_; ++i) o[i] = map[b.sq[i]];
    SetSquares(scratch, o);
    scratch.rest = ix_->GroupsIndex(o);
    Unmoves(scratch, x, true, kNoIndex, f);
  }
}

}  // namespace canju::tb

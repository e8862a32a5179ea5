#include "tablebase/board.h"

#include <algorithm>

#include "tablebase/format.h"
#include "variants/position.h"

namespace canju::tb {

Status Geometry::Init(const Indexer& ix) {
  const Variant& v = ix.variant();
  v_ = &v;
  ix_ = &ix;
  n_ = ix.slots();
  const int K = v.kind_count();
  side_count_[0] = side_count_[1] = 0;
  for (int i = 0; i < n_; ++i) {
    color_[i] = ix.slot_color(i);
    kind_[i] = ix.slot_kind(i);
    group_[i] = ix.slot_group(i);
    single_[i] = group_[i] >= 0 && ix.groups()[group_[i]].count == 1;
    side_slots_[color_[i]][side_count_[color_[i]]++] = i;
  }
  weight_.assign(static_cast<size_t>(n_) * kSquareSlots, kNoWeight);
  for (int i = 2; i < n_; ++i) {
    if (!single_[i]) continue;
    const PieceGroup& g = ix.groups()[group_[i]];
    for (int sq = 0; sq < kSquareSlots; ++sq)
      if (g.local[sq] >= 0) weight_[i * kSquareSlots + sq] = static_cast<uint64_t>(g.local[sq]) * g.stride;
  }
  kp_stride_ = ix.kp_stride();
  kp_div_ = FastDiv(kp_stride_ < (1ULL << 32) ? kp_stride_ : 1);
  inner_slot_ = -1;
  if (!ix.groups().empty() && ix.groups().back().count == 1 && ix.groups().back().stride == 1) {
    const PieceGroup& g = ix.groups().back();
    inner_slot_ = g.first_slot;
    inner_size_ = static_cast<uint32_t>(g.size);
    inner_squares_ = g.squares.data();
  }

  const int royal = v.royal_kind();
  for (int c = 0; c < 2; ++c) {
    royal_row_[c].assign(kSquareSlots, -1);
    int rows = 0;
    for (int sq = 0; sq < kSquareSlots; ++sq)
      if (v.legal_squares(Color(c), royal)[sq]) royal_row_[c][sq] = static_cast<int16_t>(rows++);
  }

  // Attack records: how a piece of `by` on square a captures on a royal
  // square t of the other colour (Position::AttackedMasked's rules: capture
  // leaps with free legs; along each attack walk, a ride with nothing in
  // between, a hop over exactly one piece, a gap capture with exactly one
  // empty square in between).
  attack_recs_.clear();
  const uint8_t* rsq = v.ray_squares();
  for (int i = 0; i < n_; ++i) {
    const Color by = color_[i];
    const int k = kind_[i];
    int same = -1;
    for (int j = 0; j < i; ++j)
      if (color_[j] == by && kind_[j] == k) same = j;
    if (same >= 0) {
      attack_index_[i] = attack_index_[same];
      continue;
    }
    const std::vector<int16_t>& rows = royal_row_[~by];
    const int nrows = static_cast<int>(std::count_if(rows.begin(), rows.end(), [](int16_t r) { return r >= 0; }));
    attack_index_[i].assign(static_cast<size_t>(nrows) * kSquareSlots, 0);
    for (int t = 0; t < kSquareSlots; ++t) {
      if (rows[t] < 0) continue;
      for (int a = 0; a < kSquareSlots; ++a) {
        if (!v.on_board(a) || a == t) continue;
        const size_t first = attack_recs_.size();
        auto [lb, le] = v.capture_leaps_to(by, t);
        for (const ReverseLeap* r = lb; r != le; ++r)
          if (r->piece == MakePiece(by, k) && r->origin == a)
            attack_recs_.push_back(AttackRec{kLeapAttack, 0, r->leg1, r->leg2, 0});
        for (const Variant::AttackWalk& aw : v.attack_walks(by)) {
          auto [line, len] = v.line(t, aw.walk);
          for (int q = 0; q < len; ++q) {
            if (line[q] != a) continue;
            const uint32_t off = static_cast<uint32_t>(line - rsq);
            const uint8_t between = static_cast<uint8_t>(q);
            if (v.ride_capture_len(by, k, a, aw.dir) > q)
              attack_recs_.push_back(AttackRec{kRideAttack, between, kNullCell, kNullCell, off});
            if (v.hop_capture_len(by, k, a, aw.dir) > q)
              attack_recs_.push_back(AttackRec{kHopAttack, between, kNullCell, kNullCell, off});
            if (v.gap_capture_len(by, k, a, aw.dir) > q)
              attack_recs_.push_back(AttackRec{kGapAttack, between, kNullCell, kNullCell, off});
          }
        }
        const size_t count = attack_recs_.size() - first;
        if (count > 3)
          return Status::Unsupported(v.kind(k).name + " attacks one square in more than three ways; not supported");
        if (count) attack_index_[i][rows[t] * kSquareSlots + a] = static_cast<uint32_t>(first << 2 | count);
      }
    }
  }

  const int nd = v.direction_count();
  opposite_.assign(nd, -1);
  for (int d = 0; d < nd; ++d)
    for (int e = 0; e < nd; ++e)
      if (v.directions()[e].dx == -v.directions()[d].dx && v.directions()[e].dy == -v.directions()[d].dy)
        opposite_[d] = e;
  ride_dirs_.assign(n_, {});
  int most[2] = {0, 0};
  for (int i = 0; i < n_; ++i) {
    int best = 0;
    for (int sq = 0; sq < kSquareSlots; ++sq) {
      if (!v.legal_squares(color_[i], kind_[i])[sq]) continue;
      for (int d = 0; d < nd; ++d)
        if (v.ride_move_len(color_[i], kind_[i], sq, d) > 0 &&
            std::find(ride_dirs_[i].begin(), ride_dirs_[i].end(), d) == ride_dirs_[i].end())
          ride_dirs_[i].push_back(d);
      const Slot& s = v.slot(color_[i], kind_[i], sq);
      int quiet = 0;
      for (uint32_t j = s.leap_begin; j < s.leap_end; ++j) quiet += (v.leaps()[j].flags & kCanMove) != 0;
      for (uint32_t j = s.ray_begin; j < s.ray_end; ++j)
        if (v.rays()[j].flags & kCanMove) quiet += v.rays()[j].len;
      best = std::max(best, quiet);
    }
    most[color_[i]] += best;
  }
  max_quiet_ = std::max({1, most[0], most[1]});
  promotion_region_ = v.rules().promotion_region;
  promotion_kinds_ = v.rules().promotion_kinds;
  for (int sq = 0; sq < kSquareSlots; ++sq)
    flip_sq_[sq] = static_cast<uint8_t>(v.on_board(sq) ? MakeSquare(FileOf(sq), v.ranks() - 1 - RankOf(sq)) : sq);
  capture_links.assign(n_, SubLink{});
  promo_links.assign(2 * (ix.groups().size() + 1) * K * K, SubLink{});
  return Status::OK();
}

void Geometry::SetSquares(Board& b, const uint8_t* sq) const {
  // Two pieces may share a square in an unused entry: clear the squares the
  // moving pieces leave, then write every piece's mark again.
  for (int i = 0; i < n_; ++i)
    if (b.sq[i] != sq[i]) b.at[b.sq[i]] = 0;
  bool valid = true;
  for (int i = 0; i < n_; ++i) {
    b.sq[i] = sq[i];
    b.at[sq[i]] = static_cast<uint8_t>(i + 1);
  }
  for (int i = 0; i < n_ && valid; ++i) valid = b.at[b.sq[i]] == i + 1;
  b.valid = valid;
  b.idx = kNoIndex;
}

void Geometry::SetDecoded(Board& b, uint64_t idx) const {
  uint8_t sq[kMaxTablePieces];
  if (inner_slot_ >= 0 && b.idx != kNoIndex && idx >= b.idx && idx - b.idx < inner_size_ - b.inner) {
    const uint64_t step = idx - b.idx;
    const uint32_t inner = b.inner + static_cast<uint32_t>(step);
    const uint64_t rest = b.rest + step;
    for (int i = 0; i < n_; ++i) sq[i] = b.sq[i];
    sq[inner_slot_] = inner_squares_[inner];
    SetSquares(b, sq);
    b.idx = idx;
    b.rest = rest;
    b.inner = inner;
    return;
  }
  ix_->Decode(idx, sq);
  SetSquares(b, sq);
  b.idx = idx;
  const uint64_t kp = idx < (1ULL << 32) && kp_stride_ < (1ULL << 32) ? kp_div_.Div(static_cast<uint32_t>(idx))
                                                                      : idx / kp_stride_;
  b.rest = idx - kp * kp_stride_;
  if (inner_slot_ >= 0) b.inner = static_cast<uint32_t>(ix_->groups().back().local[sq[inner_slot_]]);
}

void Geometry::ListMoves(const Board& b, Color s, bool captures_only, TableMoves& out) const {
  out.clear();
  auto add = [&](int slot, int to, int cap, int promo) {
    out.push_back(TableMove{static_cast<uint8_t>(slot), static_cast<uint8_t>(to), static_cast<int8_t>(cap),
                            static_cast<int8_t>(promo)});
    return true;
  };
  if (captures_only) GenerateMoves<false>(b, s, add);
  else GenerateMoves<true>(b, s, add);
}

void Geometry::SetCaptureLink(int cap, const LoadedTable* table, bool flip) {
  SubLink& link = capture_links[cap];
  link.table = table;
  link.flip = flip;
  int next[kMaxTablePieces] = {};
  const auto& groups = table->index.groups();
  for (int i = 0; i < n_; ++i) {
    link.map[i] = -1;
    if (i == cap) continue;
    const Color c = flip ? ~color_[i] : color_[i];
    if (i < 2) {
      link.map[i] = static_cast<int8_t>(c);
      continue;
    }
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].color == c && groups[g].kind == kind_[i]) {
        link.map[i] = static_cast<int8_t>(groups[g].first_slot + next[g]++);
        break;
      }
  }
}

bool Geometry::PromotionGivesCheck(const Board& b, Color s, int slot, int to, int promo) const {
  Position p;
  p.Clear(*v_, s);
  for (int i = 0; i < n_; ++i) p.Put(MakePiece(color_[i], kind_[i]), b.sq[i]);
  return p.GivesCheck(Move(b.sq[slot], to, MoveType::kPromotion, promo));
}

uint64_t Geometry::GroupCode(int g, const uint8_t* sq, int slot, int to) const {
  const PieceGroup& G = ix_->groups()[g];
  int loc[kMaxTablePieces];
  for (int t = 0; t < G.count; ++t) {
    const int s = G.first_slot + t == slot ? to : sq[G.first_slot + t];
    int l = G.local[s], j = t;
    while (j > 0 && loc[j - 1] > l) loc[j] = loc[j - 1], --j;
    loc[j] = l;
  }
  uint64_t code = 0;
  for (int t = 0; t < G.count; ++t) code += Binomial(loc[t], t + 1);
  return code;
}

uint16_t Geometry::ProbeSub(const Board& b, Color mover, int slot, int to, int cap, int promo) const {
  uint8_t sub[kMaxTablePieces];
  if (promo < 0) {
    const SubLink& link = capture_links[cap];
    for (int i = 0; i < n_; ++i) {
      if (i == cap) continue;
      int s = i == slot ? to : b.sq[i];
      if (link.flip) s = flip_sq_[s];
      sub[link.map[i]] = static_cast<uint8_t>(s);
    }
    const uint64_t idx = link.table->index.Encode(sub);
    const Color stm = link.flip ? mover : ~mover;
    return idx == kNoIndex ? kValueIllegal : link.table->Value(stm, idx);
  }
  // Promotions (rare): the promoted piece joins another group.
  const Variant& v = *v_;
  const int cap_group = cap >= 0 ? group_[cap] : -1;
  const SubLink& link = promo_links[PromoLinkIndex(mover, cap_group, kind_[slot], promo)];
  const Indexer& sx = link.table->index;
  int next[kMaxTablePieces] = {};
  const auto& groups = sx.groups();
  for (int i = 0; i < n_; ++i) {
    if (i == cap) continue;
    Color c = color_[i];
    int k = kind_[i];
    int s = b.sq[i];
    if (i == slot) s = to, k = promo;
    if (link.flip) c = ~c, s = flip_sq_[s];
    if (k == v.royal_kind()) {
      sub[c] = static_cast<uint8_t>(s);
      continue;
    }
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].color == c && groups[g].kind == k) {
        sub[groups[g].first_slot + next[g]++] = static_cast<uint8_t>(s);
        break;
      }
  }
  const uint64_t idx = sx.Encode(sub);
  const Color stm = link.flip ? mover : ~mover;
  return idx == kNoIndex ? kValueIllegal : link.table->Value(stm, idx);
}

}  // namespace canju::tb

#include "tablebase/index.h"

#include <algorithm>

namespace canju::tb {

Symmetry FindSymmetry(const Variant& v, const Material& m) {
  Symmetry s;
  const int W = v.files(), H = v.ranks();
  int found_mask = 0;
  for (int swap = 0; swap < (W == H ? 2 : 1); ++swap)
    for (int fx = 0; fx < 2; ++fx)
      for (int fy = 0; fy < 2; ++fy) {
        std::array<uint8_t, kSquareSlots> t;
        for (int sq = 0; sq < kSquareSlots; ++sq) t[sq] = static_cast<uint8_t>(sq);
        for (int sq = 0; sq < kSquareSlots; ++sq) {
          if (!v.on_board(sq)) continue;
          int x = FileOf(sq), y = RankOf(sq);
          if (swap) std::swap(x, y);
          if (fx) x = W - 1 - x;
          if (fy) y = H - 1 - y;
          t[sq] = MakeSquare(x, y);
        }
        bool ok = true;
        // The flying-general test looks along files only.
        if (swap && v.rules().flying_general) ok = false;
        for (int c = 0; c < 2 && ok; ++c)
          for (int k = 0; k < v.kind_count() && ok; ++k)
            if (m.count[c][k]) ok = MovesMapOnto(v, t, Color(c), Color(c), k);
        if (!ok) continue;
        found_mask |= 1 << (swap * 4 + fx * 2 + fy);
        s.map.push_back(t);
      }
  for (size_t i = 0; i < s.map.size(); ++i)
    for (size_t j = 0; j < s.map.size(); ++j) {
      bool inv = true;
      for (int sq = 0; sq < kSquareSlots && inv; ++sq)
        if (v.on_board(sq) && s.map[j][s.map[i][sq]] != sq) inv = false;
      if (inv) s.inverse.push_back(static_cast<int>(j));
      if (inv) break;
    }
  if (s.count() == 1) s.name = "none";
  else if (s.count() == 8) s.name = "8-fold";
  else if (s.count() == 2 && (found_mask & (1 << 2))) s.name = "mirror";
  else s.name = std::to_string(s.count()) + "-fold";
  return s;
}

Status Indexer::Init(const Variant& v, const Material& m) {
  v_ = &v;
  material_ = m;
  if (v.royal_kind() < 0) return Status::Unsupported(v.id() + ": tablebases need a royal piece");
  if (v.rules().win != WinCondition::kCheckmate)
    return Status::Unsupported(v.id() + ": tablebases support only win = checkmate");
  const int royal = v.royal_kind();
  for (int c = 0; c < 2; ++c)
    if (m.count[c][royal] != 1) return Status::InvalidArgument("material needs exactly one royal piece per side");
  if (m.Pieces() > kMaxTablePieces)
    return Status::Unsupported("at most " + std::to_string(kMaxTablePieces) + " pieces per table");
  sym_ = FindSymmetry(v, m);
  slots_ = 0;
  groups_.clear();
  for (int c = 0; c < 2; ++c) {
    slot_color_[slots_] = Color(c);
    slot_kind_[slots_] = royal;
    slot_group_[slots_] = -1;
    ++slots_;
  }
  for (int c = 0; c < 2; ++c)
    for (int k : SignatureOrder(v)) {
      if (!m.count[c][k]) continue;
      PieceGroup g;
      g.color = Color(c);
      g.kind = k;
      g.count = m.count[c][k];
      g.first_slot = slots_;
      g.local.fill(-1);
      for (int sq = 0; sq < kSquareSlots; ++sq)
        if (v.legal_squares(Color(c), k)[sq]) {
          g.local[sq] = static_cast<int16_t>(g.squares.size());
          g.squares.push_back(static_cast<uint8_t>(sq));
        }
      g.size = Binomial(static_cast<int>(g.squares.size()), g.count);
      if (g.count > 1 && g.size <= (1u << 20)) {
        g.combos.resize(g.size * g.count);
        std::vector<int> a(g.count);
        for (int i = 0; i < g.count; ++i) a[i] = i;
        for (;;) {
          uint64_t c = 0;
          for (int i = 0; i < g.count; ++i) c += Binomial(a[i], i + 1);
          for (int i = 0; i < g.count; ++i) g.combos[c * g.count + i] = g.squares[a[i]];
          int i = 0;
          while (i < g.count && a[i] + 1 == (i + 1 < g.count ? a[i + 1] : static_cast<int>(g.squares.size()))) ++i;
          if (i == g.count) break;
          ++a[i];
          for (int j = 0; j < i; ++j) a[j] = j;
        }
      }
      if (g.size == 0) return Status::InvalidArgument("material has more " + v.kind(k).name + "s than squares for them");
      for (int i = 0; i < g.count; ++i) {
        slot_color_[slots_] = Color(c);
        slot_kind_[slots_] = k;
        slot_group_[slots_] = static_cast<int>(groups_.size());
        ++slots_;
      }
      groups_.push_back(std::move(g));
    }
  uint64_t stride = 1;
  for (int i = static_cast<int>(groups_.size()) - 1; i >= 0; --i) {
    groups_[i].stride = stride;
    stride *= groups_[i].size;
  }
  kp_stride_ = stride;
  kp_div_ = FastDiv(stride);
  for (PieceGroup& g : groups_) g.by_size = FastDiv(g.size);

  // Royal pairs: a pair is excluded when the two royals attack each other
  // with unblockable leaps (adjacent chess kings): illegal whoever moves.
  kp_transform_.assign(kSquareSlots * kSquareSlots, 0xFF);
  kp_index_.assign(kSquareSlots * kSquareSlots, 0xFFFF);
  kp_squares_.clear();
  auto leap_attack = [&](Color by, int from, int to) {
    auto [b, e] = v.capture_leaps_to(by, to);
    for (auto* r = b; r != e; ++r)
      if (r->origin == from && r->piece == MakePiece(by, royal) && r->leg1 == kNullCell && r->leg2 == kNullCell)
        return true;
    return false;
  };
  const SquareSet& l0 = v.legal_squares(kFirst, royal);
  const SquareSet& l1 = v.legal_squares(kSecond, royal);
  std::vector<int> reps;
  for (int a = 0; a < kSquareSlots; ++a) {
    if (!l0[a]) continue;
    for (int b = 0; b < kSquareSlots; ++b) {
      if (!l1[b] || a == b) continue;
      if (leap_attack(kFirst, a, b) && leap_attack(kSecond, b, a)) continue;
      int best = -1, best_t = 0;
      for (int t = 0; t < sym_.count(); ++t) {
        int key = sym_.map[t][a] * kSquareSlots + sym_.map[t][b];
        if (best < 0 || key < best) best = key, best_t = t;
      }
      kp_transform_[a * kSquareSlots + b] = static_cast<uint8_t>(best_t);
      if (best_t == 0) {
        kp_index_[a * kSquareSlots + b] = static_cast<uint16_t>(kp_squares_.size());
        kp_squares_.push_back({static_cast<uint8_t>(a), static_cast<uint8_t>(b)});
      }
    }
  }
  if (kp_squares_.size() >= 0xFFFF) return Status::Unsupported("too many royal pairs");
  kp_orbit_.assign(kp_squares_.size(), {});
  for (int a = 0; a < kSquareSlots; ++a)
    for (int b = 0; b < kSquareSlots; ++b) {
      int t = kp_transform_[a * kSquareSlots + b];
      if (t == 0xFF || t == 0) continue;
      int ra = sym_.map[t][a], rb = sym_.map[t][b];
      kp_orbit_[kp_index_[ra * kSquareSlots + rb]].push_back(static_cast<uint8_t>(sym_.inverse[t]));
    }
  kp_fixed_.assign(kp_squares_.size(), 0);
  for (size_t kp = 0; kp < kp_squares_.size(); ++kp)
    for (int t = 1; t < sym_.count(); ++t)
      if (sym_.map[t][kp_squares_[kp].first] == kp_squares_[kp].first &&
          sym_.map[t][kp_squares_[kp].second] == kp_squares_[kp].second)
        kp_fixed_[kp] = 1;
  size_ = kp_squares_.size() * kp_stride_;
  return Status::OK();
}

uint64_t Indexer::EncodeGroups(const uint8_t* sq, uint64_t idx) const {
  for (const PieceGroup& g : groups_) {
    if (g.count == 1) {
      int l = g.local[sq[g.first_slot]];
      if (l < 0) return kNoIndex;
      idx += static_cast<uint64_t>(l) * g.stride;
      continue;
    }
    int loc[kMaxTablePieces];
    for (int i = 0; i < g.count; ++i) {
      int l = g.local[sq[g.first_slot + i]];
      if (l < 0) return kNoIndex;
      int j = i;
      while (j > 0 && loc[j - 1] > l) loc[j] = loc[j - 1], --j;
      loc[j] = l;
    }
    uint64_t c = 0;
    for (int i = 0; i < g.count; ++i) {
      if (i > 0 && loc[i] == loc[i - 1]) return kNoIndex;
      c += Binomial(loc[i], i + 1);
    }
    idx += c * g.stride;
  }
  return idx;
}

uint64_t Indexer::EncodeCanonical(const uint8_t* sq) const {
  uint16_t kp = kp_index_[sq[0] * kSquareSlots + sq[1]];
  if (kp == 0xFFFF) return kNoIndex;
  return EncodeGroups(sq, kp * kp_stride_);
}

uint64_t Indexer::EncodePosition(const Position& pos) const {
  uint8_t sq[kMaxTablePieces];
  int next[kMaxTablePieces] = {};
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < pos.piece_count(Color(c)); ++i) {
      const int s = pos.piece_square(Color(c), i);
      const int k = KindOf(pos.piece_on(s));
      if (k == v_->royal_kind()) {
        sq[c] = static_cast<uint8_t>(s);
        continue;
      }
      for (size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].color == Color(c) && groups_[g].kind == k) {
          sq[groups_[g].first_slot + next[g]++] = static_cast<uint8_t>(s);
          break;
        }
    }
  return Encode(sq);
}

uint64_t Indexer::Encode(const uint8_t* sq) const {
  int t = kp_transform_[sq[0] * kSquareSlots + sq[1]];
  if (t == 0xFF) return kNoIndex;
  if (t == 0) return EncodeCanonical(sq);
  uint8_t m[kMaxTablePieces];
  const auto& map = sym_.map[t];
  for (int i = 0; i < slots_; ++i) m[i] = map[sq[i]];
  return EncodeCanonical(m);
}

bool Indexer::Decode(uint64_t idx, uint8_t* sq) const {
  uint64_t kp, rest;
  const bool small = idx < (1ULL << 32) && kp_stride_ < (1ULL << 32);
  if (small) {
    kp = kp_div_.Div(static_cast<uint32_t>(idx));
    rest = idx - kp * kp_stride_;
  } else {
    kp = idx / kp_stride_;
    rest = idx % kp_stride_;
  }
  sq[0] = kp_squares_[kp].first;
  sq[1] = kp_squares_[kp].second;
  uint64_t occ[4] = {0, 0, 0, 0};
  occ[sq[0] >> 6] |= 1ULL << (sq[0] & 63);
  occ[sq[1] >> 6] |= 1ULL << (sq[1] & 63);
  bool ok = true;
  // Last group first: its stride is 1, each group's number is the remainder.
  for (int gi = static_cast<int>(groups_.size()) - 1; gi >= 0; --gi) {
    const PieceGroup& g = groups_[gi];
    uint64_t q;
    if (small && g.size < (1ULL << 32)) q = g.by_size.Div(static_cast<uint32_t>(rest));
    else q = rest / g.size;
    uint64_t c = rest - q * g.size;
    rest = q;
    if (g.count == 1) {
      sq[g.first_slot] = g.squares[c];
    } else if (!g.combos.empty()) {
      for (int i = 0; i < g.count; ++i) sq[g.first_slot + i] = g.combos[c * g.count + i];
    } else {
      int hi = static_cast<int>(g.squares.size());
      for (int i = g.count - 1; i >= 0; --i) {
        int a = hi - 1;
        while (Binomial(a, i + 1) > c) --a;
        c -= Binomial(a, i + 1);
        sq[g.first_slot + i] = g.squares[a];
        hi = a;
      }
    }
    for (int i = 0; i < g.count; ++i) {
      int s = sq[g.first_slot + i];
      uint64_t bit = 1ULL << (s & 63);
      if (occ[s >> 6] & bit) ok = false;
      occ[s >> 6] |= bit;
    }
  }
  return ok;
}

bool Indexer::CountedOnce(const uint8_t* sq, uint64_t idx) const {
  for (int t = 1; t < sym_.count(); ++t) {
    const auto& map = sym_.map[t];
    if (map[sq[0]] != sq[0] || map[sq[1]] != sq[1]) continue;
    uint8_t m[kMaxTablePieces];
    for (int i = 0; i < slots_; ++i) m[i] = map[sq[i]];
    if (EncodeCanonical(m) < idx) return false;
  }
  return true;
}

std::string Indexer::Describe() const {
  std::string s = "royal pairs " + std::to_string(kp_squares_.size());
  for (const PieceGroup& g : groups_) {
    char l = v_->kind(g.kind).letter;
    if (g.color == kSecond) l = static_cast<char>(l - 'A' + 'a');
    s += " x " + std::string(g.count, l) + " " + std::to_string(g.size);
  }
  s += " = " + std::to_string(size_) + " per side to move (symmetry: " + sym_.name + ")";
  return s;
}

}  // namespace canju::tb

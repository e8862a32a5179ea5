// The index of a table: positions of one material with a given side to move
// are numbered kings-pair first (one entry per symmetry class of the two
// royal squares), then one number per group of identical pieces (a
// combination of its legal squares). See docs/tablebase.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tablebase/material.h"
#include "variants/variant.h"

namespace canju::tb {

constexpr int kMaxTablePieces = 12;
constexpr uint64_t kNoIndex = ~0ULL;

// Board symmetries that preserve the rules for the pieces of a material.
// Transform 0 is the identity.
struct Symmetry {
  std::vector<std::array<uint8_t, kSquareSlots>> map;
  std::vector<int> inverse;
  std::string name;  // "none", "mirror", "8-fold", ...
  int count() const { return static_cast<int>(map.size()); }
};
Symmetry FindSymmetry(const Variant& v, const Material& m);

// Division by a constant through a multiplication (Lemire et al.): exact for
// 32-bit dividends and divisors.
struct FastDiv {
  uint64_t m = 0;
  uint32_t d = 1;
  FastDiv() = default;
  explicit FastDiv(uint64_t div) : m(div > 1 ? ~0ULL / div + 1 : 0), d(static_cast<uint32_t>(div)) {}
  uint32_t Div(uint32_t n) const {
    return d == 1 ? n : static_cast<uint32_t>((static_cast<unsigned __int128>(m) * n) >> 64);
  }
};

struct PieceGroup {
  Color color;
  int kind;
  int count;
  int first_slot;
  std::vector<uint8_t> squares;  // legal squares, ascending
  std::array<int16_t, kSquareSlots> local;  // square -> position in `squares`, -1 if not legal
  uint64_t size;    // C(squares, count)
  uint64_t stride;  // weight in the index
  std::vector<uint8_t> combos;  // count > 1: the squares of each combination (if not too many)
  FastDiv by_size;
};

class Indexer {
 public:
  Status Init(const Variant& v, const Material& m);

  const Variant& variant() const { return *v_; }
  const Material& material() const { return material_; }
  const Symmetry& symmetry() const { return sym_; }
  uint64_t size() const { return size_; }  // per side to move
  int slots() const { return slots_; }
  Color slot_color(int s) const { return slot_color_[s]; }
  int slot_kind(int s) const { return slot_kind_[s]; }
  Piece slot_piece(int s) const { return MakePiece(slot_color_[s], slot_kind_[s]); }
  int slot_group(int s) const { return slot_group_[s]; }  // -1 for the royals
  const std::vector<PieceGroup>& groups() const { return groups_; }
  int king_pairs() const { return static_cast<int>(kp_squares_.size()); }
  uint64_t kp_stride() const { return kp_stride_; }

  // Squares per slot (slot 0: first royal, 1: second royal, then the groups)
  // -> index, applying the canonical symmetry. kNoIndex if a piece is on a
  // square it cannot reach or the royals can never stand so.
  uint64_t Encode(const uint8_t* sq) const;
  // The same for a position whose material is this index's (not flipped).
  uint64_t EncodePosition(const Position& pos) const;
  // Index of a board whose royal pair is already canonical (no transform).
  uint64_t EncodeCanonical(const uint8_t* sq) const;
  // The squares of an index; false if two pieces share a square.
  bool Decode(uint64_t idx, uint8_t* sq) const;

  // Royal pair: canonical transform of (a, b) (0xFF: never legal), whether it
  // is the representative of its class.
  int PairTransform(int a, int b) const { return kp_transform_[a * kSquareSlots + b]; }
  bool IsRepresentative(int a, int b) const { return kp_transform_[a * kSquareSlots + b] == 0; }
  // For the representative pair of index `kp`: the transforms that map a
  // stored board onto the other members of its class (not the identity).
  const std::vector<uint8_t>& Orbit(int kp) const { return kp_orbit_[kp]; }

  // Number of the representative pair (a, b) (0xFFFF if it is none) and the
  // squares of pair number `kp`.
  int PairIndex(int a, int b) const { return kp_index_[a * kSquareSlots + b]; }
  std::pair<uint8_t, uint8_t> PairSquares(int kp) const { return kp_squares_[kp]; }
  // True if a symmetry other than the identity fixes pair `kp` (its entries
  // exist once per orientation).
  bool PairFixed(int kp) const { return kp_fixed_[kp]; }
  // The groups' part of the index (below the royal pair) of a board whose
  // pieces stand on their legal squares; kNoIndex otherwise.
  uint64_t GroupsIndex(const uint8_t* sq) const { return EncodeGroups(sq, 0); }

  // Entries with a royal pair fixed by a symmetry exist once per orientation;
  // true if this decoded board is the one counted in statistics.
  bool CountedOnce(const uint8_t* sq, uint64_t idx) const;

  std::string Describe() const;  // "kings 45 x R 90 x N 90 x r 90 (mirror)"

 private:
  uint64_t EncodeGroups(const uint8_t* sq, uint64_t base) const;

  const Variant* v_ = nullptr;
  Material material_;
  Symmetry sym_;
  int slots_ = 0;
  Color slot_color_[kMaxTablePieces];
  int slot_kind_[kMaxTablePieces];
  int slot_group_[kMaxTablePieces];
  std::vector<PieceGroup> groups_;
  std::vector<uint8_t> kp_transform_;   // per (a, b)
  std::vector<uint16_t> kp_index_;      // per (a, b) of a representative
  std::vector<std::pair<uint8_t, uint8_t>> kp_squares_;
  std::vector<std::vector<uint8_t>> kp_orbit_;
  std::vector<uint8_t> kp_fixed_;
  uint64_t kp_stride_ = 1;
  FastDiv kp_div_;
  uint64_t size_ = 0;
};

// C(n, k) for n ≤ kSquareSlots, k ≤ kMaxTablePieces (0 outside), from a
// table made at compile time: the indexer's inner loops call it for every
// piece of a group, so it is inline and has no initialisation guard.
inline constexpr auto kBinomialTable = [] {
  std::array<std::array<uint64_t, kMaxTablePieces + 1>, kSquareSlots + 1> t{};
  for (int i = 0; i <= kSquareSlots; ++i)
    for (int j = 0; j <= kMaxTablePieces; ++j)
      t[i][j] = j == 0 ? 1 : (i == 0 ? 0 : t[i - 1][j - 1] + t[i - 1][j]);  // (wraps past 2^64, as unused)
  return t;
}();
inline uint64_t Binomial(int n, int k) {
  if (n < 0 || k < 0 || k > kMaxTablePieces || n > kSquareSlots) return 0;
  return kBinomialTable[n][k];
}

}  // namespace canju::tb

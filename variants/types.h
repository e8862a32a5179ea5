// Basic value types shared by every variant: squares, colours, pieces, moves.
#pragma once

#include <cstdint>
#include <cstddef>

namespace canju {

// A square is rank * 16 + file for every variant (boards up to 16 x 16), so
// move tables are indexed without per-variant arithmetic. Rank 0 is the first
// player's back rank, file 0 is the first player's left.
using Square = uint8_t;
constexpr int kMaxFiles = 16;
constexpr int kMaxRanks = 16;
constexpr int kSquareSlots = 256;
// Index of an always-empty board cell; "no blocking square" in move tables
// points here so that a blocking test needs no branch.
constexpr uint16_t kNullCell = 256;

constexpr Square MakeSquare(int file, int rank) { return static_cast<Square>(rank * 16 + file); }
constexpr int FileOf(int sq) { return sq & 15; }
constexpr int RankOf(int sq) { return sq >> 4; }

enum Color : uint8_t { kFirst = 0, kSecond = 1 };  // Red/White, Black
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// A piece is 0 (empty) or 1 + kind + 32 * colour.
using Piece = uint8_t;
constexpr int kMaxKinds = 31;
constexpr Piece kNoPiece = 0;
constexpr Piece MakePiece(Color c, int kind) { return static_cast<Piece>(1 + kind + 32 * c); }
constexpr int KindOf(Piece p) { return (p & 31) - 1; }
constexpr Color ColorOf(Piece p) { return Color(p >> 5); }

// A move in 32 bits: to (8), from (8), promotion kind + 1 (6), move type (3).
// For Drop moves `from` holds the dropped kind; for Special moves from/to carry
// data defined by the variant hook that made the move.
enum class MoveType : uint8_t { kNormal = 0, kPromotion, kEnPassant, kCastle, kDrop, kSpecial };

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(int from, int to, MoveType type = MoveType::kNormal, int promo_kind = -1)
      : v_(static_cast<uint32_t>(to) | (static_cast<uint32_t>(from) << 8) |
           (static_cast<uint32_t>(promo_kind + 1) << 16) | (static_cast<uint32_t>(type) << 22)) {}
  static constexpr Move FromRaw(uint32_t raw) { Move m; m.v_ = raw; return m; }

  constexpr Square to() const { return static_cast<Square>(v_ & 0xFF); }
  constexpr Square from() const { return static_cast<Square>((v_ >> 8) & 0xFF); }
  constexpr int promo_kind() const { return static_cast<int>((v_ >> 16) & 63) - 1; }
  constexpr MoveType type() const { return static_cast<MoveType>((v_ >> 22) & 7); }
  constexpr uint32_t raw() const { return v_; }
  constexpr bool is_none() const { return v_ == 0; }
  constexpr bool operator==(const Move& o) const { return v_ == o.v_; }
  constexpr bool operator!=(const Move& o) const { return v_ != o.v_; }

 private:
  uint32_t v_ = 0;
};

// Fixed-capacity move list; no allocation in the search loops.
class MoveList {
 public:
  static constexpr int kCapacity = 1024;  // FEN loading rejects positions that could exceed it
  void push(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  Move& operator[](int i) { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  void resize(int n) { size_ = n; }
  bool contains(Move m) const {
    for (int i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }

 private:
  Move moves_[kCapacity];
  int size_ = 0;
};

}  // namespace canju

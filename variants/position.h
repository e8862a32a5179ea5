// Position: a board of any variant, with make/unmake, Zobrist keys, FEN and
// legal move generation (the generator lives in movegen.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "variants/status.h"
#include "variants/types.h"
#include "variants/variant.h"

namespace canju {

// What DoMove saves so that UndoMove can restore the position.
struct StateInfo {
  uint64_t key = 0;
  Piece captured = kNoPiece;
  Piece moved = kNoPiece;
  uint8_t castling = 0;
  // Piece-list slots the move emptied (the captured piece's; the promoted
  // pawn's or castling rook's), so that UndoMove puts each piece back in
  // its slot: a move made and taken back leaves the lists, and so the order
  // moves are generated in, as they were.
  uint8_t captured_slot = 0;
  uint8_t own_slot = 0;
  int16_t ep = -1;
  uint16_t halfmove = 0;
};

class Position {
 public:
  static constexpr int kMaxPiecesPerSide = 128;

  Position() = default;

  // Parses a FEN: board, side (w/r = first player, b = second), then the
  // optional castling, en-passant, half-move and full-move fields. Rejects
  // unknown pieces, wrong board sizes, pieces on squares they can never reach,
  // a missing or doubled royal piece, and positions where the side not to
  // move is in check. The message names the field and character.
  static Status FromFen(const Variant& v, const std::string& fen, Position* out);
  // The variant's start position.
  static Position Start(const Variant& v);
  std::string Fen(bool with_counters = true) const;

  // An empty board with `side` to move (for tablebase generators).
  void Clear(const Variant& v, Color side = kFirst);
  void Put(Piece p, int sq);
  void Remove(int sq);
  void SetSideToMove(Color c);
  // Checks royal counts, legal squares and that the side not to move is not
  // in check. FromFen calls it.
  Status Validate() const;

  const Variant& variant() const { return *v_; }
  Color side_to_move() const { return side_; }
  Piece piece_on(int sq) const { return board_[sq]; }
  bool empty(int sq) const { return board_[sq] == kNoPiece; }
  int count(Color c, int kind) const { return counts_[c][kind]; }
  int piece_count(Color c) const { return list_size_[c]; }
  int piece_square(Color c, int i) const { return list_[c][i]; }
  int royal_square(Color c) const { return royal_[c]; }
  int ep_square() const { return ep_; }
  int castling_rights() const { return castling_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  uint64_t key() const { return key_; }

  // The key DoMove(m) would give, without making the move, for a plain
  // move or capture when no castling right or en-passant capture can
  // change; false otherwise (make the move to learn the key).
  bool KeyAfter(Move m, uint64_t* key) const;
  void DoMove(Move m, StateInfo* st);
  void UndoMove(Move m, const StateInfo& st);
  // Passes the turn (search only; never legal in a game).
  void DoNullMove(StateInfo* st);
  void UndoNullMove(const StateInfo& st);

  // --- move generation (movegen.cpp) ---
  // True if a royal of the other colour on `sq` would be attacked by `by`.
  bool Attacked(int sq, Color by) const;
  bool InCheck() const;
  bool GivesCheck(Move m) const;
  void GeneratePseudoLegal(MoveList* list) const;
  // How many moves GeneratePseudoLegal would list (a cheap mobility figure).
  int CountPseudoLegal() const;
  void GenerateLegal(MoveList* list) const;
  // A pseudo-legal move that does not leave the mover's royal attacked.
  bool IsLegal(Move m) const;
  // Whether GeneratePseudoLegal would list m; for a plain move or a
  // promotion only the moving piece's moves are generated (a cheap test of a
  // move taken from elsewhere, e.g. a table slot or another position).
  bool IsPseudoLegal(Move m) const;
  // Quiet un-moves of the side that has just moved (~side_to_move()): each
  // Move(from = its earlier square, to = its current square). Captures,
  // promotions and castling are not undone here (they lead to other tables).
  void GenerateQuietUnmoves(MoveList* list) const;

  // Material signature, e.g. "KRKAA": each side's royal first, then the other
  // pieces in definition order; first player first.
  std::string Material() const;
  // Left-right mirror image (same side to move).
  Position Mirrored() const;
  // Same position with colours swapped and board turned (first <-> second).
  Position ColorFlipped() const;

 private:
  friend class MoveGenerator;
  void AddPiece(Piece p, int sq);
  // Returns the piece-list slot the piece held.
  int RemovePiece(int sq);
  // AddPiece into list slot `slot` (the one RemovePiece returned), the
  // piece there going back to the end it came from.
  void PutBack(Piece p, int sq, int slot);
  void MovePiece(int from, int to);
  void SetCastlingMasks();
  bool CanCastle(int side) const;
  // The rook's squares for castling move m of colour c (the rook lands on the
  // square the royal crossed).
  void CastleRookSquares(Move m, Color c, int* rook_from, int* rook_to) const {
    const int side = m.to() > m.from() ? 0 : 1;
    *rook_from = v_->castle_rook_square(c, side);
    *rook_to = m.to() + (side == 0 ? -1 : 1);
  }
  void Generate(MoveList* list) const;
  // only_from >= 0: that square's piece's moves alone, without en passant
  // and castling.
  template <bool kCount>
  int GenerateImpl(MoveList* list, int only_from = -1) const;
  static constexpr uint32_t kAllAttacks = 0xFFFFFFFFu;
  bool LegalSlow(Move m, uint32_t mask) const;
  bool AttackedMasked(int t, Color by, uint32_t mask) const;
  // The relevance bits (Variant::relevance) of the lines and leaps by which
  // `by` attacks t now.
  uint32_t AttackingLines(int t, Color by) const;

  // Occupancy words per line family (Variant::LineFamily): bit = index
  // along the line. Lets line walks find blockers with bit scans.
  static int LineIndex(int family, int sq) {
    switch (family) {
      case 0: return RankOf(sq);
      case 1: return 16 + FileOf(sq);
      case 2: return 32 + FileOf(sq) - RankOf(sq) + 15;
      default: return 64 + FileOf(sq) + RankOf(sq);
    }
  }
  static int LineBit(int family, int sq) { return family == 1 ? RankOf(sq) : FileOf(sq); }
  void ToggleOccupancy(int sq) {
    const int f = FileOf(sq), r = RankOf(sq);
    occ_[r] ^= static_cast<uint16_t>(1u << f);
    occ_[16 + f] ^= static_cast<uint16_t>(1u << r);
    if (diagonal_lines_) {  // only variants with diagonal line moves need these
      occ_[47 + f - r] ^= static_cast<uint16_t>(1u << f);
      occ_[64 + f + r] ^= static_cast<uint16_t>(1u << f);
    }
  }
  // Index along the line (0 = nearest) of the first occupied square seen
  // from `sq` in direction d, the second in *second; len when none.
  int Blockers(int sq, int d, int len, int* second) const;

  const Variant* v_ = nullptr;
  bool diagonal_lines_ = true;
  uint16_t occ_[96] = {};
  Piece board_[kSquareSlots + 1] = {};  // board_[kNullCell] stays empty
  uint8_t index_[kSquareSlots] = {};
  Square list_[2][kMaxPiecesPerSide] = {};
  uint8_t list_size_[2] = {0, 0};
  uint8_t counts_[2][kMaxKinds] = {};
  int16_t royal_[2] = {-1, -1};
  Color side_ = kFirst;
  int16_t ep_ = -1;
  uint8_t castling_ = 0;
  uint16_t halfmove_ = 0;
  uint16_t fullmove_ = 1;
  uint64_t key_ = 0;
};

// Coordinates: Xiangqi-style variants use ICCS (files a.., ranks 0..),
// chess-style ones algebraic (ranks 1..).
std::string SquareName(const Variant& v, int sq);
int ParseSquareName(const Variant& v, const std::string& text);  // -1 if bad
// Coordinate move text: "h2e2", "e7e8q"; castling as the royal's move.
std::string MoveToCoord(const Variant& v, Move m);
// Parses a coordinate move (ICCS "h2e2" or "H2-E2", chess "e2e4"/"e7e8q") and
// returns the matching legal move of `pos`, or a Status naming the reason.
Status ParseCoordMove(const Position& pos, const std::string& text, Move* out);

}  // namespace canju

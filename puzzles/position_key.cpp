#include "puzzles/position_key.h"

#include <sstream>
#include <vector>

#include "variants/placement.h"
#include "variants/position.h"

namespace canju {

const char* TransformName(uint8_t transform) {
  switch (transform & 3) {
    case kTransformMirror: return "mirrored";
    case kTransformColorFlip: return "colours swapped";
    case kTransformColorFlipMirror: return "colours swapped + mirrored";
    default: return "exact";
  }
}

namespace {

// Board, side, castling, en passant: what makes two diagrams the same
// problem. Move counters do not.
std::string Shape(const Position& p) { return p.Fen(/*with_counters=*/false); }

// Builds the position without the legality checks of FromFen, for diagrams
// the engine rejects but whose board can still be read.
bool BuildUnchecked(const Variant& v, const std::string& fen, Position* out) {
  std::istringstream in(fen);
  std::string board, side;
  in >> board >> side;
  uint8_t cells[kSquareSlots];
  std::string err;
  if (board.empty() || !ParsePlacement(v, board, cells, &err)) return false;
  out->Clear(v, side == "b" || side == "B" ? kSecond : kFirst);
  int per_side[2] = {0, 0};
  for (int sq = 0; sq < kSquareSlots; ++sq)
    if (cells[sq]) {
      if (++per_side[ColorOf(cells[sq])] > Position::kMaxPiecesPerSide) return false;
      out->Put(cells[sq], sq);
    }
  return true;
}

}  // namespace

Status ComputePositionKey(const Variant& v, const std::string& fen, PositionKey* out) {
  *out = PositionKey();
  Position pos;
  Status st = Position::FromFen(v, fen, &pos);
  if (!st.ok()) {
    out->problem = st.message();
    if (!BuildUnchecked(v, fen, &pos)) return st;
  }
  out->material = pos.Material();
  std::string images[4];
  images[kTransformIdentity] = Shape(pos);
  const bool mirror = v.mirror_symmetric();
  const Position flipped = pos.ColorFlipped();
  images[kTransformColorFlip] = Shape(flipped);
  if (mirror) {
    images[kTransformMirror] = Shape(pos.Mirrored());
    images[kTransformColorFlipMirror] = Shape(flipped.Mirrored());
  }
  uint8_t best = kTransformIdentity;
  for (uint8_t t = 1; t < 4; ++t)
    if (!images[t].empty() && images[t] < images[best]) best = t;
  out->canonical = images[best];
  out->transform = best;
  Position start = Position::Start(v);
  out->is_start = Shape(start) == images[kTransformIdentity];
  return Status::OK();
}

}  // namespace canju

// The canonical form of a puzzle's start position: the key under which the
// same composition is found again whether a book prints it as is, mirrored
// left-right, or with the colours swapped (Red's pieces drawn as Black's and
// the board turned, Black to move).
#pragma once

#include <cstdint>
#include <string>

#include "variants/status.h"
#include "variants/variant.h"

namespace canju {

// How a record's position maps onto its canonical form. The four transforms
// form a group in which each is its own inverse, so the relation between two
// records with the same canonical form is the xor of their transforms.
enum PositionTransform : uint8_t {
  kTransformIdentity = 0,
  kTransformMirror = 1,      // left-right reflection (mirror-symmetric variants only)
  kTransformColorFlip = 2,   // colours swapped and board turned
  kTransformColorFlipMirror = 3,
};

// "exact", "mirrored", "colours swapped", "colours swapped + mirrored".
const char* TransformName(uint8_t transform);

struct PositionKey {
  // Board, side to move, castling and en-passant fields of the smallest FEN
  // among the position's images; "" when the board field is unreadable.
  std::string canonical;
  uint8_t transform = kTransformIdentity;  // record's position -> canonical
  std::string material;  // Position::Material() of the position as given; "" when unreadable
  bool is_start = false; // the variant's start position (a game, not a composition)
  // Empty when the engine accepts the FEN; otherwise why not. A position the
  // engine rejects (say the side not to move is in check) still gets a key
  // from its board when the board field reads, so a broken diagram is found
  // again like any other.
  std::string problem;
};

// Fails only when not even the board field of `fen` can be read.
Status ComputePositionKey(const Variant& v, const std::string& fen, PositionKey* out);

}  // namespace canju

// Betza-like movement notation: parsing a piece's movement string into atoms.
// The notation (with Canju's extensions) is documented in
// docs/variant-definitions.md.
#pragma once

#include <string>
#include <vector>

#include "variants/status.h"

namespace canju {

enum class AtomMode : uint8_t {
  kLeap,  // jump to the target (optionally lame: blocked by a leg square)
  kRide,  // slide along the step until the first piece
  kHop,   // slide over exactly one screen piece (Xiangqi cannon)
  kGap,   // capture beyond exactly one empty square, passing any pieces (加炮 cannon)
  // Internal, made by the loader: a move-only ride and a capture-only hop
  // along the same line (the Xiangqi cannon) walked once.
  kRideHop,
};

// One step vector in the owner's frame: dy > 0 is forward.
struct Step {
  int dx = 0;
  int dy = 0;
  bool operator==(const Step&) const = default;
};

struct Atom {
  AtomMode mode = AtomMode::kLeap;
  bool lame = false;         // leaps only: blocked by the leg squares
  bool can_move = true;      // to an empty square
  bool can_capture = true;   // onto an enemy piece
  int range = 0;             // riders: max steps, 0 = unlimited
  std::vector<Step> steps;   // expanded and filtered directions (owner frame)
  std::string from_region;   // origin must lie in this region ("" = anywhere)
  bool from_negated = false; //   ... or outside it
  std::string to_region;     // destination must lie in this region
  bool to_negated = false;
  bool double_step = false;  // set by the loader for the implicit pawn double step
  std::string text;          // the source token, for messages
};

// Parses e.g. "mRcpR", "fW sW{from:!home}", "nN", "mQcxQ". On error returns
// InvalidArgument naming the offending token.
Status ParseBetza(const std::string& text, std::vector<Atom>* atoms);

// The squares that must be empty for a lame leap along `s` (owner frame),
// relative to the origin. Orthogonal and diagonal leaps are blocked on every
// intermediate point; oblique leaps (N, C, Z ...) at their first step: the
// orthogonal step along the longer axis (Xiangqi horse), or, when the two
// components differ by one and both are at least 2 (Z = (3,2)), the diagonal
// step (the 用 leaper of Camel Xiangqi).
std::vector<Step> LameLegs(Step s);

}  // namespace canju

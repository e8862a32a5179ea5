// The board field of a FEN ("rnbakabnr/9/..."), shared by the variant loader
// (start position) and Position::FromFen.
#pragma once

#include <cstdint>
#include <string>

#include "variants/types.h"

namespace canju {

class Variant;

// Fills cells[256] with pieces (0 = empty). Ranks are listed from the last
// rank down to rank 0; empty runs are decimal numbers (10 and more allowed).
// On error returns false and sets *error (naming the FEN rank and character).
bool ParsePlacement(const Variant& v, const std::string& text, uint8_t cells[kSquareSlots], std::string* error);

std::string FormatPlacement(const Variant& v, const uint8_t cells[kSquareSlots]);

}  // namespace canju

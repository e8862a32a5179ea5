// Material signatures: "KRKAA" = the first side's pieces, then the second's,
// each side's royal piece first, then by the definition's value (descending,
// definition order on ties) — the order of Position::Material().
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "variants/position.h"
#include "variants/status.h"
#include "variants/variant.h"

namespace canju::tb {

struct Material {
  uint8_t count[2][kMaxKinds] = {};

  static Status Parse(const Variant& v, const std::string& text, Material* out);
  static Material Of(const Position& pos);
  std::string Name(const Variant& v) const;
  Material Flipped() const;  // colours swapped
  int Pieces(Color c) const;
  int Pieces() const { return Pieces(kFirst) + Pieces(kSecond); }
  bool operator==(const Material& o) const;
  bool operator!=(const Material& o) const { return !(*this == o); }
};

// Non-royal kinds in signature order (royal first is implied).
std::vector<int> SignatureOrder(const Variant& v);

// True when the board transform `t` (a square for each square) carries the
// moves of colour `a`'s kind `k` from every square onto the moves of colour
// `b`'s kind `k` from the image square: legal squares, leaps with their
// blocking squares, and rays. Used for the table's symmetries (a == b) and
// for the colour swap.
bool MovesMapOnto(const Variant& v, const std::array<uint8_t, kSquareSlots>& t, Color a, Color b, int k);

// True when swapping the colours and turning the board maps the rules onto
// themselves (Xiangqi, chess): then "KAAKR" is probed in the KRKAA table.
bool ColourSymmetric(const Variant& v);

// The stored form of a material: itself, or its colour flip when the variant
// is colour-symmetric and the flip's first side is the stronger one.
// *flipped tells which.
Material Canonical(const Variant& v, const Material& m, bool* flipped = nullptr);
// The same with ColourSymmetric(v) already known (hot paths).
Material Canonical(const Variant& v, const Material& m, bool colour_symmetric, bool* flipped);

// Materials reachable by one move: each capture of a non-royal piece, each
// promotion, each capture with promotion; canonical, without duplicates.
std::vector<Material> Successors(const Variant& v, const Material& m);

// What a build of `m` reads of each successor: the stored (canonical)
// material and a mask of its sides to move (bit s: side s of the stored
// table), the side left to move by each capture or promotion that leads
// there. The generator reads only those sides; the plan sizes them.
struct SubTableRead {
  Material material;
  unsigned sides = 0;
};
std::vector<SubTableRead> SubTableReads(const Variant& v, const Material& m);

// Every table `m` needs, sub-tables first, ending with `m` (canonical).
std::vector<Material> BuildOrder(const Variant& v, const std::vector<Material>& targets);

}  // namespace canju::tb

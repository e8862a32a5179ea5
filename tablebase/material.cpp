#include "tablebase/material.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <tuple>
#include <vector>

namespace canju::tb {

std::vector<int> SignatureOrder(const Variant& v) {
  std::vector<int> order;
  for (int k = 0; k < v.kind_count(); ++k)
    if (k != v.royal_kind()) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v.kind(a).value > v.kind(b).value; });
  return order;
}

Status Material::Parse(const Variant& v, const std::string& text, Material* out) {
  Material m;
  if (v.royal_kind() < 0) return Status::Unsupported(v.id() + " has no royal piece; tablebases need one");
  const char royal = v.kind(v.royal_kind()).letter;
  int side = -1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    int k = v.KindForLetter(c);
    if (k < 0)
      return Status::InvalidArgument("material '" + text + "': unknown piece letter '" + text[i] + "' at " +
                                     std::to_string(i + 1) + " for " + v.id());
    if (k == v.royal_kind()) {
      if (++side > 1) return Status::InvalidArgument("material '" + text + "': more than two " + royal + " letters");
    } else if (side < 0) {
      return Status::InvalidArgument("material '" + text + "' must start with the royal piece " +
                                     std::string(1, royal));
    }
    ++m.count[side][k];
  }
  if (side != 1)
    return Status::InvalidArgument("material '" + text + "': expected two royal pieces (" + std::string(1, royal) +
                                   "), e.g. " + royal + "R" + royal);
  *out = m;
  return Status::OK();
}

Material Material::Of(const Position& pos) {
  Material m;
  const Variant& v = pos.variant();
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < v.kind_count(); ++k) m.count[c][k] = static_cast<uint8_t>(pos.count(Color(c), k));
  return m;
}

std::string Material::Name(const Variant& v) const {
  std::string out;
  std::vector<int> order = SignatureOrder(v);
  for (int c = 0; c < 2; ++c) {
    for (int i = 0; i < count[c][v.royal_kind()]; ++i) out += v.kind(v.royal_kind()).letter;
    for (int k : order)
      for (int i = 0; i < count[c][k]; ++i) out += v.kind(k).letter;
  }
  return out;
}

Material Material::Flipped() const {
  Material m;
  for (int k = 0; k < kMaxKinds; ++k) m.count[0][k] = count[1][k], m.count[1][k] = count[0][k];
  return m;
}

int Material::Pieces(Color c) const {
  int n = 0;
  for (int k = 0; k < kMaxKinds; ++k) n += count[c][k];
  return n;
}

bool Material::operator==(const Material& o) const {
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < kMaxKinds; ++k)
      if (count[c][k] != o.count[c][k]) return false;
  return true;
}

bool MovesMapOnto(const Variant& v, const std::array<uint8_t, kSquareSlots>& t, Color a, Color b, int k) {
  // A slot's leaps (target, flags, blocking squares in order) and rays
  // (flags, mode, squares), with every square passed through `map`.
  auto leaps = [&](const Slot& s, auto&& map) {
    auto leg = [&](int l) { return l == kNullCell ? static_cast<int>(kNullCell) : map(l); };
    std::multiset<std::tuple<int, int, int, int>> out;
    for (uint32_t i = s.leap_begin; i < s.leap_end; ++i) {
      const LeapEntry& e = v.leaps()[i];
      out.insert({map(e.to), e.flags, std::min(leg(e.leg1), leg(e.leg2)), std::max(leg(e.leg1), leg(e.leg2))});
    }
    return out;
  };
  auto rays = [&](const Slot& s, auto&& map) {
    std::multiset<std::vector<int>> out;
    for (uint32_t i = s.ray_begin; i < s.ray_end; ++i) {
      const RayEntry& r = v.rays()[i];
      std::vector<int> d{r.flags, r.mode};
      for (int j = 0; j < r.len; ++j) d.push_back(map(v.ray_squares()[r.first + j]));
      out.insert(d);
    }
    return out;
  };
  auto moved = [&](int sq) { return static_cast<int>(t[sq]); };
  auto same = [](int sq) { return sq; };
  for (int sq = 0; sq < kSquareSlots; ++sq) {
    if (!v.on_board(sq)) continue;
    const int ts = t[sq];
    if (v.legal_squares(a, k)[sq] != v.legal_squares(b, k)[ts]) return false;
    const Slot& from = v.slot(a, k, sq);
    const Slot& image = v.slot(b, k, ts);
    if (from.leap_end - from.leap_begin != image.leap_end - image.leap_begin ||
        from.ray_end - from.ray_begin != image.ray_end - image.ray_begin)
      return false;
    if (leaps(from, moved) != leaps(image, same) || rays(from, moved) != rays(image, same)) return false;
  }
  return true;
}

bool ColourSymmetric(const Variant& v) {
  std::array<uint8_t, kSquareSlots> flip;
  for (int sq = 0; sq < kSquareSlots; ++sq)
    flip[sq] = static_cast<uint8_t>(v.on_board(sq) ? MakeSquare(FileOf(sq), v.ranks() - 1 - RankOf(sq)) : sq);
  for (int k = 0; k < v.kind_count(); ++k)
    if (!MovesMapOnto(v, flip, kFirst, kSecond, k)) return false;
  return true;
}

namespace {

// Orders a side by its pieces in signature order (more / stronger first).
int CompareSides(const Variant& v, const Material& m) {
  // Earlier kinds in signature order are stronger: map them to larger chars,
  // so that comparing the strings compares the sides piece by piece.
  std::vector<int> order = SignatureOrder(v);
  std::string ka, kb;
  for (size_t i = 0; i < order.size(); ++i) {
    ka += std::string(m.count[0][order[i]], static_cast<char>(100 - i));
    kb += std::string(m.count[1][order[i]], static_cast<char>(100 - i));
  }
  if (ka == kb) return 0;
  return ka > kb ? 1 : -1;
}

}  // namespace

Material Canonical(const Variant& v, const Material& m, bool* flipped) {
  return Canonical(v, m, ColourSymmetric(v), flipped);
}

Material Canonical(const Variant& v, const Material& m, bool colour_symmetric, bool* flipped) {
  bool f = false;
  if (colour_symmetric && CompareSides(v, m) < 0) f = true;
  if (flipped) *flipped = f;
  return f ? m.Flipped() : m;
}

std::vector<SubTableRead> SubTableReads(const Variant& v, const Material& m) {
  std::vector<SubTableRead> out;
  // A move by `mover` into `x` leaves ~mover to move; stored flipped, that
  // is the stored table's side `mover` (the generator's ProbeSub).
  auto add = [&](const Material& x, int mover) {
    bool flip = false;
    const Material c = Canonical(v, x, &flip);
    const unsigned side = 1u << (flip ? mover : 1 - mover);
    for (SubTableRead& r : out)
      if (r.material == c) {
        r.sides |= side;
        return;
      }
    out.push_back({c, side});
  };
  const auto& promos = v.rules().promotion_kinds;
  const bool promotes = v.rules().promotion_region >= 0;
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < v.kind_count(); ++k) {
      if (k == v.royal_kind() || !m.count[1 - c][k]) continue;
      Material x = m;
      --x.count[1 - c][k];
      add(x, c);
      for (int p = 0; p < v.kind_count(); ++p)
        if (v.kind(p).pawn && m.count[c][p] && promotes)
          for (int q : promos) {
            Material y = x;
            --y.count[c][p];
            ++y.count[c][q];
            add(y, c);
          }
    }
    for (int p = 0; p < v.kind_count(); ++p)
      if (v.kind(p).pawn && m.count[c][p] && promotes)
        for (int q : promos) {
          Material y = m;
          --y.count[c][p];
          ++y.count[c][q];
          add(y, c);
        }
  }
  return out;
}

std::vector<Material> Successors(const Variant& v, const Material& m) {
  std::vector<Material> out;
  for (const SubTableRead& r : SubTableReads(v, m)) out.push_back(r.material);
  return out;
}

std::vector<Material> BuildOrder(const Variant& v, const std::vector<Material>& targets) {
  std::vector<Material> order;
  std::function<void(const Material&)> visit = [&](const Material& m) {
    Material c = Canonical(v, m);
    if (std::find(order.begin(), order.end(), c) != order.end()) return;
    for (const Material& s : Successors(v, c)) visit(s);
    order.push_back(c);
  };
  for (const Material& t : targets) visit(t);
  return order;
}

}  // namespace canju::tb

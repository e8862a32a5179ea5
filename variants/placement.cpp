#include "variants/placement.h"

#include <cctype>
#include <cstdio>

#include "variants/variant.h"

namespace canju {

bool ParsePlacement(const Variant& v, const std::string& text, uint8_t cells[kSquareSlots], std::string* error) {
  for (int i = 0; i < kSquareSlots; ++i) cells[i] = 0;
  int rank = v.ranks() - 1, file = 0;
  size_t i = 0;
  auto where = [&]() { return " (FEN rank " + std::to_string(v.ranks() - rank) + ", character " + std::to_string(i + 1) + ")"; };
  if (text.empty()) return *error = "empty board field", false;
  while (i < text.size()) {
    char c = text[i];
    if (c == '/') {
      if (file != v.files()) {
        *error = "rank has " + std::to_string(file) + " files, expected " + std::to_string(v.files()) + where();
        return false;
      }
      --rank;
      file = 0;
      if (rank < 0) return *error = "too many ranks, expected " + std::to_string(v.ranks()) + where(), false;
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int n = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        n = n * 10 + (text[i] - '0');
        ++i;
        if (n > kMaxFiles) break;
      }
      if (n == 0 || file + n > v.files()) return *error = "too many files in rank" + where(), false;
      file += n;
      continue;
    }
    int kind = std::isalpha(static_cast<unsigned char>(c)) ? v.KindForLetter(c) : -1;
    if (kind < 0) {
      // Quote a whole UTF-8 character (or the byte in hex), never half of one.
      std::string shown;
      unsigned char u = static_cast<unsigned char>(c);
      size_t n = u < 0x80 ? 1 : (u >> 5) == 6 ? 2 : (u >> 4) == 14 ? 3 : (u >> 3) == 30 ? 4 : 0;
      bool valid = n > 0 && i + n <= text.size();
      for (size_t k = 1; valid && k < n; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (valid && (n > 1 || std::isprint(u))) {
        shown = "'" + text.substr(i, n) + "'";
      } else {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", u);
        shown = std::string("byte ") + hex;
      }
      *error = "unknown piece " + shown + " for " + v.id() + where();
      return false;
    }
    if (file >= v.files()) return *error = "too many files in rank" + where(), false;
    Color col = std::isupper(static_cast<unsigned char>(c)) ? kFirst : kSecond;
    cells[MakeSquare(file, rank)] = MakePiece(col, kind);
    ++file;
    ++i;
  }
  if (rank != 0) return *error = "board has " + std::to_string(v.ranks() - rank) + " ranks, expected " + std::to_string(v.ranks()), false;
  if (file != v.files()) {
    *error = "last rank has " + std::to_string(file) + " files, expected " + std::to_string(v.files());
    return false;
  }
  return true;
}

std::string FormatPlacement(const Variant& v, const uint8_t cells[kSquareSlots]) {
  std::string out;
  for (int r = v.ranks() - 1; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < v.files(); ++f) {
      uint8_t p = cells[MakeSquare(f, r)];
      if (!p) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty), empty = 0;
      out += v.Letter(p);
    }
    if (empty) out += std::to_string(empty);
    if (r) out += '/';
  }
  return out;
}

}  // namespace canju

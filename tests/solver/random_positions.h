// Small random Xiangqi positions for tests that hold two searches to each
// other: the pieces given (FEN letters) dropped on random legal squares,
// kept when the position is valid and the side to move has a move.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <utility>

#include "variants/position.h"

namespace canju::testing_util {

class RandomPositions {
 public:
  RandomPositions(const Variant& v, std::string pieces, uint64_t seed) : v_(v), pieces_(std::move(pieces)), seed_(seed) {}

  // The next playable position, or false after `tries` failed drops.
  bool Next(Position* out, int tries = 100) {
    for (int i = 0; i < tries; ++i) {
      Position p;
      p.Clear(v_, kFirst);
      for (char c : pieces_) {
        const Color col = std::isupper(static_cast<unsigned char>(c)) ? kFirst : kSecond;
        const int kind = v_.KindForLetter(c);
        for (int t = 0; t < 40; ++t) {
          const int sq = MakeSquare(Roll() % 9, Roll() % 10);
          if (p.empty(sq) && v_.legal_squares(col, kind)[sq]) {
            p.Put(MakePiece(col, kind), sq);
            break;
          }
        }
      }
      if (!p.Validate().ok()) continue;
      MoveList ml;
      p.GenerateLegal(&ml);
      if (ml.empty()) continue;
      *out = p;
      return true;
    }
    return false;
  }

 private:
  int Roll() {
    seed_ = seed_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>(seed_ >> 33);
  }
  const Variant& v_;
  std::string pieces_;
  uint64_t seed_;
};

}  // namespace canju::testing_util

// The move readers on arbitrary text in a few fixed positions (the first byte
// chooses). A text that is read must give a legal move, and that move's
// written forms must read back to it.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_check.h"
#include "variants/notation.h"
#include "variants/registry.h"

using namespace canju;

namespace {

struct Fixed {
  const char* variant;
  const char* fen;
};
const Fixed kPositions[] = {
    {"xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"},
    {"xiangqi", "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"},
    {"xiangqi", "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w"},          // pawns 3 + 2 on two files
    {"xiangqi", "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w"},          // five pawns on a file
    {"xiangqi", "4k4/9/9/9/2p6/4p4/4p4/4p4/9/3K5 b"},            // Black, three on a file
    {"xiangqi", "3k5/9/9/9/9/2B6/9/3A5/R8/R1BAK4 w"},            // tandem rooks, advisors, elephants
    {"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
    {"chess", "1k6/1P6/8/8/Q2Q4/8/8/Q5K1 w - - 0 1"},
    {"cannonchess", "rnbcqkcbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBCQKCBNR w - - 0 1"},
    {"cannonchess", "4k5/1P8/10/10/10/10/10/10/R9/R8K w - - 0 1"},
};
constexpr int kCount = sizeof(kPositions) / sizeof(kPositions[0]);

void CheckRead(const Position& pos, const std::string& text, Status st, Move m) {
  if (!st.ok()) {
    FUZZ_CHECK(!st.message().empty(), "empty error for '%s'", text.c_str());
    return;
  }
  MoveList legal;
  pos.GenerateLegal(&legal);
  FUZZ_CHECK(legal.contains(m), "'%s' gave an illegal move %s", text.c_str(),
             MoveToCoord(pos.variant(), m).c_str());
  Move back;
  if (pos.variant().notation() == NotationStyle::kXiangqi) {
    const std::string chinese = MoveToChinese(pos, m), wxf = MoveToWxf(pos, m);
    FUZZ_CHECK(ParseAnyMove(pos, chinese, &back).ok() && back == m, "'%s' -> %s", text.c_str(), chinese.c_str());
    FUZZ_CHECK(ParseAnyMove(pos, wxf, &back).ok() && back == m, "'%s' -> %s", text.c_str(), wxf.c_str());
  } else {
    const std::string san = MoveToSan(pos, m);
    FUZZ_CHECK(ParseSan(pos, san, &back).ok() && back == m, "'%s' -> %s", text.c_str(), san.c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static Position positions[kCount];
  static bool loaded = false;
  if (!loaded) {
    for (int i = 0; i < kCount; ++i) {
      Status st = Position::FromFen(BuiltinVariant(kPositions[i].variant), kPositions[i].fen, &positions[i]);
      FUZZ_CHECK(st.ok(), "fixed position %d: %s", i, st.ToString().c_str());
    }
    loaded = true;
  }
  const Position& pos = positions[data[0] % kCount];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  Move m;
  CheckRead(pos, text, ParseAnyMove(pos, text, &m), m);
  CheckRead(pos, text, ParseChinese(pos, text, &m), m);
  CheckRead(pos, text, ParseWxf(pos, text, &m), m);
  CheckRead(pos, text, ParseSan(pos, text, &m), m);
  return 0;
}

// Position::FromFen on arbitrary text, for each built-in variant (the first
// byte chooses). A position that loads must write the same FEN back, and
// every legal move must make and unmake cleanly and read back from its
// coordinate and human (Chinese / SAN) notation; the board must draw.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_check.h"
#include "variants/display.h"
#include "variants/notation.h"
#include "variants/registry.h"

using namespace canju;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const char* const kVariants[] = {"xiangqi", "chess", "cannonchess"};
  const Variant& v = BuiltinVariant(kVariants[data[0] % 3]);
  const std::string fen(reinterpret_cast<const char*>(data + 1), size - 1);
  Position pos;
  if (!Position::FromFen(v, fen, &pos).ok()) return 0;

  const std::string written = pos.Fen();
  Position again;
  Status st = Position::FromFen(v, written, &again);
  FUZZ_CHECK(st.ok(), "%s -> %s: %s", fen.c_str(), written.c_str(), st.ToString().c_str());
  FUZZ_CHECK(again.Fen() == written, "%s -> %s", written.c_str(), again.Fen().c_str());
  FUZZ_CHECK(again.key() == pos.key(), "key differs after reload of %s", written.c_str());

  // The board and state texts must be drawable for any loadable position.
  BoardStyle style;
  style.color = (data[0] & 4) != 0;
  style.unicode = (data[0] & 8) != 0;
  FUZZ_CHECK(!RenderBoard(pos, style).empty() && !DescribeState(pos).empty(), "%s", written.c_str());

  MoveList list;
  pos.GenerateLegal(&list);
  for (Move m : list) {
    const std::string coord = MoveToCoord(v, m);
    Move back;
    st = ParseCoordMove(pos, coord, &back);
    FUZZ_CHECK(st.ok() && back == m, "%s in %s: %s", coord.c_str(), written.c_str(), st.ToString().c_str());
    const std::string human = MoveToHuman(pos, m);
    st = ParseAnyMove(pos, human, &back);
    FUZZ_CHECK(st.ok() && back == m, "%s (%s) in %s: %s", human.c_str(), coord.c_str(), written.c_str(),
               st.ToString().c_str());
    StateInfo si;
    pos.DoMove(m, &si);
    // The position after a legal move loads again when its FEN is valid
    // (it may exceed the move-list bound after a promotion).
    Position child;
    const std::string child_fen = pos.Fen();
    if (Position::FromFen(v, child_fen, &child).ok())
      FUZZ_CHECK(child.Fen() == child_fen && child.key() == pos.key(), "%s", child_fen.c_str());
    pos.UndoMove(m, si);
    FUZZ_CHECK(pos.Fen() == written && pos.key() == again.key(), "%s did not undo in %s", coord.c_str(),
               written.c_str());
  }
  return 0;
}

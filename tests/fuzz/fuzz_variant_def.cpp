// Variant::Parse on arbitrary definition text. A definition that loads must
// give a start position that either loads and generates moves that make and
// unmake cleanly, or is refused with a message.
#include <cstdint>
#include <memory>
#include <string>

#include "tests/fuzz/fuzz_check.h"
#include "variants/position.h"
#include "variants/variant.h"

using namespace canju;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<Variant> v;
  Status st = Variant::Parse(text, "fuzz.ini", &v);
  if (!st.ok()) {
    FUZZ_CHECK(st.message().rfind("fuzz.ini", 0) == 0, "error without the file name: %s", st.message().c_str());
    return 0;
  }
  Position pos;
  st = Position::FromFen(*v, v->start_fen(), &pos);
  if (!st.ok()) return 0;
  const std::string fen = pos.Fen();
  MoveList list;
  pos.GenerateLegal(&list);
  for (Move m : list) {
    StateInfo si;
    pos.DoMove(m, &si);
    MoveList replies;
    pos.GenerateLegal(&replies);
    pos.UndoMove(m, si);
    FUZZ_CHECK(pos.Fen() == fen, "%s did not undo", MoveToCoord(*v, m).c_str());
  }
  return 0;
}

// The PGN reader on arbitrary text; what it reads, written back as PGN
// (ICCS and Chinese), reads back to the same trees and comments.
#include "tests/fuzz/import_check.h"

using namespace canju;

namespace {
std::string Tree(const std::vector<MoveNode>& nodes) {
  std::string s;
  for (const MoveNode& n : nodes) s += "(" + n.move + "{" + n.comment + "}" + Tree(n.next) + ")";
  return s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ReadResult r = fuzz::ReadAndCheck(data, size, Format::kPgn, "fuzz.pgn");
  std::vector<Record> good;
  for (const Record& rec : r.records)
    if (!rec.tags.count(kImportErrorTag)) good.push_back(rec);
  if (good.empty()) return 0;
  for (PgnMoveStyle style : {PgnMoveStyle::kIccs, PgnMoveStyle::kChinese}) {
    std::string text;
    Status st = WritePgn(good, style, &text);
    FUZZ_CHECK(st.ok(), "WritePgn: %s", st.ToString().c_str());
    ReadResult back;
    ReadCollectionData("back.pgn", text, Format::kPgn, &back);
    FUZZ_CHECK(back.records.size() == good.size(), "%zu records written, %zu read back:\n%s", good.size(),
               back.records.size(), text.c_str());
    for (size_t i = 0; i < good.size(); ++i) {
      FUZZ_CHECK(back.records[i].fen == good[i].fen, "%s vs %s", back.records[i].fen.c_str(), good[i].fen.c_str());
      FUZZ_CHECK(Tree(back.records[i].moves) == Tree(good[i].moves), "tree differs after a round trip:\n%s\n%s\n%s",
                 Tree(good[i].moves).c_str(), Tree(back.records[i].moves).c_str(), text.c_str());
      FUZZ_CHECK(back.records[i].comment == good[i].comment, "opening comment differs:\n%s", text.c_str());
    }
  }
  return 0;
}

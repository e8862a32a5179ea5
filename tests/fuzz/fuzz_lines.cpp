// The line-list, FEN-list and tagged-FEN readers on arbitrary text (the
// first byte chooses); a FEN list written back reads the same main lines.
#include "tests/fuzz/import_check.h"

using namespace canju;

namespace {
std::string MainLine(const Record& r) {
  std::string s;
  for (const std::vector<MoveNode>* n = &r.moves; !n->empty(); n = &(*n)[0].next) s += (*n)[0].move + " ";
  return s;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const Format kFormats[] = {Format::kLineList, Format::kFenList, Format::kTaggedFen};
  ReadResult r = fuzz::ReadAndCheck(data + 1, size - 1, kFormats[data[0] % 3], "fuzz.lines");
  std::vector<Record> good;
  for (const Record& rec : r.records)
    if (!rec.tags.count(kImportErrorTag)) good.push_back(rec);
  if (good.empty()) return 0;
  std::string text;
  FUZZ_CHECK(WriteFenList(good, &text).ok(), "WriteFenList failed");
  ReadResult back;
  ReadCollectionData("back.fen", text, Format::kFenList, &back);
  FUZZ_CHECK(back.records.size() == good.size(), "%zu records written, %zu read back:\n%s", good.size(),
             back.records.size(), text.c_str());
  for (size_t i = 0; i < good.size(); ++i) {
    FUZZ_CHECK(back.records[i].fen == good[i].fen, "%s vs %s", back.records[i].fen.c_str(), good[i].fen.c_str());
    FUZZ_CHECK(MainLine(back.records[i]) == MainLine(good[i]), "main line %s vs %s",
               MainLine(back.records[i]).c_str(), MainLine(good[i]).c_str());
  }
  return 0;
}

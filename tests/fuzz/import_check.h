// What every reader must guarantee on any input, checked by the reader
// fuzz targets: no crash or hang (libFuzzer), every string valid UTF-8
// (records go to JSON and the web page), every kept move legal when
// replayed from the record's FEN, no line deeper than the importer's cap.
#pragma once

#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/importer.h"
#include "importer/text.h"
#include "tests/fuzz/fuzz_check.h"
#include "variants/registry.h"

namespace canju::fuzz {

inline void CheckTree(Position& pos, const std::vector<MoveNode>& nodes, int depth, const std::string& src) {
  FUZZ_CHECK(depth <= importer::kMaxPlies, "%s: line deeper than %d", src.c_str(), importer::kMaxPlies);
  for (const MoveNode& n : nodes) {
    FUZZ_CHECK(text::IsValidUtf8(n.comment), "%s: comment not UTF-8", src.c_str());
    Move m;
    Status st = ParseCoordMove(pos, n.move, &m);
    FUZZ_CHECK(st.ok(), "%s: kept move %s does not replay in %s: %s", src.c_str(), n.move.c_str(), pos.Fen().c_str(),
               st.ToString().c_str());
    StateInfo si;
    pos.DoMove(m, &si);
    CheckTree(pos, n.next, depth + 1, src);
    pos.UndoMove(m, si);
  }
}

inline void CheckResult(const ReadResult& r) {
  for (const ImportIssue& i : r.issues)
    FUZZ_CHECK(text::IsValidUtf8(i.where) && text::IsValidUtf8(i.reason), "issue not UTF-8: %s",
               IssueToString(i).c_str());
  for (const Record& rec : r.records) {
    for (const std::string* s : {&rec.fen, &rec.collection, &rec.title, &rec.author, &rec.comment, &rec.source})
      FUZZ_CHECK(text::IsValidUtf8(*s), "record field not UTF-8 in %s", rec.source.c_str());
    for (const auto& [k, v] : rec.tags) FUZZ_CHECK(text::IsValidUtf8(k) && text::IsValidUtf8(v), "tag not UTF-8");
    if (rec.tags.count(kImportErrorTag)) {
      FUZZ_CHECK(rec.moves.empty(), "a broken record kept moves");
      continue;
    }
    Position pos;
    Status st = Position::FromFen(BuiltinVariant("xiangqi"), rec.fen, &pos);
    FUZZ_CHECK(st.ok(), "kept FEN %s does not load: %s", rec.fen.c_str(), st.ToString().c_str());
    CheckTree(pos, rec.moves, 0, rec.source);
  }
}

// Reads `data` as `format` and checks the result.
inline ReadResult ReadAndCheck(const uint8_t* data, size_t size, Format format, const char* name) {
  ReadResult r;
  ReadCollectionData(name, std::string(reinterpret_cast<const char*>(data), size), format, &r);
  CheckResult(r);
  return r;
}

}  // namespace canju::fuzz

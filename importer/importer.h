// Reading collections: every format yields Records (puzzles/record.h).
// Errors are per file (and per game inside a file) and never stop a batch.
#pragma once

#include <string>
#include <vector>

#include "puzzles/record.h"
#include "variants/status.h"

namespace canju {

enum class Format { kUnknown, kXqf, kCbr, kCbl, kDhtmlXq, kPgn, kFenList, kLineList, kTaggedFen };

// Guesses the format from the extension and the first bytes.
Format DetectFormat(const std::string& path, const std::string& head);
const char* FormatName(Format f);

// A problem found while reading: the file, where in it, and what.
struct ImportIssue {
  std::string file;
  std::string where;   // "game 3, ply 17 (h2e2)", "byte 1040", "line 12"
  std::string reason;
  bool fatal = false;  // the whole file (or game) could not be read
};

struct ReadResult {
  std::vector<Record> records;
  std::vector<ImportIssue> issues;
};

// Reads one file of any supported format. Moves are checked against the
// rules; an illegal move ends its branch (what came before is kept) and is
// reported as an issue. Returns non-OK only when nothing could be read.
Status ReadCollectionFile(const std::string& path, ReadResult* out);

// Reads from memory (tests, fuzzing); `name` is used in messages and to
// guess the format when `format` is kUnknown.
Status ReadCollectionData(const std::string& name, const std::string& data, Format format, ReadResult* out);

}  // namespace canju

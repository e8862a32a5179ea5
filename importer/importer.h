// Reading collections: every format yields Records (puzzles/record.h).
// Errors are per file (and per game inside a file) and never stop a batch.
// Formats, quirks and decisions: docs/import.md.
#pragma once

#include <cstdint>
#include <functional>
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

// "file: where: reason" — one line for logs and the CLI.
std::string IssueToString(const ImportIssue& issue);

struct ReadResult {
  std::vector<Record> records;
  std::vector<ImportIssue> issues;
};

// A record whose start position the engine rejects (a piece on a square it
// can never reach, the side not to move in check, ...) is kept so that users
// see it listed as broken: its `fen` is the position as the file gives it,
// it has no moves, and this tag holds the reason. An issue reports it too.
inline constexpr const char* kImportErrorTag = "import_error";

// Reads one file of any supported format. Moves are checked against the
// rules; an illegal move ends its branch (what came before is kept) and is
// reported as an issue. Returns non-OK only when nothing could be read.
Status ReadCollectionFile(const std::string& path, ReadResult* out);

// Reads from memory (tests, fuzzing); `name` is used in messages and to
// guess the format when `format` is kUnknown.
Status ReadCollectionData(const std::string& name, const std::string& data, Format format, ReadResult* out);

// --- folders ---------------------------------------------------------------

struct ReadOptions {
  // Overrides the collection name of every record (otherwise: the file's
  // folder, or the library / line-list name for multi-game files).
  std::string collection;
};

// What reading one file gave.
struct FileResult {
  std::string path;
  Format format = Format::kUnknown;
  Status status;        // non-OK: nothing could be read (the issues say why)
  ReadResult result;    // records and issues (also when status is not OK)
};

// Collection files under `path` (a file or a folder, walked recursively),
// in a stable order (sorted by path). Files whose format is unknown
// (README.md, .doc, ...) are left out and counted in `skipped` if given.
Status ListCollectionFiles(const std::string& path, std::vector<std::string>* files,
                           std::vector<std::string>* skipped = nullptr);

// Reads every collection file under `path` in ListCollectionFiles order and
// hands each result to `on_file` (with its index and the total, for progress
// bars). Files are independent: a broken file is reported through its
// FileResult and the walk goes on. `on_file` returns false to stop early
// (the walk then returns Aborted). Returns non-OK only when `path` itself
// cannot be read.
using FileCallback = std::function<bool(FileResult&& file, size_t index, size_t total)>;
Status ReadCollectionPath(const std::string& path, const ReadOptions& options, const FileCallback& on_file);

// Same for one file, with the options applied.
Status ReadCollectionFile(const std::string& path, const ReadOptions& options, ReadResult* out);

// --- writers ---------------------------------------------------------------

enum class PgnMoveStyle { kIccs, kChinese, kWxf };

// Writes records as PGN games (xqbase convention: [Game "Chinese Chess"],
// [FEN], [Format]); variations in parentheses, comments in braces. Metadata
// goes to tags (Event = collection, Round = number, Title, Author, Claim,
// Source, other tags as they are) so that reading the text back gives the
// same records. Records whose moves cannot be replayed produce an error.
Status WritePgn(const std::vector<Record>& records, PgnMoveStyle style, std::string* out);

// Writes one line per record: the FEN, then EPD-like operations
// (id "title"; collection "..."; number N; claim "win"; pv "h2e2 h9g7 ...")
// that the FEN-list reader reads back. Only the main line survives.
Status WriteFenList(const std::vector<Record>& records, std::string* out);

}  // namespace canju

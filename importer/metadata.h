// Metadata found in titles, file names and folders: claimed results
// (红先胜, 正和, 先负, 车胜士象全, a 先胜局 folder), numbers (第020局, 070),
// collection names. Decisions: docs/import.md, "Claims" and "Metadata".
#pragma once

#include <string>
#include <string_view>

#include "puzzles/record.h"
#include "variants/types.h"

namespace canju::meta {

// A claimed result as a source states it: from Red's point of view
// (红胜, an XQF result byte) or from the side to move's (先胜, 先胜局).
struct ClaimHint {
  Claim claim = Claim::kUnknown;
  bool mover_view = false;
  std::string origin;  // where it was found, for messages: "title word 红胜"
  bool known() const { return claim != Claim::kUnknown; }
};

// The claim stated in a title or file name, if any: 红先胜 / 红胜 / 黑先负 /
// 正和 / 红先和 / 先胜 / 先负 / ..., or an endgame name such as 车胜士象全
// or 马兵和炮 (the first side named is Red's). `word` receives the words
// found (empty for endgame names, which stay in the title).
ClaimHint ClaimFromText(std::string_view text, std::string* word = nullptr);
// 先胜局 / 先和局 / 先负局 (also 胜局 / 和局 / 负局) name the side to move's result.
ClaimHint ClaimFromFolder(std::string_view folder);
// XQF, CBR and PGN results: 1 Red wins, 2 Black wins, 3 draw.
ClaimHint ClaimFromRedResult(int result, const std::string& origin);
// PGN Result tag: "1-0", "0-1", "1/2-1/2".
ClaimHint ClaimFromPgnResult(std::string_view result);
// The claim for the side to move.
Claim ForSideToMove(const ClaimHint& hint, Color side_to_move);
// Result text for PGN from Red's point of view: "1-0", "0-1", "1/2-1/2", "*".
const char* PgnResult(Claim claim, Color side_to_move);

// 第020局 / 第20局 outside parentheses: the number, and `rest` (if given)
// the text without it; 0 if none.
int NumberFromTitle(std::string_view title, std::string* rest = nullptr);
// Same, giving the text before and after 第N局.
int SplitAtNumber(std::string_view title, std::string* before, std::string* after);
// The first run of three or more ASCII digits in a file stem (070 in
// 马兵胜士象全070, 001 in 非连杀小局001参考着法); 0 if none.
int NumberFromStem(std::string_view stem, std::string* rest = nullptr);

// A title cleaned of 第N局 (and what precedes it, returned in `series` if
// given: "竹香斋初集－第56局两仙传道" -> "两仙传道", series "竹香斋初集") and
// of claim words, spaces collapsed.
std::string CleanTitle(std::string_view title, std::string* series = nullptr);

// Path helpers (paths are '/'-separated UTF-8 strings).
std::string FileName(std::string_view path);       // "a/b/c.xqf" -> "c.xqf"
std::string FileStem(std::string_view path);       // "a/b/c.xqf" -> "c"
std::string FileExtension(std::string_view path);  // "a/b/c.XQF" -> "xqf" (lower case)
// The folder that names a file's collection: its parent, or the parent's
// parent when the parent is a result folder (先胜局 ...); "" if none.
std::string CollectionFromPath(std::string_view path);
// The result folder a file sits in ("先胜局"), or "".
std::string ResultFolderOf(std::string_view path);

}  // namespace canju::meta

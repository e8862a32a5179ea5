// Probing endgame tablebases: the API the solver, the CLI and the web page
// use. One file per material (docs/tablebase.md); a TablebaseSet opens every
// complete table of one variant in a directory, verifies each file's
// checksum when the table is first used, and answers probes from a small
// block cache. All const methods are thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "variants/position.h"
#include "variants/status.h"
#include "variants/variant.h"

namespace canju::tb {

enum class Wdl : int8_t { kLoss = -1, kDraw = 0, kWin = 1 };
const char* WdlName(Wdl w);  // "loss", "draw", "win"

// From the side to move's point of view.
struct ProbeResult {
  Wdl wdl = Wdl::kDraw;
  // Plies to mate with best play: 0 = the side to move is mated (or
  // stalemated where that loses) now, 1 = mate in one; 0 for draws. In a
  // position lost by the perpetual-check rule it counts the line in which the
  // checking side stops checking at once (docs/tablebase.md).
  int dtm_plies = 0;
  bool by_rule = false;  // a loss decided by the perpetual-check rule
};

class TableFile;

class TablebaseSet {
 public:
  TablebaseSet();
  ~TablebaseSet();
  TablebaseSet(const TablebaseSet&) = delete;
  TablebaseSet& operator=(const TablebaseSet&) = delete;

  // Finds the complete tables of `v` in `dir` (temporary files of an
  // interrupted build are ignored). Headers are read now; a file's checksum
  // is verified the first time it is probed. `v` must outlive the set.
  Status Open(const std::string& dir, const Variant& v, size_t cache_blocks = 256);

  // True if a table covers this material (as given or colour-flipped), e.g.
  // "KRKAA" or "KAAKR".
  bool Has(const std::string& material) const;
  bool Has(const Position& pos) const;
  // Canonical names of the tables found, sorted.
  std::vector<std::string> Materials() const;

  // WDL and distance to mate of a legal position. NotFound if no table covers
  // its material; Corruption if the file fails its checksum or a block does
  // not decode (never a wrong answer).
  Status Probe(const Position& pos, ProbeResult* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace canju::tb

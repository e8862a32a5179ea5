// The table file: header (magic, format version, variant and its rule
// fingerprint, rule set, material, index scheme, statistics), a block offset
// table, zstd blocks of values that decode independently, and an XXH64 of
// everything before it. Written to a temporary name and renamed when done.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tablebase/index.h"
#include "tablebase/probe.h"
#include "variants/status.h"

namespace canju::tb {

constexpr uint32_t kFormatVersion = 1;
constexpr char kFileSuffix[] = ".ctb";

// Stored value of one entry (from the side to move's point of view):
// 0 = illegal or unused entry (in the generator; files repeat the value
// before it there, and probes never read it), 1 = draw,
// 2 + 2 * dtm + rule: a win (dtm odd) or loss (dtm even) in dtm plies;
// rule = 1 marks a loss decided by the perpetual-check rule.
constexpr uint16_t kValueIllegal = 0, kValueDraw = 1;
inline uint16_t EncodeValue(int dtm, bool rule) { return static_cast<uint16_t>(2 + 2 * dtm + (rule ? 1 : 0)); }
inline ProbeResult DecodeValue(uint16_t v) {
  ProbeResult r;
  if (v < 2) return r;
  int dtm = (v - 2) >> 1;
  r.dtm_plies = dtm;
  r.wdl = (dtm & 1) ? Wdl::kWin : Wdl::kLoss;
  r.by_rule = ((v - 2) & 1) != 0;
  return r;
}

struct SideStats {
  uint64_t win = 0, draw = 0, loss = 0, illegal = 0;
  uint32_t longest_win = 0;  // plies
  uint64_t longest_win_index = kNoIndex;
};

struct TableHeader {
  uint32_t version = kFormatVersion;
  std::string variant_id;
  uint64_t variant_fingerprint = 0;
  std::string rules;         // human-readable rule set, repetition rules included
  std::string material;
  std::string index_scheme;  // Indexer::Describe()
  uint64_t entries = 0;      // per side to move
  uint32_t value_bytes = 1;
  uint32_t block_entries = 0;
  uint32_t orders = 0;       // perpetual-check orders applied
  SideStats stats[2];
  // Counting each position once (a board and its mirror image are one).
  uint64_t positions() const {
    uint64_t n = 0;
    for (const auto& s : stats) n += s.win + s.draw + s.loss;
    return n;
  }
};

// What identifies the rules a table was built under: board, pieces, rule
// flags. A table opened with a variant of another fingerprint is refused.
uint64_t VariantFingerprint(const Variant& v);

// Why a build refuses rules.perpetual_chase = loss: the tables follow the
// rules RulesDescription names, with chasing not applied; the solver reads
// them under either setting (their draws only where chasing is a draw).
inline constexpr const char* kNoChaseTables =
    "tables do not model perpetual chasing (rules.perpetual_chase = loss); build them without it: the solver "
    "with --set rules.perpetual_chase=loss uses their wins and losses, not their draws";
std::string RulesDescription(const Variant& v);
std::string TableFileName(const Variant& v, const std::string& material);  // "KRKAA.xiangqi.ctb"

// Bytes per entry a file stores for values up to `max_value`.
inline uint32_t ValueBytes(uint16_t max_value) { return max_value < 256 ? 1 : 2; }

// Writes `values` (one vector per side to move) to `path` through a
// temporary file in the same directory, then renames it.
Status WriteTable(const std::string& path, TableHeader header, const std::vector<uint16_t> values[2],
                  int compression_level = 9);
// The same with the values made block by block: fill(side, begin, end, out)
// writes the values of entries [begin, end). Compressed blocks go to the file
// as they are done (in order), so memory holds only a few blocks; the block
// offsets are written last and the checksum is taken by reading the file back.
using BlockFill = std::function<void(int side, uint64_t begin, uint64_t end, uint16_t* out)>;
Status WriteTableBlocks(const std::string& path, TableHeader header, uint16_t max_value, const BlockFill& fill,
                        int compression_level = 9, int threads = 0);

// A table file opened for probing: header and offsets are read at Open, the
// checksum on the first Verify (done by TablebaseSet before the first probe).
class TableFile {
 public:
  static Status Open(const std::string& path, std::unique_ptr<TableFile>* out);
  const TableHeader& header() const { return header_; }
  const std::string& path() const { return path_; }
  Status Verify();  // whole-file checksum
  // Decompresses block `b` of side `side` into `out` (block_entries values,
  // fewer in the last block).
  Status ReadBlock(int side, uint64_t block, std::vector<uint16_t>* out) const;
  uint64_t blocks_per_side() const { return blocks_per_side_; }
  // Reads and verifies the whole table into memory (illegal entries hold
  // the value before them: test legality first).
  Status ReadAll(std::vector<uint16_t> values[2]);
  // The same at the file's width (header().value_bytes per entry,
  // little-endian), for the sides to move in `sides` (bit s: side s; the
  // others are left empty).
  Status ReadAllRaw(std::vector<uint8_t> raw[2], unsigned sides = 3);
  ~TableFile();

 private:
  // Reads and decompresses one block into dst (room for a whole block);
  // *count is its number of entries (the last block may be short).
  Status DecodeBlock(int side, uint64_t block, uint8_t* dst, uint64_t* count) const;

  std::string path_;
  int fd_ = -1;
  TableHeader header_;
  uint64_t file_size_ = 0;
  uint64_t data_start_ = 0;
  uint64_t blocks_per_side_ = 0;
  std::vector<uint64_t> offsets_;
  bool verified_ = false;
};

}  // namespace canju::tb

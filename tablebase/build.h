// Building tables: the plan (every sub-table, in dependency order, with its
// size and peak memory), skipping complete tables, refusing builds that would
// not fit in memory, and writing each table atomically (temporary name, then
// rename), so an interrupted build resumes with the tables still missing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tablebase/format.h"
#include "tablebase/generator.h"
#include "tablebase/material.h"

namespace canju::tb {

// Cell layouts (cells.h): dense (one byte per entry and side, the fastest)
// or compact (one byte per legal entry plus a bitmap: about 0.6 bytes per
// entry and side in KRNKR, for about 5% more time on two threads). Auto takes
// dense when it fits in memory, else compact.
enum class CellLayout { kAuto, kDense, kCompact };

struct PlanItem {
  Material material;
  std::string name;
  uint64_t entries = 0;     // per side to move
  uint64_t peak_bytes = 0;  // estimated peak memory of its build, dense cells
  uint64_t compact_peak_bytes = 0;  // the same with compact cells (legality sampled)
  uint64_t sub_bytes = 0;  // the part of both that is the sub-tables and the process
  // The same part with the sub-tables not yet built at one byte an entry
  // (the least a file stores) instead of two: the bound below which a
  // build cannot fit, whatever widths its sub-tables turn out to have.
  uint64_t low_sub_bytes = 0;
  bool complete = false;    // a complete, verified file is already there
  uint64_t value_bytes = 0;  // that file's bytes per entry (0: not complete)
  std::string note;         // why an existing file is rebuilt
};

struct BuildOptions {
  std::string dir;
  int threads = 0;             // 0: OpenMP's default
  int compression_level = 9;
  uint64_t memory_limit = 0;   // 0: the memory available now
  CellLayout cells = CellLayout::kAuto;
  // Passed to GeneratorOptions (0: the generator's own choice); benchmarks
  // set a small value to load the overflow map (tablebase_bench).
  int max_cell_distance = 0;
  ProgressFn progress;
  std::function<void(const std::string&)> log;  // one line per table
  // Per table and phase: wall and CPU seconds, peak RSS so far (bytes).
  std::function<void(const std::string& table, const std::string& phase, double wall_s, double cpu_s,
                     uint64_t peak_rss)>
      phase_log;
};

struct BuildReport {
  std::string name;
  double seconds = 0;
  uint64_t entries = 0;
  uint64_t file_bytes = 0;
  int orders = 0;
  bool skipped = false;
  bool compact_cells = false;  // the layout it was built with
};

Status MakePlan(const Variant& v, const std::vector<std::string>& targets, const std::string& dir,
                std::vector<PlanItem>* plan);
// The part of `plan` that `targets` need (each with its sub-tables), in the
// plan's order: a plan made once for many tables, narrowed to those kept,
// without sampling the sizes and reading the directory again. Every target
// must be in `plan`.
Status SubPlan(const Variant& v, const std::vector<PlanItem>& plan, const std::vector<std::string>& targets,
               std::vector<PlanItem>* out);
uint64_t AvailableMemory();
// The layout a table of the plan is built with under `cells` and a memory
// limit (0: none), and its estimated peak.
CellLayout ChooseLayout(const PlanItem& item, CellLayout cells, uint64_t limit);
inline uint64_t PeakBytes(const PlanItem& item, CellLayout chosen) {
  return chosen == CellLayout::kCompact ? item.compact_peak_bytes : item.peak_bytes;
}
// The item with its sub-tables not yet built counted at one byte an entry
// (low_sub_bytes): the least its build can take. Equal to `item` when all
// its sub-tables are complete.
PlanItem LowerBound(const PlanItem& item);
// Builds the incomplete tables of the plan in order. Up front it refuses,
// with nothing built, a plan one of whose tables cannot fit even at its
// lower bound (LowerBound, with the layout chosen for it). Just before each
// table, once its sub-tables are built and their widths known, the estimate
// is exact: the layout is chosen again, and a table that does not fit then
// is refused, the tables built so far kept (a later run skips them).
Status BuildPlan(const Variant& v, const std::vector<PlanItem>& plan, const BuildOptions& opts,
                 std::vector<BuildReport>* reports = nullptr);

// The header of a complete table in `dir` (checksum verified).
Status ReadTableHeader(const Variant& v, const std::string& dir, const std::string& material, TableHeader* out,
                       std::string* path = nullptr);

}  // namespace canju::tb

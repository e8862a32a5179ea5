// Retrograde generation of one table (internal to tablebase/). The phases
// live in small files: generate.cpp (set-up, initialisation from captures and
// mates, un-move propagation by distance, statistics, writing),
// perpetual.cpp (the perpetual-check orders), distances.cpp (distances once
// the rule has decided results), verify.cpp (every value against its
// successors). board.h has the table-specialised boards, cells.h the cell
// layouts.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tablebase/board.h"
#include "tablebase/cells.h"
#include "tablebase/format.h"
#include "tablebase/index.h"
#include "tablebase/material.h"
#include "variants/position.h"

namespace canju::tb {

struct Progress {
  std::string table;
  std::string phase;
  uint64_t done = 0, total = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

struct GeneratorOptions {
  // Counter codes per cell (0: as many as the table needs, at most 60). Tests
  // set small values to exercise the overflow map.
  int counter_codes = 0;
  // The longest distance kept in a cell (0: as long as the codes allow).
  // Tests set small values to send distances to the overflow map.
  int max_cell_distance = 0;
  // Every entry is also checked against the engine's own move generator
  // when the table has at most this many entries per side; bigger tables
  // check a fixed sample (one entry in kEngineSample).
  uint64_t engine_check_below = 1 << 20;
  // Cells only for legal entries (cells.h, CompactCells): about 0.6 instead
  // of 1 byte per entry and side in KRNKR, for about 5% more time on two
  // threads.
  bool compact_cells = false;
  // A side's later perpetual-check orders grow S from the candidates flagged
  // since its previous order (perpetual.cpp, Grow); false seeds S with every
  // candidate and its targets each time, the plain way, which tests compare
  // against.
  bool grow_sets = true;
  // Tests of the verification pass: before it runs, the value of this entry
  // with this side to move is made wrong (a distance two plies longer, a
  // draw a win in one). Entry ~0 (the default): nothing is touched.
  uint64_t damage_entry = ~0ULL;
  int damage_side = 0;
  // Called at the end of each phase: its wall and CPU seconds (all threads)
  // and the process's peak RSS so far (`canju tb build --phases`).
  std::function<void(const std::string& phase, double wall_s, double cpu_s, uint64_t peak_rss_bytes)> phase_log;
};

// Wall and CPU time of the process since the last lap.
class PhaseClock {
 public:
  PhaseClock() { Lap(); }
  // Seconds since the previous call: wall, CPU.
  std::pair<double, double> Lap();
  static uint64_t PeakRss();     // bytes (getrusage)
  static uint64_t CurrentRss();  // bytes (/proc/self/statm)

 private:
  double wall_ = 0, cpu_ = 0;
};

// The generation of one table, whatever its cell layout.
class TableGenerator {
 public:
  virtual ~TableGenerator() = default;
  // Sub-tables must be finished files in `dir` (BuildOrder's order).
  virtual Status Init(const std::string& dir) = 0;
  virtual Status Run() = 0;  // initialise, propagate, perpetual-check orders, verify
  virtual Status Write(const std::string& path, int compression_level) = 0;
  virtual const Indexer& index() const = 0;
  // The header as written (value_bytes: the file's width, once Write is done).
  virtual const TableHeader& header() const = 0;
  virtual int orders() const = 0;
  // After Init: each sub-table read (canonical name) and the mask of its
  // sides to move read (bit s: side s), as SubTableReads plans them.
  virtual const std::map<std::string, unsigned>& sub_table_sides() const = 0;
};

// opts.compact_cells chooses the layout (cells.h).
std::unique_ptr<TableGenerator> MakeGenerator(const Variant& v, const Material& m, int threads, ProgressFn progress,
                                              GeneratorOptions opts = {});

// Cells: DenseCells or CompactCells (cells.h); the phases are instantiated
// for both at the end of their files.
template <class Cells>
class Generator final : public TableGenerator {
 public:
  Generator(const Variant& v, const Material& m, int threads, ProgressFn progress, GeneratorOptions opts = {});
  ~Generator() override;

  Status Init(const std::string& dir) override;
  Status Run() override;
  Status Write(const std::string& path, int compression_level) override;

  const Indexer& index() const override { return index_; }
  const TableHeader& header() const override { return header_; }
  int orders() const override { return orders_; }
  const std::map<std::string, unsigned>& sub_table_sides() const override { return sub_sides_; }

  static constexpr uint64_t kEngineSample = 257;

 private:
  static constexpr int kBatch = 128;
  struct Work {
    Board b, aux, scratch;
    TableMoves moves;  // ListMoves
    uint64_t entries[kBatch], places[kBatch];  // ForEachPredecessorCell's batch
    std::unique_ptr<Work> engine;  // lazily: a Position for the engine checks
  };

  // The legal predecessors of w.b (x to move there) with their cells'
  // places: f(entry, place). They are taken in batches whose bitmap words
  // are prefetched as they are found and whose cells are prefetched once
  // placed, so that the two dependent reads of each (bitmap word, then
  // cell) overlap across the batch instead of waiting one by one.
  template <class F>
  __attribute__((always_inline)) void ForEachPredecessorCell(Work& w, Color x, F&& f) {
    const Cells& cells = cells_[x];
    constexpr bool compact = Cells::kNeedsLegality;
    int n = 0;
    auto flush = [&] {
      if constexpr (compact)
        for (int k = 0; k < n; ++k) {
          w.places[k] = cells.Place(w.entries[k]);
          if (w.places[k] != kNoPlace) cells.PrefetchCell(w.places[k]);
        }
      for (int k = 0; k < n; ++k) {
        const uint64_t place = compact ? w.places[k] : w.entries[k];
        if (place != kNoPlace) f(w.entries[k], place);
      }
      n = 0;
    };
    geo_.ForEachPredecessor(w.b, w.scratch, x, [&](uint64_t j) {
      // Dense cells are prefetched as found too: each update ends in a
      // locked compare-and-swap, which later loads cannot pass, so without
      // it every update's miss would wait for the one before.
      if constexpr (compact) cells.PrefetchPlace(j);
      else cells.PrefetchCell(j);
      w.entries[n++] = j;
      if (n == kBatch) flush();
    });
    flush();
  }

  // A quiet move of `side` on b (its entry set) is legal exactly when it
  // leads to a legal entry for the other side to move (the mover's royal
  // not attacked): the other side's cells answer with one read instead of a
  // board test, once they mark legality (compact: from the start; dense:
  // once initialised, a legal cell is never 0).
  __attribute__((always_inline)) bool QuietLegal(const Board& b, Color side, int slot, int to, bool in_check) const {
    if (geo_.SurelyLegal(b, side, slot, to, in_check)) return true;
    const uint64_t j = geo_.QuietSuccessor(b, slot, to);
    return j != kNoIndex && cells_[~side].IsLegal(j);
  }

  // Did the move into b (`to_move` to move there) give check? Asked at most
  // once per resolved position, and only by the updates that need it:
  // `known` caches the answer (-1: not asked yet).
  bool MovedIntoCheck(const Board& b, Color to_move, int8_t& known) const {
    if (known < 0) known = geo_.InCheck(b, to_move);
    return known;
  }

  void EndPhase(const char* phase);

  void ForChunks(const std::string& phase, const std::function<void(Work&, Color, uint64_t, uint64_t)>& body);
  // Chunks of entries with both sides to move in one body (one decode serves both).
  void ForRanges(const std::string& phase, const std::function<void(Work&, uint64_t, uint64_t)>& body);

  // --- plain retrograde analysis and distance passes (distance layout) ---
  Status Initialise();
  // Level by level: the results at distance d - 1 update their predecessors.
  // final_pass: the results are known (distances.cpp), only distances are found.
  void Propagate(bool final_pass);
  void PropagateBigLevel(int d, bool final_pass);
  void ProcessResolved(Work& w, Color side, uint64_t idx, int dist, bool final_pass);
  void SetWin(Color side, uint64_t idx, uint64_t place, int dist, bool final_pass);
  // via_check: does the move into w.b give check (-1: not asked yet)?
  void Decrement(Work& w, Color side, uint64_t idx, uint64_t place, int level, bool final_pass, int8_t& via_check);
  // Over legal captures/promotions (non-checking ones only if quiet_only):
  // 1 + the opponent's win distance; -1 if none.
  int CaptureLossMax(Board& b, Color s, bool quiet_only) const;
  void StoreDist(Color side, uint64_t idx, int d, bool rule);
  int DistAt(Color side, uint64_t idx, uint8_t code);  // -1 if not a distance
  void Finish();  // open cells -> draws

  // --- perpetual check (perpetual.cpp; result layout) ---
  Status Perpetual();
  bool AnyCandidate();
  void ToResultLayout();
  void MarkCandidates(Color x, bool with_targets);
  void Grow(Color x);
  void Prune(Color x);
  uint64_t ResolveSet(Color x);
  void PropagateResults();
  // S's member on b leaves it: its counter, flagged or (candidate) known to
  // be a candidate.
  uint8_t Recount(Board& b, Color s, uint64_t idx, bool candidate);
  Status RecomputeDistances();  // distances.cpp
  // A loss by the rule on `b` (x to move): 1 + the longest of x's
  // non-checking moves once all of them have distances below `level`
  // (then at least `level`), -1 while some have none.

  Status Verify();  // verify.cpp
  std::string CheckSubTableValue(const Position& pos, Move m, uint16_t linked, bool colour_symmetric) const;
  Status Statistics();
  // The file's value of a cell; reads the overflow map without its lock, so
  // only in phases that do not write it (verification, statistics, writing).
  uint16_t StoredValue(Color side, uint64_t idx, uint8_t code);

  uint8_t Load(Color s, uint64_t i) const { return cells_[s].Load(i); }
  void Store(Color s, uint64_t i, uint8_t c) { cells_[s].Store(i, c); }
  bool Cas(Color s, uint64_t i, uint8_t& expected, uint8_t desired) { return cells_[s].Cas(i, expected, desired); }
  void NoteDtm(int d);
  // Records that chunk idx >> kChunkBits of `side` holds a result at distance d,
  // so that the pass for level d + 1 can skip the chunks without any.
  static constexpr int kChunkBits = 12;
  // In the distance layout nothing clears a mask while a level runs, so a
  // bit already set needs no write (fewer contended read-modify-writes).
  void Mark(Color side, uint64_t idx, int d) {
    uint64_t& m = level_mask_[side][idx >> kChunkBits];
    const uint64_t bit = 1ULL << (d & 63);
    if (!(__atomic_load_n(&m, __ATOMIC_RELAXED) & bit)) __atomic_fetch_or(&m, bit, __ATOMIC_RELAXED);
  }
  // In the result layout (perpetual.cpp) the chunk masks say what a chunk may
  // hold, so that the passes over S, its dirty members and the flagged
  // counters skip the chunks without any: without them each round of each
  // order would scan every cell.
  static constexpr uint64_t kPendingChunk = 1, kInSChunk = 2, kDirtyChunk = 4, kFlaggedChunk = 8;
  void MarkBits(Color side, uint64_t idx, uint64_t bits) {
    __atomic_fetch_or(&level_mask_[side][idx >> kChunkBits], bits, __ATOMIC_RELAXED);
  }
  // Clears `bits` of the chunk at `begin`; true if any of them was set.
  bool TakeBits(Color side, uint64_t begin, uint64_t bits) {
    uint64_t& m = level_mask_[side][begin >> kChunkBits];
    if (!(__atomic_load_n(&m, __ATOMIC_RELAXED) & bits)) return false;
    return __atomic_fetch_and(&m, ~bits, __ATOMIC_SEQ_CST) & bits;
  }
  bool HasBits(Color side, uint64_t begin, uint64_t bits) const {
    return __atomic_load_n(&level_mask_[side][begin >> kChunkBits], __ATOMIC_RELAXED) & bits;
  }

  const Variant& v_;
  Material material_;
  std::string name_;
  int threads_;
  ProgressFn progress_;
  GeneratorOptions opts_;
  Indexer index_;
  Geometry geo_;
  TableHeader header_;
  Cells cells_[2];
  std::vector<uint64_t> level_mask_[2];
  DtmCodes dtm_;
  WdlCodes wdl_;
  Overflow overflow_;
  BigDistanceLists big_dist_;  // the overflow map's distances, by distance
  // The set-ups' wins with a big distance (a capture into a sub-table), by
  // entry: the only big entries a level can still shorten (SetWin).
  Overflow tentative_big_wins_;
  std::map<std::string, std::unique_ptr<LoadedTable>> subs_;
  std::map<std::string, unsigned> sub_sides_;
  std::atomic<int> max_dtm_{0};
  PhaseClock clock_;
  int orders_ = 0;
  bool seeded_[2] = {false, false};  // a side's first order has seeded S
  std::string error_;
};

// FEN of an index (for messages and statistics).
std::string IndexFen(const Indexer& ix, uint64_t idx, Color side);

}  // namespace canju::tb

// Retrograde generation of one table (internal to tablebase/). The phases
// live in small files: generate.cpp (set-up, initialisation from captures and
// mates, un-move propagation by distance), perpetual.cpp (the
// perpetual-check orders), verify.cpp (every value against its successors).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

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

// A finished table held in memory (sub-tables during generation).
struct LoadedTable {
  Indexer index;
  std::vector<uint16_t> values[2];  // stored values (format.h), per side to move
};

// Cell states during generation (16 bits per position and side to move).
//   resolved: 0x8000 | rule 0x4000 | pending 0x2000 | distance (13 bits)
//   open:     a counter of successors not yet known to win for the opponent,
//             or kNotLoss; kInS marks membership in a perpetual-check set.
namespace cell {
constexpr uint16_t kResolved = 0x8000, kRule = 0x4000, kPending = 0x2000, kDtmMask = 0x1FFF;
constexpr uint16_t kNotLoss = 0x1000, kInS = 0x4000, kCounterMax = 0x0FFF;
constexpr uint16_t kDirty = 0x2000;  // open, in S, to be checked again (a successor left S)
constexpr uint16_t kIllegal = 0x7FFF, kDraw = 0x7FFE;
constexpr int kMaxDtm = kDtmMask;
inline bool Resolved(uint16_t c) { return c & kResolved; }
inline bool Open(uint16_t c) { return c <= (kInS | kDirty | kNotLoss); }
inline int Dtm(uint16_t c) { return c & kDtmMask; }
}  // namespace cell

class Generator {
 public:
  Generator(const Variant& v, const Material& m, int threads, ProgressFn progress);
  ~Generator();

  // Sub-tables must be finished files in `dir` (BuildOrder's order).
  Status Init(const std::string& dir);
  Status Run();  // initialise, propagate, perpetual-check orders, verify
  Status Write(const std::string& path, int compression_level);

  const Indexer& index() const { return index_; }
  const TableHeader& header() const { return header_; }
  int orders() const { return orders_; }
  uint64_t ram_bytes() const;

  // One board being worked on: the Position and each slot's square.
  struct Work {
    Position pos;
    uint8_t sq[kMaxTablePieces] = {};
    int8_t slot_at[kSquareSlots];
    MoveList moves;
    bool placed = false;  // pos holds the pieces of sq
    std::unique_ptr<Work> aux;  // a second board for the same thread
    Work() {
      for (auto& s : slot_at) s = -1;
    }
  };

 private:
  friend struct Phases;
  // Values of the successor after a capture or promotion, from the view of
  // the side to move there (stored value, format.h).
  uint16_t ProbeSub(const Work& w, Move m) const;
  bool Setup(Work& w, uint64_t idx, Color side) const;
  void SetupSquares(Work& w, const uint8_t* sq, Color side) const;
  uint64_t SuccessorIndex(const Work& w, Move m) const;
  bool LeavesTable(const Work& w, Move m) const;
  template <class F> void ForEachPredecessor(Work& w, F&& f) const;
  template <class F> void Unmoves(Work& w, bool royal_only, F&& f) const;

  void ForChunks(const std::string& phase, const std::function<void(Work&, Color, uint64_t, uint64_t)>& body);
  // Chunks of entries with both sides to move in one body (one decode serves both).
  void ForRanges(const std::string& phase, const std::function<void(Work&, uint64_t, uint64_t)>& body);
  Status Initialise();
  void Propagate(bool pending_only);
  void ProcessResolved(Work& w, Color side, uint64_t idx, int dtm, bool pending_only);
  void SetWin(Color side, uint64_t idx, int dtm, bool pending);
  void Decrement(Work& w, Color side, uint64_t idx, int level, bool pending, bool via_check);
  // Over captures/promotions (non-checking ones only if quiet_only): 1 + the
  // opponent's win distance; -1 if none.
  int CaptureLossMax(Work& w, bool quiet_only = false) const;
  Status Perpetual();
  Status RecomputeDistances();
  Status Verify();
  void Finish();  // open cells -> draws; statistics

  uint16_t Load(Color s, uint64_t i) const { return __atomic_load_n(&cells_[s][i], __ATOMIC_RELAXED); }
  void Store(Color s, uint64_t i, uint16_t c) { __atomic_store_n(&cells_[s][i], c, __ATOMIC_RELAXED); }
  // Clears `bits` of a cell; false if the cell no longer has any of them.
  bool ClearBits(Color s, uint64_t i, uint16_t bits) {
    uint16_t c = Load(s, i);
    while (c & bits)
      if (Cas(s, i, c, static_cast<uint16_t>(c & ~bits))) return true;
    return false;
  }
  bool Cas(Color s, uint64_t i, uint16_t& expected, uint16_t desired) {
    return __atomic_compare_exchange_n(&cells_[s][i], &expected, desired, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
  }
  void NoteDtm(int d);
  // Records that chunk idx >> kChunkBits of `side` holds a result at distance d,
  // so that the pass for level d + 1 can skip the chunks without any.
  static constexpr int kChunkBits = 12;
  void Mark(Color side, uint64_t idx, int d) {
    __atomic_fetch_or(&level_mask_[side][idx >> kChunkBits], 1ULL << (d & 63), __ATOMIC_RELAXED);
  }
  std::vector<uint64_t> level_mask_[2];

  const Variant& v_;
  Material material_;
  std::string name_;
  int threads_;
  ProgressFn progress_;
  Indexer index_;
  TableHeader header_;
  std::vector<uint16_t> cells_[2];
  std::map<std::string, std::unique_ptr<LoadedTable>> subs_;
  // Sub-table of each (mover, captured group + 1, promoted kind + 1).
  struct SubLink {
    const LoadedTable* table = nullptr;
    bool flip = false;
  };
  std::vector<SubLink> links_;
  int link_kinds_ = 0;
  std::vector<std::vector<int>> ride_dirs_;  // per colour * kinds + kind
  std::vector<int> opposite_;
  std::atomic<int> max_dtm_{0};
  int orders_ = 0;
  bool distance_pass_ = false;
  std::string error_;
};

// FEN of an index (for messages and statistics).
std::string IndexFen(const Indexer& ix, uint64_t idx, Color side);

}  // namespace canju::tb

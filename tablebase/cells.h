// Generation cells (internal to tablebase/): one byte per entry and side to
// move, in two layouts (docs/tablebase.md, "Memory"):
//
// Distance layout (plain retrograde analysis, final distance pass):
//   0 illegal, 1 draw (while generating: open, cannot lose), 2 win with no
//   distance yet, 3 unused, 4 .. 3 + C an open position's counter 1 .. C of
//   moves not yet known to lose, 4 + C a counter kept in the overflow map,
//   then (final distance pass, perpetual check only) R + 1 such counters of
//   a loss by the perpetual-check rule (its non-checking moves still without
//   a distance), then the distances: for each pair of plies (2k, 2k + 1)
//   three codes: loss in 2k, loss in 2k by the rule, win in 2k + 1; 255 a
//   distance kept in the overflow map.
// Result layout (perpetual-check orders; no distances):
//   0 illegal, 1 open and cannot lose, 2/3 in the perpetual-check set S
//   (clean / to be checked again), 4..9 win, loss, loss by the rule, each
//   pending (its predecessors not yet updated) or done, then the counters
//   1 .. C, each clean or flagged (its candidacy as a perpetual checker is to
//   be checked again), and the overflow counter, clean or flagged.
//
// Counters and distances that do not fit (rare: tables whose side can have
// more quiet moves than C, mates longer than the codes) live in a sharded
// hash map keyed by side and entry.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#include "variants/types.h"

namespace canju::tb {

class DtmCodes {
 public:
  static constexpr uint8_t kIllegal = 0, kDraw = 1, kWinUnknown = 2, kBigDist = 255;

  void Init(int counters, int rule_counters) {
    c_ = counters;
    r_ = rule_counters;
    big_counter_ = static_cast<uint8_t>(4 + counters);
    rule_counter0_ = static_cast<uint8_t>(5 + counters);
    big_rule_counter_ = static_cast<uint8_t>(rule_counter0_ + rule_counters);
    base_ = big_rule_counter_ + 1;
    max_dist_ = 2 * ((254 - 2 - base_) / 3) + 1;
    for (int x = 0; x < 256; ++x) {
      dist_[x] = -1;
      rule_[x] = false;
      if (x >= base_ && x < kBigDist) {
        const int q = x - base_;
        dist_[x] = static_cast<int16_t>(2 * (q / 3) + (q % 3 == 2));
        rule_[x] = q % 3 == 1;
        if (dist_[x] > max_dist_) dist_[x] = -1;
      }
    }
  }
  int counters() const { return c_; }
  int max_dist() const { return max_dist_; }
  uint8_t big_counter() const { return big_counter_; }

  // Counter c >= 1 (big_counter() when it does not fit).
  uint8_t Counter(int c) const { return c <= c_ ? static_cast<uint8_t>(3 + c) : big_counter_; }
  bool IsCounter(uint8_t x) const { return x >= 4 && x <= big_counter_; }
  int CounterOf(uint8_t x) const { return x - 3; }  // not for big_counter()
  // The same for losses by the perpetual-check rule (big_rule_counter()
  // when it does not fit).
  uint8_t RuleCounter(int c) const {
    return c <= r_ ? static_cast<uint8_t>(rule_counter0_ + c - 1) : big_rule_counter_;
  }
  bool IsRuleCounter(uint8_t x) const { return x >= rule_counter0_ && x <= big_rule_counter_; }
  uint8_t big_rule_counter() const { return big_rule_counter_; }
  // Open while generating: a counter or "cannot lose".
  bool Open(uint8_t x) const { return x == kDraw || IsCounter(x); }
  // Distance d (kBigDist when it does not fit); rule only for losses.
  uint8_t Dist(int d, bool rule) const {
    if (d > max_dist_) return kBigDist;
    return static_cast<uint8_t>(base_ + 3 * (d >> 1) + ((d & 1) ? 2 : rule ? 1 : 0));
  }
  bool IsDist(uint8_t x) const { return x >= base_; }  // kBigDist included
  int DistOf(uint8_t x) const { return dist_[x]; }      // -1 for kBigDist
  bool RuleOf(uint8_t x) const { return rule_[x]; }

 private:
  int c_ = 0, r_ = 0, base_ = 0, max_dist_ = 0;
  uint8_t big_counter_ = 0, rule_counter0_ = 0, big_rule_counter_ = 0;
  int16_t dist_[256] = {};
  bool rule_[256] = {};
};

class WdlCodes {
 public:
  static constexpr uint8_t kIllegal = 0, kOpenDraw = 1, kInS = 2, kInSDirty = 3, kWinPending = 4, kWinDone = 5,
                           kLossPending = 6, kLossDone = 7, kRulePending = 8, kRuleDone = 9, kCounter0 = 10;
  static constexpr int kMaxCounters = (256 - kCounter0 - 2) / 2;

  void Init(int counters) {
    c_ = counters;
    big_ = static_cast<uint8_t>(kCounter0 + 2 * counters);
  }
  int counters() const { return c_; }
  // Counter c >= 1, flagged or clean (big counter when it does not fit).
  uint8_t Counter(int c, bool flag) const {
    return static_cast<uint8_t>((c <= c_ ? kCounter0 + 2 * (c - 1) : big_) + (flag ? 1 : 0));
  }
  bool IsCounter(uint8_t x) const { return x >= kCounter0 && x <= big_ + 1; }
  bool IsBig(uint8_t x) const { return x >= big_; }
  int CounterOf(uint8_t x) const { return (x - kCounter0) / 2 + 1; }  // not for big counters
  static bool Flagged(uint8_t x) { return x >= kCounter0 && (x & 1); }
  static uint8_t Unflagged(uint8_t x) { return static_cast<uint8_t>(x & ~1); }
  bool Open(uint8_t x) const { return x == kOpenDraw || IsCounter(x); }
  static bool InS(uint8_t x) { return x == kInS || x == kInSDirty; }
  static bool Win(uint8_t x) { return x == kWinPending || x == kWinDone; }
  static bool Pending(uint8_t x) { return x == kWinPending || x == kLossPending || x == kRulePending; }
  static bool Resolved(uint8_t x) { return x >= kWinPending && x <= kRuleDone; }

 private:
  int c_ = 0;
  uint8_t big_ = 0;
};

// Scans that look for a few codes among many cells read eight cells at a
// time: `word` filters a word of cells (it may pass words without a match,
// never miss one) and f(i) is called for each cell of a passing word, which
// it checks again. Reads are relaxed atomic loads: other threads write cells
// meanwhile.
namespace cellscan {
constexpr uint64_t kLow = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
// Nonzero if some byte of w equals b.
inline uint64_t HasByte(uint64_t w, uint8_t b) {
  const uint64_t v = w ^ (kLow * b);
  return (v - kLow) & ~v & kHigh;
}
// Nonzero if some byte of w is odd and at least `min` (min <= 128).
inline uint64_t HasOddAtLeast(uint64_t w, uint8_t min) {
  const uint64_t at_least = (((w & ~kHigh) + kLow * static_cast<uint8_t>(128 - min)) | w) & kHigh;
  return at_least & (w << 7) & kHigh;
}
typedef uint64_t __attribute__((may_alias)) Word;
template <class WordFilter, class F>
inline void Scan(const uint8_t* cells, uint64_t begin, uint64_t end, WordFilter&& word, F&& f) {
  uint64_t i = begin;
  for (; i < end && (reinterpret_cast<uintptr_t>(cells + i) & 7); ++i) f(i);
  for (; i + 8 <= end; i += 8) {
    if (!word(__atomic_load_n(reinterpret_cast<const Word*>(cells + i), __ATOMIC_RELAXED))) continue;
    for (uint64_t k = i; k < i + 8; ++k) f(k);
  }
  for (; i < end; ++i) f(i);
}
}  // namespace cellscan

// The cells' storage: zeroed by calloc (fresh pages from the kernel for
// large sizes) and never value-initialised again, so pages whose entries are
// all illegal (code 0) are never written and never count in the process's
// resident memory. Passes write a cell only when its code changes.
template <class T>
struct ZeroedAllocator {
  using value_type = T;
  ZeroedAllocator() = default;
  template <class U>
  ZeroedAllocator(const ZeroedAllocator<U>&) {}
  T* allocate(size_t n) {
    void* p = std::calloc(n, sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U>
  void construct(U*) {}  // already zero
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const ZeroedAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const ZeroedAllocator<U>&) const { return false; }
};
using CellVector = std::vector<uint8_t, ZeroedAllocator<uint8_t>>;

// Counters and distances that do not fit in a cell, per (side, entry).
class Overflow {
 public:
  uint32_t Get(Color s, uint64_t i) {
    Shard& sh = shard(Key(s, i));
    std::lock_guard<std::mutex> lock(sh.mu);
    auto it = sh.map.find(Key(s, i));
    return it == sh.map.end() ? 0 : it->second;
  }
  void Put(Color s, uint64_t i, uint32_t value) {
    Shard& sh = shard(Key(s, i));
    std::lock_guard<std::mutex> lock(sh.mu);
    sh.map[Key(s, i)] = value;
  }
  // Decrements a counter, returns the new value.
  uint32_t Decrement(Color s, uint64_t i) {
    Shard& sh = shard(Key(s, i));
    std::lock_guard<std::mutex> lock(sh.mu);
    uint32_t& v = sh.map[Key(s, i)];
    return v ? --v : 0;
  }
  void Erase(Color s, uint64_t i) {
    Shard& sh = shard(Key(s, i));
    std::lock_guard<std::mutex> lock(sh.mu);
    sh.map.erase(Key(s, i));
  }
  // Keeps the entries for which keep(side, entry) is true.
  template <class F>
  void Filter(F&& keep) {
    for (Shard& sh : shards_)
      for (auto it = sh.map.begin(); it != sh.map.end();)
        if (keep(Color(it->first & 1), it->first >> 1)) ++it;
        else it = sh.map.erase(it);
  }
  uint64_t size() const {
    uint64_t n = 0;
    for (const Shard& sh : shards_) n += sh.map.size();
    return n;
  }
  // Rough memory per entry of an unordered_map node plus its bucket.
  static constexpr uint64_t kBytesPerEntry = 40;

 private:
  struct Shard {
    std::mutex mu;
    std::unordered_map<uint64_t, uint32_t> map;
  };
  static uint64_t Key(Color s, uint64_t i) { return i << 1 | s; }
  Shard& shard(uint64_t key) { return shards_[(key * 0x9E3779B97F4A7C15ULL) >> 58]; }
  std::array<Shard, 64> shards_;
};

}  // namespace canju::tb

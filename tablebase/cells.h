// Generation cells (internal to tablebase/): one byte per position and side
// to move, kept densely or for legal entries only (DenseCells, CompactCells
// below), holding codes in two layouts (docs/tablebase.md, "Cells"):
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
//   1 .. C and the overflow counter, each clean (not a perpetual-check
//   candidate) or flagged (its candidacy to be examined again), then the
//   same counters known to be candidates (examined, not in S).
//
// Counters and distances that do not fit (rare: tables whose side can have
// more quiet moves than C, mates longer than the codes) live in a sharded
// hash map keyed by side and entry.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "variants/types.h"

namespace canju::tb {

class DtmCodes {
 public:
  static constexpr uint8_t kIllegal = 0, kDraw = 1, kWinUnknown = 2, kBigDist = 255;

  // max_dist > 0: the longest distance kept in a cell at most (tests; the
  // longer ones go to the overflow map like those beyond the codes).
  void Init(int counters, int rule_counters, int max_dist = 0) {
    c_ = counters;
    r_ = rule_counters;
    big_counter_ = static_cast<uint8_t>(4 + counters);
    rule_counter0_ = static_cast<uint8_t>(5 + counters);
    big_rule_counter_ = static_cast<uint8_t>(rule_counter0_ + rule_counters);
    base_ = big_rule_counter_ + 1;
    max_dist_ = 2 * ((254 - 2 - base_) / 3) + 1;
    if (max_dist > 0) max_dist_ = std::min(max_dist_, max_dist | 1);
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
  // Three states per counter (and per big counter), below.
  static constexpr int kMaxCounters = (256 - kCounter0) / 3 - 1;

  void Init(int counters) {
    c_ = counters;
    big_ = static_cast<uint8_t>(kCounter0 + 2 * counters);
    candidate0_ = static_cast<uint8_t>(big_ + 2);
  }
  int counters() const { return c_; }
  // A counter c >= 1 (big counter when it does not fit) in one of three
  // states as to its side's perpetual-check candidacy: clean (examined, not
  // a candidate), flagged (to examine again) and candidate (examined, a
  // candidate, not in S). Clean and flagged alternate from kCounter0 (the
  // flag is the low bit), candidates follow.
  uint8_t Counter(int c, bool flag) const {
    return static_cast<uint8_t>((c <= c_ ? kCounter0 + 2 * (c - 1) : big_) + (flag ? 1 : 0));
  }
  uint8_t CandidateCounter(int c) const { return static_cast<uint8_t>(candidate0_ + (c <= c_ ? c - 1 : c_)); }
  bool IsCounter(uint8_t x) const { return x >= kCounter0 && x <= candidate0_ + c_; }
  bool IsBig(uint8_t x) const { return x == big_ || x == big_ + 1 || x == candidate0_ + c_; }
  int CounterOf(uint8_t x) const {  // not for big counters
    return x >= candidate0_ ? x - candidate0_ + 1 : (x - kCounter0) / 2 + 1;
  }
  bool Flagged(uint8_t x) const { return x >= kCounter0 && x < candidate0_ && (x & 1); }
  bool Clean(uint8_t x) const { return x >= kCounter0 && x < candidate0_ && !(x & 1); }
  bool KnownCandidate(uint8_t x) const { return x >= candidate0_ && x <= candidate0_ + c_; }
  static uint8_t Unflagged(uint8_t x) { return static_cast<uint8_t>(x & ~1); }  // a flagged counter's clean code
  bool Open(uint8_t x) const { return x == kOpenDraw || IsCounter(x); }
  static bool InS(uint8_t x) { return x == kInS || x == kInSDirty; }
  static bool Win(uint8_t x) { return x == kWinPending || x == kWinDone; }
  static bool Pending(uint8_t x) { return x == kWinPending || x == kLossPending || x == kRulePending; }
  static bool Resolved(uint8_t x) { return x >= kWinPending && x <= kRuleDone; }

 private:
  int c_ = 0;
  uint8_t big_ = 0, candidate0_ = 0;
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

// Zeroed memory straight from the kernel: a page never written is never
// resident (dense cells of illegal entries often fill whole pages).
class ZeroedBuffer {
 public:
  ZeroedBuffer() = default;
  ZeroedBuffer(const ZeroedBuffer&) = delete;
  ZeroedBuffer& operator=(const ZeroedBuffer&) = delete;
  ~ZeroedBuffer() { Release(); }
  // Fresh zeroed bytes (the previous ones are released).
  void Allocate(size_t bytes);
  void Release();
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The cells of one side to move, in one of two layouts with one interface
// (the generator is a template on it: no layout test in the hot loops).
// docs/tablebase.md, "Memory". Either way an illegal entry reads as code 0
// (both codes' "illegal") and is never written.
constexpr uint64_t kNoPlace = ~0ULL;

// What both layouts share: the cell bytes, read and written by place with
// relaxed atomics, or plainly where a pass gives each cell one owner.
class CellBytes {
 public:
  uint8_t LoadAt(uint64_t p) const { return __atomic_load_n(cells_.data() + p, __ATOMIC_RELAXED); }
  void StoreAt(uint64_t p, uint8_t c) { __atomic_store_n(cells_.data() + p, c, __ATOMIC_RELAXED); }
  bool CasAt(uint64_t p, uint8_t& expected, uint8_t desired) {
    return __atomic_compare_exchange_n(cells_.data() + p, &expected, desired, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED);
  }
  void PrefetchCell(uint64_t p) const { __builtin_prefetch(cells_.data() + p, 1); }
  uint8_t& at(uint64_t place) { return cells_.data()[place]; }
  uint8_t at(uint64_t place) const { return cells_.data()[place]; }

 protected:
  ZeroedBuffer cells_;
};

// One byte per entry, at the entry's own place. The fastest: one read per
// cell.
class DenseCells : public CellBytes {
 public:
  static constexpr bool kNeedsLegality = false;  // legality comes from the board while initialising
  void Reset(uint64_t entries) {
    cells_.Allocate(entries);
    entries_ = entries;
  }
  void Release() {
    cells_.Release();
    entries_ = 0;
  }
  uint64_t entries() const { return entries_; }
  uint64_t places() const { return entries_; }  // one cell per entry
  uint64_t bytes() const { return entries_; }
  bool IsLegal(uint64_t i) const { return LoadAt(i) != 0; }  // once written
  uint64_t Rank(uint64_t i) const { return i; }
  uint64_t Place(uint64_t i) const { return i; }  // illegal cells read 0
  uint8_t Load(uint64_t i) const { return LoadAt(i); }
  void Store(uint64_t i, uint8_t c) { StoreAt(i, c); }
  bool Cas(uint64_t i, uint8_t& expected, uint8_t desired) { return CasAt(i, expected, desired); }
  void PrefetchPlace(uint64_t) const {}
  // f(entry, place) for each legal entry in [begin, end), in order.
  template <class F>
  void ForEachLegal(uint64_t begin, uint64_t end, F&& f) const {
    for (uint64_t i = begin; i < end; ++i)
      if (cells_.data()[i]) f(i, i);
  }
  // cellscan::Scan over [begin, end): f(entry, place) for each cell of a
  // passing word (illegal ones included: they read 0).
  template <class WordFilter, class F>
  void Scan(uint64_t begin, uint64_t end, WordFilter&& word, F&& f) const {
    cellscan::Scan(cells_.data(), begin, end, word, [&](uint64_t i) { f(i, i); });
  }

 private:
  uint64_t entries_ = 0;
};

// One byte per legal entry only (entries with two pieces on a square or the
// side not to move in check have none; in KRNKR more than half of them). A
// bitmap marks the legal entries; their cells are stored in index order, so
// a cell's place is the number of legal entries before it. Each 64-bit word
// of the bitmap holds 48 entries' bits and, in its top 16 bits, the number
// of legal entries before it within its group of 1024 words; a small table
// has each group's start. Finding a place reads one word (besides the small
// table) and counts one word's bits: about 0.64 bytes per entry in KRNKR
// instead of 1, for a second dependent read per random access (a few
// percent more time: docs/performance.md).
class CompactCells : public CellBytes {
 public:
  static constexpr uint64_t kPerWord = 48, kBitsMask = (1ULL << kPerWord) - 1;
  static constexpr int kGroupBits = 10;  // 1024 words: counts below 49,152 fit in 16 bits

  // All entries illegal; cells come once the legal entries are marked
  // (MarkLegal, then Allocate).
  void Reset(uint64_t entries) {
    cells_.Release();
    places_ = 0;
    entries_ = entries;
    words_ = entries / kPerWord + 2;  // one more word of zeros: Rank(entries())
    word_buffer_.Allocate(words_ * 8);
    bits_ = reinterpret_cast<uint64_t*>(word_buffer_.data());
    group_base_.assign((words_ >> kGroupBits) + 1, 0);
  }
  static constexpr bool kNeedsLegality = true;  // MarkLegal and Allocate before any cell
  // Before Allocate, from any thread.
  void MarkLegal(uint64_t i) {
    const uint64_t w = i / kPerWord;
    __atomic_fetch_or(&bits_[w], 1ULL << (i - w * kPerWord), __ATOMIC_RELAXED);
  }
  // Counts the legal entries and makes their cells (zero).
  void Allocate() {
    uint64_t n = 0, group_start = 0;
    for (uint64_t w = 0; w < words_; ++w) {
      if ((w & ((1u << kGroupBits) - 1)) == 0) group_base_[w >> kGroupBits] = group_start = n;
      bits_[w] = (bits_[w] & kBitsMask) | (n - group_start) << kPerWord;
      n += static_cast<uint64_t>(__builtin_popcountll(bits_[w] & kBitsMask));
    }
    cells_.Allocate(n);
    places_ = n;
  }
  void Release() {
    word_buffer_.Release();
    cells_.Release();
    std::vector<uint64_t>().swap(group_base_);
    bits_ = nullptr;
    entries_ = words_ = places_ = 0;
  }

  uint64_t entries() const { return entries_; }
  uint64_t places() const { return places_; }  // the legal entries
  uint64_t bytes() const { return words_ * 8 + group_base_.size() * 8 + places_; }
  bool IsLegal(uint64_t i) const {
    const uint64_t w = i / kPerWord;
    return bits_[w] >> (i - w * kPerWord) & 1;
  }
  // The place of entry i's cell if it is legal; otherwise that of the next
  // legal entry (i <= entries()).
  uint64_t Rank(uint64_t i) const {
    const uint64_t w = i / kPerWord;
    return Before(w, bits_[w], i - w * kPerWord);
  }
  // The place of entry i's cell; kNoPlace if i is illegal.
  uint64_t Place(uint64_t i) const {
    const uint64_t w = i / kPerWord, word = bits_[w], b = i - w * kPerWord;
    return word >> b & 1 ? Before(w, word, b) : kNoPlace;
  }

  // Relaxed atomic access by entry (Store and Cas need a legal entry) and by
  // place.
  uint8_t Load(uint64_t i) const {
    const uint64_t p = Place(i);
    return p == kNoPlace ? uint8_t{0} : LoadAt(p);
  }
  void Store(uint64_t i, uint8_t c) { StoreAt(Rank(i), c); }
  bool Cas(uint64_t i, uint8_t& expected, uint8_t desired) { return CasAt(Rank(i), expected, desired); }
  // What Place(i) reads.
  void PrefetchPlace(uint64_t i) const { __builtin_prefetch(bits_ + i / kPerWord); }

  // f(entry, place) for each legal entry in [begin, end), in order.
  template <class F>
  void ForEachLegal(uint64_t begin, uint64_t end, F&& f) const {
    if (begin >= end) return;
    uint64_t place = Rank(begin);
    const uint64_t first = begin / kPerWord, last = (end - 1) / kPerWord;
    for (uint64_t w = first; w <= last; ++w) {
      uint64_t m = bits_[w] & kBitsMask;
      if (w == first) m &= ~0ULL << (begin - w * kPerWord);
      if (w == last) m &= (2ULL << (end - 1 - w * kPerWord)) - 1;
      for (; m; m &= m - 1) f(w * kPerWord + static_cast<uint64_t>(__builtin_ctzll(m)), place++);
    }
  }

  // cellscan::Scan over the cells of the legal entries in [begin, end):
  // f(entry, place) for each cell of a passing word.
  template <class WordFilter, class F>
  void Scan(uint64_t begin, uint64_t end, WordFilter&& word, F&& f) const {
    if (begin >= end) return;
    const uint64_t first = Rank(begin), last = Rank(end);
    // A cursor on the bitmap: the lowest set bit of `m` is entry w * 48 + tz,
    // whose place is `p`; places only grow during one scan.
    uint64_t w = begin / kPerWord, m = bits_[w] & kBitsMask & (~0ULL << (begin - w * kPerWord)), p = first;
    cellscan::Scan(cells_.data(), first, last, word, [&](uint64_t place) {
      for (;;) {
        const uint64_t n = static_cast<uint64_t>(__builtin_popcountll(m));
        if (p + n > place) break;
        p += n;
        m = bits_[++w] & kBitsMask;
      }
      for (; p < place; ++p) m &= m - 1;
      f(w * kPerWord + static_cast<uint64_t>(__builtin_ctzll(m)), place);
    });
  }

 private:
  // Legal entries before bit b of bitmap word w (`word`).
  uint64_t Before(uint64_t w, uint64_t word, uint64_t b) const {
    return group_base_[w >> kGroupBits] + (word >> kPerWord) +
           static_cast<uint64_t>(__builtin_popcountll(word & ((1ULL << b) - 1)));
  }

  uint64_t entries_ = 0, words_ = 0, places_ = 0;
  ZeroedBuffer word_buffer_;
  uint64_t* bits_ = nullptr;  // word_buffer_'s words
  std::vector<uint64_t> group_base_;  // per 1024 words: legal entries before
};

// One of 64 lock shards for an entry's key (entry << 1 | side), shared by
// the overflow map and the big-distance lists.
inline size_t EntryShard(uint64_t key) { return (key * 0x9E3779B97F4A7C15ULL) >> 58; }

// Counters and distances that do not fit in a cell, per (side, entry).
class Overflow {
 public:
  uint32_t Get(Color s, uint64_t i) {
    std::lock_guard<std::mutex> lock(shard(Key(s, i)).mu);
    return Peek(s, i);
  }
  // Get without the lock, for the phases in which no thread writes the map
  // (the verification, writing the file): a read per big successor there.
  uint32_t Peek(Color s, uint64_t i) const {
    const Shard& sh = shards_[EntryShard(Key(s, i))];
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
    // An erase never moves the other entries (no rehash), so the iterator
    // stepped past the erased one stays valid.
    for (Shard& sh : shards_)
      for (auto it = sh.map.begin(); it != sh.map.end();) {
        auto here = it++;
        if (!keep(Color(here->first & 1), here->first >> 1)) sh.map.erase(here);
      }
  }
  // Empties the map and gives its memory back.
  void Clear() {
    for (Shard& sh : shards_) absl::flat_hash_map<uint64_t, uint32_t>().swap(sh.map);
  }
  // f(side, entry, value) for each entry; not while other threads use the map.
  template <class F>
  void ForEach(F&& f) const {
    for (const Shard& sh : shards_)
      for (const auto& [key, value] : sh.map) f(Color(key & 1), key >> 1, value);
  }
  uint64_t size() const {
    uint64_t n = 0;
    for (const Shard& sh : shards_) n += sh.map.size();
    return n;
  }

 private:
  // An open-addressing map: a 16-byte slot and a control byte per entry
  // instead of an allocated node and a bucket pointer (KRNKR with every
  // distance beyond 4 plies in the map, tablebase_bench --max-cell-distance
  // 4: 232 → 212 s, 743 → 715 MiB peak against std::unordered_map;
  // docs/performance.md).
  struct Shard {
    std::mutex mu;
    absl::flat_hash_map<uint64_t, uint32_t> map;
  };
  static uint64_t Key(Color s, uint64_t i) { return i << 1 | s; }
  Shard& shard(uint64_t key) { return shards_[EntryShard(key)]; }
  std::array<Shard, 64> shards_;
};

// The entries whose distance does not fit in a cell (kept in the overflow
// map), listed by that distance: a propagation level beyond the cells'
// distance codes takes its entries from here instead of scanning every
// cell for the big-distance code and reading each one's distance from the
// map. A long tail of such levels made KCNKNP's propagation many times
// slower than KRCKRP's (docs/performance.md, round of stop 28). A tentative
// win whose big distance got shorter is superseded at the old one, so that
// a level needs no map read to tell its entries from stale ones.
class BigDistanceLists {
 public:
  void Add(Color s, uint64_t i, int d) { Append(&Shard::listed, s, i, d); }
  void Supersede(Color s, uint64_t i, int d) { Append(&Shard::superseded, s, i, d); }
  // The entries listed at distance d and not superseded there, each once and
  // in entry order (side in the low bit), taken out of the lists.
  std::vector<uint64_t> Take(int d);
  void Clear() {
    for (Shard& sh : shards_) {
      std::vector<std::vector<uint64_t>>().swap(sh.listed);
      std::vector<std::vector<uint64_t>>().swap(sh.superseded);
    }
  }

 private:
  struct Shard {
    std::mutex mu;
    std::vector<std::vector<uint64_t>> listed, superseded;  // by distance
  };
  void Append(std::vector<std::vector<uint64_t>> Shard::*lists, Color s, uint64_t i, int d) {
    Shard& sh = shards_[EntryShard(i << 1 | s)];
    std::lock_guard<std::mutex> lock(sh.mu);
    std::vector<std::vector<uint64_t>>& by_level = sh.*lists;
    if (by_level.size() <= static_cast<size_t>(d)) by_level.resize(static_cast<size_t>(d) + 1);
    by_level[static_cast<size_t>(d)].push_back(i << 1 | s);
  }
  std::array<Shard, 64> shards_;
};

}  // namespace canju::tb

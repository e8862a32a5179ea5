// Transposition table of the proof-number search.
//
// One entry per position (salted by the question asked: which side attacks,
// checks only or not) keeps two kinds of knowledge side by side:
//   * exact facts: "mate within proof_len plies" and "no mate within
//     disproof_depth plies" (kUnbounded: no mate at all). Both stay true
//     whatever depth a later search asks about, so a bounded search reuses
//     what an unbounded one proved and the other way round;
//   * the proof and disproof numbers of the last search at `depth`, a
//     heuristic only reused by a search at the same depth.
// Facts that depend on the path (a repetition with a position above the
// node) are never stored as facts; see dfpn.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace canju::solver {

// Remaining depth of an unbounded search; larger than any real depth.
constexpr uint16_t kUnbounded = 0x7FFF;
constexpr uint16_t kNoProof = 0xFFFF;     // proof_len when no proof is known
constexpr int16_t kNoDisproof = -1;       // disproof_depth when none is known

struct TTEntry {
  uint64_t key = 0;
  uint32_t pn = 0, dn = 0;        // heuristic numbers at `depth`
  uint32_t work = 0;              // nodes spent below (replacement priority)
  // Raw move that proves it (OR node), 0 if none; without a proof_len, the
  // move that proved it on one path only (a repetition above it): a hint
  // for the re-check (solver/proof_check.h), never a fact.
  uint32_t best = 0;
  uint16_t proof_len = kNoProof;  // mate within this many plies
  int16_t disproof_depth = kNoDisproof;  // no mate within this many plies
  uint16_t depth = 0;             // depth at which pn/dn were measured
  uint16_t used = 0;              // 1 when the slot holds a position
};
static_assert(sizeof(TTEntry) == 32, "TT entries are packed to 32 bytes");

// What a probe tells the search.
struct TTProbe {
  bool found = false;
  bool proven = false;      // a proof no longer than the depth asked
  bool disproven = false;   // a disproof at least as deep as the depth asked
  uint16_t proof_len = kNoProof;
  uint32_t pn = 1, dn = 1;  // heuristic numbers (only if found at the same depth)
  bool has_numbers = false;
  uint32_t best = 0;
};

class TranspositionTable {
 public:
  // Size in bytes (rounded down to a power of two of buckets, at least 64 KiB).
  explicit TranspositionTable(size_t bytes = size_t{64} << 20);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  void Clear();
  TTProbe Probe(uint64_t key, uint16_t depth) const;
  // Known proof length (kNoProof if none) and disproof depth of a position.
  void Facts(uint64_t key, uint16_t* proof_len, int16_t* disproof_depth, uint32_t* best) const;

  // Records heuristic numbers measured at `depth`, and where they stand
  // for a proof on one path only, the move that proved it (`path_move`;
  // kept only while the position has no proof of its own).
  void StoreNumbers(uint64_t key, uint16_t depth, uint32_t pn, uint32_t dn, uint32_t work, uint32_t path_move = 0);
  // Records a proof of length `len` (keeps the shorter one) and its move.
  void StoreProof(uint64_t key, uint16_t len, uint32_t best_move, uint32_t work);
  // Records "no mate within `depth` plies" (keeps the deeper one).
  void StoreDisproof(uint64_t key, uint16_t depth, uint32_t work);

  // A bucket is two cache lines: both are fetched.
  void Prefetch(uint64_t key) const {
    const Bucket* b = &table_[key & mask_];
    __builtin_prefetch(&b->e[0]);
    __builtin_prefetch(&b->e[2]);
  }

  size_t entries() const { return buckets_ * kBucket; }
  // Slots in use, per thousand (sampled).
  int Hashfull() const;

 private:
  static constexpr int kBucket = 4;
  struct alignas(64) Bucket {
    TTEntry e[kBucket];
  };
  TTEntry* Find(uint64_t key) const;
  TTEntry* Slot(uint64_t key);  // the entry for key, or the one to replace
  // Zero bytes are empty slots (`used` == 0), so the table is an anonymous
  // mapping the kernel zeroes page by page on first touch (tt.cpp).
  Bucket* table_ = nullptr;
  size_t buckets_ = 0;
  size_t mapped_bytes_ = 0;
  size_t mask_ = 0;  // bucket count - 1
};

}  // namespace canju::solver

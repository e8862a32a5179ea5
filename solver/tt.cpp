#include "solver/tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

namespace canju::solver {

// The table is mapped, not filled: a search of a few thousand nodes (most
// puzzles' walk steps and cooks) touches a small part of it, and on a
// virtual machine every 4 KiB page fault is dear — writing 64 MiB of
// default entries cost as much as a 2 M-node search (docs/performance.md,
// round of stop 24). Transparent huge pages, where the kernel gives them
// on request, cut the faults of a full table 512-fold.
TranspositionTable::TranspositionTable(size_t bytes) {
  size_t buckets = 1;
  const size_t min_buckets = (size_t{64} << 10) / (sizeof(TTEntry) * kBucket);
  while (buckets * 2 * sizeof(TTEntry) * kBucket <= bytes) buckets *= 2;
  buckets = std::max(buckets, min_buckets);
  mapped_bytes_ = buckets * sizeof(Bucket);
  // Mapped with a huge page's slack and trimmed to start on a huge-page
  // boundary, so that every 2 MiB of the table can be one page.
  constexpr size_t kHuge = size_t{2} << 20;
  const size_t slack = mapped_bytes_ >= kHuge ? kHuge : 0;
  void* raw = mmap(nullptr, mapped_bytes_ + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = slack ? (begin + kHuge - 1) & ~(kHuge - 1) : begin;
  if (aligned > begin) munmap(raw, aligned - begin);
  if (slack > aligned - begin) munmap(reinterpret_cast<void*>(aligned + mapped_bytes_), slack - (aligned - begin));
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, mapped_bytes_, MADV_HUGEPAGE);  // advice only: no error if refused
#endif
  table_ = static_cast<Bucket*>(p);
  buckets_ = buckets;
  mask_ = buckets - 1;
}

TranspositionTable::~TranspositionTable() {
  if (table_) munmap(table_, mapped_bytes_);
}

void TranspositionTable::Clear() { std::memset(static_cast<void*>(table_), 0, mapped_bytes_); }

TTEntry* TranspositionTable::Find(uint64_t key) const {
  TTEntry* b = const_cast<TTEntry*>(table_[key & mask_].e);
  for (int i = 0; i < kBucket; ++i)
    if (b[i].used && b[i].key == key) return &b[i];
  return nullptr;
}

TTEntry* TranspositionTable::Slot(uint64_t key) {
  TTEntry* b = table_[key & mask_].e;
  TTEntry* victim = nullptr;
  uint64_t victim_score = ~uint64_t{0};
  for (int i = 0; i < kBucket; ++i) {
    if (b[i].used && b[i].key == key) return &b[i];
    if (!b[i].used) {
      if (victim_score) victim = &b[i], victim_score = 0;
      continue;
    }
    // Exact facts are worth more than numbers: they cost a whole subtree.
    const bool fact = b[i].proof_len != kNoProof || b[i].disproof_depth != kNoDisproof;
    const uint64_t score = (uint64_t{b[i].work} + 1) << (fact ? 3 : 0);
    if (score < victim_score) victim = &b[i], victim_score = score;
  }
  *victim = TTEntry{};
  victim->key = key;
  victim->used = 1;
  return victim;
}

TTProbe TranspositionTable::Probe(uint64_t key, uint16_t depth) const {
  TTProbe p;
  const TTEntry* e = Find(key);
  if (!e) return p;
  p.found = true;
  p.best = e->best;
  if (e->proof_len != kNoProof && e->proof_len <= depth) {
    p.proven = true;
    p.proof_len = e->proof_len;
    p.pn = 0;
    return p;
  }
  if (e->disproof_depth != kNoDisproof && e->disproof_depth >= static_cast<int>(depth)) {
    p.disproven = true;
    p.dn = 0;
    return p;
  }
  if (e->depth == depth && (e->pn | e->dn)) {
    p.has_numbers = true;
    p.pn = e->pn;
    p.dn = e->dn;
  }
  return p;
}

void TranspositionTable::Facts(uint64_t key, uint16_t* proof_len, int16_t* disproof_depth, uint32_t* best) const {
  const TTEntry* e = Find(key);
  *proof_len = e ? e->proof_len : kNoProof;
  *disproof_depth = e ? e->disproof_depth : kNoDisproof;
  if (best) *best = e ? e->best : 0;
}

namespace {
uint32_t AddWork(uint32_t a, uint32_t b) { return a > ~b ? ~uint32_t{0} : a + b; }
}  // namespace

void TranspositionTable::StoreNumbers(uint64_t key, uint16_t depth, uint32_t pn, uint32_t dn, uint32_t work,
                                      uint32_t path_move) {
  TTEntry* e = Slot(key);
  if (path_move && e->proof_len == kNoProof) e->best = path_move;
  e->depth = depth;
  e->pn = pn;
  e->dn = dn;
  e->work = AddWork(e->work, work);
}

void TranspositionTable::StoreProof(uint64_t key, uint16_t len, uint32_t best_move, uint32_t work) {
  TTEntry* e = Slot(key);
  if (len < e->proof_len) {
    e->proof_len = len;
    e->best = best_move;
  }
  e->work = AddWork(e->work, work);
}

void TranspositionTable::StoreDisproof(uint64_t key, uint16_t depth, uint32_t work) {
  TTEntry* e = Slot(key);
  if (static_cast<int>(depth) > e->disproof_depth) e->disproof_depth = static_cast<int16_t>(depth);
  e->work = AddWork(e->work, work);
}

int TranspositionTable::Hashfull() const {
  const size_t n = std::min<size_t>(buckets_, 1000) * kBucket;
  size_t used = 0;
  for (size_t i = 0; i < n; ++i) used += table_[i / kBucket].e[i % kBucket].used;
  return n ? static_cast<int>(used * 1000 / n) : 0;
}

}  // namespace canju::solver

// Cell storage (cells.h): zeroed buffers from the kernel.
#include "tablebase/cells.h"

#include <sys/mman.h>

#include <algorithm>
#include <iterator>
#include <new>
#include <utility>

namespace canju::tb {

void ZeroedBuffer::Allocate(size_t bytes) {
  Release();
  if (bytes == 0) return;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<uint8_t*>(p);
  size_ = bytes;
}

std::vector<uint64_t> BigDistanceLists::Take(int d) {
  std::vector<uint64_t> listed, superseded;
  const size_t level = static_cast<size_t>(d);
  for (Shard& sh : shards_) {
    std::lock_guard<std::mutex> lock(sh.mu);
    for (auto [from, to] : {std::pair{&sh.listed, &listed}, std::pair{&sh.superseded, &superseded}}) {
      if (from->size() <= level) continue;
      std::vector<uint64_t>& entries = (*from)[level];
      to->insert(to->end(), entries.begin(), entries.end());
      std::vector<uint64_t>().swap(entries);
    }
  }
  std::sort(listed.begin(), listed.end());
  listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
  if (superseded.empty()) return listed;
  std::sort(superseded.begin(), superseded.end());
  std::vector<uint64_t> live;
  live.reserve(listed.size());
  std::set_difference(listed.begin(), listed.end(), superseded.begin(), superseded.end(), std::back_inserter(live));
  return live;
}

void ZeroedBuffer::Release() {
  if (data_) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace canju::tb

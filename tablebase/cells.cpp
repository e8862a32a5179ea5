// Cell storage (cells.h): zeroed buffers from the kernel.
#include "tablebase/cells.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

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
  std::vector<uint64_t> all;
  for (Shard& sh : shards_) {
    std::lock_guard<std::mutex> lock(sh.mu);
    if (sh.by_level.size() <= static_cast<size_t>(d)) continue;
    std::vector<uint64_t>& level = sh.by_level[static_cast<size_t>(d)];
    all.insert(all.end(), level.begin(), level.end());
    std::vector<uint64_t>().swap(level);
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

void ZeroedBuffer::Release() {
  if (data_) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace canju::tb

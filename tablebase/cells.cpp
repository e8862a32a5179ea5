// Cell storage (cells.h): zeroed, huge-page-backed buffers.
#include "tablebase/cells.h"

#include <sys/mman.h>

namespace canju::tb {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}

void ZeroedBuffer::Allocate(size_t bytes) {
  Release();
  if (bytes == 0) return;
  // Huge pages need 2 MiB alignment: map one page more and start at the
  // first boundary. Small buffers are not worth a huge page.
  const bool huge = bytes >= kHugePage;
  map_size_ = huge ? (bytes + 2 * kHugePage - 1) / kHugePage * kHugePage : bytes;
  void* p = ::mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    map_size_ = 0;
    throw std::bad_alloc();
  }
  map_ = p;
  uintptr_t start = reinterpret_cast<uintptr_t>(p);
  if (huge) {
    start = (start + kHugePage - 1) / kHugePage * kHugePage;
    // Advice only: without transparent huge pages the buffer still works.
    ::madvise(reinterpret_cast<void*>(start), (bytes + kHugePage - 1) / kHugePage * kHugePage, MADV_HUGEPAGE);
  }
  data_ = reinterpret_cast<uint8_t*>(start);
  size_ = bytes;
}

void ZeroedBuffer::Release() {
  if (map_) ::munmap(map_, map_size_);
  map_ = nullptr;
  data_ = nullptr;
  size_ = map_size_ = 0;
}

}  // namespace canju::tb

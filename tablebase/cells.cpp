// Cell storage (cells.h): zeroed buffers from the kernel.
#include "tablebase/cells.h"

#include <sys/mman.h>

namespace canju::tb {

void ZeroedBuffer::Allocate(size_t bytes) {
  Release();
  if (bytes == 0) return;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  map_ = p;
  map_size_ = bytes;
  data_ = static_cast<uint8_t*>(p);
  size_ = bytes;
}

void ZeroedBuffer::Release() {
  if (map_) ::munmap(map_, map_size_);
  map_ = nullptr;
  data_ = nullptr;
  size_ = map_size_ = 0;
}

}  // namespace canju::tb

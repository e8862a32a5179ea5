// Cell storage (cells.h): zeroed buffers from the kernel.
#include "tablebase/cells.h"

#include <sys/mman.h>

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

void ZeroedBuffer::Release() {
  if (data_) ::munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace canju::tb

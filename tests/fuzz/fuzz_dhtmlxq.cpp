// The DhtmlXQ reader on arbitrary text.
#include "tests/fuzz/import_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  canju::fuzz::ReadAndCheck(data, size, canju::Format::kDhtmlXq, "fuzz.txt");
  return 0;
}

// The XQF reader on arbitrary bytes (seeds: synthetic files of every layout).
#include "tests/fuzz/import_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  canju::fuzz::ReadAndCheck(data, size, canju::Format::kXqf, "fuzz.xqf");
  return 0;
}

// The CBR and CBL readers on arbitrary bytes: the first byte chooses.
#include "tests/fuzz/import_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool library = data[0] & 1;
  canju::fuzz::ReadAndCheck(data + 1, size - 1, library ? canju::Format::kCbl : canju::Format::kCbr,
                            library ? "fuzz.cbl" : "fuzz.cbr");
  return 0;
}

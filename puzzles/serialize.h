// Records as bytes: Boost.Serialization binary archives, one per stored value.
// Every serialised class carries a BOOST_CLASS_VERSION (see serialize.cpp), so
// a store written by an older Canju stays readable: a loader branches on the
// version it is handed. Binary archives were chosen over text ones for speed
// and size; they are portable between little-endian LP64 machines (x86-64,
// arm64), which is where Canju runs. Moving a collection elsewhere goes
// through `canju export`.
#pragma once

#include <string>

#include "puzzles/record.h"
#include "variants/status.h"

namespace canju {

// Serialises a record. Never fails for a well-formed Record.
std::string SerializeRecord(const Record& record);
// Reads bytes written by SerializeRecord of this or any earlier version;
// a Corruption status (never an exception) when they are not a record.
Status DeserializeRecord(const std::string& bytes, Record* out);

std::string SerializeVerdict(const Verdict& verdict);
Status DeserializeVerdict(const std::string& bytes, Verdict* out);

}  // namespace canju

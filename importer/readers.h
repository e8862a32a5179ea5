// The format readers behind ReadCollectionData (one file each). Each
// appends records and issues to `out` and returns non-OK only when nothing
// at all could be read from the file.
#pragma once

#include <string>
#include <string_view>

#include "importer/importer.h"

namespace canju::importer {

Status ReadXqf(const std::string& name, std::string_view data, ReadResult* out);
Status ReadCbr(const std::string& name, std::string_view data, ReadResult* out);
Status ReadCbl(const std::string& name, std::string_view data, ReadResult* out);
// Text formats take the file's bytes; they detect the encoding themselves.
Status ReadDhtmlXq(const std::string& name, std::string_view data, ReadResult* out);
Status ReadPgn(const std::string& name, std::string_view data, ReadResult* out);
Status ReadTaggedFen(const std::string& name, std::string_view data, ReadResult* out);
Status ReadFenList(const std::string& name, std::string_view data, ReadResult* out);
Status ReadLineList(const std::string& name, std::string_view data, ReadResult* out);

// Decodes a text file (see text::DecodeText) and reports replaced bytes.
std::string DecodeFileText(const std::string& name, std::string_view data, ReadResult* out);

}  // namespace canju::importer

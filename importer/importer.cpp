// Format detection, dispatch to the readers, and folder walking.
#include "importer/importer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "importer/game.h"
#include "importer/metadata.h"
#include "importer/readers.h"
#include "importer/text.h"

namespace canju {

namespace fs = std::filesystem;

const char* FormatName(Format f) {
  switch (f) {
    case Format::kXqf: return "XQF";
    case Format::kCbr: return "CBR";
    case Format::kCbl: return "CBL";
    case Format::kDhtmlXq: return "DhtmlXQ";
    case Format::kPgn: return "PGN";
    case Format::kFenList: return "FEN list";
    case Format::kLineList: return "line list";
    case Format::kTaggedFen: return "tagged FEN";
    default: return "unknown";
  }
}

std::string IssueToString(const ImportIssue& issue) {
  std::string s = issue.file;
  if (!issue.where.empty()) s += ": " + issue.where;
  s += ": " + issue.reason;
  return s;
}

namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

// Looks at decoded text to tell the text formats apart.
Format SniffText(const std::string& ext, const std::string& t) {
  if (t.find("[DhtmlXQ") != std::string::npos) return Format::kDhtmlXq;
  if (ext == "eglib") return Format::kLineList;
  if (ext == "pgn") return Format::kPgn;
  const bool tags = t.find("[FEN ") != std::string::npos || t.find("[FEN_INDEX") != std::string::npos;
  if (ext == "fen" || ext == "epd") return tags ? Format::kTaggedFen : Format::kFenList;
  // Anything else (.txt, no extension): look at the first meaningful line.
  size_t start = 0;
  while (start < t.size()) {
    size_t nl = t.find('\n', start);
    std::string line = text::Trim(t.substr(start, (nl == std::string::npos ? t.size() : nl) - start));
    start = nl == std::string::npos ? t.size() : nl + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      if (t.find("[Game ") != std::string::npos || t.find("[Event ") != std::string::npos) return Format::kPgn;
      return tags ? Format::kTaggedFen : Format::kPgn;
    }
    size_t bar = line.find('|');
    if (bar != std::string::npos && line.find('/', bar) != std::string::npos) return Format::kLineList;
    std::string first = line.substr(0, line.find_first_of(" \t"));
    if (std::count(first.begin(), first.end(), '/') >= 9) return Format::kFenList;
    return Format::kUnknown;
  }
  return Format::kUnknown;
}

}  // namespace

Format DetectFormat(const std::string& path, const std::string& head) {
  const std::string ext = meta::FileExtension(path);
  if (StartsWith(head, "CCBridgeLibrary")) return Format::kCbl;
  if (StartsWith(head, "CCBridge Record")) return Format::kCbr;
  if (ext == "xqf") return Format::kXqf;
  if (ext == "cbl") return Format::kCbl;
  if (ext == "cbr") return Format::kCbr;
  if (StartsWith(head, "XQ") && head.size() > 2 && head[2] >= 0x0A && head[2] <= 0x12) return Format::kXqf;
  // Documents that sit next to collections are not collections.
  static const char* kNotCollections[] = {"doc", "docx", "pdf", "zip", "rar", "7z", "exe", "dll",
                                          "png", "jpg", "gif", "md", "htm", "html", "ini"};
  for (const char* b : kNotCollections)
    if (ext == b) return Format::kUnknown;
  // Text: only a valid decoding is worth sniffing; look at the start.
  std::string t = text::DecodeText(std::string_view(head).substr(0, 8192));
  return SniffText(ext, t);
}

Status ReadCollectionData(const std::string& name, const std::string& data, Format format, ReadResult* out) {
  if (format == Format::kUnknown) format = DetectFormat(name, data.substr(0, 8192));
  using namespace importer;
  switch (format) {
    case Format::kXqf: return ReadXqf(name, data, out);
    case Format::kLineList: return ReadLineList(name, data, out);
    case Format::kFenList: return ReadFenList(name, data, out);
    case Format::kTaggedFen: return ReadTaggedFen(name, data, out);
    case Format::kPgn: return ReadPgn(name, data, out);
    case Format::kDhtmlXq: return ReadDhtmlXq(name, data, out);
    case Format::kCbr: return ReadCbr(name, data, out);
    case Format::kCbl: return ReadCbl(name, data, out);
    default: break;
  }
  std::string why = format == Format::kUnknown ? "not a collection file of a known format"
                                               : std::string("reading ") + FormatName(format) + " is not supported yet";
  AddIssue(out, name, "", why, true);
  return Status::Unsupported(name + ": " + why);
}

namespace {

Status ReadWholeFile(const std::string& path, std::string* data) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) return Status::IOError(path + ": cannot read its size");
  if (size > (256 << 20)) return Status::ResourceExhausted(path + ": larger than 256 MiB; not a collection file");
  data->resize(static_cast<size_t>(size));
  in.seekg(0);
  in.read(data->data(), size);
  if (!in) return Status::IOError(path + ": read error");
  return Status::OK();
}

}  // namespace

Status ReadCollectionFile(const std::string& path, ReadResult* out) { return ReadCollectionFile(path, ReadOptions{}, out); }

Status ReadCollectionFile(const std::string& path, const ReadOptions& options, ReadResult* out) {
  std::string data;
  Status st = ReadWholeFile(path, &data);
  if (!st.ok()) {
    importer::AddIssue(out, path, "", st.message(), true);
    return st;
  }
  const size_t first = out->records.size();
  st = ReadCollectionData(path, data, Format::kUnknown, out);
  if (!options.collection.empty())
    for (size_t i = first; i < out->records.size(); ++i) out->records[i].collection = options.collection;
  return st;
}

Status ListCollectionFiles(const std::string& path, std::vector<std::string>* files, std::vector<std::string>* skipped) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec) return Status::NotFound(path + ": " + ec.message());
  std::vector<std::string> all;
  if (fs::is_directory(status)) {
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) return Status::IOError(path + ": " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) return Status::IOError(path + ": " + ec.message());
      if (it->is_regular_file(ec)) all.push_back(it->path().generic_string());
    }
  } else {
    all.push_back(path);
  }
  std::sort(all.begin(), all.end());
  for (std::string& f : all) {
    std::string head(8192, '\0');
    std::ifstream in(f, std::ios::binary);
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (DetectFormat(f, head) == Format::kUnknown) {
      if (skipped) skipped->push_back(f);
    } else {
      files->push_back(std::move(f));
    }
  }
  return Status::OK();
}

Status ReadCollectionPath(const std::string& path, const ReadOptions& options, const FileCallback& on_file) {
  std::vector<std::string> files;
  Status st = ListCollectionFiles(path, &files);
  if (!st.ok()) return st;
  for (size_t i = 0; i < files.size(); ++i) {
    FileResult r;
    r.path = files[i];
    std::string data;
    r.status = ReadWholeFile(files[i], &data);
    if (r.status.ok()) {
      r.format = DetectFormat(files[i], data.substr(0, 8192));
      const size_t first = r.result.records.size();
      r.status = ReadCollectionData(files[i], data, r.format, &r.result);
      if (!options.collection.empty())
        for (size_t k = first; k < r.result.records.size(); ++k) r.result.records[k].collection = options.collection;
    } else {
      importer::AddIssue(&r.result, files[i], "", r.status.message(), true);
    }
    if (!on_file(std::move(r), i, files.size())) return Status::Aborted("stopped after " + files[i]);
  }
  return Status::OK();
}

}  // namespace canju

// Reading every collection file under ../shared/data (or the folder given):
// time, files/s, records and issues. Numbers for docs/performance.md.
//
//   import_bench [FOLDER] [--issues] [--records]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "importer/importer.h"

int main(int argc, char** argv) {
  std::string root;
  bool print_issues = false, print_records = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--issues") == 0) print_issues = true;
    else if (std::strcmp(argv[i], "--records") == 0) print_records = true;
    else root = argv[i];
  }
  if (root.empty()) {
    std::string here = __FILE__;  // <repo>/bench/import_bench.cpp
    root = here.substr(0, here.rfind('/')) + "/../../shared/data";
  }
  size_t files = 0, failed = 0, records = 0, issues = 0, fatal = 0, broken = 0;
  std::map<std::string, size_t> per_format;
  auto t0 = std::chrono::steady_clock::now();
  canju::Status st = canju::ReadCollectionPath(root, {}, [&](canju::FileResult&& f, size_t, size_t) {
    ++files;
    per_format[canju::FormatName(f.format)]++;
    if (!f.status.ok()) ++failed;
    records += f.result.records.size();
    for (const canju::Record& r : f.result.records) {
      if (r.tags.count(canju::kImportErrorTag)) ++broken;
      if (print_records) {
        size_t plies = 0;
        for (const auto* n = &r.moves; !n->empty(); n = &(*n)[0].next) ++plies;
        std::printf("R\t%s\t%s\t%d\t%s\t%s\t%s\t%zu\n", r.source.c_str(), r.collection.c_str(), r.number,
                    r.title.c_str(), canju::ClaimName(r.claimed), r.fen.c_str(), plies);
      }
    }
    for (const canju::ImportIssue& is : f.result.issues) {
      ++issues;
      if (is.fatal) ++fatal;
      if (print_issues) std::printf("I\t%s%s\n", is.fatal ? "FATAL " : "", canju::IssueToString(is).c_str());
    }
    return true;
  });
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!st.ok()) {
    std::fprintf(stderr, "import_bench: %s\n", st.ToString().c_str());
    return 1;
  }
  std::printf("import: %zu files (%zu unreadable), %zu records (%zu with a rejected position), %zu issues (%zu fatal)\n",
              files, failed, records, broken, issues, fatal);
  for (const auto& [fmt, n] : per_format) std::printf("  %-10s %zu files\n", fmt.c_str(), n);
  std::printf("import: %.2f s, %.0f files/s, %.0f records/s\n", s, files / s, records / s);
  return 0;
}

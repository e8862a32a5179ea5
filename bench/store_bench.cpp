// The puzzle store: adding 10,000 records, listing them (library and CLI),
// and importing all of ../shared/data (reader + store, library and CLI).
// Numbers for docs/performance.md ("Import and store").
//
//   store_bench [--records N] [--data FOLDER] [--canju PATH]
//
// The CLI figures run the `canju` binary next to this one (../cli/canju) with
// its output sent to /dev/null, so they include process start, opening the
// store and formatting every line.
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "puzzles/store.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// CPU seconds of this process (user + system), all threads.
double CpuNow() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// CPU seconds used by finished children so far.
double ChildCpu() {
  rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// Wall and CPU time of one measured step. On a busy machine (this one is
// shared by several builds) wall time swings; CPU time is the steadier figure.
struct Timing {
  double wall = 0, cpu = 0;
};

void Die(const canju::Status& st) {
  if (st.ok()) return;
  std::fprintf(stderr, "store_bench: %s\n", st.ToString().c_str());
  std::exit(1);
}

// Kings and a rook: 9 king pairs x rook squares, every one a different
// position (some are illegal, which the store also keeps: realistic).
std::vector<std::string> Positions(size_t n) {
  std::vector<std::string> out;
  const char* red_king[3] = {"3K5", "4K4", "5K3"};
  const char* black_king[3] = {"3k5", "4k4", "5k3"};
  for (int rk = 0; rk < 3 && out.size() < n; ++rk)
    for (int bk = 0; bk < 3 && out.size() < n; ++bk)
      for (int rank = 1; rank <= 8 && out.size() < n; ++rank)
        for (int file = 0; file < 9 && out.size() < n; ++file) {
          std::string fen = black_king[bk];
          for (int r = 8; r >= 1; --r) {
            fen += '/';
            if (r == rank) {
              if (file) fen += std::to_string(file);
              fen += 'R';
              if (8 - file) fen += std::to_string(8 - file);
            } else {
              fen += '9';
            }
          }
          fen += std::string("/") + red_king[rk] + " w";
          out.push_back(fen);
        }
  return out;
}

// A book-like record: title, source, a 15-ply main line with a variation.
canju::Record MakeRecord(const std::string& collection, int number, const std::string& fen) {
  canju::Record r;
  r.fen = fen;
  r.collection = collection;
  r.number = number;
  r.title = "第" + std::to_string(number) + "局 测试局面";
  r.source = collection + ".xqf";
  r.claimed = canju::Claim::kWin;
  std::vector<canju::MoveNode>* level = &r.moves;
  for (int i = 0; i < 15; ++i) {
    level->push_back(canju::MoveNode{i % 2 ? "e9e8" : "a1a2", i == 0 ? "车进一，将军" : "", {}});
    if (i == 2) level->push_back(canju::MoveNode{"a1a3", "变着", {}});
    level = &level->front().next;
  }
  return r;
}

Timing RunCli(const std::string& command) {
  auto t0 = Clock::now();
  double c0 = ChildCpu();
  int rc = std::system((command + " > /dev/null").c_str());
  Timing t{Since(t0), ChildCpu() - c0};
  if (rc != 0) std::fprintf(stderr, "store_bench: `%s` exited with %d\n", command.c_str(), rc);
  return t;
}

// The best (smallest wall time) of `rounds` runs.
Timing BestCli(const std::string& command, int rounds) {
  Timing best{1e9, 1e9};
  for (int i = 0; i < rounds; ++i) {
    Timing t = RunCli(command);
    if (t.wall < best.wall) best = t;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 10000;
  std::string data, canju_bin;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--records") && i + 1 < argc) n = std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
    else if (!std::strcmp(argv[i], "--canju") && i + 1 < argc) canju_bin = argv[++i];
  }
  if (data.empty()) {
    std::string here = __FILE__;  // <repo>/bench/store_bench.cpp
    data = here.substr(0, here.rfind('/')) + "/../../shared/data";
  }
  if (canju_bin.empty()) canju_bin = (fs::path(argv[0]).parent_path() / ".." / "cli" / "canju").string();
  const bool have_cli = fs::exists(canju_bin);
  std::string dir = (fs::temp_directory_path() / ("canju-store-bench-" + std::to_string(getpid()))).string();
  fs::remove_all(dir);

  // 1. Adding n records, 100 per batch (a "file").
  std::vector<std::string> fens = Positions(100);
  {
    std::unique_ptr<canju::PuzzleStore> store;
    Die(canju::PuzzleStore::Open(dir, {}, &store));
    auto t0 = Clock::now();
    double c0 = CpuNow();
    size_t added = 0;
    for (size_t base = 0; base < n; base += 100) {
      std::vector<canju::Record> batch;
      std::string collection = "集" + std::to_string(base / 100);
      for (size_t i = base; i < std::min(n, base + 100); ++i)
        batch.push_back(MakeRecord(collection, static_cast<int>(i - base + 1), fens[i % fens.size()]));
      canju::AddResult r;
      Die(store->AddRecords(batch, &r));
      added += r.added;
    }
    Die(store->Sync());
    double s = Since(t0);
    std::printf("add %zu records in batches of 100: %.3f s wall, %.3f s CPU (%.0f records/s wall), %zu new\n", n, s,
                CpuNow() - c0, n / s, added);
  }  // closing flushes, as `canju import` does

  // 2. Listing them through the library: open as a reader, List, close.
  for (int round = 0; round < 3; ++round) {
    auto t0 = Clock::now();
    double c0 = CpuNow();
    std::unique_ptr<canju::PuzzleStore> store;
    canju::PuzzleStore::Options ro;
    ro.read_only = true;
    Die(canju::PuzzleStore::Open(dir, ro, &store));
    double opened = Since(t0);
    std::vector<canju::PuzzleSummary> all;
    Die(store->List({}, &all));
    double listed = Since(t0);
    canju::ListFilter one;
    one.collection = "集42";
    std::vector<canju::PuzzleSummary> some;
    Die(store->List(one, &some));
    double filtered = Since(t0) - listed;
    store.reset();
    std::printf("list (library, round %d): open %.1f ms, all %zu in %.1f ms, one collection (%zu) %.2f ms, "
                "total with close %.1f ms wall, %.1f ms CPU\n",
                round + 1, opened * 1e3, all.size(), (listed - opened) * 1e3, some.size(), filtered * 1e3,
                Since(t0) * 1e3, (CpuNow() - c0) * 1e3);
  }
  if (have_cli) {
    for (const char* args : {"puzzles list", "puzzles list --json", "puzzles list --collection 集42",
                             "puzzles list --material KRK --json", "puzzles dups"}) {
      Timing t = BestCli(canju_bin + " " + args + " --store " + dir, 5);
      std::printf("canju %s over %zu puzzles: %.1f ms wall, %.1f ms CPU (best of 5, whole process)\n", args, n,
                  t.wall * 1e3, t.cpu * 1e3);
    }
  }
  fs::remove_all(dir);

  // 3. All of ../shared/data: read + store (the library path of `canju import`).
  if (!fs::exists(data)) {
    std::printf("(no %s: skipping the import figures)\n", data.c_str());
    return 0;
  }
  {
    std::unique_ptr<canju::PuzzleStore> store;
    Die(canju::PuzzleStore::Open(dir, {}, &store));
    size_t files = 0, records = 0, added = 0, dups = 0;
    double read_s = 0, store_s = 0;
    auto t0 = Clock::now();
    double c0 = CpuNow();
    std::vector<std::string> paths;
    Die(canju::ListCollectionFiles(data, &paths));
    for (const std::string& p : paths) {
      auto t1 = Clock::now();
      canju::ReadResult rr;
      canju::ReadCollectionFile(p, {}, &rr);
      auto t2 = Clock::now();
      read_s += std::chrono::duration<double>(t2 - t1).count();
      canju::AddResult ar;
      Die(store->AddRecords(rr.records, &ar));
      store_s += Since(t2);
      ++files;
      records += rr.records.size();
      added += ar.added;
      dups += ar.duplicates;
    }
    Die(store->Sync());
    store.reset();
    std::printf("import %s (library): %zu files, %zu records, %zu new, %zu duplicates: %.2f s wall, %.2f s CPU "
                "(reading %.2f s, storing %.2f s wall)\n",
                data.c_str(), files, records, added, dups, Since(t0), CpuNow() - c0, read_s, store_s);
  }
  fs::remove_all(dir);
  if (have_cli) {
    Timing first = RunCli(canju_bin + " import --quiet --json --store " + dir + " " + data);
    Timing again = RunCli(canju_bin + " import --quiet --json --store " + dir + " " + data);
    std::printf("canju import %s: %.2f s wall, %.2f s CPU into an empty store; %.2f s wall, %.2f s CPU again "
                "(everything a duplicate)\n",
                data.c_str(), first.wall, first.cpu, again.wall, again.cpu);
    Timing list = BestCli(canju_bin + " puzzles list --store " + dir, 5);
    std::printf("canju puzzles list over the imported data: %.1f ms wall, %.1f ms CPU (best of 5)\n", list.wall * 1e3,
                list.cpu * 1e3);
  }
  fs::remove_all(dir);
  return 0;
}

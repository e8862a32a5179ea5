// Tablebase generation benchmark: builds a fixed set with 1 and 2 threads,
// with dense and with compact cells, and reports wall and CPU time, entries per second, peak memory (with and
// without the process's own baseline) and bytes on disk. Numbers, not
// pass/fail; record them in docs/performance.md.
//
//   tablebase_bench [--full] [--dir DIR] [--threads 1,2] [--cells dense,compact]
//                   [--max-cell-distance N] [TABLE...]
//
// --max-cell-distance N keeps only distances up to N plies in the cells and
// sends the rest to the overflow map, as a table with mates longer than the
// cells' codes does (KCNKNP): a benchmark of that map on a table that
// builds in seconds.
//
// Default set: Xiangqi KRKAA KCPKAB KRKAABB KRNKR, chess KQKR; --full adds
// chess KRPKR (355 M entries per side). Sub-tables are built first (not
// timed); each timed build runs in a child process so that its peak memory
// (getrusage) is its own.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tablebase/build.h"
#include "variants/registry.h"

using namespace canju;

namespace {

struct Job {
  std::string variant, table;
};

// Builds everything but the table itself, untimed, in a child process: the
// parent never starts OpenMP threads, which do not survive a fork.
bool Prepare(const Variant& v, const std::string& table, const std::string& dir, std::vector<tb::PlanItem>* plan) {
  Status st = tb::MakePlan(v, {table}, dir, plan);
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return false;
  }
  std::vector<tb::PlanItem> subs(plan->begin(), plan->end() - 1);
  pid_t pid = ::fork();
  if (pid == 0) {
    tb::BuildOptions opts;
    opts.dir = dir;
    opts.threads = 2;
    st = tb::BuildPlan(v, subs, opts);
    if (!st.ok()) std::fprintf(stderr, "%s\n", st.ToString().c_str());
    _exit(st.ok() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp/canju-tb-bench";
  std::vector<int> threads = {1, 2};
  std::vector<std::string> layouts = {"dense", "compact"};
  bool full = false;
  int max_cell_distance = 0;
  std::vector<Job> jobs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--full") full = true;
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--max-cell-distance" && i + 1 < argc) max_cell_distance = std::atoi(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) {
      threads.clear();
      for (char* t = std::strtok(argv[++i], ","); t; t = std::strtok(nullptr, ",")) threads.push_back(std::atoi(t));
    } else if (a == "--cells" && i + 1 < argc) {
      layouts.clear();
      for (char* t = std::strtok(argv[++i], ","); t; t = std::strtok(nullptr, ",")) layouts.push_back(t);
      for (const std::string& l : layouts)
        if (l != "dense" && l != "compact") {
          std::fprintf(stderr, "--cells: dense, compact or both (dense,compact)\n");
          return 2;
        }
    } else if (a.find(':') != std::string::npos) jobs.push_back({a.substr(0, a.find(':')), a.substr(a.find(':') + 1)});
    else if (a[0] != '-') jobs.push_back({"xiangqi", a});
    else {
      std::fprintf(stderr, "usage: tablebase_bench [--full] [--dir DIR] [--threads 1,2] [--cells dense,compact] "
                           "[--max-cell-distance N] [variant:TABLE...]\n");
      return 2;
    }
  }
  if (jobs.empty()) {
    jobs = {{"xiangqi", "KRKAA"}, {"xiangqi", "KCPKAB"}, {"xiangqi", "KRKAABB"}, {"xiangqi", "KRNKR"},
            {"chess", "KQKR"}};
    if (full) jobs.push_back({"chess", "KRPKR"});
  }
  ::mkdir(dir.c_str(), 0755);
  // B/entry: peak RSS per entry and side to move; net: less the RSS the
  // process had before building (code, libraries, variant tables).
  std::printf("%-8s %-8s %-7s %7s %9s %9s %12s %9s %9s %8s %8s %10s %11s %7s\n", "variant", "table", "cells", "threads", "wall s",
              "CPU s", "entries/s", "peak MiB", "base MiB", "B/entry", "net", "file B", "B/position", "orders");
  for (const Job& job : jobs) {
    const Variant& v = BuiltinVariant(job.variant);
    const std::string sub = dir + "/" + job.variant;
    ::mkdir(sub.c_str(), 0755);
    std::vector<tb::PlanItem> plan;
    if (!Prepare(v, job.table, sub, &plan)) return 1;
    const tb::PlanItem target = plan.back();
    for (const std::string& layout : layouts)
    for (int t : threads) {
      const std::string path = sub + "/" + tb::TableFileName(v, target.name);
      ::unlink(path.c_str());
      int fds[2];
      if (::pipe(fds) != 0) return 1;
      auto t0 = std::chrono::steady_clock::now();
      pid_t pid = ::fork();
      if (pid == 0) {
        ::close(fds[0]);
        const uint64_t base = tb::PhaseClock::CurrentRss();
        tb::BuildOptions opts;
        opts.dir = sub;
        opts.threads = t;
        opts.cells = layout == "compact" ? tb::CellLayout::kCompact : tb::CellLayout::kDense;
        opts.max_cell_distance = max_cell_distance;
        std::vector<tb::BuildReport> reps;
        tb::PlanItem item = target;
        item.complete = false;
        Status st = tb::BuildPlan(v, {item}, opts, &reps);
        if (!st.ok()) {
          std::fprintf(stderr, "%s\n", st.ToString().c_str());
          _exit(1);
        }
        char buf[128];
        int n = std::snprintf(buf, sizeof buf, "%llu %d %llu\n", static_cast<unsigned long long>(reps.back().file_bytes),
                              reps.back().orders, static_cast<unsigned long long>(base));
        if (::write(fds[1], buf, n) != n) _exit(1);
        _exit(0);
      }
      ::close(fds[1]);
      int status = 0;
      struct rusage ru;
      ::wait4(pid, &status, 0, &ru);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      char buf[128] = {};
      ssize_t n = ::read(fds[0], buf, sizeof buf - 1);
      ::close(fds[0]);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n <= 0) {
        std::fprintf(stderr, "%s failed\n", target.name.c_str());
        return 1;
      }
      unsigned long long bytes = 0, base = 0;
      int orders = 0;
      std::sscanf(buf, "%llu %d %llu", &bytes, &orders, &base);
      const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
      tb::TableHeader h;
      if (!tb::ReadTableHeader(v, sub, target.name, &h).ok()) return 1;
      const double entries = 2.0 * static_cast<double>(target.entries);
      const double peak = static_cast<double>(ru.ru_maxrss) * 1024.0;
      std::printf("%-8s %-8s %-7s %7d %9.2f %9.2f %12.0f %9.1f %9.1f %8.3f %8.3f %10llu %11.4f %7d\n",
                  job.variant.c_str(), target.name.c_str(), layout.c_str(), t, wall, cpu, entries / wall, peak / (1 << 20),
                  static_cast<double>(base) / (1 << 20), peak / entries, (peak - static_cast<double>(base)) / entries,
                  bytes, static_cast<double>(bytes) / static_cast<double>(h.positions()), orders);
      std::fflush(stdout);
    }
  }
  return 0;
}

// Perft speed: single-threaded nodes per second, start-up excluded.
//   perft_bench            Xiangqi perft(5) with and without bulk counting,
//                          chess perft(6), cannonchess perft(4)
//   perft_bench --quick    smaller depths (a smoke run)
// Figures go into docs/performance.md.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "variants/perft.h"
#include "variants/registry.h"

namespace {

void Run(const char* variant, int depth, bool bulk) {
  const canju::Variant& v = canju::BuiltinVariant(variant);
  canju::Position pos = canju::Position::Start(v);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t nodes = canju::Perft(pos, depth, bulk);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-12s perft(%d) %-9s %13llu nodes %8.2f s %8.1f M nodes/s\n", variant, depth,
              bulk ? "bulk" : "no-bulk", static_cast<unsigned long long>(nodes), s, nodes / s / 1e6);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::printf("== perft (single thread, start positions)\n");
  Run("xiangqi", quick ? 4 : 5, true);
  Run("xiangqi", quick ? 4 : 5, false);
  Run("chess", quick ? 5 : 6, true);
  Run("cannonchess", quick ? 3 : 4, true);
  return 0;
}

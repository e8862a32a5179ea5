#include "solver/race.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace canju::solver {

namespace {
// Which variation of the base heuristics racer `index` runs (0: none).
int Variation(int index) { return index == 0 ? 0 : 1 + (index - 1) % 4; }
}  // namespace

SolveOptions RacerOptions(const SolveOptions& base, int index, const std::atomic<bool>* cancel) {
  SolveOptions o = base;
  o.threads = 1;
  o.cancel = cancel;
  const int w = base.material_weight > 0 ? base.material_weight : 8;
  switch (Variation(index)) {
    case 1: o.material_weight = 0; break;
    case 2: o.material_weight = 2 * w; break;
    case 3: o.killers = !base.killers; break;
    case 4: o.material_weight = std::max(1, w / 2); break;
    default: break;
  }
  return o;
}

std::string RacerName(int index) {
  switch (Variation(index)) {
    case 0: return "the default heuristics";
    case 1: return "without the material term";
    case 2: return "twice the material weight";
    case 3: return "killer moves switched";
    default: return "half the material weight";
  }
}

std::string RaceNote(int index, int count) {
  if (index <= 0) return "";
  return "; decided by searcher " + std::to_string(index + 1) + " of " + std::to_string(count) + " (" +
         RacerName(index) + ")";
}

int Race(const SolveOptions& base, const std::function<bool(int index, const SolveOptions& options)>& run) {
  const int n = std::max(1, base.threads);
  // One flag per racer: the racer that decides first stops the others, not
  // itself (it goes on to its shortest mate, line and cooks). Easy puzzles
  // are often decided by every racer within a moment; only the first may
  // cancel, or each would cut the others' shortest mates short.
  std::vector<std::atomic<bool>> cancel(static_cast<size_t>(n));
  std::atomic<int> decider{-1};
  auto claim = [&](int i) {
    int none = -1;
    if (!decider.compare_exchange_strong(none, i)) return;
    for (int j = 0; j < n; ++j)
      if (j != i) cancel[j] = true;
  };
  auto one = [&](int i) {
    SolveOptions o = RacerOptions(base, i, &cancel[i]);
    o.on_root_decided = [&claim, i] { claim(i); };
    if (run(i, o)) claim(i);
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < n; ++i) threads.emplace_back(one, i);
  one(0);
  for (auto& t : threads) t.join();
  return std::max(0, decider.load());
}

}  // namespace canju::solver

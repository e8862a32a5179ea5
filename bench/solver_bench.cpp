// Solver benchmark: verifies whole collections and prints the figures for
// docs/performance.md (solved count, median and total time, nodes/s) and the
// tables of docs/solver.md (every puzzle not confirmed with its reason, the
// cooks, the book lines that are not best play), and where the seconds went
// by verdict and phase (the walk along the book's line, the solve's phases,
// the audit after it).
//
//   build/bench/solver_bench [--seconds S | --nodes N] [--wall-clock] [--jobs J] [--every N]
//                            [--hash MB] [--material-weight W] [--tb DIR [--tb-missing N]] [--walk-share F]
//                            [--walk-near-open N] [--walk-near-share F] [--no-book-walk]
//                            [--set SECTION.KEY=VALUE]... [--markdown FILE] [PATH...]
//
// --tb DIR probes the endgame tables in DIR at the root and at the leaves
// (build them with bench/solver_tables.sh; their build time is reported
// there, not charged to the puzzles). --hash sets the transposition table
// per thread (default 64 MiB). --nodes gives each puzzle a node budget
// instead of seconds, so that experiments compare the same work whatever
// the machine's load. Seconds are each solving thread's CPU seconds (the
// target is "10 s on one core", and the machine may be shared);
// --wall-clock counts the clock instead.
// --tb-missing N lists the materials of at most N pieces without a table
// that the searches probed most (which tables to build next).
// --walk-share F gives the walk along the book's line that share of each
// puzzle's budget before the solve (default: VerifyOptions's);
// --walk-near-open N: that walk goes on (to VerifyOptions's near share)
// where it stops with at most N of the loser's replies open (0: never),
// --walk-near-share F up to that share;
// --no-book-walk leaves the walk out (before and after the solve).
// --set applies a rule option to every puzzle (VerifyOptions::
// rule_overrides), e.g. rules.perpetual_chase=loss for its cost.
// --material-weight W sets SolveOptions::material_weight (0 = the search
// without the material heuristic, for comparisons); --killers 0 turns
// SolveOptions::killers off; --simulation N sets SolveOptions::
// simulation_nodes; --full-width-share F sets SolveOptions::
// full_width_share. --threads T races T searchers on each puzzle
// (SolveOptions::threads, solver/race.h: whole verifications, each with the
// puzzle's budget, a table and heuristics of its own); with --jobs J that
// is J·T threads.
// Default paths: ../shared/data/xqf/适情雅趣550局/先胜局 and
// ../shared/data/lines/梦入神机.eglib (a record without a claim gets the one
// the end of its book line shows — a mate, a table value or a short solve —
// else "win"). Default: 10 s per puzzle, 2 threads. --markdown writes one
// row per puzzle (verdict, proof, mate, cooks, book departures, reason,
// material); bench/solver_results.py turns it into the sections of
// docs/solver-results.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "importer/importer.h"
#include "solver/tablebase_oracle.h"
#include "solver/verify.h"
#include "variants/registry.h"

namespace {

using namespace canju;

struct Item {
  std::string set;
  Record record;
  VerifyReport report;
};

// The material signature when it has at most nine pieces (tables may
// exist), otherwise the number of pieces; empty if the FEN does not parse.
std::string MaterialLabel(const Record& r) {
  std::shared_ptr<const Variant> v;
  Position p;
  if (!LoadVariant(r.variant, &v).ok() || !Position::FromFen(*v, r.fen, &p).ok()) return "";
  const std::string m = p.Material();
  return m.size() <= 9 ? m : std::to_string(m.size());
}

struct SetStats {
  std::string name;
  int total = 0, confirmed = 0, refuted = 0, unproven = 0, cooked = 0, book_not_best = 0, exact = 0;
  int by_checks = 0, by_threats = 0, by_full_width = 0, by_tables = 0;  // decided puzzles by kind of proof
  // Claimed wins by how the book's main line ends, and how many of them were confirmed.
  int win_mate = 0, win_mate_confirmed = 0, win_judged = 0, win_judged_confirmed = 0;
  RecheckCounts rechecks;  // the independent re-checks of the mates and of the cooks
  double seconds = 0;
  uint64_t nodes = 0;
  std::vector<double> times;
  // Seconds by phase (VerifyReport's walk and audit, the solve's phases),
  // for the puzzles of each verdict kind (VerdictKind's value).
  struct Phases {
    int puzzles = 0;
    double walk = 0, decide = 0, shortest = 0, line = 0, cooks = 0, audit = 0, total = 0;
  } phases[4];
};

std::string Label(const Record& r) {
  std::string s = r.number > 0 ? "第" + std::string(r.number < 100 ? (r.number < 10 ? "00" : "0") : "") +
                                     std::to_string(r.number) + "局 "
                               : "";
  return s + r.title;
}

bool BookNotBest(const VerifyReport& rep) {
  for (const BookDeparture& d : rep.book)
    if (d.kind == BookDeparture::Kind::kLengthens || d.kind == BookDeparture::Kind::kThrowsWin ||
        d.kind == BookDeparture::Kind::kShortens)
      return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  int jobs = 2, every = 1;
  std::string markdown, tb_dir;
  size_t hash_mib = 0;
  int material_weight = -1;  // -1: SolveOptions' default
  double full_width_share = -1;  // -1: SolveOptions' default
  int killers = -1;
  long simulation = -1;
  int searchers = 1;
  bool book_walk = true;
  double walk_share = VerifyOptions().book_walk_share;
  int walk_near_open = VerifyOptions().book_walk_near_open;
  double walk_near_share = VerifyOptions().book_walk_near_share;
  bool cpu_clock = true;  // seconds of the solving thread's CPU time (--wall-clock: of the clock)
  uint64_t nodes = 0;  // a node budget instead of seconds: the same work on a busy machine
  int tb_missing = 0;
  std::vector<std::string> rule_overrides;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (a == "--jobs" && i + 1 < argc) jobs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--every" && i + 1 < argc) every = std::max(1, std::atoi(argv[++i]));
    else if (a == "--markdown" && i + 1 < argc) markdown = argv[++i];
    else if (a == "--tb" && i + 1 < argc) tb_dir = argv[++i];
    else if (a == "--tb-missing" && i + 1 < argc) tb_missing = std::atoi(argv[++i]);
    else if (a == "--wall-clock") cpu_clock = false;
    else if (a == "--nodes" && i + 1 < argc) nodes = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--hash" && i + 1 < argc) hash_mib = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--material-weight" && i + 1 < argc) material_weight = std::atoi(argv[++i]);
    else if (a == "--full-width-share" && i + 1 < argc) full_width_share = std::atof(argv[++i]);
    else if (a == "--killers" && i + 1 < argc) killers = std::atoi(argv[++i]);
    else if (a == "--simulation" && i + 1 < argc) simulation = std::atol(argv[++i]);
    else if (a == "--threads" && i + 1 < argc) searchers = std::max(1, std::atoi(argv[++i]));
    else if (a == "--no-book-walk") book_walk = false;
    else if (a == "--walk-share" && i + 1 < argc) walk_share = std::atof(argv[++i]);
    else if (a == "--walk-near-open" && i + 1 < argc) walk_near_open = std::atoi(argv[++i]);
    else if (a == "--walk-near-share" && i + 1 < argc) walk_near_share = std::atof(argv[++i]);
    else if (a == "--set" && i + 1 < argc) rule_overrides.push_back(argv[++i]);
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr,
                   "usage: solver_bench [--seconds S] [--jobs J] [--every N] [--nodes N] [--wall-clock] [--hash MB] [--material-weight W] [--full-width-share F] [--killers 0|1] [--simulation N] [--threads T] [--tb DIR] "
                   "[--tb-missing N] [--walk-share F] [--walk-near-open N] [--walk-near-share F] [--no-book-walk] "
                   "[--set SECTION.KEY=VALUE] [--markdown FILE] "
                   "[PATH...]\n");
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) {
    for (const char* p : {"../shared/data/xqf/适情雅趣550局/先胜局", "../shared/data/lines/梦入神机.eglib"})
      if (std::filesystem::exists(p)) paths.push_back(p);
    if (paths.empty()) {
      std::printf("solver_bench: ../shared/data not found; give collection paths\n");
      return 0;
    }
  }

  if (!rule_overrides.empty()) {
    std::shared_ptr<const Variant> v;
    if (Status st = LoadVariant("xiangqi", &v, rule_overrides); !st.ok()) {
      std::fprintf(stderr, "solver_bench: --set: %s\n", st.ToString().c_str());
      return 2;
    }
  }
  std::vector<Item> items;
  for (const std::string& path : paths) {
    int n = 0;
    Status st = ReadCollectionPath(path, ReadOptions{}, [&](FileResult&& f, size_t, size_t) {
      for (const ImportIssue& is : f.result.issues)
        if (is.fatal) std::fprintf(stderr, "%s\n", IssueToString(is).c_str());
      for (Record& r : f.result.records) {
        if (n++ % every) continue;
        items.push_back({path, std::move(r), {}});
      }
      return true;
    });
    if (!st.ok()) std::fprintf(stderr, "%s: %s\n", path.c_str(), st.ToString().c_str());
  }
  char seconds_text[32];
  std::snprintf(seconds_text, sizeof seconds_text, "%.1f s %s", seconds, cpu_clock ? "CPU" : "wall-clock");
  const std::string budget = nodes > 0 ? std::to_string(nodes) + " nodes" : seconds_text;
  std::string rules;
  for (const std::string& o : rule_overrides) rules += ", " + o;
  std::fprintf(stderr, "solver_bench: %zu puzzles, %s each, %d thread(s)%s%s%s\n", items.size(), budget.c_str(), jobs,
               tb_dir.empty() ? "" : ", tables in ", tb_dir.c_str(), rules.c_str());

  VerifyOptions vo;
  vo.solve.max_seconds = nodes ? 0 : seconds;
  vo.solve.max_nodes = nodes;
  vo.solve.cpu_clock = cpu_clock;
  if (hash_mib) vo.solve.tt_bytes = hash_mib << 20;
  if (material_weight >= 0) vo.solve.material_weight = material_weight;
  if (full_width_share > 0) vo.solve.full_width_share = full_width_share;
  if (killers >= 0) vo.solve.killers = killers != 0;
  if (simulation >= 0) vo.solve.simulation_nodes = static_cast<uint32_t>(simulation);
  vo.solve.threads = searchers;
  vo.book_walk = book_walk;
  vo.book_walk_share = walk_share;
  vo.book_walk_near_open = walk_near_open;
  vo.book_walk_near_share = walk_near_share;
  vo.default_claim = Claim::kWin;  // line lists: the claim the end of a book line does not show
  vo.rule_overrides = rule_overrides;
  std::unique_ptr<TablebaseOracle> tables;
  std::shared_ptr<const Variant> xiangqi;
  if (!tb_dir.empty()) {
#ifdef CANJU_HAVE_TABLEBASE
    Status st = LoadVariant("xiangqi", &xiangqi);
    if (st.ok()) st = OpenTablebaseOracle(tb_dir, *xiangqi, &tables, tb_missing);
    if (!st.ok()) {
      std::fprintf(stderr, "solver_bench: %s\n", st.ToString().c_str());
      return 2;
    }
    vo.solve.tablebase = tables.get();
#else
    std::fprintf(stderr, "solver_bench: --tb needs the tablebase module\n");
    return 2;
#endif
  }
  std::atomic<size_t> next{0}, done{0};
  const bool progress_tty = isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  std::mutex mu;
  auto worker = [&] {
    for (size_t i; (i = next++) < items.size();) {
      VerifyRecord(items[i].record, vo, &items[i].report);
      const size_t d = ++done;
      std::lock_guard<std::mutex> lock(mu);
      // On a terminal the count is redrawn in place; in a log, a line per
      // tenth of the set (a carriage return there runs all counts together).
      if (progress_tty) std::fprintf(stderr, "\r%zu / %zu", d, items.size());
      else if (d * 10 / items.size() != (d - 1) * 10 / items.size()) std::fprintf(stderr, "%zu / %zu\n", d, items.size());
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (progress_tty) std::fprintf(stderr, "\n");

  std::vector<SetStats> sets;
  for (const Item& it : items) {
    if (sets.empty() || sets.back().name != it.set) {
      sets.emplace_back();
      sets.back().name = it.set;
    }
    SetStats& s = sets.back();
    const Verdict& v = it.report.verdict;
    ++s.total;
    s.confirmed += v.kind == VerdictKind::kConfirmed;
    s.refuted += v.kind == VerdictKind::kRefuted;
    s.unproven += v.kind == VerdictKind::kUnproven;
    s.cooked += !v.cooks.empty();
    s.rechecks.Add(v);
    s.book_not_best += BookNotBest(it.report);
    s.exact += it.report.solve.mate_exact && v.mate_plies >= 0;
    if (it.report.claimed == Claim::kWin) {
      const bool mate = it.report.book_end == BookEnd::kMate, judged = it.report.book_end == BookEnd::kBeforeMate;
      const bool confirmed = v.kind == VerdictKind::kConfirmed;
      s.win_mate += mate;
      s.win_mate_confirmed += mate && confirmed;
      s.win_judged += judged;
      s.win_judged_confirmed += judged && confirmed;
    }
    if (v.kind == VerdictKind::kConfirmed || v.kind == VerdictKind::kRefuted) {
      s.by_checks += it.report.solve.proof == ProofKind::kChecks;
      s.by_threats += it.report.solve.proof == ProofKind::kThreats;
      s.by_full_width += it.report.solve.proof == ProofKind::kFullWidth;
      s.by_tables += it.report.solve.proof == ProofKind::kTablebase;
    }
    s.seconds += v.seconds;
    s.nodes += v.nodes;
    s.times.push_back(v.seconds);
    SetStats::Phases& ph = s.phases[static_cast<int>(v.kind) & 3];
    const SolvePhaseSeconds& sp = it.report.solve.phase_seconds;
    ++ph.puzzles;
    ph.walk += it.report.walk_seconds;
    ph.decide += sp.decide;
    ph.shortest += sp.shortest;
    ph.line += sp.line;
    ph.cooks += sp.cooks;
    ph.audit += it.report.audit_seconds;
    ph.total += v.seconds;
  }

  std::printf("\n| collection | puzzles | confirmed | refuted | unproven | shortest mate proved | cooked | book line not best | median | total (CPU) | nodes/s |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (SetStats& s : sets) {
    std::sort(s.times.begin(), s.times.end());
    const double median = s.times.empty() ? 0 : s.times[s.times.size() / 2];
    const std::string name = std::filesystem::path(s.name).filename().string();
    std::printf("| %s | %d | %d (%.1f%%) | %d | %d | %d | %d | %d | %.2f s | %.0f s | %.2f M |\n", name.c_str(), s.total,
                s.confirmed, s.total ? 100.0 * s.confirmed / s.total : 0.0, s.refuted, s.unproven, s.exact, s.cooked,
                s.book_not_best, median, s.seconds, s.seconds > 0 ? s.nodes / s.seconds / 1e6 : 0.0);
  }
  std::printf("\n| collection | decided by consecutive checks | by checks and threats | by full-width search | by the tables (root) |\n|---|---|---|---|---|\n");
  for (const SetStats& s : sets)
    std::printf("| %s | %d | %d | %d | %d |\n", std::filesystem::path(s.name).filename().string().c_str(), s.by_checks,
                s.by_threats, s.by_full_width, s.by_tables);
  std::printf("\n| collection | mates re-checked: hold | incomplete | cooks | cooks re-checked: hold | incomplete |\n|---|---|---|---|---|---|\n");
  for (const SetStats& s : sets)
    std::printf("| %s | %d | %d | %d | %d | %d |\n", std::filesystem::path(s.name).filename().string().c_str(),
                s.rechecks.mates_hold, s.rechecks.mates_incomplete, s.rechecks.cooks, s.rechecks.cooks_hold,
                s.rechecks.cooks_incomplete);
  std::printf("\n| collection | verdict | puzzles | walk | decide | shortest mate | line and re-check | cooks | audit | total |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const SetStats& s : sets)
    for (VerdictKind k : {VerdictKind::kConfirmed, VerdictKind::kRefuted, VerdictKind::kUnproven}) {
      const SetStats::Phases& ph = s.phases[static_cast<int>(k)];
      if (ph.puzzles == 0) continue;
      std::printf("| %s | %s | %d | %.1f s | %.1f s | %.1f s | %.1f s | %.1f s | %.1f s | %.1f s |\n",
                  std::filesystem::path(s.name).filename().string().c_str(), VerdictName(k), ph.puzzles, ph.walk,
                  ph.decide, ph.shortest, ph.line, ph.cooks, ph.audit, ph.total);
    }
  std::printf("\n| collection | claimed wins whose book line ends in mate | confirmed | claimed wins whose book line stops before mate | confirmed |\n|---|---|---|---|---|\n");
  auto share = [](int part, int whole) { return whole ? 100.0 * part / whole : 0.0; };
  for (const SetStats& s : sets)
    std::printf("| %s | %d | %d (%.1f%%) | %d | %d (%.1f%%) |\n", std::filesystem::path(s.name).filename().string().c_str(),
                s.win_mate, s.win_mate_confirmed, share(s.win_mate_confirmed, s.win_mate), s.win_judged,
                s.win_judged_confirmed, share(s.win_judged_confirmed, s.win_judged));
  std::printf("\nwall time %.0f s with %d thread(s), %s budget per puzzle%s%s\n", wall, jobs, budget.c_str(),
              tb_dir.empty() ? "" : ", endgame tables from ", tb_dir.c_str());

  if (tables && tb_missing > 0) {
    std::printf("\n| material without a table (at most %d pieces) | positions probed |\n|---|---|\n", tb_missing);
    const std::vector<MissingTable> missing = tables->MissingTables();
    for (size_t i = 0; i < missing.size() && i < 30; ++i)
      std::printf("| %s | %llu |\n", missing[i].material.c_str(), static_cast<unsigned long long>(missing[i].probes));
  }

  std::printf("\nNot confirmed:\n");
  for (const Item& it : items) {
    const Verdict& v = it.report.verdict;
    if (v.kind == VerdictKind::kConfirmed) continue;
    std::printf("  %-28s %-9s %s\n", Label(it.record).c_str(), VerdictName(v.kind), v.reason.c_str());
  }

  if (!markdown.empty()) {
    std::ofstream out(markdown);
    out << "| collection | puzzle | claimed | verdict | proof | mate (plies) | cooks | book line | reason | material |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Item& it : items) {
      const Verdict& v = it.report.verdict;
      std::string cooks, book;
      for (const std::string& c : v.cooks) cooks += (cooks.empty() ? "" : " ") + c;
      for (const std::string& b : v.book_notes) book += (book.empty() ? "" : "; ") + b;
      std::string mate = v.mate_plies >= 0 ? std::to_string(v.mate_plies) + (it.report.solve.mate_exact ? "" : "?") : "";
      out << "| " << std::filesystem::path(it.set).filename().string() << " | " << Label(it.record) << " | " << ClaimName(it.report.claimed) << " | " << VerdictName(v.kind) << " | "
          << ProofKindName(it.report.solve.proof) << " | " << mate << " | " << cooks << " | " << book << " | "
          << v.reason << " | " << MaterialLabel(it.record) << " |\n";
    }
    std::fprintf(stderr, "per-puzzle table written to %s\n", markdown.c_str());
  }
  return 0;
}

// canju tb build | stats | probe | list | demo — endgame tablebases.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "importer/importer.h"
#include "puzzles/store.h"
#include "tablebase/build.h"
#include "tablebase/probe.h"
#include "variants/notation.h"

namespace canju::cli {
namespace {

using nlohmann::json;

std::string Mib(uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return b;
}

void Check(const Status& st, int code = 1) {
  if (!st.ok()) throw CommandError{st.message(), code};
}

// --for: the materials of at most `max_pieces` pieces that a collection's
// records reach — each start position, and each position after a capture
// along the book's main line (with --variations: along every line of its
// move tree) — by their table's name, with how many records reach each (a
// record counts once per material) and the first of them.
struct WantedTable {
  std::string name;
  int records = 0;
  std::string first;  // "title (source)"
};

// The tally of what the records need, one record at a time.
class TableTally {
 public:
  // `variations`: every line of the book's move tree, not only the main one.
  TableTally(const Variant& v, int max_pieces, bool variations)
      : v_(v), max_pieces_(max_pieces), variations_(variations) {}

  void Add(const Record& rec) {
    if (rec.variant != v_.id() || rec.tags.count(kImportErrorTag)) return;
    Position pos;
    if (!Position::FromFen(v_, rec.fen, &pos).ok()) return;
    ++records_;
    std::vector<std::string> seen;
    Reach(pos, rec, &seen);
    Walk(pos, rec.moves, rec, &seen);
  }
  int records() const { return records_; }
  // Most records first; ties by name.
  std::vector<WantedTable> Sorted() const {
    std::vector<WantedTable> out;
    for (const auto& [name, w] : wanted_) out.push_back(w);
    std::stable_sort(out.begin(), out.end(),
                     [](const WantedTable& a, const WantedTable& b) { return a.records > b.records; });
    return out;
  }

 private:
  // The positions after captures from `pos` on: along the main line (each
  // node's first continuation), and with variations_ along every
  // alternative too (the others, each on a copy of the position).
  void Walk(Position pos, std::span<const MoveNode> level, const Record& rec, std::vector<std::string>* seen) {
    while (!level.empty()) {
      if (variations_)
        for (size_t i = 1; i < level.size(); ++i) Walk(pos, level.subspan(i, 1), rec, seen);
      const MoveNode& node = level.front();
      Move m;
      if (!ParseAnyMove(pos, node.move, &m).ok()) return;  // (the importer reported it)
      StateInfo si;  // (undo information only: the position is never taken back)
      pos.DoMove(m, &si);
      if (si.captured != kNoPiece) Reach(pos, rec, seen);
      level = node.next;
    }
  }

  void Reach(const Position& pos, const Record& rec, std::vector<std::string>* seen) {
    const int pieces = pos.piece_count(kFirst) + pos.piece_count(kSecond);
    if (pieces > max_pieces_ || pieces < 3) return;
    tb::Material m;
    if (!tb::Material::Parse(v_, pos.Material(), &m).ok()) return;
    const std::string name = tb::Canonical(v_, m).Name(v_);  // a colour flip is the same table
    if (std::find(seen->begin(), seen->end(), name) != seen->end()) return;
    seen->push_back(name);
    WantedTable& w = wanted_[name];
    if (w.records++ == 0) {
      w.name = name;
      w.first = (rec.title.empty() ? std::string() : rec.title + " (") + rec.source + (rec.title.empty() ? "" : ")");
    }
  }

  const Variant& v_;
  const int max_pieces_;
  const bool variations_;
  int records_ = 0;
  std::map<std::string, WantedTable> wanted_;
};

void TallyPaths(const std::vector<std::string>& paths, TableTally* tally) {
  for (const std::string& path : paths) {
    Status st = ReadCollectionPath(path, ReadOptions{}, [&](FileResult&& f, size_t, size_t) {
      for (const ImportIssue& is : f.result.issues)
        if (is.fatal) std::fprintf(stderr, "canju tb build: %s\n", IssueToString(is).c_str());
      for (const Record& rec : f.result.records) tally->Add(rec);
      return true;
    });
    if (!st.ok()) throw CommandError{st.message(), 1};  // (the importer's messages name the path)
  }
}

void TallyStore(const std::string& dir, const std::string& collection, TableTally* tally) {
  std::unique_ptr<PuzzleStore> store;
  PuzzleStore::Options o;
  o.read_only = true;  // beside a running import or verify; a missing store is an error
  Status st = PuzzleStore::Open(dir, o, &store);
  if (!st.ok()) throw CommandError{dir + ": " + st.message(), 1};
  st = store->ForEachRecord(collection, [&](PuzzleId, const Record& r) {
    tally->Add(r);
    return true;
  });
  if (!st.ok()) throw CommandError{dir + ": " + st.message(), 1};
}

// "500M", "2G", "1500000": a count of entries with an optional decimal
// suffix (k, M, G). False on anything else.
bool ParseCount(const std::string& text, uint64_t* out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  size_t end = 0;
  uint64_t n = 0;
  try {
    n = std::stoull(text, &end);
  } catch (const std::exception&) {
    return false;
  }
  uint64_t scale = 1;
  if (end + 1 == text.size()) {
    switch (text[end]) {
      case 'k': case 'K': scale = 1000; break;
      case 'm': case 'M': scale = 1000000; break;
      case 'g': case 'G': scale = 1000000000; break;
      default: return false;
    }
  } else if (end != text.size()) {
    return false;
  }
  if (n > UINT64_MAX / scale) return false;
  *out = n * scale;
  return true;
}

// 743762250 → "743.8 M": entries as the plan's reader compares them.
std::string Count(uint64_t n) {
  char b[32];
  if (n >= 1000000000) std::snprintf(b, sizeof b, "%.1f G", n / 1e9);
  else if (n >= 1000000) std::snprintf(b, sizeof b, "%.1f M", n / 1e6);
  else std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(n));
  return b;
}

// A table's estimate at its low end (sub-tables not yet built at one byte
// an entry, tb::LowerBound) with the layout chosen for it there.
uint64_t LowEndPeak(const tb::PlanItem& it, tb::CellLayout cells, uint64_t limit, tb::CellLayout* layout = nullptr) {
  const tb::PlanItem low = tb::LowerBound(it);
  const tb::CellLayout chosen = tb::ChooseLayout(low, cells, limit);
  if (layout) *layout = chosen;
  return tb::PeakBytes(low, chosen);
}

// Prints what --for found and returns the names to build: those whose own
// build fits in the memory limit and, where `max_entries` is set, has at
// most that many entries a side (a table too large is named and left out,
// so that the rest still get built; a table already complete is kept).
// `plan_out` gets the plan of them all, to be narrowed to those kept.
std::vector<std::string> PlanFor(const Variant& v, const std::vector<WantedTable>& wanted, int records, int max_pieces,
                                 bool variations, const std::string& dir, uint64_t limit, uint64_t max_entries,
                                 const std::string& max_entries_text, tb::CellLayout cells,
                                 std::vector<tb::PlanItem>* plan_out) {
  std::fprintf(stderr, "tables for %d record(s), materials of at most %d pieces reached at the start or after a "
               "capture along the %s: %zu\n", records, max_pieces, variations ? "book's lines" : "main line",
               wanted.size());
  // One plan for them all; a table's own build is its plan's largest (its
  // sub-tables have fewer pieces), so it alone decides whether it fits.
  std::vector<std::string> names;
  for (const WantedTable& w : wanted) names.push_back(w.name);
  std::vector<tb::PlanItem>& plan = *plan_out;
  Check(tb::MakePlan(v, names, dir, &plan), 2);
  std::map<std::string, const tb::PlanItem*> item;
  for (const tb::PlanItem& it : plan) item[it.name] = &it;
  std::vector<std::string> keep;
  for (const WantedTable& w : wanted) {
    const tb::PlanItem& it = *item.at(w.name);
    const uint64_t peak = it.complete ? 0 : tb::PeakBytes(it, tb::ChooseLayout(it, cells, limit));
    std::string why;
    if (!it.complete && max_entries && it.entries > max_entries)
      why = "  — left out: " + Count(it.entries) + " entries a side, over --max-entries " + max_entries_text;
    else if (limit && peak > limit) {
      // Left out on the high end (sub-tables not yet built at two bytes):
      // one table refused in the middle of the run would stop the rest.
      const uint64_t low_peak = LowEndPeak(it, cells, limit);
      why = Mib(low_peak) != Mib(peak)
                ? "  — left out: needs up to " + Mib(peak) + " (at least " + Mib(low_peak) + "), limit " + Mib(limit)
                : "  — left out: needs about " + Mib(peak) + ", limit " + Mib(limit);
    }
    std::fprintf(stderr, "  %-10s %5d record(s), e.g. %s%s\n", w.name.c_str(), w.records, w.first.c_str(),
                 why.c_str());
    if (why.empty()) keep.push_back(w.name);
  }
  return keep;
}

// Builds `tables` with their sub-tables; `made` is a plan already made for
// a superset of them (nullptr: make it here).
void BuildTables(const Variant& v, const std::vector<std::string>& tables, const std::string& dir, int threads,
                 uint64_t memory_mib, int level, bool quiet, bool phases, tb::CellLayout cells, bool dry_run,
                 const std::vector<tb::PlanItem>* made = nullptr) {
  std::vector<tb::PlanItem> plan;
  if (made) Check(tb::SubPlan(v, *made, tables, &plan), 2);
  else Check(tb::MakePlan(v, tables, dir, &plan), 2);
  uint64_t peak = 0;
  int todo = 0;
  const uint64_t limit = memory_mib ? memory_mib << 20 : tb::AvailableMemory();
  std::fprintf(stderr, "plan (%s, %s):\n", v.id().c_str(), dir.c_str());
  uint64_t low_peak = 0;
  for (const auto& it : plan) {
    // Sub-tables not yet built count at two bytes an entry (the most a file
    // stores); the range's low end at one, the usual width. The layout is
    // chosen again before the build, on the exact figure.
    const tb::CellLayout layout = tb::ChooseLayout(it, cells, limit);
    const uint64_t p = tb::PeakBytes(it, layout);
    tb::CellLayout low_layout;
    const uint64_t lp = LowEndPeak(it, cells, limit, &low_layout);
    // (Under auto the low end may take dense cells where the high end takes
    // compact ones, so either end may be the larger.)
    const std::string range =
        Mib(lp) != Mib(p) ? Mib(std::min(lp, p)) + " to " + Mib(std::max(lp, p)) : Mib(p);
    std::string layout_text = layout == tb::CellLayout::kCompact ? "compact" : "dense";
    if (low_layout != layout) layout_text += " or dense";
    layout_text += " cells";
    std::fprintf(stderr, "  %-10s %12llu entries per side  peak %-22s %-22s %s%s\n", it.name.c_str(),
                 static_cast<unsigned long long>(it.entries), range.c_str(), layout_text.c_str(),
                 it.complete ? "complete, skipped" : "to build", it.note.empty() ? "" : (" (" + it.note + ")").c_str());
    if (!it.complete) peak = std::max(peak, p), low_peak = std::max(low_peak, lp), ++todo;
  }
  if (Mib(low_peak) != Mib(peak))
    std::fprintf(stderr, "%d table(s) to build; peak memory %s to %s (the sub-tables' widths decide)\n", todo,
                 Mib(std::min(low_peak, peak)).c_str(), Mib(std::max(low_peak, peak)).c_str());
  else
    std::fprintf(stderr, "%d table(s) to build; peak memory about %s\n", todo, Mib(peak).c_str());
  if (dry_run) return;
  tb::BuildOptions opts;
  opts.dir = dir;
  opts.threads = threads;
  opts.compression_level = level;
  opts.memory_limit = memory_mib << 20;
  opts.cells = cells;
  // One bar per table: phase, percentage and ETA of the phase.
  auto bar = std::make_unique<ProgressBar>("", 0, quiet);
  opts.progress = [&](const tb::Progress& p) {
    bar->SetLabel(p.table + " " + p.phase);
    bar->SetTotal(p.total);
    bar->Update(p.done);
  };
  opts.log = [&](const std::string& line) {
    bar->Finish();
    bar = std::make_unique<ProgressBar>("", 0, quiet);
    std::fprintf(stderr, "built %s\n", line.c_str());
  };
  if (phases) {
    // The process's own memory before any table (code, libraries, variant):
    // peak figures include it.
    std::fprintf(stderr, "process RSS before building: %s\n", Mib(tb::PhaseClock::CurrentRss()).c_str());
    opts.phase_log = [&](const std::string& table, const std::string& phase, double wall, double cpu, uint64_t rss) {
      bar->Finish();
      bar = std::make_unique<ProgressBar>("", 0, quiet);
      std::fprintf(stderr, "  %s %-28s %8.2f s wall %8.2f s CPU   peak RSS %s\n", table.c_str(), (phase + ":").c_str(),
                   wall, cpu, Mib(rss).c_str());
    };
  }
  Status st = tb::BuildPlan(v, plan, opts);
  bar->Finish();
  if (st.code() == Status::Code::kResourceExhausted) throw CommandError{st.message(), 3};
  Check(st);
}

json StatsJson(const Variant& v, const std::string& dir, const std::string& material) {
  tb::TableHeader h;
  Check(tb::ReadTableHeader(v, dir, material, &h), 2);
  tb::Material m;
  Check(tb::Material::Parse(v, h.material, &m));
  tb::Indexer ix;
  Check(ix.Init(v, m));
  json out;
  out["table"] = h.material;
  out["positions"] = h.positions();
  json sides;
  for (int s = 0; s < 2; ++s) {
    const tb::SideStats& st = h.stats[s];
    json j;
    j["win"] = st.win;
    j["draw"] = st.draw;
    j["loss"] = st.loss;
    j["illegal"] = st.illegal;
    j["longest_win_plies"] = st.longest_win;
    j["longest_win_fen"] = st.win ? tb::IndexFen(ix, st.longest_win_index, Color(s)) : "";
    sides[s == 0 ? "w" : "b"] = j;
  }
  out["sides"] = sides;
  out["perpetual_check_orders"] = h.orders;
  out["rules"] = h.rules;
  out["index"] = h.index_scheme;
  return out;
}

void PrintStats(const Variant& v, const json& j) {
  std::printf("%s (%s): %llu positions\n", j["table"].get<std::string>().c_str(), v.id().c_str(),
              static_cast<unsigned long long>(j["positions"].get<uint64_t>()));
  for (const char* side : {"w", "b"}) {
    const json& s = j["sides"][side];
    const uint64_t legal = s["win"].get<uint64_t>() + s["draw"].get<uint64_t>() + s["loss"].get<uint64_t>();
    auto pct = [&](const char* k) { return legal ? 100.0 * s[k].get<uint64_t>() / legal : 0.0; };
    std::printf("  %s to move: win %llu (%.1f%%)  draw %llu (%.1f%%)  loss %llu (%.1f%%)  illegal %llu\n",
                v.color_name(std::string(side) == "w" ? kFirst : kSecond).c_str(),
                static_cast<unsigned long long>(s["win"].get<uint64_t>()), pct("win"),
                static_cast<unsigned long long>(s["draw"].get<uint64_t>()), pct("draw"),
                static_cast<unsigned long long>(s["loss"].get<uint64_t>()), pct("loss"),
                static_cast<unsigned long long>(s["illegal"].get<uint64_t>()));
    if (s["win"].get<uint64_t>())
      std::printf("    longest win: %d plies, e.g. %s\n", s["longest_win_plies"].get<int>(),
                  s["longest_win_fen"].get<std::string>().c_str());
  }
}

json ResultJson(const tb::ProbeResult& r) {
  json j;
  j["wdl"] = tb::WdlName(r.wdl);
  j["dtm_plies"] = r.dtm_plies;
  if (r.by_rule) j["by_rule"] = true;
  return j;
}

// Best first: quickest wins, draws, slowest losses.
int Rank(const tb::ProbeResult& r) {
  if (r.wdl == tb::Wdl::kWin) return -100000 + r.dtm_plies;
  if (r.wdl == tb::Wdl::kDraw) return 0;
  return 100000 - r.dtm_plies;
}

}  // namespace

void RegisterTablebaseCommands(CLI::App& app) {
  auto* tbc = app.add_subcommand("tb", "Endgame tablebases: build, stats, probe, list, demo");
  tbc->require_subcommand(1);
  {
    auto* cmd = tbc->add_subcommand("build", "Build tables and every sub-table they need (resumes; skips complete ones)");
    auto opts = std::make_shared<VariantOptions>();
    opts->Add(cmd);
    auto dir = std::make_shared<std::string>("tb");
    auto tables = std::make_shared<std::vector<std::string>>();
    auto threads = std::make_shared<int>(0);
    auto memory = std::make_shared<uint64_t>(0);
    auto level = std::make_shared<int>(9);
    auto quiet = std::make_shared<bool>(false);
    auto phases = std::make_shared<bool>(false);
    auto cells = std::make_shared<std::string>("auto");
    cmd->add_option("--dir", *dir, "Table directory")->capture_default_str();
    cmd->add_option("--threads", *threads, "Threads (default: all cores)")->check(CLI::Range(0, 1024));
    cmd->add_option("--memory-limit", *memory, "Refuse tables that need more MiB (default: memory available now)");
    cmd->add_option("--level", *level, "zstd compression level")->check(CLI::Range(1, 22))->capture_default_str();
    cmd->add_flag("--quiet,-q", *quiet, "No progress bar");
    cmd->add_flag("--phases", *phases, "Print each phase's wall and CPU time and the peak memory so far");
    cmd->add_option("--cells", *cells,
                    "Cell layout: dense (1 byte per entry and side, fastest), compact (cells for legal entries "
                    "only: about 0.6 bytes, about 5% slower), auto (dense if it fits in memory)")
        ->check(CLI::IsMember({"auto", "dense", "compact"}))
        ->capture_default_str();
    auto for_paths = std::make_shared<std::vector<std::string>>();
    auto max_pieces = std::make_shared<int>(6);
    auto dry_run = std::make_shared<bool>(false);
    cmd->add_option("--for", *for_paths,
                    "Files or folders of puzzles (any format `canju import` reads): also the tables of the materials "
                    "their records reach, at the start or after a capture along the main line")
        ->expected(1);
    auto for_store = std::make_shared<std::string>();
    auto collection = std::make_shared<std::string>();
    cmd->add_option("--for-store", *for_store, "A puzzle store: the same for its records (see --for)");
    cmd->add_option("--collection", *collection, "With --for-store: only this collection's records");
    auto variations = std::make_shared<bool>(false);
    cmd->add_flag("--variations", *variations,
                  "With --for/--for-store: also the positions after captures in the book's variations, not only "
                  "along its main line");
    cmd->add_option("--max-pieces", *max_pieces, "With --for/--for-store: materials of at most this many pieces (default 6)")
        ->check(CLI::Range(3, 32));
    auto max_entries = std::make_shared<std::string>();
    cmd->add_option("--max-entries", *max_entries,
                    "With --for/--for-store: leave out materials whose table has more entries a side than this "
                    "(e.g. 500M, 2G): the size of a build, finer than --max-pieces")
        ->check([](const std::string& s) {
          uint64_t n;
          return ParseCount(s, &n) && n > 0 ? std::string() : "a count such as 500M, 2G or 1500000 expected";
        });
    cmd->add_flag("--dry-run", *dry_run, "Print the plan (tables, sizes, peak memory) and build nothing");
    cmd->add_option("tables", *tables, "Material signatures, e.g. KRKAA KCPKAB (chess: KQKR)");
    cmd->callback([=] {
      auto v = opts->Load();
      const tb::CellLayout layout = *cells == "dense"     ? tb::CellLayout::kDense
                                    : *cells == "compact" ? tb::CellLayout::kCompact
                                                          : tb::CellLayout::kAuto;
      if (tables->empty() && for_paths->empty() && for_store->empty())
        throw CommandError{"tb build: name the tables (e.g. KRKAA) or give --for PATH or --for-store DIR", 2};
      if (!collection->empty() && for_store->empty())
        throw CommandError{"tb build: --collection needs --for-store DIR", 2};
      if (!max_entries->empty() && for_paths->empty() && for_store->empty())
        throw CommandError{"tb build: --max-entries needs --for PATH or --for-store DIR (named tables are built as asked)", 2};
      std::vector<std::string> all = *tables;
      std::vector<tb::PlanItem> for_plan;  // --for's plan, reused when no table is named beside it
      if (!for_paths->empty() || !for_store->empty()) {
        TableTally tally(*v, *max_pieces, *variations);
        TallyPaths(*for_paths, &tally);
        if (!for_store->empty()) TallyStore(*for_store, *collection, &tally);
        const uint64_t limit = *memory ? *memory << 20 : tb::AvailableMemory();
        uint64_t entries_cap = 0;
        if (!max_entries->empty()) ParseCount(*max_entries, &entries_cap);  // (checked by the option)
        for (const std::string& name : PlanFor(*v, tally.Sorted(), tally.records(), *max_pieces, *variations, *dir,
                                               limit, entries_cap, *max_entries, layout, &for_plan))
          all.push_back(name);
        if (all.empty()) {
          std::fprintf(stderr, "no table to build\n");
          return;
        }
      }
      BuildTables(*v, all, *dir, *threads, *memory, *level, *quiet, *phases, layout, *dry_run,
                  tables->empty() && !for_plan.empty() ? &for_plan : nullptr);
    });
  }
  {
    auto* cmd = tbc->add_subcommand("stats", "Wins, draws, losses and the longest win of a table, per side to move");
    auto opts = std::make_shared<VariantOptions>();
    opts->Add(cmd);
    auto dir = std::make_shared<std::string>("tb");
    auto table = std::make_shared<std::string>();
    auto as_json = std::make_shared<bool>(false);
    cmd->add_option("--dir", *dir, "Table directory")->capture_default_str();
    cmd->add_flag("--json", *as_json, "One JSON object");
    cmd->add_option("table", *table, "Material signature, e.g. KRKAA")->required();
    cmd->callback([=] {
      auto v = opts->Load();
      json j = StatsJson(*v, *dir, *table);
      if (*as_json) std::printf("%s\n", j.dump().c_str());
      else PrintStats(*v, j);
    });
  }
  {
    auto* cmd = tbc->add_subcommand("probe", "Value and distance to mate of a position, and of every legal move");
    auto opts = std::make_shared<VariantOptions>();
    opts->Add(cmd);
    auto dir = std::make_shared<std::string>("tb");
    auto fen = std::make_shared<std::string>();
    auto as_json = std::make_shared<bool>(false);
    cmd->add_option("--dir", *dir, "Table directory")->capture_default_str();
    cmd->add_flag("--json", *as_json, "One JSON object");
    cmd->add_option("fen", *fen, "Position (FEN)")->required();
    cmd->callback([=] {
      auto v = opts->Load();
      Position pos = ParsePositionOrThrow(*v, *fen);
      tb::TablebaseSet set;
      Check(set.Open(*dir, *v), 2);
      tb::ProbeResult r;
      Status st = set.Probe(pos, &r);
      if (st.code() == Status::Code::kNotFound)
        throw CommandError{st.message() + " in " + *dir + " (build it with `canju tb build --dir " + *dir + " " +
                               pos.Material() + "`)",
                           2};
      Check(st);
      MoveList moves;
      pos.GenerateLegal(&moves);
      std::vector<std::pair<Move, tb::ProbeResult>> rows;
      for (Move m : moves) {
        StateInfo si;
        pos.DoMove(m, &si);
        tb::ProbeResult c;
        Status cs = set.Probe(pos, &c);
        pos.UndoMove(m, si);
        Check(cs.WithContext("after " + MoveToCoord(*v, m)));
        tb::ProbeResult mine;
        mine.wdl = c.wdl == tb::Wdl::kWin ? tb::Wdl::kLoss : c.wdl == tb::Wdl::kLoss ? tb::Wdl::kWin : tb::Wdl::kDraw;
        mine.dtm_plies = c.wdl == tb::Wdl::kDraw ? 0 : c.dtm_plies + 1;
        rows.push_back({m, mine});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return Rank(a.second) < Rank(b.second); });
      if (*as_json) {
        json j = ResultJson(r);
        json ms = json::array();
        for (auto& [m, mr] : rows) {
          json e = ResultJson(mr);
          e["move"] = MoveToCoord(*v, m);
          ms.push_back(e);
        }
        j["moves"] = ms;
        std::printf("%s\n", j.dump().c_str());
        return;
      }
      std::printf("%s: %s", pos.Material().c_str(), tb::WdlName(r.wdl));
      if (r.wdl != tb::Wdl::kDraw) std::printf(" in %d plies", r.dtm_plies);
      if (r.by_rule) std::printf(" (perpetual-check rule)");
      std::printf(" for %s to move\n", v->color_name(pos.side_to_move()).c_str());
      for (auto& [m, mr] : rows) {
        std::printf("  %-6s %s", MoveToCoord(*v, m).c_str(), tb::WdlName(mr.wdl));
        if (mr.wdl != tb::Wdl::kDraw) std::printf(" in %d", mr.dtm_plies);
        std::printf("\n");
      }
    });
  }
  {
    auto* cmd = tbc->add_subcommand("list", "The tables in a directory");
    auto dir = std::make_shared<std::string>("tb");
    cmd->add_option("--dir", *dir, "Table directory")->capture_default_str();
    cmd->callback([=] {
      DIR* d = ::opendir(dir->c_str());
      if (!d) throw CommandError{*dir + ": no such directory", 2};
      std::vector<std::string> names;
      while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.compare(n.size() - 4, 4, tb::kFileSuffix) == 0) names.push_back(n);
        else if (n.find(std::string(tb::kFileSuffix) + ".tmp.") != std::string::npos)
          std::printf("%-28s (unfinished build, ignored)\n", n.c_str());
      }
      ::closedir(d);
      std::sort(names.begin(), names.end());
      for (const std::string& n : names) {
        std::unique_ptr<tb::TableFile> f;
        Status st = tb::TableFile::Open(*dir + "/" + n, &f);
        if (!st.ok()) {
          std::printf("%-28s DAMAGED: %s\n", n.c_str(), st.message().c_str());
          continue;
        }
        const tb::TableHeader& h = f->header();
        struct stat sst;
        ::stat((*dir + "/" + n).c_str(), &sst);
        std::printf("%-10s %-10s %12llu positions %10lld bytes\n", h.material.c_str(), h.variant_id.c_str(),
                    static_cast<unsigned long long>(h.positions()), static_cast<long long>(sst.st_size));
      }
    });
  }
  {
    auto* cmd = tbc->add_subcommand("demo", "Build a small Xiangqi set (KRK KNK KPK KCKA KRKA KRKAA) and show statistics");
    auto dir = std::make_shared<std::string>("tb-demo");
    auto quiet = std::make_shared<bool>(false);
    cmd->add_option("--dir", *dir, "Table directory")->capture_default_str();
    cmd->add_flag("--quiet,-q", *quiet, "No progress bar");
    cmd->callback([=] {
      std::shared_ptr<const Variant> v;
      Check(LoadVariant("xiangqi", &v));
      const std::vector<std::string> tables = {"KRK", "KNK", "KPK", "KCKA", "KRKA", "KRKAA"};
      BuildTables(*v, tables, *dir, 0, 0, 9, *quiet, false, tb::CellLayout::kAuto, false);
      for (const std::string& t : tables) PrintStats(*v, StatsJson(*v, *dir, t));
    });
  }
}

}  // namespace canju::cli

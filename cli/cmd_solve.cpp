// canju solve | verify — the puzzle solver and the verifier (solver/).
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/verdict_json.h"
#include "importer/importer.h"
#include "puzzles/store.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "solver/tablebase_oracle.h"
#include "variants/display.h"
#include "variants/notation.h"

namespace canju::cli {
namespace {

using nlohmann::json;

std::atomic<bool> g_stop{false};
extern "C" void OnSolveInterrupt(int) { g_stop = true; }

std::string JoinFen(const std::vector<std::string>& parts) {
  std::string fen;
  for (const std::string& p : parts) fen += (fen.empty() ? "" : " ") + p;
  return fen;
}

json Plies(int n) { return n >= 0 ? json(n) : json(nullptr); }

void WriteJsonLine(const json& j) {
  const std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

// Endgame tables, when the tablebase module is built.
struct Tables {
  std::unique_ptr<TablebaseOracle> oracle;
  void Open(const std::string& dir, const Variant& v, int count_missing_up_to) {
    if (dir.empty()) return;
#ifdef CANJU_HAVE_TABLEBASE
    Status st = OpenTablebaseOracle(dir, v, &oracle, count_missing_up_to);
    if (!st.ok()) throw CommandError{st.message(), 1};
#else
    (void)v;
    throw CommandError{"--tb: this canju was built without the tablebase module", 2};
#endif
  }
  // --tb-missing: the materials most probed without a table.
  static constexpr size_t kMissingShown = 12;
  std::vector<MissingTable> Missing() const {
    std::vector<MissingTable> m = oracle ? oracle->MissingTables() : std::vector<MissingTable>{};
    if (m.size() > kMissingShown) m.resize(kMissingShown);
    return m;
  }
  void PrintMissing(FILE* out) const {
    if (!oracle) return;
    const std::vector<MissingTable> m = Missing();
    std::fprintf(out, "\ntables the search wanted (materials without a table, positions probed)%s\n",
                 m.empty() ? ": none" : "");
    for (const MissingTable& t : m) std::fprintf(out, "  %-14s %12llu\n", t.material.c_str(), static_cast<unsigned long long>(t.probes));
    if (!m.empty()) std::fprintf(out, "(build with: canju tb build --dir DIR %s …)\n", m[0].material.c_str());
  }
  json MissingJson() const {
    json a = json::array();
    for (const MissingTable& t : Missing()) a.push_back({{"material", t.material}, {"probes", t.probes}});
    return a;
  }
};

// Budget and search options shared by solve and verify.
struct SearchOptions {
  uint64_t nodes = 0;
  double seconds = 10;
  bool checks_only = false;
  bool no_cooks = false;
  bool threats = false;
  int hash_mb = 64;
  int threads = 1;
  bool cpu_time = false;
  std::string tb_dir;
  int tb_missing = 0;
  uint64_t check_nodes = SolveOptions{}.proof_check_nodes;

  void Add(CLI::App* cmd, double default_seconds) {
    seconds = default_seconds;
    auto* n = cmd->add_option("--nodes", nodes, "Node budget (instead of --seconds)");
    cmd->add_option("--seconds", seconds, "Time budget in seconds (default " + std::to_string(static_cast<int>(default_seconds)) + ")")
        ->excludes(n)
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--cpu-time", cpu_time,
                  "Count --seconds in each solving thread's CPU time instead of the clock (the same work on a busy "
                  "machine)");
    cmd->add_flag("--checks-only", checks_only, "Only look for mates by consecutive checks (连将杀)");
    cmd->add_flag("--no-cooks", no_cooks, "Do not try the other first moves");
    cmd->add_flag("--threats", threats,
                  "Also search mates made of checks and quiet moves that threaten a mate by checks (long compositions)");
    cmd->add_option("--hash", hash_mb, "Transposition table size in MiB (default 64; per thread)")
        ->check(CLI::Range(1, 65536));
    cmd->add_option("--threads", threads,
                    "Searchers racing on each position, one thread each with the whole budget and heuristics of its "
                    "own; the first to decide answers (default 1; docs/solver.md)")
        ->check(CLI::Range(1, 64));
    cmd->add_option("--proof-check-nodes", check_nodes,
                    "Nodes for re-checking each proved mate by an independent bounded search (default " +
                        std::to_string(check_nodes) + "; 0: no re-check)");
    cmd->add_option("--tb", tb_dir, "Directory of endgame tables to probe at the leaves");
    cmd->add_option("--tb-missing", tb_missing,
                    "With --tb: count the positions of at most N pieces whose material has no table and list the "
                    "materials most probed at the end (which tables to build next)")
        ->check(CLI::Range(2, 32));
  }
  // Options that only make sense together (checked here rather than with
  // CLI11's needs() for a message that says why).
  void Validate() const {
    if (tb_missing > 0 && tb_dir.empty())
      throw CommandError{"--tb-missing needs --tb DIR (the tables there are not counted)", 2};
  }
  SolveOptions Make(const TablebaseOracle* tb, bool nodes_given) const {
    SolveOptions o;
    o.checks_only = checks_only;
    o.threats = threats;
    o.cooks = !no_cooks;
    o.max_nodes = nodes;
    o.max_seconds = nodes_given ? 0 : seconds;
    o.cpu_clock = cpu_time;  // (each puzzle is solved on the thread that made its budget)
    o.tt_bytes = static_cast<size_t>(hash_mb) << 20;
    o.threads = threads;
    o.stop = &g_stop;
    o.tablebase = tb;
    o.proof_check_nodes = check_nodes;
    return o;
  }
};

std::vector<std::string> Coords(const Variant& v, const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(MoveToCoord(v, m));
  return out;
}

// "1. 炮二平五 (h2e2) 马８进７ (h9g7)  2. ..." — numbered by full moves.
std::string HumanLine(const Position& start, const std::vector<Move>& moves) {
  Position p = start;
  std::string out;
  const bool second_starts = start.side_to_move() == kSecond;
  for (size_t i = 0; i < moves.size(); ++i) {
    const bool first_player = p.side_to_move() == kFirst;
    if (first_player || i == 0) {
      const size_t number = (i + (second_starts ? 1 : 0)) / 2 + 1;
      out += (i ? "  " : "") + std::to_string(number) + (first_player ? ". " : "... ");
    } else {
      out += ' ';
    }
    out += MoveToHuman(p, moves[i]) + " (" + MoveToCoord(p.variant(), moves[i]) + ")";
    StateInfo st;
    p.DoMove(moves[i], &st);
  }
  return out;
}

std::string MoveText(const Position& pos, Move m) {
  return MoveToHuman(pos, m) + " (" + MoveToCoord(pos.variant(), m) + ")";
}

std::string ResultSentence(const SolveResult& r) {
  std::string s;
  switch (r.result) {
    case Claim::kWin: s = "win"; break;
    case Claim::kLoss: s = "loss"; break;
    case Claim::kDraw: s = "draw"; break;
    default: s = "unknown (not decided within the budget)"; break;
  }
  if (r.mate_plies >= 0 && (r.result == Claim::kWin || r.result == Claim::kLoss)) {
    s += ", mate in " + std::to_string(r.mate_plies) + (r.mate_plies == 1 ? " ply" : " plies");
    if (!r.mate_exact) s += " or less";
  }
  switch (r.proof) {
    case ProofKind::kChecks: s += " (by consecutive checks"; break;
    case ProofKind::kThreats: s += " (by checks and mate threats"; break;
    case ProofKind::kFullWidth: s += " (full-width search"; break;
    case ProofKind::kTablebase: s += " (endgame tables"; break;
    default: break;
  }
  if (r.proof != ProofKind::kNone && r.proof != ProofKind::kTerminal) {
    if (r.mate_exact && r.proof == ProofKind::kChecks) s += "; the shortest such mate";
    if (r.no_mate_within >= 0 && r.no_mate_within + 2 >= r.mate_plies && r.mate_exact) s += "; no shorter mate of any kind";
    else if (r.no_mate_within > 0) s += "; no mate of any kind within " + std::to_string(r.no_mate_within) + " plies";
    if (r.proof_check == solver::CheckStatus::kHolds) s += "; re-checked";
    s += ")";
  }
  return s;
}

// The independent re-check of the solve's mate: "holds", "incomplete"
// (its node limit ran out), null when none was made (no mate, a table's or
// a terminal result). A check that failed withheld the result (see note).
json ProofCheckJson(solver::CheckStatus status) {
  return status == solver::CheckStatus::kNotRun ? json(nullptr) : json(solver::CheckStatusName(status));
}

json SolveJson(const Position& pos, const SolveResult& r) {
  const Variant& v = pos.variant();
  json j;
  j["result"] = ClaimName(r.result);
  j["mate_plies"] = Plies(r.mate_plies);
  j["pv"] = Coords(v, r.pv);
  LineEnd end;
  j["line_end"] = LineEndJson(HowLineEnds(pos, r.pv, r.result, &end) ? std::optional<LineEnd>(end) : std::nullopt);
  j["winning_first_moves"] = Coords(v, r.WinningFirstMoves());
  // Each winning first move's re-check (the PV's first: the root's).
  json checks = json::object();
  for (const FirstMove& f : r.first_moves)
    if (f.result == Claim::kWin) checks[MoveToCoord(v, f.move)] = ProofCheckJson(f.proof_check);
  j["winning_first_moves_check"] = checks;
  j["nodes"] = r.nodes;
  j["seconds"] = std::round(r.seconds * 1000) / 1000;
  j["mate_exact"] = r.mate_exact;
  j["proof"] = ProofKindName(r.proof);
  j["undecided_first_moves"] = Coords(v, r.UndecidedFirstMoves());
  j["no_win"] = r.no_win;
  j["no_mate_within"] = r.no_mate_within >= 0 ? json(r.no_mate_within) : json(nullptr);
  j["cooks_scope"] = CooksScopeName(r.cooks_scope);
  j["proof_check"] = ProofCheckJson(r.proof_check);
  j["fen"] = pos.Fen();
  if (!r.note.empty()) j["note"] = r.note;
  return j;
}

void PrintSolve(const Position& pos, const SolveResult& r) {
  std::printf("%s", RenderBoard(pos, BoardStyle{StdoutIsTty(), false}).c_str());
  std::printf("%s\n\n", DescribeState(pos).c_str());
  std::printf("Result:   %s\n", ResultSentence(r).c_str());
  if (!r.pv.empty()) std::printf("Line:     %s\n", HumanLine(pos, r.pv).c_str());
  const auto wins = r.WinningFirstMoves();
  if (r.result == Claim::kWin && r.cooks_scope > 0) {
    std::string list;
    for (Move m : wins) list += (list.empty() ? "" : ", ") + MoveText(pos, m);
    std::printf("Winning first moves (%zu): %s\n", wins.size(), list.c_str());
    if (wins.size() > 1) std::printf("Cooked:   %zu other first move(s) also win (多解)\n", wins.size() - 1);
    size_t held = 0, incomplete = 0;
    for (const FirstMove& f : r.first_moves) {
      held += f.result == Claim::kWin && f.proof_check == solver::CheckStatus::kHolds;
      incomplete += f.result == Claim::kWin && f.proof_check == solver::CheckStatus::kIncomplete;
    }
    if (held + incomplete > 0)
      std::printf("Re-checked: %zu of %zu winning first moves hold%s\n", held, wins.size(),
                  incomplete ? (" (" + std::to_string(incomplete) + " incomplete)").c_str() : "");
    const auto undecided = r.UndecidedFirstMoves();
    if (!undecided.empty()) {
      list.clear();
      for (Move m : undecided) list += (list.empty() ? "" : ", ") + MoveText(pos, m);
      std::printf("Undecided first moves: %s\n", list.c_str());
    }
    const char* scope = r.cooks_scope == 1 ? "checking first moves" : r.cooks_scope == 2 ? "checks and threats" : "every first move";
    std::printf("Cooks tried among: %s\n", scope);
  }
  if (!r.note.empty()) std::printf("Note:     %s\n", r.note.c_str());
  std::printf("Searched: %llu nodes in %.2f s (%.2f M nodes/s)\n", static_cast<unsigned long long>(r.nodes), r.seconds,
              r.seconds > 0 ? r.nodes / r.seconds / 1e6 : 0.0);
}

// The position to solve when the argument names a file rather than a FEN:
// the start of one of its records, read through the importer (any format
// `canju import` reads). A folder, or a file without that record, is an
// error that says what to do.
struct FilePosition {
  std::shared_ptr<const Variant> variant;
  Position pos;
  Record record;
  size_t records = 0;
};

FilePosition ReadFilePosition(const std::string& path, size_t record_no, const VariantOptions& opts) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw CommandError{path + ": a folder, not a position (`canju verify " + path + "` checks its puzzles)", 2};
  ReadResult rr;
  Status st = ReadCollectionFile(path, &rr);
  if (!st.ok()) throw CommandError{st.message(), 1};  // (the importer's messages name the file)
  if (rr.records.empty()) throw CommandError{path + ": no position found in the file", 1};
  if (record_no > rr.records.size())
    throw CommandError{path + ": has " + std::to_string(rr.records.size()) + " record(s), no record " +
                           std::to_string(record_no), 2};
  FilePosition fp;
  fp.records = rr.records.size();
  fp.record = std::move(rr.records[record_no - 1]);
  auto err = fp.record.tags.find(kImportErrorTag);
  if (err != fp.record.tags.end())
    throw CommandError{path + ": record " + std::to_string(record_no) + ": " + err->second, 1};
  // The record's own variant, unless --variant or --set chose one.
  if (opts.variant == VariantOptions{}.variant && opts.overrides.empty()) {
    Status vs = LoadVariant(fp.record.variant, &fp.variant);
    if (!vs.ok()) throw CommandError{path + ": " + vs.message(), 1};
  } else {
    fp.variant = opts.Load();
  }
  st = Position::FromFen(*fp.variant, fp.record.fen, &fp.pos);
  if (!st.ok()) throw CommandError{path + ": record " + std::to_string(record_no) + ": " + st.message(), 1};
  return fp;
}

void RegisterSolve(CLI::App& app) {
  auto* cmd = app.add_subcommand("solve", "Prove a position: win / loss / unknown, shortest mate, best line, cooks");
  auto opts = std::make_shared<VariantOptions>();
  auto search = std::make_shared<SearchOptions>();
  auto fen = std::make_shared<std::vector<std::string>>();
  auto as_json = std::make_shared<bool>(false);
  opts->Add(cmd);
  auto record_no = std::make_shared<size_t>(1);
  cmd->add_option("fen", *fen,
                  "Position in FEN (quoted, or its fields as separate words), or a file the importer reads "
                  "(XQF, PGN, …): the start of its first record")
      ->required()
      ->expected(1, 6);
  cmd->add_option("--record", *record_no, "With a file: which of its records to solve (1 = the first)")
      ->check(CLI::PositiveNumber);
  search->Add(cmd, 10);
  cmd->add_flag("--json", *as_json,
                "One JSON object: result, mate_plies, pv, winning_first_moves, nodes, seconds (side to move's view)");
  cmd->callback([=] {
    search->Validate();
    const std::string text = JoinFen(*fen);
    std::error_code ec;
    std::optional<FilePosition> file;
    if (fen->size() == 1 && std::filesystem::exists(text, ec)) file = ReadFilePosition(text, *record_no, *opts);
    else if (*record_no != 1) throw CommandError{"--record needs a file in place of the FEN", 2};
    auto v = file ? file->variant : opts->Load();
    Position pos = file ? file->pos : ParsePositionOrThrow(*v, text);
    Tables tb;
    tb.Open(search->tb_dir, *v, search->tb_missing);
    signal(SIGINT, OnSolveInterrupt);
    const SolveOptions so = search->Make(tb.oracle.get(), search->nodes > 0);
    const SolveResult r = Solve(pos, so);
    signal(SIGINT, SIG_DFL);
    if (*as_json) {
      json j = SolveJson(pos, r);
      if (file) {
        j["source"] = file->record.source;
        j["title"] = file->record.title;
        j["claimed"] = ClaimName(file->record.claimed);
      }
      if (search->tb_missing > 0) j["missing_tables"] = tb.MissingJson();
      WriteJsonLine(j);
    } else {
      if (file) {
        const Record& rec = file->record;
        std::printf("%s%s%s\n", rec.title.empty() ? "" : (rec.title + " — ").c_str(), rec.source.c_str(),
                    file->records > 1 ? (" (record " + std::to_string(*record_no) + " of " +
                                         std::to_string(file->records) + "; --record N for another)").c_str()
                                      : "");
        if (rec.claimed != Claim::kUnknown) std::printf("Claimed:  %s (side to move)\n", ClaimName(rec.claimed));
        std::printf("\n");
      }
      PrintSolve(pos, r);
      if (search->tb_missing > 0) tb.PrintMissing(stdout);
    }
  });
}

// --- verify -------------------------------------------------------------------

struct Job {
  Record record;
  PuzzleId id = 0;          // with --store
  VerifyReport report;
  Status status;
  std::optional<LineEnd> line_end;  // how the verdict's line ends (worked out once, by the worker)
  bool done = false;
};

json VerifyJson(const Job& job) {
  const Record& r = job.record;
  const Verdict& v = job.report.verdict;
  json j;
  j["source"] = r.source;
  j["title"] = r.title;
  j["collection"] = r.collection;
  j["number"] = r.number;
  j["fen"] = r.fen;
  j["claimed"] = ClaimName(job.report.claimed);
  if (!job.report.claim_from.empty()) j["claim_from"] = job.report.claim_from;
  j["verdict"] = VerdictName(v.kind);
  j["proven"] = ClaimName(v.proven);
  j["mate_plies"] = Plies(v.mate_plies);
  j["mate_exact"] = v.mate_exact == 1;
  // "No mate of any kind within N plies" at the root, the solve's (a lower
  // bound where mate_plies is an upper one); null when none was proved.
  const SolveResult& s = job.report.solve;
  j["no_mate_within"] = s.no_mate_within >= 0 && s.result == v.proven ? json(s.no_mate_within) : json(nullptr);
  j["proof"] = ProofKindName(job.report.solve.proof);
  j["proof_check"] = ProofCheckJson(job.report.solve.proof_check);
  j["pv"] = v.pv;
  j["line_end"] = LineEndJson(job.line_end);
  j["cooks"] = v.cooks;
  j["cooks_check"] = CooksCheckJson(v);  // each cook's re-check, by move
  j["cooks_scope"] = CooksScopeName(v.cooks_scope);  // "none": cooks not searched
  j["book_notes"] = v.book_notes;
  j["book_plies"] = job.report.book_plies;
  // "mate", "before mate" (the book judges the position where it stops), or null.
  j["book_end"] = job.report.book_end == BookEnd::kNone ? json(nullptr) : json(BookEndName(job.report.book_end));
  j["reason"] = v.reason;
  j["rules"] = VerdictRules(v);  // the --set options the verdict holds under ([]: the variant's own)
  j["nodes"] = v.nodes;
  j["seconds"] = std::round(v.seconds * 1000) / 1000;
  // Where the seconds went: the walk along the book's line (and a claim
  // read from its end), the solve's phases, the book's line after it.
  const auto ms = [](double x) { return std::round(x * 1000) / 1000; };
  const SolvePhaseSeconds& p = s.phase_seconds;
  j["seconds_by_phase"] = {{"walk", ms(job.report.walk_seconds)}, {"decide", ms(p.decide)},
                           {"shortest", ms(p.shortest)},          {"line", ms(p.line)},
                           {"cooks", ms(p.cooks)},                {"audit", ms(job.report.audit_seconds)}};
  if (job.id) j["id"] = FormatPuzzleId(job.id);
  return j;
}

std::string Name(const Record& r) {
  std::string s = r.title.empty() ? r.source : r.title;
  if (r.number > 0 && r.title.find(std::to_string(r.number)) == std::string::npos)
    s = std::to_string(r.number) + " " + s;
  return s;
}

void PrintVerifyLine(const Job& job) {
  const Verdict& v = job.report.verdict;
  std::string what = VerdictName(v.kind);
  std::string detail;
  if (v.mate_plies >= 0) detail += "mate " + std::to_string(v.mate_plies) + (v.mate_exact == 1 ? "" : "?");
  if (!v.cooks.empty()) detail += (detail.empty() ? "" : ", ") + std::to_string(v.cooks.size()) + " cook(s)";
  std::printf("%s  %s  claimed %-5s %s  %s\n", PadRight(what, 9).c_str(), PadRight(Name(job.record), 28).c_str(),
              ClaimName(job.report.claimed), PadRight(detail, 18).c_str(), std::to_string(v.seconds).substr(0, 5).c_str());
  if (v.kind != VerdictKind::kConfirmed && !v.reason.empty()) std::printf("           %s\n", v.reason.c_str());
  for (const std::string& n : v.book_notes) std::printf("           book: %s\n", n.c_str());
}

// --show: the board and the solver's full answer under the verdict line.
void PrintVerifyDetails(const Job& job) {
  std::shared_ptr<const Variant> v;
  Position pos;
  if (!LoadVariant(job.record.variant, &v, VerdictRules(job.report.verdict)).ok() ||
      !Position::FromFen(*v, job.record.fen, &pos).ok())
    return;
  std::printf("\n");
  PrintSolve(pos, job.report.solve);
  std::printf("\n");
}

struct Tally {
  int confirmed = 0, refuted = 0, unproven = 0, cooked = 0, book_not_best = 0, errors = 0;
  int unproven_judged = 0;  // unproven win claims open on the position where the book's line stops
  RecheckCounts rechecks;
  int lines_mate = 0, lines_perpetual = 0, lines_chase = 0, lines_open = 0;  // how the confirmed verdicts' lines end
  double seconds = 0;
  uint64_t nodes = 0;
  std::vector<double> times;
  void Add(const Job& j) {
    const Verdict& v = j.report.verdict;
    if (v.kind == VerdictKind::kConfirmed && j.line_end)
      ++(*j.line_end == LineEnd::kMate             ? lines_mate
         : *j.line_end == LineEnd::kPerpetualCheck ? lines_perpetual
         : *j.line_end == LineEnd::kPerpetualChase ? lines_chase
                                                   : lines_open);
    if (v.kind == VerdictKind::kConfirmed) ++confirmed;
    else if (v.kind == VerdictKind::kRefuted) ++refuted;
    else ++unproven;
    unproven_judged += j.report.open_on_judged_end;
    if (!v.cooks.empty()) ++cooked;
    rechecks.Add(v);
    for (const BookDeparture& d : j.report.book)
      if (d.kind == BookDeparture::Kind::kLengthens || d.kind == BookDeparture::Kind::kThrowsWin ||
          d.kind == BookDeparture::Kind::kShortens) {
        ++book_not_best;
        break;
      }
    if (!j.status.ok()) ++errors;
    seconds += v.seconds;
    nodes += v.nodes;
    times.push_back(v.seconds);
  }
};

void PrintSummary(const Tally& t, size_t total, double wall, FILE* out) {
  std::vector<double> times = t.times;
  std::sort(times.begin(), times.end());
  const double median = times.empty() ? 0 : times[times.size() / 2];
  std::fprintf(out, "\n%-22s %6s\n", "verdict", "count");
  std::fprintf(out, "%-22s %6d\n", "confirmed", t.confirmed);
  std::fprintf(out, "%-22s %6d\n", "refuted", t.refuted);
  std::fprintf(out, "%-22s %6d\n", "unproven", t.unproven);
  if (t.unproven_judged)
    std::fprintf(out, "  (%d of them wins whose book line stops before mate, in a position it judges won)\n",
                 t.unproven_judged);
  std::fprintf(out, "%-22s %6zu\n", "total", total);
  std::fprintf(out, "%s %6d\n", PadRight("cooked (多解)", 22).c_str(), t.cooked);
  std::fprintf(out, "%-22s %6d\n", "book line not best", t.book_not_best);
  const RecheckCounts& rc = t.rechecks;
  if (rc.mates_hold + rc.mates_incomplete > 0)
    std::fprintf(out, "%-22s %6d hold, %d incomplete\n", "mates re-checked", rc.mates_hold, rc.mates_incomplete);
  if (rc.cooks_hold + rc.cooks_incomplete > 0)
    std::fprintf(out, "%-22s %6d hold, %d incomplete (of %d cooks)\n", "cooks re-checked", rc.cooks_hold,
                 rc.cooks_incomplete, rc.cooks);
  if (t.lines_mate + t.lines_perpetual + t.lines_chase + t.lines_open > 0)
    std::fprintf(out, "%-22s %6d to mate, %d to the loser's perpetual check, %s%d stop before mate\n",
                 "lines (confirmed)", t.lines_mate, t.lines_perpetual,
                 t.lines_chase ? (std::to_string(t.lines_chase) + " to its perpetual chase, ").c_str() : "",
                 t.lines_open);
  if (t.errors) std::fprintf(out, "%-22s %6d\n", "unreadable positions", t.errors);
  std::fprintf(out, "solver time %.1f s (median %.2f s), wall %.1f s, %.2f M nodes/s\n", t.seconds, median, wall,
               t.seconds > 0 ? t.nodes / t.seconds / 1e6 : 0.0);
}

void RegisterVerify(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify", "Check the claimed results of collections (files, folders or the puzzle store): confirmed / refuted / unproven");
  auto search = std::make_shared<SearchOptions>();
  auto paths = std::make_shared<std::vector<std::string>>();
  auto store_dir = std::make_shared<std::string>();
  auto collection = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto quiet = std::make_shared<bool>(false);
  auto jobs = std::make_shared<int>(1);
  auto redo = std::make_shared<bool>(false);
  auto retry_unproven = std::make_shared<bool>(false);
  auto no_book = std::make_shared<bool>(false);
  auto book_slack = std::make_shared<int>(VerifyOptions().book_slack);
  auto book_walk_share = std::make_shared<double>(VerifyOptions().book_walk_share);
  auto near_open = std::make_shared<int>(VerifyOptions().book_walk_near_open);
  auto near_share = std::make_shared<double>(VerifyOptions().book_walk_near_share);
  auto assume = std::make_shared<std::string>();
  auto show = std::make_shared<bool>(false);
  auto rules = std::make_shared<std::vector<std::string>>();
  cmd->add_option("paths", *paths, "XQF / eglib / FEN-list / PGN files or folders (read through the importer)");
  auto* st_opt = cmd->add_option("--store", *store_dir, "Verify the records of this puzzle store and save each verdict (one per set of --set options)");
  cmd->add_option("--collection", *collection, "With --store: only this collection")->needs(st_opt);
  cmd->add_flag("--redo", *redo, "With --store: verify records that already have a verdict under these rules too (default: skip them)")
      ->needs(st_opt);
  cmd->add_flag("--retry-unproven", *retry_unproven,
                "With --store: verify again the records whose verdict under these rules is unproven (say with more "
                "--seconds); the others keep theirs")
      ->needs(st_opt);
  search->Add(cmd, 10);
  cmd->add_option("--jobs,-j", *jobs, "Puzzles verified at once (threads; default 1)")->check(CLI::Range(1, 256));
  cmd->add_flag("--no-book", *no_book, "Do not audit the books' main lines");
  cmd->add_option("--book-slack", *book_slack,
                  "A win the search leaves open is checked along the book's mating line; plies it may take beyond "
                  "the book's length where a book defence is not the longest (default 8)")
      ->check(CLI::Range(0, 64));
  cmd->add_option("--book-walk-share", *book_walk_share,
                  "Share of each puzzle's budget for proving a claimed win along the book's main line, from its end "
                  "back to the start, before the solve (0: only with what the solve leaves; default 0.3)")
      ->check(CLI::Range(0.0, 0.9));
  cmd->add_option("--book-walk-near-open", *near_open,
                  "Where that walk runs out with at most this many of the loser's replies still open (or at the "
                  "winner's move), it goes on before the solve (0: never; default 5)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--book-walk-near-share", *near_share,
                  "How much of the budget such a walk near its proof may use in all (default 0.9)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--claim", *assume,
                  "Claim to check for records that carry none (line lists) when the end of the book's main line "
                  "does not show one (a mate, a position the --tb tables value, or one a short solve decides): win, "
                  "draw or loss for the side to move")
      ->check(CLI::IsMember({"win", "draw", "loss"}));
  cmd->add_flag("--json", *as_json,
                "One JSON object per puzzle per line (source, title, claimed, verdict, mate_plies, cooks, ...); the "
                "summary goes to stderr");
  cmd->add_flag("--quiet,-q", *quiet, "No progress bar");
  cmd->add_flag("--show", *show, "Also draw each board with the best line (Chinese and ICCS) and the winning first moves");
  cmd->add_option("--set", *rules,
                  "Rule option SECTION.KEY=VALUE applied to every puzzle's variant, e.g. "
                  "rules.perpetual_chase=loss; each verdict names the options it holds under (repeat --set for several)")
      ->allow_extra_args(false);
  cmd->callback([=] {
    search->Validate();
    if (paths->empty() == store_dir->empty())
      throw CommandError{"verify: give either files/folders or --store DIR", 2};
    // Verdicts are stored under the options in one spelling, whatever the
    // spacing or order they were given in (CanonicalOverrides).
    *rules = CanonicalOverrides(*rules);
    std::vector<Job> work;
    std::vector<std::string> problems;
    std::unique_ptr<PuzzleStore> store;
    if (!store_dir->empty()) {
      Status st = PuzzleStore::Open(*store_dir, PuzzleStore::Options(), &store);
      if (!st.ok()) throw CommandError{*store_dir + ": " + st.message(), 1};
      int skipped = 0, other_rules = 0;
      st = store->ForEachRecord(*collection, [&](PuzzleId id, const Record& r) {
        // Only the verdict under this run's rules (its `--set` options, in
        // any order) counts: one under other options answers another
        // question and is kept beside the new one (FileVerdict).
        const Verdict* held = VerdictUnder(r, *rules);
        const bool again = *redo || (*retry_unproven && held && held->kind == VerdictKind::kUnproven);
        if (!again && held) {
          ++skipped;
          return true;
        }
        if (!held && r.verdict.kind != VerdictKind::kNone) ++other_rules;
        Job j;
        j.record = r;
        j.id = id;
        work.push_back(std::move(j));
        return true;
      });
      if (!st.ok()) throw CommandError{*store_dir + ": " + st.message(), 1};
      if (skipped && (!*quiet || work.empty()))
        std::fprintf(stderr, "%d record(s) already have a verdict%s (--redo verifies them again, --retry-unproven the unproven ones)\n", skipped,
                     rules->empty() ? "" : " under these rules");
      if (other_rules && !*quiet)
        std::fprintf(stderr,
                     "%d record(s) have verdicts under other rules only: verified under these rules too (the "
                     "others are kept)\n",
                     other_rules);
    } else {
      for (const std::string& p : *paths) {
        Status st = ReadCollectionPath(p, ReadOptions{}, [&](FileResult&& f, size_t, size_t) {
          for (const ImportIssue& is : f.result.issues)
            if (is.fatal) problems.push_back(IssueToString(is));
          for (Record& r : f.result.records) {
            Job j;
            j.record = std::move(r);
            work.push_back(std::move(j));
          }
          return true;
        });
        if (!st.ok()) throw CommandError{st.message(), 1};  // (the importer's errors name the path)
      }
    }
    for (const std::string& p : problems) std::fprintf(stderr, "canju verify: %s\n", p.c_str());
    if (work.empty()) {
      if (store_dir->empty()) std::fprintf(stderr, "canju verify: no puzzles found\n");
      return;
    }

    // A rule option that does not apply is refused before any puzzle is
    // verified (once per variant of the collection).
    if (!rules->empty()) {
      std::set<std::string> variants;
      for (const Job& j : work) variants.insert(j.record.variant.empty() ? "xiangqi" : j.record.variant);
      for (const std::string& id : variants) {
        std::shared_ptr<const Variant> v;
        Status st = LoadVariant(id, &v, *rules);
        if (!st.ok()) throw CommandError{"verify: --set: " + st.message(), 2};
      }
    }

    // Tables per variant would need one set each; collections are Xiangqi.
    std::shared_ptr<const Variant> tb_variant;  // outlives the tables
    Tables tb;
    if (!search->tb_dir.empty()) {
      Status st = LoadVariant(work[0].record.variant, &tb_variant, *rules);
      if (!st.ok()) throw CommandError{st.message(), 1};
      tb.Open(search->tb_dir, *tb_variant, search->tb_missing);
    }
    VerifyOptions vo;
    vo.solve = search->Make(tb.oracle.get(), search->nodes > 0);
    vo.audit_book = !*no_book;
    vo.book_slack = *book_slack;
    vo.book_walk_share = *book_walk_share;
    vo.book_walk_near_open = *near_open;
    vo.book_walk_near_share = *near_share;
    if (!assume->empty()) ParseClaim(*assume, &vo.default_claim);
    vo.rule_overrides = *rules;

    signal(SIGINT, OnSolveInterrupt);
    const auto t0 = std::chrono::steady_clock::now();
    std::mutex mu;
    std::condition_variable cv;
    std::atomic<size_t> next{0};
    int active = *jobs;
    auto worker = [&] {
      for (;;) {
        const size_t i = next++;
        if (i >= work.size() || g_stop) {
          std::lock_guard<std::mutex> lock(mu);
          --active;
          cv.notify_all();
          break;
        }
        VerifyReport rep;
        Status st = VerifyRecord(work[i].record, vo, &rep);
        const std::optional<LineEnd> line_end = VerdictLineEnd(work[i].record.variant, work[i].record.fen, rep.verdict);
        std::lock_guard<std::mutex> lock(mu);
        work[i].line_end = line_end;
        work[i].report = std::move(rep);
        work[i].status = st;
        work[i].done = true;
        cv.notify_all();
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < *jobs; ++t) threads.emplace_back(worker);

    ProgressBar bar("verify", work.size(), *quiet);
    Tally tally;
    size_t shown = 0;
    bool interrupted = false;
    for (size_t i = 0; i < work.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return work[i].done || active == 0; });
        if (!work[i].done) {
          interrupted = true;
          break;
        }
      }
      Job& j = work[i];
      if (g_stop && j.report.verdict.kind != VerdictKind::kConfirmed && j.report.verdict.kind != VerdictKind::kRefuted) {
        // Cut short by ^C: neither reported nor stored.
        interrupted = true;
        break;
      }
      if (store && j.id) {
        Status st = store->SaveVerdict(j.id, j.report.verdict);
        if (!st.ok()) std::fprintf(stderr, "canju verify: saving %s: %s\n", Name(j.record).c_str(), st.message().c_str());
      }
      tally.Add(j);
      ++shown;
      bar.Update(shown);
      if (*as_json) {
        WriteJsonLine(VerifyJson(j));
      } else {
        bar.Finish();
        PrintVerifyLine(j);
        if (*show) PrintVerifyDetails(j);
        std::fflush(stdout);
      }
      if (g_stop) {
        interrupted = true;
        break;
      }
    }
    g_stop = true;  // the workers stop after their current puzzle
    for (auto& t : threads) t.join();
    bar.Finish();
    signal(SIGINT, SIG_DFL);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    PrintSummary(tally, shown, wall, *as_json ? stderr : stdout);
    if (search->tb_missing > 0) tb.PrintMissing(*as_json ? stderr : stdout);
    if (interrupted)
      std::fprintf(stderr, "interrupted after %zu of %zu puzzles%s\n", shown, work.size(),
                   store ? " (verdicts so far are saved; run again to go on)" : "");
    g_stop = false;
  });
}

}  // namespace

void RegisterSolveCommands(CLI::App& app) {
  RegisterSolve(app);
  RegisterVerify(app);
}

}  // namespace canju::cli

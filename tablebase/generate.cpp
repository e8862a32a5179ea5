// Set-up, initialisation (mates, stalemates, captures and promotions into
// sub-tables), the propagation of values by un-moves one distance at a time
// in OpenMP-parallel passes over chunks of the index, statistics and writing.
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>

#include "tablebase/generator.h"

namespace canju::tb {

namespace {
constexpr int kMaxDtm = 8191;
}

std::string IndexFen(const Indexer& ix, uint64_t idx, Color side) {
  uint8_t sq[kMaxTablePieces];
  if (idx == kNoIndex || idx >= ix.size() || !ix.Decode(idx, sq)) return "";
  Position p;
  p.Clear(ix.variant(), side);
  for (int i = 0; i < ix.slots(); ++i) p.Put(ix.slot_piece(i), sq[i]);
  std::string fen = p.Fen(false);
  // "board side - -": the castling and en-passant fields say nothing here.
  size_t cut = fen.find(' ');
  return fen.substr(0, cut + 2);
}

std::unique_ptr<TableGenerator> MakeGenerator(const Variant& v, const Material& m, int threads, ProgressFn progress,
                                              GeneratorOptions opts) {
  if (opts.compact_cells) return std::make_unique<Generator<CompactCells>>(v, m, threads, std::move(progress), opts);
  return std::make_unique<Generator<DenseCells>>(v, m, threads, std::move(progress), opts);
}

template <class Cells>
Generator<Cells>::Generator(const Variant& v, const Material& m, int threads, ProgressFn progress, GeneratorOptions opts)
    : v_(v), material_(m), name_(m.Name(v)), threads_(threads > 0 ? threads : omp_get_max_threads()),
      progress_(std::move(progress)), opts_(opts) {}

template <class Cells>
Generator<Cells>::~Generator() = default;

std::pair<double, double> PhaseClock::Lap() {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  rusage ru;
  ::getrusage(RUSAGE_SELF, &ru);
  const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  const std::pair<double, double> lap{wall - wall_, cpu - cpu_};
  wall_ = wall, cpu_ = cpu;
  return lap;
}

uint64_t PhaseClock::PeakRss() {
  rusage ru;
  ::getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

uint64_t PhaseClock::CurrentRss() {
  unsigned long long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  if (std::fscanf(f, "%llu %llu", &pages, &resident) != 2) resident = 0;
  std::fclose(f);
  return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

template <class Cells>
void Generator<Cells>::EndPhase(const char* phase) {
  const auto [wall, cpu] = clock_.Lap();
  if (opts_.phase_log) opts_.phase_log(phase, wall, cpu, PhaseClock::PeakRss());
}

template <class Cells>
Status Generator<Cells>::Init(const std::string& dir) {
  if (Status st = index_.Init(v_, material_); !st.ok()) return st.WithContext(name_);
  if (v_.rules().stalemate == Outcome::kWin)
    return Status::Unsupported(name_ + ": tables do not support stalemate = win");
  if (v_.rules().perpetual_chase == Outcome::kLoss) return Status::Unsupported(name_ + ": " + kNoChaseTables);
  const int K = v_.kind_count();
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < K; ++k) {
      if (!material_.count[c][k]) continue;
      for (int sq = 0; sq < kSquareSlots; ++sq) {
        if (!v_.on_board(sq)) continue;
        const Slot& s = v_.slot(Color(c), k, sq);
        for (uint32_t r = s.ray_begin; r < s.ray_end; ++r) {
          const RayEntry& e = v_.rays()[r];
          const auto mode = static_cast<AtomMode>(e.mode);
          if ((e.flags & kCanMove) && (mode == AtomMode::kHop || mode == AtomMode::kGap))
            return Status::Unsupported(name_ + ": " + v_.kind(k).name +
                                       " has quiet moves by hopping; un-moves support leaps and rides only");
        }
      }
    }
  if (Status st = geo_.Init(index_); !st.ok()) return st.WithContext(name_);

  // Sub-tables, and the link of every capture and promotion to one of them.
  // Only the sides to move that some link probes are read (a capture
  // leaves the captured piece's owner to move): often half of each table.
  std::map<std::string, std::unique_ptr<TableFile>> files;
  std::map<std::string, unsigned>& sides = sub_sides_;
  sides.clear();
  auto load = [&](const Material& m, const LoadedTable** out, bool* flip, Color mover) -> Status {
    Material canon = Canonical(v_, m, flip);
    const std::string name = canon.Name(v_);
    if (!subs_.count(name)) {
      const std::string path = dir + "/" + TableFileName(v_, name);
      std::unique_ptr<TableFile> f;
      if (Status st = TableFile::Open(path, &f); !st.ok())
        return Status::NotFound(name_ + " needs sub-table " + name + ": " + st.message());
      if (f->header().variant_fingerprint != VariantFingerprint(v_))
        return Status::InvalidArgument(path + ": built for other rules than this " + v_.id() + "; rebuild it");
      auto t = std::make_unique<LoadedTable>();
      if (Status st = t->index.Init(v_, canon); !st.ok()) return st;
      if (t->index.size() != f->header().entries)
        return Status::Corruption(path + ": index size does not match this build's index scheme");
      t->width = static_cast<int>(f->header().value_bytes);
      files[name] = std::move(f);
      subs_[name] = std::move(t);
    }
    *out = subs_[name].get();
    sides[name] |= 1u << (*flip ? mover : ~mover);  // the side to move there (Geometry::ProbeSub)
    return Status::OK();
  };
  for (int cap = 2; cap < index_.slots(); ++cap) {
    Material m = material_;
    --m.count[index_.slot_color(cap)][index_.slot_kind(cap)];
    const LoadedTable* t;
    bool flip;
    if (Status st = load(m, &t, &flip, ~index_.slot_color(cap)); !st.ok()) return st;
    geo_.SetCaptureLink(cap, t, flip);
  }
  // Each pawn kind of the mover promotes into its own material.
  const int G = static_cast<int>(index_.groups().size());
  const auto& promos = v_.rules().promotion_kinds;
  for (int mover = 0; mover < 2; ++mover)
    for (int pawn = 0; pawn < K; ++pawn) {
      if (v_.rules().promotion_region < 0 || !v_.kind(pawn).pawn || !material_.count[mover][pawn]) continue;
      for (int g = -1; g < G; ++g)
        for (int q : promos) {
          Material m = material_;
          if (g >= 0) {
            const PieceGroup& pg = index_.groups()[g];
            if (pg.color == Color(mover)) continue;
            --m.count[pg.color][pg.kind];
          }
          --m.count[mover][pawn];
          ++m.count[mover][q];
          Geometry::SubLink& link = geo_.promo_links[geo_.PromoLinkIndex(Color(mover), g, pawn, q)];
          if (Status st = load(m, &link.table, &link.flip, Color(mover)); !st.ok()) return st;
        }
    }
  for (auto& [name, f] : files)
    if (Status st = f->ReadAllRaw(subs_[name]->raw, sides[name]); !st.ok()) return st;

  // Small tables are not worth the threads' start-up and barriers.
  threads_ = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(threads_, index_.size() / 65536)));
  for (int s = 0; s < 2; ++s) {
    static_assert(DtmCodes::kIllegal == 0 && WdlCodes::kIllegal == 0, "fresh cells are zero: illegal");
    cells_[s].Reset(index_.size());  // compact cells come in Initialise
    level_mask_[s].assign((index_.size() >> kChunkBits) + 1, 0);
  }
  int counters = opts_.counter_codes > 0 ? opts_.counter_codes : std::min(geo_.max_quiet_moves(), 60);
  counters = std::min(counters, WdlCodes::kMaxCounters);
  // Rule counters are used only in the final distance pass of a table under
  // the perpetual-check rule, but their codes are reserved in every pass of
  // such a table (one code layout per table); a table without the rule has
  // none, which leaves its cells longer distances.
  dtm_.Init(counters, v_.rules().perpetual_check == Outcome::kLoss ? std::min(counters, 60) : 0,
            opts_.max_cell_distance);
  wdl_.Init(counters);
  header_ = TableHeader();
  header_.variant_id = v_.id();
  header_.variant_fingerprint = VariantFingerprint(v_);
  header_.rules = RulesDescription(v_);
  header_.material = name_;
  header_.index_scheme = index_.Describe();
  header_.entries = index_.size();
  return Status::OK();
}

template <class Cells>
void Generator<Cells>::NoteDtm(int d) {
  int cur = max_dtm_.load(std::memory_order_relaxed);
  while (d > cur && !max_dtm_.compare_exchange_weak(cur, d, std::memory_order_relaxed)) {
  }
}

template <class Cells>
void Generator<Cells>::ForChunks(const std::string& phase, const std::function<void(Work&, Color, uint64_t, uint64_t)>& body) {
  const uint64_t n = index_.size();
  const uint64_t chunk = 1ULL << kChunkBits;
  const int64_t per_side = static_cast<int64_t>((n + chunk - 1) / chunk);
  const int64_t total = 2 * per_side;
  std::atomic<int64_t> done{0};
#pragma omp parallel num_threads(threads_)
  {
    Work w;
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < total; ++c) {
      const Color side = Color(c / per_side);
      const uint64_t begin = static_cast<uint64_t>(c % per_side) * chunk;
      body(w, side, begin, std::min(n, begin + chunk));
      int64_t d = ++done;
      if (!phase.empty() && progress_ && omp_get_thread_num() == 0)
        progress_(Progress{name_, phase, static_cast<uint64_t>(d), static_cast<uint64_t>(total)});
    }
  }
}

template <class Cells>
void Generator<Cells>::ForRanges(const std::string& phase, const std::function<void(Work&, uint64_t, uint64_t)>& body) {
  const uint64_t n = index_.size();
  const uint64_t chunk = 1ULL << kChunkBits;
  const int64_t total = static_cast<int64_t>((n + chunk - 1) / chunk);
  std::atomic<int64_t> done{0};
#pragma omp parallel num_threads(threads_)
  {
    Work w;
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < total; ++c) {
      const uint64_t begin = static_cast<uint64_t>(c) * chunk;
      body(w, begin, std::min(n, begin + chunk));
      int64_t d = ++done;
      if (!phase.empty() && progress_ && omp_get_thread_num() == 0)
        progress_(Progress{name_, phase, static_cast<uint64_t>(d), static_cast<uint64_t>(total)});
    }
  }
}

template <class Cells>
void Generator<Cells>::StoreDist(Color side, uint64_t idx, int d, bool rule) {
  const uint8_t code = dtm_.Dist(d, rule);
  if (code == DtmCodes::kBigDist) {
    overflow_.Put(side, idx, static_cast<uint32_t>(2 * d + (rule ? 1 : 0)));
    big_dist_.Add(side, idx, d);
    // A win stored here is a set-up's (a capture into a sub-table), and only
    // such a win can get shorter later (SetWin).
    if (d & 1) tentative_big_wins_.Put(side, idx, static_cast<uint32_t>(d));
  }
  Store(side, idx, code);
  NoteDtm(d);
  Mark(side, idx, d);
}

template <class Cells>
int Generator<Cells>::DistAt(Color side, uint64_t idx, uint8_t code) {
  if (code == DtmCodes::kBigDist) return static_cast<int>(overflow_.Get(side, idx) >> 1);
  return dtm_.DistOf(code);
}

template <class Cells>
int Generator<Cells>::CaptureLossMax(Board& b, Color s, bool quiet_only) const {
  const bool in_check = geo_.InCheck(b, s);
  int worst = -1;
  geo_.ForEachCapture(b, s, [&](int slot, int to, int cap, int promo) {
    if (!geo_.Legal(b, s, slot, to, cap, in_check)) return true;
    if (quiet_only && geo_.GivesCheck(b, s, slot, to, cap, promo)) return true;
    const ProbeResult r = DecodeValue(geo_.ProbeSub(b, s, slot, to, cap, promo));
    worst = std::max(worst, r.dtm_plies + 1);
    return true;
  });
  return worst;
}

template <class Cells>
Status Generator<Cells>::Initialise() {
  max_dtm_ = 0;
  const bool stalemate_loses = v_.rules().stalemate == Outcome::kLoss;
  // An entry is legal for a side to move if no two pieces share a square and
  // the other side is not in check. Compact cells need legality before they
  // exist: a pass of its own.
  constexpr bool compact = Cells::kNeedsLegality;
  if constexpr (compact) {
    ForRanges("legality", [&](Work& w, uint64_t begin, uint64_t end) {
      Board& b = w.b;
      for (uint64_t i = begin; i < end; ++i) {
        geo_.Set(b, i);
        if (!b.valid) continue;
        if (!geo_.InCheck(b, kSecond)) cells_[kFirst].MarkLegal(i);
        if (!geo_.InCheck(b, kFirst)) cells_[kSecond].MarkLegal(i);
      }
    });
    for (Cells& c : cells_) c.Allocate();
    EndPhase("legality");
  }
  ForRanges("initialise", [&](Work& w, uint64_t begin, uint64_t end) {
    Board& b = w.b;
    for (uint64_t i = begin; i < end; ++i) {
      bool legal[2];
      if constexpr (compact) {
        legal[0] = cells_[kFirst].IsLegal(i), legal[1] = cells_[kSecond].IsLegal(i);
        if (!(legal[0] | legal[1])) continue;
        geo_.Set(b, i);
      } else {
        geo_.Set(b, i);
        if (!b.valid) continue;  // cells start illegal
        legal[0] = !geo_.InCheck(b, kSecond), legal[1] = !geo_.InCheck(b, kFirst);
      }
      for (int si = 0; si < 2; ++si) {
        const Color side = Color(si);
        if (!legal[si]) continue;
        const bool in_check = !legal[~side];  // legal here: only a check makes the other side's entry illegal
        int quiet = 0, best_win = INT_MAX, worst_loss = -1;
        bool draw = false, any = false;
        geo_.ListMoves(b, side, false, w.moves);
        for (const TableMove& m : w.moves) {
          const int slot = m.slot, to = m.to, cap = m.cap, promo = m.promo;
          if (cap < 0 && promo < 0) {
            // Compact cells know already which quiet moves are legal (dense
            // ones are not written yet).
            bool ok;
            if constexpr (compact) ok = QuietLegal(b, side, slot, to, in_check);
            else ok = geo_.Legal(b, side, slot, to, cap, in_check);
            any |= ok;
            quiet += ok;
            continue;
          }
          if (!geo_.Legal(b, side, slot, to, cap, in_check)) continue;
          any = true;
          const uint16_t sv = geo_.ProbeSub(b, side, slot, to, cap, promo);
          if (sv == kValueDraw) {
            draw = true;
            continue;
          }
          const ProbeResult r = DecodeValue(sv);
          if (r.wdl == Wdl::kLoss) best_win = std::min(best_win, r.dtm_plies + 1);
          else worst_loss = std::max(worst_loss, r.dtm_plies + 1);
        }
        if (!any) {
          if (in_check || stalemate_loses) StoreDist(side, i, 0, false);
          else Store(side, i, DtmCodes::kDraw);
        } else if (best_win <= kMaxDtm) {
          StoreDist(side, i, best_win, false);
        } else if (draw) {
          Store(side, i, DtmCodes::kDraw);
        } else if (quiet == 0) {
          StoreDist(side, i, worst_loss, false);
        } else {
          const uint8_t c = dtm_.Counter(quiet);
          if (c == dtm_.big_counter()) overflow_.Put(side, i, static_cast<uint32_t>(quiet));
          Store(side, i, c);
        }
      }
    }
  });
  return Status::OK();
}

template <class Cells>
void Generator<Cells>::SetWin(Color side, uint64_t idx, uint64_t place, int dist, bool final_pass) {
  Cells& cells = cells_[side];
  uint8_t c = cells.LoadAt(place);
  for (;;) {
    // A tentative win (by a capture) not yet processed may get shorter:
    // processing happens at its own distance + 1, later than this level.
    bool better;
    int big_before = 0;  // the tentative distance, where it was a big one
    if (c == DtmCodes::kBigDist) {
      // The levels go up, so a win set by a level is never longer than this
      // one and a big loss never gets better: only a set-up's tentative win
      // can, and those few are looked up instead of the whole overflow map
      // (most big entries are predecessors already won at a lower level).
      const int d = static_cast<int>(tentative_big_wins_.Get(side, idx));
      better = d > dist;
      big_before = d;
    } else if (dtm_.IsDist(c)) {
      const int d = dtm_.DistOf(c);
      better = (d & 1) && d > dist;
    } else {
      better = final_pass ? c == DtmCodes::kWinUnknown : dtm_.Open(c);
    }
    if (!better) return;
    const uint8_t code = dtm_.Dist(dist, false);
    // Only wins are set during a level with an even distance to process, and
    // all at this distance: concurrent writers agree.
    if (code == DtmCodes::kBigDist) overflow_.Put(side, idx, static_cast<uint32_t>(2 * dist));
    if (cells.CasAt(place, c, code)) {
      if (code == DtmCodes::kBigDist) big_dist_.Add(side, idx, dist);
      if (big_before > 0) {
        big_dist_.Supersede(side, idx, big_before);
        tentative_big_wins_.Erase(side, idx);  // its new distance is this level's: final
      }
      if (c == dtm_.big_counter()) overflow_.Erase(side, idx);
      NoteDtm(dist);
      Mark(side, idx, dist);
      return;
    }
  }
}

// A successor won for the opponent: one fewer to wait for. In the final
// distance pass a loss by the perpetual-check rule counts down its
// non-checking moves only (distances.cpp).
template <class Cells>
void Generator<Cells>::Decrement(Work& w, Color side, uint64_t idx, uint64_t place, int level, bool final_pass,
                          int8_t& via_check) {
  Cells& cells = cells_[side];
  uint8_t c = cells.LoadAt(place);
  for (;;) {
    // A loss by the perpetual-check rule (final pass only) waits for its
    // non-checking moves only: its checks do not count towards the distance.
    // Whether the move into w.b checks is asked only here (rule counters
    // are a small part of the losses).
    const bool rule = dtm_.IsRuleCounter(c);
    if (rule ? !final_pass || MovedIntoCheck(w.b, ~side, via_check) : !dtm_.IsCounter(c)) return;
    if (c == (rule ? dtm_.big_rule_counter() : dtm_.big_counter())) {
      if (overflow_.Decrement(side, idx) != 0) return;
      overflow_.Erase(side, idx);
    } else if (c != (rule ? dtm_.RuleCounter(1) : dtm_.Counter(1))) {
      if (cells.CasAt(place, c, static_cast<uint8_t>(c - 1))) return;
      continue;
    }
    // The last move: a loss. Each successor win decrements once, so only one
    // thread gets here; wins are not set during a level that processes wins.
    geo_.Set(w.aux, idx);
    StoreDist(side, idx, std::max(level, CaptureLossMax(w.aux, side, rule)), rule);
    return;
  }
}

template <class Cells>
void Generator<Cells>::ProcessResolved(Work& w, Color side, uint64_t idx, int dist, bool final_pass) {
  geo_.Set(w.b, idx);
  const Color x = ~side;
  if ((dist & 1) == 0) {
    ForEachPredecessorCell(w, x, [&](uint64_t j, uint64_t place) { SetWin(x, j, place, dist + 1, final_pass); });
  } else {
    int8_t check = -1;  // MovedIntoCheck's answer, not asked yet
    ForEachPredecessorCell(
        w, x, [&](uint64_t j, uint64_t place) { Decrement(w, x, j, place, dist + 1, final_pass, check); });
  }
}

template <class Cells>
void Generator<Cells>::Propagate(bool final_pass) {
  for (int level = 1; level <= max_dtm_.load() + 1 && level <= kMaxDtm; ++level) {
    const int d = level - 1;
    const uint8_t want0 = dtm_.Dist(d, false), want1 = (d & 1) ? want0 : dtm_.Dist(d, true);
    if (progress_)
      progress_(Progress{name_, final_pass ? "distances" : "propagate", static_cast<uint64_t>(level),
                         static_cast<uint64_t>(max_dtm_.load() + 1)});
    if (want0 == DtmCodes::kBigDist && want1 == DtmCodes::kBigDist) {
      PropagateBigLevel(d, final_pass);
      continue;
    }
    const uint64_t bit = 1ULL << (d & 63);
    ForChunks("", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
      if (!(__atomic_load_n(&level_mask_[side][begin >> kChunkBits], __ATOMIC_RELAXED) & bit)) return;
      cells_[side].Scan(
          begin, end,
          [&](uint64_t word) { return cellscan::HasByte(word, want0) | cellscan::HasByte(word, want1); },
          [&](uint64_t i, uint64_t place) {
            const uint8_t c = cells_[side].LoadAt(place);
            if (c != want0 && c != want1) return;
            if (c == DtmCodes::kBigDist && DistAt(side, i, c) != d) return;
            ProcessResolved(w, side, i, d, final_pass);
          });
    });
  }
}

// A level beyond the cells' distance codes: its entries come from the lists
// of big distances, not from a scan of every cell.
template <class Cells>
void Generator<Cells>::PropagateBigLevel(int d, bool final_pass) {
  const std::vector<uint64_t> entries = big_dist_.Take(d);
  const int64_t n = static_cast<int64_t>(entries.size());
#pragma omp parallel num_threads(threads_)
  {
    Work w;
#pragma omp for schedule(dynamic, 1024)
    for (int64_t k = 0; k < n; ++k) {
      const Color side = Color(entries[k] & 1);
      const uint64_t i = entries[k] >> 1;
      // A big distance still (a tentative win shortened to a big distance is
      // no longer listed here: the lists know it without the map).
      if (Load(side, i) != DtmCodes::kBigDist) continue;
      ProcessResolved(w, side, i, d, final_pass);
    }
  }
}

template <class Cells>
void Generator<Cells>::Finish() {
  for (Cells& cells : cells_) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < static_cast<int64_t>(cells.places()); ++k)
      if (dtm_.Open(cells.at(k))) cells.at(k) = DtmCodes::kDraw;
  }
  // Only distances stay in the overflow map.
  overflow_.Filter([&](Color s, uint64_t i) { return Load(s, i) == DtmCodes::kBigDist; });
}

template <class Cells>
uint16_t Generator<Cells>::StoredValue(Color side, uint64_t idx, uint8_t code) {
  if (code == DtmCodes::kIllegal) return kValueIllegal;
  if (code == DtmCodes::kDraw) return kValueDraw;
  if (code == DtmCodes::kBigDist) {
    const uint32_t v = overflow_.Peek(side, idx);  // read-only phases only
    return EncodeValue(static_cast<int>(v >> 1), v & 1);
  }
  return EncodeValue(dtm_.DistOf(code), dtm_.RuleOf(code));
}

template <class Cells>
Status Generator<Cells>::Run() {
  EndPhase("set-up and sub-tables");
  if (Status st = Initialise(); !st.ok()) return st;
  EndPhase("initialise");
  Propagate(false);
  tentative_big_wins_.Clear();
  EndPhase("propagate");
  if (v_.rules().perpetual_check == Outcome::kLoss)
    if (Status st = Perpetual(); !st.ok()) return st;
  if (max_dtm_.load() >= kMaxDtm)
    return Status::Unsupported(name_ + ": a distance to mate above " + std::to_string(kMaxDtm) + " plies");
  Finish();
  if (const uint64_t i = opts_.damage_entry; i < index_.size()) {
    const Color side = Color(opts_.damage_side);
    if (const uint8_t c = Load(side, i); c != DtmCodes::kIllegal) {
      const int d = dtm_.IsDist(c) ? DistAt(side, i, c) : -1;
      StoreDist(side, i, d < 0 ? 1 : d + 2, d >= 0 && dtm_.RuleOf(c));
    }
  }
  if (Status st = Verify(); !st.ok()) return st;
  EndPhase("verify");
  Status st = Statistics();
  // Writing needs the cells only: the sub-tables and chunk masks go before
  // the compression buffers come, so the build's peak is the generation's.
  subs_.clear();
  geo_.capture_links.clear();
  geo_.promo_links.clear();
  for (auto& m : level_mask_) std::vector<uint64_t>().swap(m);
  EndPhase("statistics");
  return st;
}

// Statistics: each position once (entries of a symmetric royal pair exist
// once per orientation).
template <class Cells>
Status Generator<Cells>::Statistics() {
  header_.orders = static_cast<uint32_t>(orders_);
  const uint64_t stride = index_.kp_stride();
  const uint64_t chunk = 1ULL << kChunkBits;
  const int64_t chunks = static_cast<int64_t>((index_.size() + chunk - 1) / chunk);
  for (int s = 0; s < 2; ++s) {
    SideStats total;
    total.longest_win_index = kNoIndex;
    std::vector<SideStats> per(threads_);
#pragma omp parallel num_threads(threads_)
    {
      SideStats& st = per[omp_get_thread_num()];
      uint8_t sq[kMaxTablePieces];
#pragma omp for schedule(static)
      for (int64_t ch = 0; ch < chunks; ++ch) {
        const uint64_t begin = static_cast<uint64_t>(ch) * chunk, end = std::min(index_.size(), begin + chunk);
        uint64_t legal = 0;
        cells_[s].ForEachLegal(begin, end, [&](uint64_t i, uint64_t place) {
          ++legal;
          const uint8_t c = cells_[s].at(place);
          if (index_.PairFixed(static_cast<int>(i / stride))) {
            index_.Decode(i, sq);
            if (!index_.CountedOnce(sq, i)) return;
          }
          if (c == DtmCodes::kDraw) {
            ++st.draw;
            return;
          }
          const uint32_t d = static_cast<uint32_t>(DistAt(Color(s), i, c));
          if (d & 1) {
            ++st.win;
            if (d > st.longest_win || st.longest_win_index == kNoIndex ||
                (d == st.longest_win && i < st.longest_win_index))
              st.longest_win = d, st.longest_win_index = i;
          } else {
            ++st.loss;
          }
        });
        st.illegal += (end - begin) - legal;
      }
    }
    for (const SideStats& p : per) {
      total.win += p.win, total.draw += p.draw, total.loss += p.loss, total.illegal += p.illegal;
      if (p.longest_win_index != kNoIndex &&
          (p.longest_win > total.longest_win || total.longest_win_index == kNoIndex ||
           (p.longest_win == total.longest_win && p.longest_win_index < total.longest_win_index)))
        total.longest_win = p.longest_win, total.longest_win_index = p.longest_win_index;
    }
    header_.stats[s] = total;
  }
  return Status::OK();
}

template <class Cells>
Status Generator<Cells>::Write(const std::string& path, int compression_level) {
  // The values are made block by block from the cells while the file is
  // written: no second copy of the table.
  uint16_t max_value = 0;
  for (int s = 0; s < 2; ++s) {
    // Distances in the overflow map are the longest; the codes' own order
    // is by distance otherwise.
    uint16_t m = 0;
    const Cells& cells = cells_[s];
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(max : m)
    for (int64_t k = 0; k < static_cast<int64_t>(cells.places()); ++k) {
      const uint8_t c = cells.at(k);
      if (dtm_.IsDist(c) && c != DtmCodes::kBigDist) m = std::max(m, StoredValue(Color(s), 0, c));
    }
    max_value = std::max(max_value, m);
  }
  overflow_.ForEach([&](Color, uint64_t, uint32_t v) {
    max_value = std::max(max_value, EncodeValue(static_cast<int>(v >> 1), v & 1));
  });
  Status st = WriteTableBlocks(
      path, header_, max_value,
      [&](int side, uint64_t begin, uint64_t end, uint16_t* out) {
        std::fill(out, out + (end - begin), kValueIllegal);
        cells_[side].ForEachLegal(begin, end, [&](uint64_t i, uint64_t place) {
          out[i - begin] = StoredValue(Color(side), i, cells_[side].at(place));
        });
      },
      compression_level, threads_);
  for (Cells& c : cells_) c.Release();
  if (st.ok()) header_.value_bytes = ValueBytes(max_value);
  EndPhase("compress and write");
  return st;
}

template class Generator<DenseCells>;
template class Generator<CompactCells>;

}  // namespace canju::tb

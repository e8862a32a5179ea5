// Set-up, initialisation (mates, stalemates, captures and promotions into
// sub-tables) and the propagation of values by un-moves, one distance at a
// time, in OpenMP-parallel passes over chunks of the index.
#include <omp.h>

#include <algorithm>

#include "tablebase/generator.h"
#include "tablebase/unmoves.h"

namespace canju::tb {

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

Generator::Generator(const Variant& v, const Material& m, int threads, ProgressFn progress)
    : v_(v), material_(m), name_(m.Name(v)), threads_(threads > 0 ? threads : omp_get_max_threads()),
      progress_(std::move(progress)) {}

Generator::~Generator() = default;

uint64_t Generator::ram_bytes() const {
  uint64_t n = 2 * index_.size() * sizeof(uint16_t);
  for (const auto& [name, t] : subs_) n += 2 * t->index.size() * sizeof(uint16_t);
  return n;
}

Status Generator::Init(const std::string& dir) {
  if (Status st = index_.Init(v_, material_); !st.ok()) return st.WithContext(name_);
  if (v_.rules().stalemate == Outcome::kWin)
    return Status::Unsupported(name_ + ": tables do not support stalemate = win");
  const int K = v_.kind_count();
  ride_dirs_.assign(2 * K, {});
  const int nd = v_.direction_count();
  opposite_.assign(nd, -1);
  for (int d = 0; d < nd; ++d)
    for (int e = 0; e < nd; ++e)
      if (v_.directions()[e].dx == -v_.directions()[d].dx && v_.directions()[e].dy == -v_.directions()[d].dy)
        opposite_[d] = e;
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
        for (int d = 0; d < nd; ++d)
          if (v_.ride_move_len(Color(c), k, sq, d) > 0) {
            auto& dirs = ride_dirs_[c * K + k];
            if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
          }
      }
    }

  // Sub-tables and the link of every capture / promotion to one of them.
  const int G = static_cast<int>(index_.groups().size());
  link_kinds_ = K;
  links_.assign(2 * (G + 1) * (K + 1), SubLink{});
  for (int mover = 0; mover < 2; ++mover)
    for (int g = -1; g < G; ++g)
      for (int q = -1; q < K; ++q) {
        if (g < 0 && q < 0) continue;
        Material m = material_;
        if (g >= 0) {
          const PieceGroup& pg = index_.groups()[g];
          if (pg.color == Color(mover)) continue;
          --m.count[pg.color][pg.kind];
        }
        if (q >= 0) {
          if (std::find(v_.rules().promotion_kinds.begin(), v_.rules().promotion_kinds.end(), q) ==
              v_.rules().promotion_kinds.end())
            continue;
          int pawn = -1;
          for (int k = 0; k < K; ++k)
            if (v_.kind(k).pawn && material_.count[mover][k]) pawn = k;
          if (pawn < 0) continue;
          --m.count[mover][pawn];
          ++m.count[mover][q];
        }
        bool flip = false;
        Material canon = Canonical(v_, m, &flip);
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
          if (Status st = f->ReadAll(t->values); !st.ok()) return st;
          subs_[name] = std::move(t);
        }
        links_[(mover * (G + 1) + g + 1) * (K + 1) + q + 1] = SubLink{subs_[name].get(), flip};
      }
  // Small tables are not worth the threads' start-up and barriers.
  threads_ = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(threads_, index_.size() / 65536)));
  for (int s = 0; s < 2; ++s) {
    cells_[s].assign(index_.size(), cell::kIllegal);
    level_mask_[s].assign((index_.size() >> kChunkBits) + 1, 0);
  }
  header_ = TableHeader();
  header_.variant_id = v_.id();
  header_.variant_fingerprint = VariantFingerprint(v_);
  header_.rules = RulesDescription(v_);
  header_.material = name_;
  header_.index_scheme = index_.Describe();
  header_.entries = index_.size();
  return Status::OK();
}

// Moves only the pieces whose squares differ from the board already set up
// (consecutive entries differ in one or two pieces).
void Generator::SetupSquares(Work& w, const uint8_t* sq, Color side) const {
  const int n = index_.slots();
  if (!w.placed) {
    w.pos.Clear(v_, side);
    for (int i = 0; i < n; ++i) {
      w.sq[i] = sq[i];
      w.pos.Put(index_.slot_piece(i), sq[i]);
      w.slot_at[sq[i]] = static_cast<int8_t>(i);
    }
    w.placed = true;
    return;
  }
  for (int i = 0; i < n; ++i)
    if (w.sq[i] != sq[i]) {
      w.pos.Remove(w.sq[i]);
      w.slot_at[w.sq[i]] = -1;
    }
  for (int i = 0; i < n; ++i)
    if (w.sq[i] != sq[i]) {
      w.sq[i] = sq[i];
      w.pos.Put(index_.slot_piece(i), sq[i]);
    }
  for (int i = 0; i < n; ++i) w.slot_at[sq[i]] = static_cast<int8_t>(i);
  w.pos.SetSideToMove(side);
}

bool Generator::Setup(Work& w, uint64_t idx, Color side) const {
  uint8_t sq[kMaxTablePieces];
  if (!index_.Decode(idx, sq)) return false;
  SetupSquares(w, sq, side);
  return true;
}

bool Generator::LeavesTable(const Work& w, Move m) const {
  return m.type() == MoveType::kPromotion || !w.pos.empty(m.to());
}

uint64_t Generator::SuccessorIndex(const Work& w, Move m) const {
  uint8_t sq[kMaxTablePieces];
  std::copy(w.sq, w.sq + index_.slots(), sq);
  sq[w.slot_at[m.from()]] = m.to();
  return index_.Encode(sq);
}

uint16_t Generator::ProbeSub(const Work& w, Move m) const {
  const Color mover = w.pos.side_to_move();
  const int G = static_cast<int>(index_.groups().size()), K = link_kinds_;
  const int from_slot = w.slot_at[m.from()];
  const int cap_slot = w.pos.empty(m.to()) ? -1 : w.slot_at[m.to()];
  const int cap_group = cap_slot >= 0 ? index_.slot_group(cap_slot) : -1;
  const int promo = m.type() == MoveType::kPromotion ? m.promo_kind() : -1;
  const SubLink& link = links_[(mover * (G + 1) + cap_group + 1) * (K + 1) + promo + 1];
  const Indexer& sx = link.table->index;
  uint8_t sub[kMaxTablePieces];
  int next[kMaxTablePieces] = {};
  const auto& groups = sx.groups();
  for (int i = 0; i < index_.slots(); ++i) {
    if (i == cap_slot) continue;
    Color c = index_.slot_color(i);
    int k = index_.slot_kind(i);
    int s = w.sq[i];
    if (i == from_slot) {
      s = m.to();
      if (promo >= 0) k = promo;
    }
    if (link.flip) c = ~c, s = MakeSquare(FileOf(s), v_.ranks() - 1 - RankOf(s));
    if (k == v_.royal_kind()) {
      sub[c] = static_cast<uint8_t>(s);
      continue;
    }
    for (size_t g = 0; g < groups.size(); ++g)
      if (groups[g].color == c && groups[g].kind == k) {
        sub[groups[g].first_slot + next[g]++] = static_cast<uint8_t>(s);
        break;
      }
  }
  Color stm = link.flip ? mover : ~mover;
  uint64_t idx = sx.Encode(sub);
  return idx == kNoIndex ? kValueIllegal : link.table->values[stm][idx];
}

void Generator::NoteDtm(int d) {
  int cur = max_dtm_.load(std::memory_order_relaxed);
  while (d > cur && !max_dtm_.compare_exchange_weak(cur, d, std::memory_order_relaxed)) {
  }
}

void Generator::ForChunks(const std::string& phase, const std::function<void(Work&, Color, uint64_t, uint64_t)>& body) {
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

void Generator::ForRanges(const std::string& phase, const std::function<void(Work&, uint64_t, uint64_t)>& body) {
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

int Generator::CaptureLossMax(Work& w, bool quiet_only) const {
  w.pos.GenerateLegal(&w.moves);
  int worst = -1;
  for (Move m : w.moves) {
    if (!LeavesTable(w, m) || (quiet_only && w.pos.GivesCheck(m))) continue;
    ProbeResult r = DecodeValue(ProbeSub(w, m));
    worst = std::max(worst, r.dtm_plies + 1);
  }
  return worst;
}

Status Generator::Initialise() {
  max_dtm_ = 0;
  ForRanges("initialise", [&](Work& w, uint64_t begin, uint64_t end) {
    for (uint64_t ii = 2 * begin; ii < 2 * end; ++ii) {
      const uint64_t i = ii >> 1;
      const Color side = Color(ii & 1);
      if (side == kFirst ? !Setup(w, i, side) : (w.pos.SetSideToMove(side), false)) {
        Store(kFirst, i, cell::kIllegal);
        Store(kSecond, i, cell::kIllegal);
        ++ii;
        continue;
      }
      if (w.pos.Attacked(w.pos.royal_square(~side), side)) {
        Store(side, i, cell::kIllegal);
        continue;
      }
      w.pos.GenerateLegal(&w.moves);
      if (w.moves.empty()) {
        const bool mate = w.pos.InCheck() || v_.rules().stalemate == Outcome::kLoss;
        Store(side, i, mate ? cell::kResolved : cell::kDraw);
        if (mate) Mark(side, i, 0);
        continue;
      }
      int quiet = 0, best_win = cell::kMaxDtm + 1, worst_loss = -1;
      bool draw = false;
      for (Move m : w.moves) {
        if (!LeavesTable(w, m)) {
          ++quiet;
          continue;
        }
        uint16_t sv = ProbeSub(w, m);
        if (sv == kValueDraw) {
          draw = true;
          continue;
        }
        ProbeResult r = DecodeValue(sv);
        if (r.wdl == Wdl::kLoss) best_win = std::min(best_win, r.dtm_plies + 1);
        else worst_loss = std::max(worst_loss, r.dtm_plies + 1);
      }
      uint16_t c;
      if (best_win <= cell::kMaxDtm) c = static_cast<uint16_t>(cell::kResolved | best_win), NoteDtm(best_win);
      else if (draw) c = cell::kNotLoss;
      else if (quiet == 0) c = static_cast<uint16_t>(cell::kResolved | worst_loss), NoteDtm(worst_loss);
      else c = static_cast<uint16_t>(std::min<int>(quiet, cell::kCounterMax));
      Store(side, i, c);
      if (cell::Resolved(c)) Mark(side, i, cell::Dtm(c));
    }
  });
  return Status::OK();
}

void Generator::SetWin(Color side, uint64_t idx, int dtm, bool pending) {
  const uint16_t nc = static_cast<uint16_t>(cell::kResolved | dtm | (pending ? cell::kPending : 0));
  uint16_t c = Load(side, idx);
  for (;;) {
    // A tentative win (by a capture) not yet processed may get shorter. After
    // a perpetual-check order (pending) every resolved cell has been
    // processed: it is left alone, or its predecessors would be counted twice.
    const bool better =
        cell::Open(c) || (!pending && cell::Resolved(c) && (cell::Dtm(c) & 1) && cell::Dtm(c) > dtm);
    if (!better) return;
    if (Cas(side, idx, c, nc)) {
      NoteDtm(dtm);
      Mark(side, idx, dtm);
      return;
    }
  }
}

// A successor won for the opponent: one fewer to wait for. In the distance
// pass after the perpetual-check orders, open cells flagged kInS are losses by
// the rule, whose checking moves do not count.
void Generator::Decrement(Work& w, Color side, uint64_t idx, int level, bool pending, bool via_check) {
  uint16_t c = Load(side, idx);
  for (;;) {
    const int count = c & cell::kCounterMax;
    if (!cell::Open(c) || (c & cell::kNotLoss) || count == 0) return;
    const bool rule = c & cell::kInS;
    if (rule && via_check) return;
    if (!Cas(side, idx, c, static_cast<uint16_t>(c - 1))) continue;
    if (count == 1) {
      Setup(w, idx, side);
      const int d = std::max(level, CaptureLossMax(w, rule));
      Store(side, idx,
            static_cast<uint16_t>(cell::kResolved | d | (pending ? cell::kPending : 0) | (rule ? cell::kRule : 0)));
      NoteDtm(d);
      Mark(side, idx, d);
    }
    return;
  }
}

void Generator::ProcessResolved(Work& w, Color side, uint64_t idx, int dtm, bool pending) {
  if (!w.aux) w.aux = std::make_unique<Work>();
  Work& aux = *w.aux;
  Setup(w, idx, side);
  const Color x = ~side;
  if ((dtm & 1) == 0) ForEachPredecessor(w, [&](uint64_t j) { SetWin(x, j, dtm + 1, pending); });
  else {
    const bool check = distance_pass_ && w.pos.InCheck();
    ForEachPredecessor(w, [&](uint64_t j) { Decrement(aux, x, j, dtm + 1, pending, check); });
  }
}

void Generator::Propagate(bool pending_only) {
  const uint16_t mask = cell::kResolved | cell::kDtmMask;
  for (int level = 1; level <= max_dtm_.load() + 1 && level <= cell::kMaxDtm; ++level) {
    const uint16_t want = static_cast<uint16_t>(cell::kResolved | (level - 1));
    if (progress_)
      progress_(Progress{name_, pending_only ? "re-propagate" : "propagate", static_cast<uint64_t>(level),
                         static_cast<uint64_t>(max_dtm_.load() + 1)});
    const uint64_t bit = 1ULL << ((level - 1) & 63);
    ForChunks("", [&](Work& w, Color side, uint64_t begin, uint64_t end) {
      if (!(__atomic_load_n(&level_mask_[side][begin >> kChunkBits], __ATOMIC_RELAXED) & bit)) return;
      const uint16_t* cells = cells_[side].data();
      for (uint64_t i = begin; i < end; ++i) {
        uint16_t c = __atomic_load_n(&cells[i], __ATOMIC_RELAXED);
        if ((c & mask) != want) continue;
        if (pending_only) {
          if (!(c & cell::kPending)) continue;
          Store(side, i, static_cast<uint16_t>(c & ~cell::kPending));
        }
        ProcessResolved(w, side, i, level - 1, pending_only);
      }
    });
  }
}

void Generator::Finish() {
  for (int s = 0; s < 2; ++s) {
    uint16_t* cells = cells_[s].data();
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(index_.size()); ++i)
      if (cell::Open(cells[i])) cells[i] = cell::kDraw;
  }
}

Status Generator::Run() {
  if (Status st = Initialise(); !st.ok()) return st;
  Propagate(false);
  if (v_.rules().perpetual_check == Outcome::kLoss) {
    if (Status st = Perpetual(); !st.ok()) return st;
    if (orders_ > 0)
      if (Status st = RecomputeDistances(); !st.ok()) return st;
  }
  if (max_dtm_.load() >= cell::kMaxDtm)
    return Status::Unsupported(name_ + ": a distance to mate above " + std::to_string(cell::kMaxDtm) + " plies");
  Finish();
  if (Status st = Verify(); !st.ok()) return st;

  // Statistics: each position once (entries of a symmetric royal pair exist
  // once per orientation).
  header_.orders = static_cast<uint32_t>(orders_);
  for (int s = 0; s < 2; ++s) {
    SideStats total;
    total.longest_win_index = kNoIndex;
    std::vector<SideStats> per(threads_);
#pragma omp parallel num_threads(threads_)
    {
      SideStats& st = per[omp_get_thread_num()];
      uint8_t sq[kMaxTablePieces];
#pragma omp for schedule(static)
      for (int64_t ii = 0; ii < static_cast<int64_t>(index_.size()); ++ii) {
        const uint64_t i = static_cast<uint64_t>(ii);
        const uint16_t c = cells_[s][i];
        if (c == cell::kIllegal) {
          ++st.illegal;
          continue;
        }
        if (index_.symmetry().count() > 1) {
          index_.Decode(i, sq);
          if (!index_.CountedOnce(sq, i)) continue;
        }
        if (c == cell::kDraw) {
          ++st.draw;
        } else if (cell::Dtm(c) & 1) {
          ++st.win;
          const uint32_t d = static_cast<uint32_t>(cell::Dtm(c));
          if (d > st.longest_win || (d == st.longest_win && i < st.longest_win_index))
            st.longest_win = d, st.longest_win_index = i;
        } else {
          ++st.loss;
        }
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

Status Generator::Write(const std::string& path, int compression_level) {
  // Converted in place: the generation state is not needed any more.
  for (int s = 0; s < 2; ++s) {
    uint16_t* cells = cells_[s].data();
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(index_.size()); ++i) {
      const uint16_t c = cells[i];
      cells[i] = c == cell::kIllegal ? kValueIllegal
                 : c == cell::kDraw  ? kValueDraw
                                     : EncodeValue(cell::Dtm(c), c & cell::kRule);
    }
  }
  Status st = WriteTable(path, header_, cells_, compression_level);
  for (auto& c : cells_) std::vector<uint16_t>().swap(c);
  return st;
}

}  // namespace canju::tb

#include "tablebase/build.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

namespace canju::tb {

uint64_t AvailableMemory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kb;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Removes temporary files that an interrupted build of `file` left behind.
void RemoveStaleTemporaries(const std::string& dir, const std::string& file) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  const std::string prefix = file + ".tmp.";
  std::vector<std::string> stale;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.compare(0, prefix.size(), prefix) == 0) stale.push_back(dir + "/" + n);
  }
  ::closedir(d);
  for (const std::string& p : stale) ::unlink(p.c_str());
}

// The fraction of entries that are legal with `side` to move (no two pieces
// on a square, the other side not in check), from a fixed sample of entries
// spread over the index.
double LegalFraction(const Variant& v, const Indexer& ix, Color side) {
  const uint64_t n = ix.size();
  const uint64_t samples = std::min<uint64_t>(n, 4096);
  if (samples == 0) return 0;
  uint64_t legal = 0;
  uint8_t sq[kMaxTablePieces];
  Position p;
  for (uint64_t k = 0; k < samples; ++k) {
    // Spread evenly, off the strides' multiples (a multiple of every
    // stride would sample one square per piece).
    const uint64_t i = static_cast<uint64_t>((static_cast<unsigned __int128>(2 * k + 1) * n) / (2 * samples));
    if (!ix.Decode(i, sq)) continue;
    p.Clear(v, ~side);
    for (int s = 0; s < ix.slots(); ++s) p.Put(ix.slot_piece(s), sq[s]);
    if (!p.InCheck()) ++legal;
  }
  return static_cast<double>(legal) / static_cast<double>(samples);
}

Status ParseTargets(const Variant& v, const std::vector<std::string>& targets, std::vector<Material>* out) {
  for (const std::string& t : targets) {
    Material m;
    if (Status st = Material::Parse(v, t, &m); !st.ok()) return st;
    out->push_back(m);
  }
  return Status::OK();
}

// The estimate's sub-table part: of each sub-table the sides to move that
// captures and promotions leave to move, decoded at its width (`width`:
// bytes per entry of the tables known; `unknown_width` for the rest: 2, the
// most a file stores, or 1, the least), and the process itself (code,
// libraries, buffers: about 20 MiB).
uint64_t SubTableBytes(const Variant& v, const Material& m, const std::map<std::string, uint64_t>& width,
                       uint64_t unknown_width = 2) {
  uint64_t bytes = 20ULL << 20;
  for (const SubTableRead& r : SubTableReads(v, m)) {
    Indexer sx;
    const auto w = width.find(r.material.Name(v));
    if (sx.Init(v, r.material).ok())
      bytes += static_cast<uint64_t>(std::popcount(r.sides)) * sx.size() * (w == width.end() ? unknown_width : w->second);
  }
  return bytes;
}

// The item with its estimate's sub-table part replaced by `sub_bytes` (at
// most the plan's own, an upper bound).
PlanItem WithSubTableBytes(const PlanItem& item, uint64_t sub_bytes) {
  PlanItem out = item;
  const uint64_t cut = item.sub_bytes - std::min(item.sub_bytes, sub_bytes);
  out.sub_bytes -= cut;
  out.peak_bytes -= cut;
  out.compact_peak_bytes -= cut;
  return out;
}

}  // namespace

PlanItem LowerBound(const PlanItem& item) { return WithSubTableBytes(item, item.low_sub_bytes); }

CellLayout ChooseLayout(const PlanItem& item, CellLayout cells, uint64_t limit) {
  if (cells != CellLayout::kAuto) return cells;
  return limit && item.peak_bytes > limit ? CellLayout::kCompact : CellLayout::kDense;
}

Status ReadTableHeader(const Variant& v, const std::string& dir, const std::string& material, TableHeader* out,
                       std::string* path_out) {
  Material m;
  if (Status st = Material::Parse(v, material, &m); !st.ok()) return st;
  const std::string name = Canonical(v, m).Name(v);
  const std::string path = dir + "/" + TableFileName(v, name);
  if (path_out) *path_out = path;
  if (!Exists(path)) return Status::NotFound(path + ": no such table (build it with `canju tb build " + name + "`)");
  std::unique_ptr<TableFile> f;
  if (Status st = TableFile::Open(path, &f); !st.ok()) return st;
  if (f->header().variant_fingerprint != VariantFingerprint(v))
    return Status::InvalidArgument(path + ": built under other rules than this " + v.id());
  if (Status st = f->Verify(); !st.ok()) return st;
  *out = f->header();
  return Status::OK();
}

Status MakePlan(const Variant& v, const std::vector<std::string>& targets, const std::string& dir,
                std::vector<PlanItem>* plan) {
  std::vector<Material> wanted;
  if (Status st = ParseTargets(v, targets, &wanted); !st.ok()) return st;
  plan->clear();
  std::vector<Material> order = BuildOrder(v, wanted);
  // Bytes per entry of the complete tables in the plan so far (its
  // sub-tables come first); SubTableBytes bounds the others.
  std::map<std::string, uint64_t> width;
  for (const Material& m : order) {
    PlanItem it;
    it.material = m;
    it.name = m.Name(v);
    Indexer ix;
    if (Status st = ix.Init(v, m); !st.ok()) return st.WithContext(it.name);
    it.entries = ix.size();
    TableHeader h;
    Status st = ReadTableHeader(v, dir, it.name, &h);
    // A table of the same variant built under other rules (--set) is not
    // overwritten: such tables belong in their own directory.
    if (st.code() == Status::Code::kInvalidArgument)
      return Status::InvalidArgument(st.message() + "; use another --dir for these rules");
    it.complete = st.ok();
    if (!st.ok() && st.code() != Status::Code::kNotFound) it.note = st.message();
    if (it.complete) {
      it.value_bytes = h.value_bytes;
      width[it.name] = it.value_bytes;
    }
    // Cells (one byte per entry and side) and the sub-tables
    // (SubTableBytes). docs/tablebase.md, "Memory". Compact cells: one byte
    // per legal entry (sampled) and a bitmap word per 48 entries, with a
    // tenth more for the sample's error.
    const uint64_t subs = SubTableBytes(v, m, width);
    it.sub_bytes = subs;
    it.low_sub_bytes = SubTableBytes(v, m, width, 1);
    it.peak_bytes = 2 * it.entries + subs;
    double compact = 0;
    for (Color side : {kFirst, kSecond})
      compact += std::min(1.0, 1.1 * LegalFraction(v, ix, side)) * static_cast<double>(it.entries) +
                 static_cast<double>(it.entries) / 6;
    it.compact_peak_bytes = static_cast<uint64_t>(compact) + subs;
    plan->push_back(it);
  }
  return Status::OK();
}

Status SubPlan(const Variant& v, const std::vector<PlanItem>& plan, const std::vector<std::string>& targets,
               std::vector<PlanItem>* out) {
  std::vector<Material> wanted;
  if (Status st = ParseTargets(v, targets, &wanted); !st.ok()) return st;
  const std::vector<Material> needed = BuildOrder(v, wanted);
  out->clear();
  for (const PlanItem& it : plan)
    if (std::find(needed.begin(), needed.end(), it.material) != needed.end()) out->push_back(it);
  if (out->size() != needed.size()) return Status::InvalidArgument("SubPlan: a target is not in the plan");
  return Status::OK();
}

Status BuildPlan(const Variant& v, const std::vector<PlanItem>& plan, const BuildOptions& opts,
                 std::vector<BuildReport>* reports) {
  if (::mkdir(opts.dir.c_str(), 0755) != 0 && errno != EEXIST)
    return Status::IOError(opts.dir + ": cannot create directory");
  const uint64_t limit = opts.memory_limit ? opts.memory_limit : AvailableMemory();
  for (const PlanItem& it : plan) {
    const PlanItem low = LowerBound(it);
    const uint64_t peak = PeakBytes(low, ChooseLayout(low, opts.cells, limit));
    if (!it.complete && limit && peak > limit)
      return Status::ResourceExhausted(it.name + " needs " + (low.sub_bytes < it.sub_bytes ? "at least " : "about ") +
                                       std::to_string(peak >> 20) + " MiB of memory, but only " +
                                       std::to_string(limit >> 20) + " MiB are available; nothing was built");
  }
  int built = 0;
  std::map<std::string, uint64_t> width;  // bytes per entry of the tables complete so far
  for (const PlanItem& it : plan) {
    BuildReport rep;
    rep.name = it.name;
    rep.entries = it.entries;
    if (it.complete) {
      rep.skipped = true;
      width[it.name] = it.value_bytes;
      if (reports) reports->push_back(rep);
      continue;
    }
    const std::string file = TableFileName(v, it.name);
    const std::string path = opts.dir + "/" + file;
    RemoveStaleTemporaries(opts.dir, file);
    auto t0 = std::chrono::steady_clock::now();
    // Its sub-tables are built now: their widths make the estimate exact
    // where the plan assumed two bytes, so dense cells may fit after all.
    const PlanItem now = WithSubTableBytes(it, SubTableBytes(v, it.material, width));
    const CellLayout layout = ChooseLayout(now, opts.cells, limit);
    if (limit && PeakBytes(now, layout) > limit)
      return Status::ResourceExhausted(it.name + " needs about " + std::to_string(PeakBytes(now, layout) >> 20) +
                                       " MiB of memory with its sub-tables built, but only " +
                                       std::to_string(limit >> 20) + " MiB are available; the " +
                                       std::to_string(built) + " table(s) built before it are kept in " + opts.dir);
    GeneratorOptions gopts;
    gopts.compact_cells = layout == CellLayout::kCompact;
    rep.compact_cells = gopts.compact_cells;
    gopts.max_cell_distance = opts.max_cell_distance;
    if (opts.phase_log)
      gopts.phase_log = [&](const std::string& phase, double wall, double cpu, uint64_t rss) {
        opts.phase_log(it.name, phase, wall, cpu, rss);
      };
    std::unique_ptr<TableGenerator> gen = MakeGenerator(v, it.material, opts.threads, opts.progress, gopts);
    if (Status st = gen->Init(opts.dir); !st.ok()) return st;
    if (Status st = gen->Run(); !st.ok()) return st;
    if (Status st = gen->Write(path, opts.compression_level); !st.ok()) return st;
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.orders = gen->orders();
    struct stat stt;
    if (::stat(path.c_str(), &stt) == 0) rep.file_bytes = static_cast<uint64_t>(stt.st_size);
    width[it.name] = gen->header().value_bytes;
    ++built;
    if (opts.log) {
      char line[256];
      std::snprintf(line, sizeof line, "%s: %llu entries per side, %s cells, %.2f s, %llu bytes%s", it.name.c_str(),
                    static_cast<unsigned long long>(it.entries), rep.compact_cells ? "compact" : "dense", rep.seconds,
                    static_cast<unsigned long long>(rep.file_bytes),
                    rep.orders ? (", " + std::to_string(rep.orders) + " perpetual-check orders").c_str() : "");
      opts.log(line);
    }
    if (reports) reports->push_back(rep);
  }
  return Status::OK();
}

}  // namespace canju::tb

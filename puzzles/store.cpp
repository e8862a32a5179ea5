#include "puzzles/store.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "puzzles/position_key.h"
#include "puzzles/serialize.h"
#include "variants/registry.h"

namespace canju {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Ids

std::string FormatPuzzleId(PuzzleId id) {
  static const char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, id >>= 4) s[i] = kHex[id & 15];
  return s;
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool ParsePuzzleId(const std::string& text, PuzzleId* out) {
  if (text.size() != 16) return false;
  PuzzleId id = 0;
  for (char c : text) {
    int d = HexDigit(c);
    if (d < 0) return false;
    id = id << 4 | static_cast<PuzzleId>(d);
  }
  *out = id;
  return true;
}

PuzzleSummary SummaryUnderRules(const PuzzleSummary& s, const std::vector<std::string>& rules) {
  PuzzleSummary out = s;
  out.other_rules.clear();
  out.verdict_rules = rules;
  if (SameRules(s.verdict_rules, rules)) return out;
  auto it = std::find_if(s.other_rules.begin(), s.other_rules.end(),
                         [&](const RulesVerdictSummary& o) { return SameRules(o.rules, rules); });
  static const RulesVerdictSummary kNoVerdict;
  const RulesVerdictSummary& o = it == s.other_rules.end() ? kNoVerdict : *it;
  out.verdict = o.verdict;
  out.proven = o.proven;
  out.mate_plies = o.mate_plies;
  out.mate_exact = o.mate_exact;
  out.checked = o.checked;
  return out;
}

std::string DefaultStoreDir() {
  if (const char* s = getenv("CANJU_STORE"); s && *s) return s;
  if (const char* x = getenv("XDG_DATA_HOME"); x && *x) return (fs::path(x) / "canju").string();
  if (const char* h = getenv("HOME"); h && *h) return (fs::path(h) / ".local" / "share" / "canju").string();
  return ".canju-store";
}

namespace {

// ---------------------------------------------------------------------------
// Layout (docs/store.md). Bump kLayoutVersion when keys or summaries change
// shape; an older store is then rebuilt with Reindex() (records never change
// meaning: they carry their own Boost class versions).

constexpr int kLayoutVersion = 1;
constexpr char kLayoutKey[] = "layout";

enum Family : int {
  kMeta = 0,      // "default": layout version
  kRecords,       // id -> Record (Boost binary archive)
  kSummaries,     // id -> PuzzleSummary (EncodeSummary)
  kByCollection,  // collection \0 number(be32) id(be64) -> ""
  kByPosition,    // variant \0 canonical \0 id -> transform byte
  kByMaterial,    // material \0 id -> ""
  kByClaim,       // claim byte, id -> ""
  kByVerdict,     // verdict byte, id -> ""
  kFamilyCount
};

const char* const kFamilyNames[kFamilyCount] = {"default",     "records",     "summaries", "by_collection",
                                                "by_position", "by_material", "by_claim",  "by_verdict"};

constexpr int kFirstIndex = kByCollection;

void PutBE(std::string* s, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

uint64_t GetBE(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<uint8_t>(p[i]);
  return v;
}

std::string IdKey(PuzzleId id) {
  std::string k;
  PutBE(&k, id, 8);
  return k;
}

// Every index key ends with the 8-byte id.
PuzzleId IdFromIndexKey(const rocksdb::Slice& key) {
  return key.size() >= 8 ? GetBE(key.data() + key.size() - 8, 8) : 0;
}

std::string CollectionPrefix(const std::string& collection) { return collection + '\0'; }

std::string PositionPrefix(const std::string& variant, const std::string& canonical) {
  std::string k = variant;
  k += '\0';
  k += canonical;
  k += '\0';
  return k;
}

// FNV-1a, 64 bits: fixed, documented, identical on every platform and version.
uint64_t Fnv1a64(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// ---------------------------------------------------------------------------
// Summaries: a small hand-written encoding (a version byte, then fields),
// because listing decodes thousands of them and they are derived data that
// Reindex() can always rebuild from the records.

// 2 added mate_exact, 3 the claim the verdict checked, 4 the main
// verdict's rule options and the verdicts under other options; older
// summaries are still read (mate_exact -1, checked unknown, no options).
constexpr uint8_t kSummaryEncoding = 4;

void PutVarint(std::string* s, uint64_t v) {
  while (v >= 0x80) {
    s->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  s->push_back(static_cast<char>(v));
}

void PutStr(std::string* s, const std::string& v) {
  PutVarint(s, v.size());
  s->append(v);
}

class Reader {
 public:
  Reader(const char* p, size_t n) : p_(p), end_(p + n) {}
  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) return false;
      uint8_t b = static_cast<uint8_t>(*p_++);
      *v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool Str(std::string* s) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    s->assign(p_, n);
    p_ += n;
    return true;
  }
  bool Skip() {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    p_ += n;
    return true;
  }
  size_t Left() const { return static_cast<size_t>(end_ - p_); }
  bool Byte(uint8_t* b) {
    if (p_ >= end_) return false;
    *b = static_cast<uint8_t>(*p_++);
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

int64_t ZigZagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
uint64_t ZigZagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

std::string EncodeSummary(const PuzzleSummary& s, const std::string& identity) {
  std::string out;
  out.push_back(static_cast<char>(kSummaryEncoding));
  PutStr(&out, s.variant);
  PutStr(&out, s.collection);
  PutVarint(&out, ZigZagEncode(s.number));
  PutStr(&out, s.title);
  PutStr(&out, s.fen);
  PutStr(&out, s.source);
  out.push_back(static_cast<char>(s.claimed));
  PutStr(&out, s.material);
  PutStr(&out, s.canonical);
  out.push_back(static_cast<char>(s.transform));
  out.push_back(static_cast<char>(s.is_game));
  PutStr(&out, s.fen_problem);
  out.push_back(static_cast<char>(s.verdict));
  out.push_back(static_cast<char>(s.proven));
  PutVarint(&out, ZigZagEncode(s.mate_plies));
  PutStr(&out, identity);
  out.push_back(static_cast<char>(s.mate_exact));
  out.push_back(static_cast<char>(s.checked));
  auto put_rules = [&](const std::vector<std::string>& rules) {
    PutVarint(&out, rules.size());
    for (const std::string& o : rules) PutStr(&out, o);
  };
  put_rules(s.verdict_rules);
  PutVarint(&out, s.other_rules.size());
  for (const RulesVerdictSummary& o : s.other_rules) {
    put_rules(o.rules);
    out.push_back(static_cast<char>(o.verdict));
    out.push_back(static_cast<char>(o.proven));
    PutVarint(&out, ZigZagEncode(o.mate_plies));
    out.push_back(static_cast<char>(o.mate_exact));
    out.push_back(static_cast<char>(o.checked));
  }
  return out;
}

// A claim or verdict byte of a summary, checked against its enum's range.
bool ClaimByte(Reader* r, Claim* c) {
  uint8_t b;
  if (!r->Byte(&b) || b > static_cast<uint8_t>(Claim::kLoss)) return false;
  *c = static_cast<Claim>(b);
  return true;
}
bool VerdictByte(Reader* r, VerdictKind* k) {
  uint8_t b;
  if (!r->Byte(&b) || b > static_cast<uint8_t>(VerdictKind::kUnproven)) return false;
  *k = static_cast<VerdictKind>(b);
  return true;
}

// Encoding 4's tail: the main verdict's options, then the other verdicts.
bool DecodeRulesVerdicts(Reader* r, PuzzleSummary* s) {
  // Each entry takes at least one byte, so a count above the bytes left is corrupt.
  auto get_rules = [&](std::vector<std::string>* rules) {
    uint64_t n;
    if (!r->Varint(&n) || n > r->Left()) return false;
    rules->resize(n);
    for (std::string& o : *rules)
      if (!r->Str(&o)) return false;
    return true;
  };
  if (!get_rules(&s->verdict_rules)) return false;
  uint64_t n;
  if (!r->Varint(&n) || n > r->Left()) return false;
  s->other_rules.resize(n);
  for (RulesVerdictSummary& o : s->other_rules) {
    uint64_t mate;
    uint8_t exact;
    if (!get_rules(&o.rules) || !VerdictByte(r, &o.verdict) || !ClaimByte(r, &o.proven) || !r->Varint(&mate) ||
        !r->Byte(&exact) || !ClaimByte(r, &o.checked))
      return false;
    o.mate_plies = static_cast<int>(ZigZagDecode(mate));
    o.mate_exact = static_cast<int8_t>(exact);
  }
  return true;
}

bool DecodeSummary(PuzzleId id, const rocksdb::Slice& bytes, PuzzleSummary* s, std::string* identity) {
  Reader r(bytes.data(), bytes.size());
  uint8_t enc, claimed, transform, game, verdict, proven;
  uint64_t number, mate;
  if (!r.Byte(&enc) || enc < 1 || enc > kSummaryEncoding) return false;
  s->id = id;
  if (!r.Str(&s->variant) || !r.Str(&s->collection) || !r.Varint(&number) || !r.Str(&s->title) ||
      !r.Str(&s->fen) || !r.Str(&s->source) || !r.Byte(&claimed) || !r.Str(&s->material) ||
      !r.Str(&s->canonical) || !r.Byte(&transform) || !r.Byte(&game) || !r.Str(&s->fen_problem) ||
      !r.Byte(&verdict) || !r.Byte(&proven) || !r.Varint(&mate) || !(identity ? r.Str(identity) : r.Skip()))
    return false;
  uint8_t exact = 0xFF;  // -1: not recorded (encoding 1)
  if (enc >= 2 && !r.Byte(&exact)) return false;
  s->mate_exact = static_cast<int8_t>(exact);
  uint8_t checked = static_cast<uint8_t>(Claim::kUnknown);
  if (enc >= 3 && (!r.Byte(&checked) || checked > static_cast<uint8_t>(Claim::kLoss))) return false;
  s->checked = static_cast<Claim>(checked);
  s->verdict_rules.clear();
  s->other_rules.clear();
  if (enc >= 4 && !DecodeRulesVerdicts(&r, s)) return false;
  s->number = static_cast<int>(ZigZagDecode(number));
  s->claimed = static_cast<Claim>(claimed);
  s->transform = transform;
  s->is_game = game != 0;
  s->verdict = static_cast<VerdictKind>(verdict);
  s->proven = static_cast<Claim>(proven);
  s->mate_plies = static_cast<int>(ZigZagDecode(mate));
  return true;
}

// ---------------------------------------------------------------------------
// What one record puts into the store.

struct IndexEntry {
  int family;
  std::string key;
  std::string value;
};

struct RecordEntries {
  PuzzleId id = 0;
  std::string identity;
  PuzzleSummary summary;
  std::string summary_bytes;
  std::vector<IndexEntry> index;
};

std::string MainLine(const Record& r) {
  std::string line;
  const std::vector<MoveNode>* level = &r.moves;
  while (!level->empty()) {
    line += (*level)[0].move;
    line += ' ';
    level = &(*level)[0].next;
  }
  return line;
}

// The summary's verdict fields: the main verdict's, then the others'.
void SummarizeVerdicts(const Record& r, PuzzleSummary* s) {
  const Verdict& main = r.verdict;
  s->verdict = main.kind;
  s->proven = main.proven;
  s->mate_plies = main.mate_plies;
  s->mate_exact = main.mate_exact;
  s->checked = main.checked;
  s->verdict_rules = VerdictRules(main);
  s->other_rules.clear();
  for (const Verdict& o : r.other_rules)
    s->other_rules.push_back({VerdictRules(o), o.kind, o.proven, o.mate_plies, o.mate_exact, o.checked});
}

std::string VerdictIndexKey(VerdictKind kind, PuzzleId id) {
  std::string k(1, static_cast<char>(kind));
  PutBE(&k, id, 8);
  return k;
}

Status ComputeEntries(const Record& r, RecordEntries* e) {
  *e = RecordEntries();
  auto has_nul = [](const std::string& s) { return s.find('\0') != std::string::npos; };
  if (has_nul(r.variant) || has_nul(r.collection)) return Status::InvalidArgument("NUL byte in variant or collection name");
  std::shared_ptr<const Variant> v;
  if (Status st = LoadVariant(r.variant, &v); !st.ok()) return st;
  PositionKey key;
  if (Status st = ComputePositionKey(*v, r.fen, &key); !st.ok()) return st;

  // The identity: what makes two records the same record (docs/store.md).
  e->identity = r.variant;
  e->identity += '\0';
  e->identity += key.canonical;
  e->identity += '\0';
  e->identity += r.collection;
  if (key.is_start) {
    // Games from the start position differ by their moves, not their position.
    e->identity += '\0';
    e->identity += MainLine(r);
  }
  e->id = Fnv1a64(e->identity);

  PuzzleSummary& s = e->summary;
  s.id = e->id;
  s.variant = r.variant;
  s.collection = r.collection;
  s.number = r.number;
  s.title = r.title;
  s.fen = r.fen;
  s.source = r.source;
  s.claimed = r.claimed;
  s.material = key.material;
  s.canonical = key.canonical;
  s.transform = key.transform;
  s.is_game = key.is_start;
  s.fen_problem = key.problem;
  SummarizeVerdicts(r, &s);
  e->summary_bytes = EncodeSummary(s, e->identity);

  std::string id8 = IdKey(e->id);
  std::string k = CollectionPrefix(r.collection);
  PutBE(&k, static_cast<uint32_t>(std::max(0, r.number)), 4);
  k += id8;
  e->index.push_back({kByCollection, k, ""});
  e->index.push_back({kByPosition, PositionPrefix(r.variant, key.canonical) + id8, std::string(1, static_cast<char>(key.transform))});
  e->index.push_back({kByMaterial, key.material + '\0' + id8, ""});
  e->index.push_back({kByClaim, std::string(1, static_cast<char>(r.claimed)) + id8, ""});
  e->index.push_back({kByVerdict, VerdictIndexKey(r.verdict.kind, e->id), ""});
  return Status::OK();
}

std::string RecordName(const Record& r, size_t index) {
  std::string name = r.source.empty() ? "record " + std::to_string(index + 1) : r.source;
  if (!r.title.empty()) name += " (" + r.title + ")";
  return name;
}

Status FromRocks(const rocksdb::Status& st, const std::string& context) {
  if (st.ok()) return Status::OK();
  std::string msg = context + ": " + st.ToString();
  if (st.IsNotFound()) return Status::NotFound(msg);
  if (st.IsCorruption()) return Status::Corruption(msg);
  if (st.IsNoSpace()) return Status::ResourceExhausted(msg);
  if (st.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (st.IsNotSupported()) return Status::Unsupported(msg);
  return Status::IOError(msg);
}

// Readers' scratch directories are named canju-reader-PID-XXXXXX and removed
// on close; a reader that was killed leaves its one behind. Whoever opens the
// next reader removes those whose process is gone.
void RemoveStaleScratchDirs() {
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return;
  const std::string prefix = "canju-reader-";
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

bool SummaryLess(const PuzzleSummary& a, const PuzzleSummary& b) {
  if (int c = a.collection.compare(b.collection); c != 0) return c < 0;
  if (a.number != b.number) return a.number < b.number;
  return a.id < b.id;
}

// Sorts by SummaryLess through an index: summaries are big to move around.
void SortSummaries(std::vector<PuzzleSummary>* v) {
  std::vector<uint32_t> order(v->size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return SummaryLess((*v)[a], (*v)[b]); });
  std::vector<PuzzleSummary> sorted;
  sorted.reserve(v->size());
  for (uint32_t i : order) sorted.push_back(std::move((*v)[i]));
  v->swap(sorted);
}

}  // namespace

// ---------------------------------------------------------------------------

struct PuzzleStore::Impl {
  std::string dir;
  Options options;
  std::string secondary_dir;  // readers: RocksDB's scratch directory, removed on close
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> cf;
  std::mutex write_mu;  // AddRecords / SaveVerdict read before they write

  ~Impl() {
    if (db) {
      if (!options.read_only) {
        rocksdb::FlushOptions fo;
        db->Flush(fo, cf);  // readers then open without replaying the log
      }
      for (auto* h : cf) db->DestroyColumnFamilyHandle(h);
      db->Close();
      db.reset();
    }
    if (!secondary_dir.empty()) {
      std::error_code ec;
      fs::remove_all(secondary_dir, ec);
    }
  }

  rocksdb::ReadOptions ReadOpts() const {
    rocksdb::ReadOptions ro;
    ro.verify_checksums = true;
    return ro;
  }

  Status GetSummary(PuzzleId id, PuzzleSummary* out, std::string* identity) const {
    std::string bytes;
    rocksdb::Status st = db->Get(ReadOpts(), cf[kSummaries], IdKey(id), &bytes);
    if (st.IsNotFound()) return Status::NotFound("no puzzle " + FormatPuzzleId(id) + " in " + dir);
    if (!st.ok()) return FromRocks(st, dir);
    if (!DecodeSummary(id, bytes, out, identity))
      return Status::Corruption(dir + ": summary of " + FormatPuzzleId(id) + " is unreadable (run Reindex)");
    return Status::OK();
  }

  // Summaries of `ids`, in the same order; missing ones are an error.
  Status GetSummaries(const std::vector<PuzzleId>& ids, std::vector<PuzzleSummary>* out) const {
    out->clear();
    out->reserve(ids.size());
    const size_t kChunk = 1024;
    std::vector<std::string> keys, values;
    std::vector<rocksdb::Slice> slices;
    for (size_t base = 0; base < ids.size(); base += kChunk) {
      size_t n = std::min(kChunk, ids.size() - base);
      keys.resize(n);
      slices.resize(n);
      for (size_t i = 0; i < n; ++i) {
        keys[i] = IdKey(ids[base + i]);
        slices[i] = keys[i];
      }
      std::vector<rocksdb::ColumnFamilyHandle*> fams(n, cf[kSummaries]);
      std::vector<rocksdb::Status> sts = db->MultiGet(ReadOpts(), fams, slices, &values);
      for (size_t i = 0; i < n; ++i) {
        PuzzleId id = ids[base + i];
        if (sts[i].IsNotFound())
          return Status::Corruption(dir + ": index entry for missing puzzle " + FormatPuzzleId(id));
        if (!sts[i].ok()) return FromRocks(sts[i], dir);
        PuzzleSummary s;
        if (!DecodeSummary(id, values[i], &s, nullptr))
          return Status::Corruption(dir + ": summary of " + FormatPuzzleId(id) + " is unreadable");
        out->push_back(std::move(s));
      }
    }
    return Status::OK();
  }

  // Ids of every key in `family` starting with `prefix`, in key order.
  Status ScanIds(int family, const std::string& prefix, std::vector<PuzzleId>* ids) const {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ReadOpts(), cf[family]));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next())
      ids->push_back(IdFromIndexKey(it->key()));
    return FromRocks(it->status(), dir);
  }

  Status Write(rocksdb::WriteBatch* batch) {
    rocksdb::WriteOptions wo;
    wo.sync = options.sync;
    return FromRocks(db->Write(wo, batch), dir);
  }
};

PuzzleStore::PuzzleStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PuzzleStore::~PuzzleStore() = default;
const std::string& PuzzleStore::dir() const { return impl_->dir; }
bool PuzzleStore::read_only() const { return impl_->options.read_only; }

Status PuzzleStore::Open(const std::string& dir, const Options& options, std::unique_ptr<PuzzleStore>* out) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->options = options;

  rocksdb::Options db_opts;
  db_opts.max_open_files = -1;  // required by readers; keeps files open across the writer's compactions
  db_opts.keep_log_file_num = 4;
  db_opts.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  rocksdb::ColumnFamilyOptions cf_opts;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (int f = 0; f < kFamilyCount; ++f) families.emplace_back(kFamilyNames[f], cf_opts);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status st;

  std::error_code ec;
  if (options.read_only) {
    if (!fs::exists(fs::path(dir) / "CURRENT", ec))
      return Status::NotFound("no puzzle store in " + dir + " (create one with `canju import --store " + dir + " FILE…`)");
    // Every family must exist: a store from before one was added is opened by
    // a writer first (which creates it).
    std::vector<std::string> existing;
    st = rocksdb::DB::ListColumnFamilies(db_opts, dir, &existing);
    if (!st.ok()) return FromRocks(st, "opening the puzzle store " + dir);
    for (int f = 0; f < kFamilyCount; ++f)
      if (std::find(existing.begin(), existing.end(), kFamilyNames[f]) == existing.end())
        return Status::Corruption(dir + ": column family '" + kFamilyNames[f] +
                                  "' is missing; open the store once for writing (e.g. `canju import`) to upgrade it");
    RemoveStaleScratchDirs();
    std::string tmpl =
        (fs::temp_directory_path(ec) / ("canju-reader-" + std::to_string(getpid()) + "-XXXXXX")).string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) return Status::IOError("cannot create a scratch directory for reading " + dir);
    impl->secondary_dir = buf.data();
    st = rocksdb::DB::OpenAsSecondary(db_opts, dir, impl->secondary_dir, families, &handles, &raw);
  } else {
    fs::create_directories(dir, ec);
    db_opts.create_if_missing = true;
    db_opts.create_missing_column_families = true;
    st = rocksdb::DB::Open(db_opts, dir, families, &handles, &raw);
    if (!st.ok() && st.ToString().find("lock") != std::string::npos)
      return Status::IOError("the puzzle store " + dir +
                             " is being written by another process (one writer at a time: wait for the running "
                             "import or verify to finish); " + st.ToString());
  }
  if (!st.ok()) return FromRocks(st, "opening the puzzle store " + dir);
  impl->db.reset(raw);
  impl->cf = handles;

  // Layout version: refuse stores from a newer Canju, stamp new ones.
  std::string layout;
  st = impl->db->Get(impl->ReadOpts(), impl->cf[kMeta], kLayoutKey, &layout);
  if (st.ok()) {
    int v = std::atoi(layout.c_str());
    if (v > kLayoutVersion)
      return Status::Unsupported(dir + " was written by a newer Canju (store layout " + layout + ", this one reads up to " +
                                 std::to_string(kLayoutVersion) + ")");
  } else if (st.IsNotFound()) {
    if (!options.read_only) {
      st = impl->db->Put(rocksdb::WriteOptions(), impl->cf[kMeta], kLayoutKey, std::to_string(kLayoutVersion));
      if (!st.ok()) return FromRocks(st, dir);
    }
  } else {
    return FromRocks(st, dir);
  }
  out->reset(new PuzzleStore(std::move(impl)));
  return Status::OK();
}

Status PuzzleStore::AddRecords(const std::vector<Record>& records, AddResult* result) {
  *result = AddResult();
  if (impl_->options.read_only) return Status::InvalidArgument(impl_->dir + " is open read-only");
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  rocksdb::WriteBatch batch;
  std::map<PuzzleId, std::string> in_batch;  // id -> identity, added by this call
  for (size_t i = 0; i < records.size(); ++i) {
    const Record& r = records[i];
    AddOutcome o;
    RecordEntries e;
    Status st = ComputeEntries(r, &e);
    if (!st.ok()) {
      o.kind = AddOutcome::Kind::kRejected;
      o.reason = RecordName(r, i) + ": " + st.message();
      result->outcomes.push_back(o);
      ++result->rejected;
      continue;
    }
    o.id = e.id;
    std::string identity;
    bool exists = false;
    if (auto it = in_batch.find(e.id); it != in_batch.end()) {
      identity = it->second;
      exists = true;
      o.in_this_call = true;
    } else {
      PuzzleSummary old;
      st = impl_->GetSummary(e.id, &old, &identity);
      if (st.ok()) exists = true;
      else if (st.code() != Status::Code::kNotFound) return st;
    }
    if (exists) {
      if (identity != e.identity) {
        // Two different records with one 64-bit hash: never overwrite.
        o.kind = AddOutcome::Kind::kRejected;
        o.reason = RecordName(r, i) + ": id " + FormatPuzzleId(e.id) + " is taken by a different record (hash collision)";
        ++result->rejected;
      } else {
        o.kind = AddOutcome::Kind::kDuplicate;
        ++result->duplicates;
      }
      result->outcomes.push_back(o);
      continue;
    }
    std::string id8 = IdKey(e.id);
    batch.Put(impl_->cf[kRecords], id8, SerializeRecord(r));
    batch.Put(impl_->cf[kSummaries], id8, e.summary_bytes);
    for (const IndexEntry& x : e.index) batch.Put(impl_->cf[x.family], x.key, x.value);
    in_batch.emplace(e.id, e.identity);
    o.kind = AddOutcome::Kind::kNew;
    result->outcomes.push_back(o);
    ++result->added;
  }
  if (batch.Count() == 0) return Status::OK();
  Status st = impl_->Write(&batch);
  if (!st.ok()) {
    // Nothing of the batch was written.
    for (AddOutcome& o : result->outcomes)
      if (o.kind == AddOutcome::Kind::kNew) o.kind = AddOutcome::Kind::kRejected, o.reason = st.message();
    result->rejected += result->added;
    result->added = 0;
  }
  return st;
}

Status PuzzleStore::SaveVerdict(PuzzleId id, const Verdict& verdict) {
  if (impl_->options.read_only) return Status::InvalidArgument(impl_->dir + " is open read-only");
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  Record r;
  if (Status st = Get(id, &r); !st.ok()) return st;
  PuzzleSummary s;
  std::string identity;
  if (Status st = impl_->GetSummary(id, &s, &identity); !st.ok()) return st;
  VerdictKind old_kind = r.verdict.kind;
  FileVerdict(&r, verdict);
  // The summary and the index follow the main verdict (the variant's own
  // rules where the record has a verdict under them).
  SummarizeVerdicts(r, &s);
  const Verdict& main = r.verdict;
  rocksdb::WriteBatch batch;
  std::string id8 = IdKey(id);
  batch.Put(impl_->cf[kRecords], id8, SerializeRecord(r));
  batch.Put(impl_->cf[kSummaries], id8, EncodeSummary(s, identity));
  if (old_kind != main.kind) batch.Delete(impl_->cf[kByVerdict], VerdictIndexKey(old_kind, id));
  batch.Put(impl_->cf[kByVerdict], VerdictIndexKey(main.kind, id), "");
  return impl_->Write(&batch);
}

Status PuzzleStore::Sync() {
  if (impl_->options.read_only) return Status::OK();
  return FromRocks(impl_->db->SyncWAL(), impl_->dir);
}

Status PuzzleStore::Get(PuzzleId id, Record* out) const {
  std::string bytes;
  rocksdb::Status st = impl_->db->Get(impl_->ReadOpts(), impl_->cf[kRecords], IdKey(id), &bytes);
  if (st.IsNotFound()) return Status::NotFound("no puzzle " + FormatPuzzleId(id) + " in " + impl_->dir);
  if (!st.ok()) return FromRocks(st, impl_->dir);
  return DeserializeRecord(bytes, out).WithContext(impl_->dir + ", puzzle " + FormatPuzzleId(id));
}

Status PuzzleStore::GetSummary(PuzzleId id, PuzzleSummary* out) const { return impl_->GetSummary(id, out, nullptr); }

Status PuzzleStore::Resolve(const std::string& text, PuzzleId* out) const {
  if (ParsePuzzleId(text, out)) return Status::OK();
  if (text.size() < 4 || text.size() > 16 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return HexDigit(c) >= 0; }))
    return Status::InvalidArgument("'" + text + "' is not a puzzle id (4 to 16 hex digits)");
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The prefix as a range of 64-bit ids.
  int bits = 4 * static_cast<int>(lower.size());
  PuzzleId lo = 0;
  for (char c : lower) lo = lo << 4 | static_cast<PuzzleId>(HexDigit(c));
  lo <<= (64 - bits);
  PuzzleId hi = lo | (bits == 64 ? 0 : ((PuzzleId{1} << (64 - bits)) - 1));
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kSummaries]));
  std::vector<PuzzleId> found;
  for (it->Seek(IdKey(lo)); it->Valid() && found.size() < 2; it->Next()) {
    PuzzleId id = GetBE(it->key().data(), 8);
    if (id > hi) break;
    found.push_back(id);
  }
  if (!it->status().ok()) return FromRocks(it->status(), impl_->dir);
  if (found.empty()) return Status::NotFound("no puzzle with id " + text + " in " + impl_->dir);
  if (found.size() > 1) return Status::InvalidArgument("id prefix " + text + " is ambiguous; give more digits");
  *out = found[0];
  return Status::OK();
}

Status PuzzleStore::ForEachRecord(const std::string& collection,
                                  const std::function<bool(PuzzleId, const Record&)>& fn) const {
  std::string prefix = collection.empty() ? "" : CollectionPrefix(collection);
  std::vector<PuzzleId> ids;
  if (Status st = impl_->ScanIds(kByCollection, prefix, &ids); !st.ok()) return st;
  for (PuzzleId id : ids) {
    Record r;
    if (Status st = Get(id, &r); !st.ok()) return st;
    if (!fn(id, r)) break;
  }
  return Status::OK();
}

Status PuzzleStore::List(const ListFilter& f, std::vector<PuzzleSummary>* out) const {
  out->clear();
  bool ordered = false;
  std::vector<PuzzleId> ids;
  Status st;
  if (!f.collection.empty()) {
    st = impl_->ScanIds(kByCollection, CollectionPrefix(f.collection), &ids);
    ordered = true;
  } else if (!f.material.empty()) {
    st = impl_->ScanIds(kByMaterial, f.material + '\0', &ids);
  } else if (f.claimed) {
    st = impl_->ScanIds(kByClaim, std::string(1, static_cast<char>(*f.claimed)), &ids);
  } else if (f.verdict) {
    st = impl_->ScanIds(kByVerdict, std::string(1, static_cast<char>(*f.verdict)), &ids);
  } else {
    // Everything: one sequential pass over the summaries, then sort.
    uint64_t estimate = 0;
    impl_->db->GetIntProperty(impl_->cf[kSummaries], "rocksdb.estimate-num-keys", &estimate);
    out->reserve(static_cast<size_t>(std::min<uint64_t>(estimate, 1u << 24)));
    std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kSummaries]));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      PuzzleId id = it->key().size() == 8 ? GetBE(it->key().data(), 8) : 0;
      out->emplace_back();
      if (it->key().size() != 8 || !DecodeSummary(id, it->value(), &out->back(), nullptr))
        return Status::Corruption(impl_->dir + ": summary of " + FormatPuzzleId(id) + " is unreadable");
    }
    st = FromRocks(it->status(), impl_->dir);
  }
  if (!st.ok()) return st;
  if (!ids.empty()) {
    if (st = impl_->GetSummaries(ids, out); !st.ok()) return st;
  }
  auto rejected = [&](const PuzzleSummary& s) {
    return (!f.collection.empty() && s.collection != f.collection) || (!f.material.empty() && s.material != f.material) ||
           (!f.variant.empty() && s.variant != f.variant) || (f.claimed && s.claimed != *f.claimed) ||
           (f.verdict && s.verdict != *f.verdict);
  };
  out->erase(std::remove_if(out->begin(), out->end(), rejected), out->end());
  if (!ordered) SortSummaries(out);
  return Status::OK();
}

Status PuzzleStore::Collections(std::vector<std::pair<std::string, uint64_t>>* out) const {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kByCollection]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    const char* nul = static_cast<const char*>(std::memchr(k.data(), '\0', k.size()));
    std::string name(k.data(), nul ? static_cast<size_t>(nul - k.data()) : k.size());
    if (out->empty() || out->back().first != name) out->emplace_back(name, 0);
    ++out->back().second;
  }
  return FromRocks(it->status(), impl_->dir);
}

uint64_t PuzzleStore::Count() const {
  uint64_t n = 0;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kSummaries]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  return n;
}

Status PuzzleStore::Appearances(PuzzleId id, std::vector<Appearance>* out) const {
  out->clear();
  PuzzleSummary self;
  if (Status st = GetSummary(id, &self); !st.ok()) return st;
  std::vector<PuzzleId> ids;
  if (Status st = impl_->ScanIds(kByPosition, PositionPrefix(self.variant, self.canonical), &ids); !st.ok()) return st;
  ids.erase(std::remove(ids.begin(), ids.end(), id), ids.end());
  std::vector<PuzzleSummary> others;
  if (Status st = impl_->GetSummaries(ids, &others); !st.ok()) return st;
  std::sort(others.begin(), others.end(), SummaryLess);
  for (PuzzleSummary& s : others) {
    uint8_t rel = static_cast<uint8_t>(self.transform ^ s.transform);
    out->push_back({std::move(s), rel});
  }
  return Status::OK();
}

Status PuzzleStore::Duplicates(const std::string& collection, std::vector<DuplicateGroup>* out) const {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kByPosition]));
  std::string group_prefix;
  std::vector<PuzzleId> group;
  auto finish = [&]() -> Status {
    if (group.size() < 2) return Status::OK();
    std::vector<PuzzleSummary> members;
    if (Status st = impl_->GetSummaries(group, &members); !st.ok()) return st;
    members.erase(std::remove_if(members.begin(), members.end(), [](const PuzzleSummary& s) { return s.is_game; }),
                  members.end());
    std::set<std::string> collections;
    for (const PuzzleSummary& s : members) collections.insert(s.collection);
    if (collections.size() < 2) return Status::OK();
    if (!collection.empty() && !collections.count(collection)) return Status::OK();
    // The asked-about collection first, then by collection and number.
    std::sort(members.begin(), members.end(), [&](const PuzzleSummary& a, const PuzzleSummary& b) {
      bool fa = a.collection == collection, fb = b.collection == collection;
      if (fa != fb) return fa;
      return SummaryLess(a, b);
    });
    DuplicateGroup g;
    g.canonical = members[0].canonical;
    for (PuzzleSummary& s : members) {
      uint8_t rel = static_cast<uint8_t>(members[0].transform ^ s.transform);
      g.members.push_back({std::move(s), rel});
    }
    out->push_back(std::move(g));
    return Status::OK();
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rocksdb::Slice k = it->key();
    if (k.size() < 8) return Status::Corruption(impl_->dir + ": short key in by_position");
    rocksdb::Slice prefix(k.data(), k.size() - 8);
    if (prefix != rocksdb::Slice(group_prefix)) {
      if (Status st = finish(); !st.ok()) return st;
      group.clear();
      group_prefix.assign(prefix.data(), prefix.size());
    }
    group.push_back(IdFromIndexKey(k));
  }
  if (!it->status().ok()) return FromRocks(it->status(), impl_->dir);
  if (Status st = finish(); !st.ok()) return st;
  std::sort(out->begin(), out->end(), [](const DuplicateGroup& a, const DuplicateGroup& b) {
    return SummaryLess(a.members[0].puzzle, b.members[0].puzzle);
  });
  return Status::OK();
}

Status PuzzleStore::CatchUp() {
  if (!impl_->options.read_only) return Status::OK();
  return FromRocks(impl_->db->TryCatchUpWithPrimary(), impl_->dir);
}

Status PuzzleStore::Check(std::vector<std::string>* problems) const {
  // Every index entry the records call for, by family.
  std::vector<std::set<std::string>> expected(kFamilyCount);
  std::set<std::string> record_ids;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kRecords]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key = it->key().ToString();
    std::string name = key.size() == 8 ? FormatPuzzleId(GetBE(key.data(), 8)) : "key of " + std::to_string(key.size()) + " bytes";
    record_ids.insert(key);
    Record r;
    if (Status st = DeserializeRecord(it->value().ToString(), &r); !st.ok()) {
      problems->push_back("record " + name + ": " + st.message());
      continue;
    }
    RecordEntries e;
    if (Status st = ComputeEntries(r, &e); !st.ok()) {
      problems->push_back("record " + name + ": " + st.message());
      continue;
    }
    if (IdKey(e.id) != key) {
      problems->push_back("record " + name + " is stored under the wrong id (its content gives " + FormatPuzzleId(e.id) + ")");
      continue;
    }
    std::string summary;
    rocksdb::Status st = impl_->db->Get(impl_->ReadOpts(), impl_->cf[kSummaries], key, &summary);
    if (!st.ok()) problems->push_back("record " + name + ": no summary (" + st.ToString() + ")");
    else if (summary != e.summary_bytes) problems->push_back("record " + name + ": summary differs from the record");
    for (const IndexEntry& x : e.index) expected[x.family].insert(x.key);
  }
  if (!it->status().ok()) return FromRocks(it->status(), impl_->dir);
  for (int f = kSummaries; f < kFamilyCount; ++f) {
    std::unique_ptr<rocksdb::Iterator> ix(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[f]));
    size_t seen = 0;
    for (ix->SeekToFirst(); ix->Valid(); ix->Next()) {
      std::string key = ix->key().ToString();
      std::string id8 = key.size() >= 8 ? key.substr(key.size() - 8) : key;
      if (!record_ids.count(id8))
        problems->push_back(std::string(kFamilyNames[f]) + ": entry for missing record " +
                            (id8.size() == 8 ? FormatPuzzleId(GetBE(id8.data(), 8)) : "?"));
      else if (f >= kFirstIndex && !expected[f].count(key))
        problems->push_back(std::string(kFamilyNames[f]) + ": stale entry for record " + FormatPuzzleId(GetBE(id8.data(), 8)));
      else if (f >= kFirstIndex)
        ++seen;
    }
    if (!ix->status().ok()) return FromRocks(ix->status(), impl_->dir);
    if (f >= kFirstIndex && seen < expected[f].size())
      problems->push_back(std::string(kFamilyNames[f]) + ": " + std::to_string(expected[f].size() - seen) + " entries missing");
  }
  return Status::OK();
}

Status PuzzleStore::Reindex() {
  if (impl_->options.read_only) return Status::InvalidArgument(impl_->dir + " is open read-only");
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  rocksdb::WriteBatch batch;
  for (int f = kSummaries; f < kFamilyCount; ++f) {
    std::unique_ptr<rocksdb::Iterator> ix(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[f]));
    for (ix->SeekToFirst(); ix->Valid(); ix->Next()) batch.Delete(impl_->cf[f], ix->key());
    if (!ix->status().ok()) return FromRocks(ix->status(), impl_->dir);
  }
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(impl_->ReadOpts(), impl_->cf[kRecords]));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Record r;
    std::string name = it->key().size() == 8 ? FormatPuzzleId(GetBE(it->key().data(), 8)) : "?";
    if (Status st = DeserializeRecord(it->value().ToString(), &r); !st.ok())
      return st.WithContext(impl_->dir + ", record " + name);
    RecordEntries e;
    if (Status st = ComputeEntries(r, &e); !st.ok()) return st.WithContext(impl_->dir + ", record " + name);
    std::string id8 = IdKey(e.id);
    if (id8 != it->key().ToString()) {
      // The id scheme changed: move the record to its id.
      batch.Delete(impl_->cf[kRecords], it->key());
      batch.Put(impl_->cf[kRecords], id8, it->value());
    }
    batch.Put(impl_->cf[kSummaries], id8, e.summary_bytes);
    for (const IndexEntry& x : e.index) batch.Put(impl_->cf[x.family], x.key, x.value);
  }
  if (!it->status().ok()) return FromRocks(it->status(), impl_->dir);
  batch.Put(impl_->cf[kMeta], kLayoutKey, std::to_string(kLayoutVersion));
  return impl_->Write(&batch);
}

}  // namespace canju

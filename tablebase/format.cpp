#include "tablebase/format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>
#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace canju::tb {
namespace {

constexpr char kMagic[8] = {'C', 'A', 'N', 'J', 'U', 'T', 'B', '\x1a'};

class Writer {
 public:
  void U32(uint32_t v) { Raw(&v, 4); }
  void U64(uint64_t v) { Raw(&v, 8); }
  void Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    Raw(s.data(), s.size());
  }
  void Raw(const void* p, size_t n) { buf.append(static_cast<const char*>(p), n); }
  std::string buf;
};

class Reader {
 public:
  Reader(const char* p, size_t n) : p_(p), n_(n) {}
  bool U32(uint32_t* v) { return Raw(v, 4); }
  bool U64(uint64_t* v) { return Raw(v, 8); }
  bool Str(std::string* s) {
    uint32_t n;
    if (!U32(&n) || n > n_ - pos_) return false;
    s->assign(p_ + pos_, n);
    pos_ += n;
    return true;
  }
  bool Raw(void* out, size_t n) {
    if (n > n_ - pos_) return false;
    std::memcpy(out, p_ + pos_, n);
    pos_ += n;
    return true;
  }

 private:
  const char* p_;
  size_t n_;
  size_t pos_ = 0;
};

std::string SerializeHeader(const TableHeader& h) {
  Writer w;
  w.Str(h.variant_id);
  w.U64(h.variant_fingerprint);
  w.Str(h.rules);
  w.Str(h.material);
  w.Str(h.index_scheme);
  w.U64(h.entries);
  w.U32(h.value_bytes);
  w.U32(h.block_entries);
  w.U32(h.orders);
  for (const SideStats& s : h.stats) {
    w.U64(s.win);
    w.U64(s.draw);
    w.U64(s.loss);
    w.U64(s.illegal);
    w.U32(s.longest_win);
    w.U64(s.longest_win_index);
  }
  return w.buf;
}

bool ParseHeader(const char* p, size_t n, TableHeader* h) {
  Reader r(p, n);
  bool ok = r.Str(&h->variant_id) && r.U64(&h->variant_fingerprint) && r.Str(&h->rules) && r.Str(&h->material) &&
            r.Str(&h->index_scheme) && r.U64(&h->entries) && r.U32(&h->value_bytes) && r.U32(&h->block_entries) &&
            r.U32(&h->orders);
  for (SideStats& s : h->stats)
    ok = ok && r.U64(&s.win) && r.U64(&s.draw) && r.U64(&s.loss) && r.U64(&s.illegal) && r.U32(&s.longest_win) &&
         r.U64(&s.longest_win_index);
  return ok && (h->value_bytes == 1 || h->value_bytes == 2) && h->block_entries > 0;
}

Status WriteAll(int fd, const void* p, size_t n, const std::string& path) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    ssize_t w = ::write(fd, c, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(path + ": write failed: " + std::strerror(errno));
    }
    c += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

Status ReadAt(int fd, void* p, size_t n, uint64_t off, const std::string& path) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    ssize_t r = ::pread(fd, c, n, static_cast<off_t>(off));
    if (r < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(path + ": read failed at byte " + std::to_string(off) + ": " + std::strerror(errno));
    }
    if (r == 0) return Status::Corruption(path + ": truncated at byte " + std::to_string(off));
    c += r;
    n -= static_cast<size_t>(r);
    off += static_cast<uint64_t>(r);
  }
  return Status::OK();
}

}  // namespace

uint64_t VariantFingerprint(const Variant& v) {
  std::string s = v.id() + "|" + std::to_string(v.files()) + "x" + std::to_string(v.ranks());
  for (int k = 0; k < v.kind_count(); ++k) {
    const PieceKind& pk = v.kind(k);
    s += "|" + std::string(1, pk.letter) + ":" + pk.betza + ":" + std::to_string(pk.region) + ":" +
         std::to_string(pk.royal) + std::to_string(pk.pawn) + ":" + std::to_string(pk.value);
  }
  for (const Region& r : v.regions()) s += "|" + r.name + ":" + r.squares[0].to_string() + r.squares[1].to_string();
  s += "|" + RulesDescription(v);
  return XXH64(s.data(), s.size(), 0);
}

std::string RulesDescription(const Variant& v) {
  const Rules& r = v.rules();
  auto outcome = [](Outcome o) { return o == Outcome::kLoss ? "loss" : o == Outcome::kDraw ? "draw" : "win"; };
  std::string s = "checkmate wins; stalemate: ";
  s += outcome(r.stalemate);
  s += r.flying_general ? "; royals may not face each other" : "";
  if (r.perpetual_check == Outcome::kLoss)
    s += "; perpetual check loses (mutual perpetual check draws); chasing rules not applied; other cycles draw";
  else
    s += "; every repetition is a draw";
  if (r.promotion_region >= 0) {
    s += "; promotion to";
    for (int k : r.promotion_kinds) s += std::string(" ") + v.kind(k).letter;
  }
  if (r.en_passant) s += "; en passant ignored";
  if (r.castling) s += "; no castling";
  if (r.halfmove_draw) s += "; no move-count draw rule";
  return s;
}

std::string TableFileName(const Variant& v, const std::string& material) {
  return material + "." + v.id() + kFileSuffix;
}

Status WriteTable(const std::string& path, TableHeader header, const std::vector<uint16_t> values[2],
                  int compression_level) {
  uint16_t max_value = 0;
  for (int s = 0; s < 2; ++s)
    for (uint16_t x : values[s]) max_value = std::max(max_value, x);
  return WriteTableBlocks(
      path, header, max_value,
      [&](int side, uint64_t begin, uint64_t end, uint16_t* out) {
        std::copy(values[side].begin() + begin, values[side].begin() + end, out);
      },
      compression_level);
}

Status WriteTableBlocks(const std::string& path, TableHeader header, uint16_t max_value, const BlockFill& fill,
                        int compression_level, int threads) {
  header.version = kFormatVersion;
  if (header.block_entries == 0) header.block_entries = 1 << 15;
  header.value_bytes = ValueBytes(max_value);
  const uint64_t n = header.entries;
  const uint64_t per_side = (n + header.block_entries - 1) / header.block_entries;
  const int64_t nblocks = static_cast<int64_t>(2 * per_side);

  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Status::IOError(tmp + ": cannot create: " + std::strerror(errno));
  Writer w;
  w.Raw(kMagic, 8);
  w.U32(header.version);
  const std::string hdr = SerializeHeader(header);
  w.U32(static_cast<uint32_t>(hdr.size()));
  w.Raw(hdr.data(), hdr.size());
  const uint64_t offsets_pos = w.buf.size();
  std::vector<uint64_t> offsets(nblocks + 1, 0);
  w.Raw(offsets.data(), offsets.size() * 8);  // placeholder, written at the end
  Status st = WriteAll(fd, w.buf.data(), w.buf.size(), tmp);

  // Batches of blocks compressed in parallel, written in order.
  const int nthreads = threads > 0 ? threads : omp_get_max_threads();
  const int64_t batch = 8 * static_cast<int64_t>(nthreads);
  std::vector<std::string> out(batch);
  // One compression context per thread: contexts made per call are large
  // and their freed memory stays with the process.
  std::vector<ZSTD_CCtx*> contexts(nthreads, nullptr);
  for (auto& c : contexts) c = ZSTD_createCCtx();
  uint64_t off = 0;
  for (int64_t first = 0; first < nblocks && st.ok(); first += batch) {
    const int64_t last = std::min(nblocks, first + batch);
    int failed = 0;
#pragma omp parallel num_threads(nthreads) reduction(| : failed)
    {
      ZSTD_CCtx* cctx = contexts[omp_get_thread_num()];
      std::vector<uint16_t> values;
      std::string raw, scratch;
#pragma omp for schedule(dynamic)
      for (int64_t b = first; b < last; ++b) {
        const int side = static_cast<int>(static_cast<uint64_t>(b) / per_side);
        const uint64_t begin = (static_cast<uint64_t>(b) % per_side) * header.block_entries;
        const uint64_t end = std::min<uint64_t>(n, begin + header.block_entries);
        values.resize(end - begin);
        fill(side, begin, end, values.data());
        raw.clear();
        // Unused entries repeat the value before them: they cost nearly nothing.
        uint16_t prev = kValueDraw;
        for (uint16_t x : values) {
          if (x == kValueIllegal) x = prev;
          prev = x;
          raw.push_back(static_cast<char>(x & 0xFF));
          if (header.value_bytes == 2) raw.push_back(static_cast<char>(x >> 8));
        }
        scratch.resize(ZSTD_compressBound(raw.size()));
        const size_t z =
            ZSTD_compressCCtx(cctx, scratch.data(), scratch.size(), raw.data(), raw.size(), compression_level);
        if (ZSTD_isError(z)) {
          failed = 1;
          continue;
        }
        out[b - first].assign(scratch.data(), z);
      }
    }
    if (failed) {
      st = Status::IOError(path + ": compression failed");
      break;
    }
    for (int64_t b = first; b < last && st.ok(); ++b) {
      offsets[b] = off;
      off += out[b - first].size();
      st = WriteAll(fd, out[b - first].data(), out[b - first].size(), tmp);
      std::string().swap(out[b - first]);
    }
  }
  for (auto* c : contexts) ZSTD_freeCCtx(c);
  offsets[nblocks] = off;
  if (st.ok() && ::pwrite(fd, offsets.data(), offsets.size() * 8, static_cast<off_t>(offsets_pos)) !=
                     static_cast<ssize_t>(offsets.size() * 8))
    st = Status::IOError(tmp + ": write failed: " + std::strerror(errno));
  // The checksum covers everything before it, the offsets included: read back.
  if (st.ok()) {
    XXH64_state_t* hs = XXH64_createState();
    XXH64_reset(hs, 0);
    std::vector<char> buf(1 << 20);
    const uint64_t total = offsets_pos + offsets.size() * 8 + off;
    for (uint64_t pos = 0; pos < total && st.ok();) {
      const size_t len = static_cast<size_t>(std::min<uint64_t>(buf.size(), total - pos));
      st = ReadAt(fd, buf.data(), len, pos, tmp);
      XXH64_update(hs, buf.data(), len);
      pos += len;
    }
    const uint64_t sum = XXH64_digest(hs);
    XXH64_freeState(hs);
    if (st.ok() && ::pwrite(fd, &sum, 8, static_cast<off_t>(total)) != 8)
      st = Status::IOError(tmp + ": write failed: " + std::strerror(errno));
  }
  if (st.ok() && ::fsync(fd) != 0) st = Status::IOError(tmp + ": fsync failed: " + std::strerror(errno));
  ::close(fd);
  if (st.ok() && ::rename(tmp.c_str(), path.c_str()) != 0)
    st = Status::IOError(path + ": rename failed: " + std::strerror(errno));
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

TableFile::~TableFile() {
  if (fd_ >= 0) ::close(fd_);
}

Status TableFile::Open(const std::string& path, std::unique_ptr<TableFile>* out) {
  std::unique_ptr<TableFile> f(new TableFile());
  f->path_ = path;
  f->fd_ = ::open(path.c_str(), O_RDONLY);
  if (f->fd_ < 0) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
  struct stat stt;
  if (::fstat(f->fd_, &stt) != 0) return Status::IOError(path + ": cannot stat");
  f->file_size_ = static_cast<uint64_t>(stt.st_size);
  auto corrupt = [&](const std::string& what) { return Status::Corruption(path + ": " + what); };
  if (f->file_size_ < 24) return corrupt("truncated (" + std::to_string(f->file_size_) + " bytes): not a complete table");
  char head[16];
  if (Status st = ReadAt(f->fd_, head, 16, 0, path); !st.ok()) return st;
  if (std::memcmp(head, kMagic, 8) != 0) return corrupt("not a canju tablebase file (bad magic)");
  uint32_t version, hlen;
  std::memcpy(&version, head + 8, 4);
  std::memcpy(&hlen, head + 12, 4);
  if (version != kFormatVersion)
    return Status::Unsupported(path + ": format version " + std::to_string(version) + ", this build reads " +
                               std::to_string(kFormatVersion));
  if (16 + static_cast<uint64_t>(hlen) + 8 > f->file_size_) return corrupt("truncated header");
  std::string hdr(hlen, '\0');
  if (Status st = ReadAt(f->fd_, hdr.data(), hlen, 16, path); !st.ok()) return st;
  if (!ParseHeader(hdr.data(), hdr.size(), &f->header_)) return corrupt("damaged header");
  const TableHeader& h = f->header_;
  f->blocks_per_side_ = (h.entries + h.block_entries - 1) / h.block_entries;
  const uint64_t noff = 2 * f->blocks_per_side_ + 1;
  const uint64_t off_pos = 16 + hlen;
  if (off_pos + noff * 8 + 8 > f->file_size_) return corrupt("truncated block table");
  f->offsets_.resize(noff);
  if (Status st = ReadAt(f->fd_, f->offsets_.data(), noff * 8, off_pos, path); !st.ok()) return st;
  f->data_start_ = off_pos + noff * 8;
  for (uint64_t i = 0; i + 1 < noff; ++i)
    if (f->offsets_[i] > f->offsets_[i + 1]) return corrupt("damaged block table");
  if (f->data_start_ + f->offsets_.back() + 8 != f->file_size_)
    return corrupt("size " + std::to_string(f->file_size_) + " bytes does not match its block table (expected " +
                   std::to_string(f->data_start_ + f->offsets_.back() + 8) + "): truncated or damaged");
  *out = std::move(f);
  return Status::OK();
}

Status TableFile::Verify() {
  if (verified_) return Status::OK();
  XXH64_state_t* hs = XXH64_createState();
  XXH64_reset(hs, 0);
  std::vector<char> buf(1 << 20);
  uint64_t pos = 0, end = file_size_ - 8;
  Status st;
  while (pos < end && st.ok()) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), end - pos));
    st = ReadAt(fd_, buf.data(), n, pos, path_);
    XXH64_update(hs, buf.data(), n);
    pos += n;
  }
  uint64_t sum = XXH64_digest(hs), stored = 0;
  XXH64_freeState(hs);
  if (!st.ok()) return st;
  if (Status s2 = ReadAt(fd_, &stored, 8, end, path_); !s2.ok()) return s2;
  if (sum != stored) return Status::Corruption(path_ + ": checksum mismatch: the file is damaged; rebuild it");
  verified_ = true;
  return Status::OK();
}

Status TableFile::DecodeBlock(int side, uint64_t block, uint8_t* dst, uint64_t* count) const {
  const uint64_t b = side * blocks_per_side_ + block;
  const uint64_t begin = offsets_[b], end = offsets_[b + 1];
  std::string comp(end - begin, '\0');
  if (Status st = ReadAt(fd_, comp.data(), comp.size(), data_start_ + begin, path_); !st.ok()) return st;
  const uint64_t first = block * header_.block_entries;
  *count = std::min<uint64_t>(header_.block_entries, header_.entries - first);
  const size_t bytes = *count * header_.value_bytes;
  const size_t z = ZSTD_decompress(dst, bytes, comp.data(), comp.size());
  if (ZSTD_isError(z) || z != bytes)
    return Status::Corruption(path_ + ": block " + std::to_string(b) + " does not decode");
  return Status::OK();
}

Status TableFile::ReadBlock(int side, uint64_t block, std::vector<uint16_t>* out) const {
  std::vector<unsigned char> raw(header_.block_entries * header_.value_bytes);
  uint64_t count = 0;
  if (Status st = DecodeBlock(side, block, raw.data(), &count); !st.ok()) return st;
  out->resize(count);
  const unsigned char* r = raw.data();
  if (header_.value_bytes == 1)
    for (uint64_t i = 0; i < count; ++i) (*out)[i] = r[i];
  else
    for (uint64_t i = 0; i < count; ++i) (*out)[i] = static_cast<uint16_t>(r[2 * i] | (r[2 * i + 1] << 8));
  return Status::OK();
}

Status TableFile::ReadAllRaw(std::vector<uint8_t> raw[2], unsigned sides) {
  if (Status st = Verify(); !st.ok()) return st;
  const uint64_t width = header_.value_bytes;
  for (int s = 0; s < 2; ++s) {
    if (!(sides >> s & 1)) {
      std::vector<uint8_t>().swap(raw[s]);
      continue;
    }
    raw[s].assign(header_.entries * width, 0);
    for (uint64_t block = 0; block < blocks_per_side_; ++block) {
      uint64_t count = 0;
      if (Status st = DecodeBlock(s, block, raw[s].data() + block * header_.block_entries * width, &count); !st.ok())
        return st;
    }
  }
  return Status::OK();
}

Status TableFile::ReadAll(std::vector<uint16_t> values[2]) {
  if (Status st = Verify(); !st.ok()) return st;
  for (int s = 0; s < 2; ++s) {
    values[s].resize(header_.entries);
    std::vector<uint16_t> buf;
    for (uint64_t b = 0; b < blocks_per_side_; ++b) {
      if (Status st = ReadBlock(s, b, &buf); !st.ok()) return st;
      std::copy(buf.begin(), buf.end(), values[s].begin() + b * header_.block_entries);
    }
  }
  return Status::OK();
}

}  // namespace canju::tb

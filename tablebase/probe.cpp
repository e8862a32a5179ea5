#include "tablebase/probe.h"

#include <dirent.h>

#include <algorithm>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>

#include "tablebase/format.h"
#include "tablebase/index.h"
#include "tablebase/material.h"

namespace canju::tb {

const char* WdlName(Wdl w) { return w == Wdl::kWin ? "win" : w == Wdl::kLoss ? "loss" : "draw"; }

struct TablebaseSet::Impl {
  struct Table {
    std::unique_ptr<TableFile> file;
    Indexer index;
    mutable std::once_flag verify_once;  // the checksum, on first use
    mutable Status verified;
  };
  const Variant* v = nullptr;
  std::map<std::string, std::unique_ptr<Table>> tables;
  size_t cache_blocks = 256;
  bool colour_symmetric = false;

  using Key = std::tuple<const Table*, int, uint64_t>;
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(std::get<0>(k)) ^ (std::get<1>(k) * 0x9E3779B97F4A7C15ULL) ^
             (std::get<2>(k) * 0xC2B2AE3D27D4EB4FULL);
    }
  };
  mutable std::mutex mu;
  mutable std::list<std::pair<Key, std::shared_ptr<const std::vector<uint16_t>>>> lru;
  mutable std::unordered_map<Key, decltype(lru)::iterator, KeyHash> where;

  const Table* Find(const Material& m, bool* flipped) const {
    Material c = Canonical(*v, m, colour_symmetric, flipped);
    auto it = tables.find(c.Name(*v));
    return it == tables.end() ? nullptr : it->second.get();
  }

  Status Block(const Table* t, int side, uint64_t b, std::shared_ptr<const std::vector<uint16_t>>* out) const {
    Key key{t, side, b};
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = where.find(key);
      if (it != where.end()) {
        lru.splice(lru.begin(), lru, it->second);
        *out = it->second->second;
        return Status::OK();
      }
    }
    auto data = std::make_shared<std::vector<uint16_t>>();
    if (Status st = t->file->ReadBlock(side, b, data.get()); !st.ok()) return st;
    std::lock_guard<std::mutex> lock(mu);
    if (!where.count(key)) {
      lru.emplace_front(key, data);
      where[key] = lru.begin();
      while (lru.size() > cache_blocks) {
        where.erase(lru.back().first);
        lru.pop_back();
      }
    }
    *out = data;
    return Status::OK();
  }
};

TablebaseSet::TablebaseSet() : impl_(new Impl) {}
TablebaseSet::~TablebaseSet() = default;

Status TablebaseSet::Open(const std::string& dir, const Variant& v, size_t cache_blocks) {
  impl_ = std::make_unique<Impl>();
  impl_->v = &v;
  impl_->cache_blocks = std::max<size_t>(cache_blocks, 1);
  impl_->colour_symmetric = ColourSymmetric(v);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return Status::NotFound(dir + ": no such tablebase directory");
  const std::string suffix = std::string(".") + v.id() + kFileSuffix;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  const uint64_t fingerprint = VariantFingerprint(v);
  for (const std::string& n : names) {
    const std::string path = dir + "/" + n;
    auto t = std::make_unique<Impl::Table>();
    if (Status st = TableFile::Open(path, &t->file); !st.ok()) return st;
    const TableHeader& h = t->file->header();
    if (h.variant_fingerprint != fingerprint)
      return Status::InvalidArgument(path + ": built under other rules (" + h.rules + ") than this " + v.id() +
                                     "'s (" + RulesDescription(v) + "); rebuild it or use a separate directory");
    Material m;
    if (Status st = Material::Parse(v, h.material, &m); !st.ok()) return st.WithContext(path);
    if (Status st = t->index.Init(v, m); !st.ok()) return st.WithContext(path);
    if (t->index.size() != h.entries)
      return Status::Corruption(path + ": its index size does not match this build's index scheme");
    impl_->tables[h.material] = std::move(t);
  }
  return Status::OK();
}

bool TablebaseSet::Has(const std::string& material) const {
  if (!impl_->v) return false;
  Material m;
  if (!Material::Parse(*impl_->v, material, &m).ok()) return false;
  bool f;
  return impl_->Find(m, &f) != nullptr;
}

bool TablebaseSet::Has(const Position& pos) const {
  if (!impl_->v) return false;
  bool f;
  return impl_->Find(Material::Of(pos), &f) != nullptr;
}

std::vector<std::string> TablebaseSet::Materials() const {
  std::vector<std::string> out;
  for (const auto& [name, t] : impl_->tables) out.push_back(name);
  return out;
}

Status TablebaseSet::Probe(const Position& pos, ProbeResult* out) const {
  if (!impl_->v) return Status::InvalidArgument("tablebase set not opened");
  bool flipped = false;
  const Impl::Table* t = impl_->Find(Material::Of(pos), &flipped);
  if (!t) return Status::NotFound("no table for " + pos.Material());
  std::call_once(t->verify_once, [t] { t->verified = t->file->Verify(); });
  if (!t->verified.ok()) return t->verified;
  if (Status st = pos.Validate(); !st.ok()) return Status::InvalidArgument("illegal position: " + st.message());
  const Position p = flipped ? pos.ColorFlipped() : pos;
  const uint64_t idx = t->index.EncodePosition(p);
  if (idx == kNoIndex) return Status::InvalidArgument("position outside the table's index: " + pos.Fen());
  const uint32_t be = t->file->header().block_entries;
  std::shared_ptr<const std::vector<uint16_t>> block;
  if (Status st = impl_->Block(t, p.side_to_move(), idx / be, &block); !st.ok()) return st;
  const uint16_t value = (*block)[idx % be];
  if (value == kValueIllegal)
    return Status::Corruption(t->file->path() + ": no value for a legal position (entry " + std::to_string(idx) + ")");
  *out = DecodeValue(value);
  return Status::OK();
}

}  // namespace canju::tb

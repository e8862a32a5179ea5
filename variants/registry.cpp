#include "variants/registry.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace canju {

// Generated from variants/defs/*.ini by cmake/EmbedDefs.cmake.
struct EmbeddedDefinition {
  const char* file;
  const char* text;
};
extern const EmbeddedDefinition kEmbeddedDefinitions[];
extern const int kEmbeddedDefinitionCount;

namespace {

std::string IdFromFile(const std::string& file) {
  std::string base = file.substr(file.find_last_of('/') + 1);
  return base.substr(0, base.find('.'));
}

std::mutex& CacheMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, std::shared_ptr<const Variant>>& Cache() {
  static std::map<std::string, std::shared_ptr<const Variant>> c;
  return c;
}

}  // namespace

std::vector<std::string> BuiltinVariantIds() {
  std::vector<std::string> ids;
  for (int i = 0; i < kEmbeddedDefinitionCount; ++i) ids.push_back(IdFromFile(kEmbeddedDefinitions[i].file));
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == "xiangqi") std::swap(ids[0], ids[i]);
  return ids;
}

Status LoadVariant(const std::string& id_or_path, std::shared_ptr<const Variant>* out,
                   const std::vector<std::string>& overrides) {
  bool is_path = id_or_path.find('/') != std::string::npos ||
                 (id_or_path.size() > 4 && id_or_path.compare(id_or_path.size() - 4, 4, ".ini") == 0);
  std::string text, source;
  if (is_path) {
    std::ifstream in(id_or_path, std::ios::binary);
    if (!in) return Status::IOError("cannot read variant definition '" + id_or_path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    source = id_or_path;
  }
  // Built-ins are cached per set of overrides: `verify --set` loads the same
  // variant and options once per puzzle.
  std::string cache_key = id_or_path;
  for (const std::string& o : overrides) cache_key += '\0' + o;
  if (!is_path) {
    {
      std::lock_guard<std::mutex> lock(CacheMutex());
      auto it = Cache().find(cache_key);
      if (it != Cache().end()) return *out = it->second, Status::OK();
    }
    for (int i = 0; i < kEmbeddedDefinitionCount; ++i)
      if (IdFromFile(kEmbeddedDefinitions[i].file) == id_or_path) {
        text = kEmbeddedDefinitions[i].text;
        source = kEmbeddedDefinitions[i].file;
      }
    if (source.empty()) {
      std::string known;
      for (const auto& id : BuiltinVariantIds()) known += (known.empty() ? "" : ", ") + id;
      return Status::NotFound("unknown variant '" + id_or_path + "' (known: " + known +
                              "; or give the path of a definition file)");
    }
  }
  std::unique_ptr<Variant> v;
  if (Status st = Variant::Parse(text, source, &v, overrides); !st.ok()) return st;
  std::shared_ptr<const Variant> shared(std::move(v));
  if (!is_path) {
    std::lock_guard<std::mutex> lock(CacheMutex());
    Cache()[cache_key] = shared;
  }
  *out = shared;
  return Status::OK();
}

const Variant& BuiltinVariant(const std::string& id) {
  std::shared_ptr<const Variant> v;
  Status st = LoadVariant(id, &v);
  if (!st.ok()) {
    std::fprintf(stderr, "canju: %s\n", st.ToString().c_str());
    std::abort();
  }
  return *v;  // owned by the cache for the life of the process
}

}  // namespace canju

#include "server/assets.h"

#include <cstddef>

namespace canju::server {

struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  size_t size;
};
extern const EmbeddedFile kEmbeddedWebFiles[];
extern const int kEmbeddedWebFileCount;

namespace {

std::string_view ContentType(std::string_view name) {
  auto ends_with = [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with(".html")) return "text/html; charset=utf-8";
  if (ends_with(".js")) return "text/javascript; charset=utf-8";
  if (ends_with(".css")) return "text/css; charset=utf-8";
  if (ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

const std::vector<WebAsset>& Assets() {
  static const std::vector<WebAsset> assets = [] {
    std::vector<WebAsset> v;
    for (int i = 0; i < kEmbeddedWebFileCount; ++i) {
      const EmbeddedFile& f = kEmbeddedWebFiles[i];
      v.push_back({f.name, ContentType(f.name), std::string_view(reinterpret_cast<const char*>(f.data), f.size)});
    }
    return v;
  }();
  return assets;
}

}  // namespace

const WebAsset* FindWebAsset(std::string_view url_path) {
  if (url_path.empty() || url_path[0] != '/') return nullptr;
  std::string_view name = url_path.substr(1);
  if (name.empty()) name = "index.html";
  for (const WebAsset& a : Assets())
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<std::string> WebAssetNames() {
  std::vector<std::string> names;
  for (const WebAsset& a : Assets()) names.emplace_back(a.name);
  return names;
}

}  // namespace canju::server

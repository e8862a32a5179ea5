// The browsing page (web/*.html, *.js, *.css), embedded at build time by
// EmbedWeb.cmake. The server serves these and nothing else from "disk".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace canju::server {

struct WebAsset {
  std::string_view name;          // "index.html"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view data;
};

// The asset for a URL path: "/" is index.html, "/app.js" is app.js; nullptr
// for anything else (no directories, no "..", no query).
const WebAsset* FindWebAsset(std::string_view url_path);
// Names of every embedded file, sorted.
std::vector<std::string> WebAssetNames();

}  // namespace canju::server

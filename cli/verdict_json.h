// JSON of a stored verdict's re-checks, shared by `verify --json` and
// `puzzles show --json` (the server writes its own, server/api.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "puzzles/record.h"

namespace canju::cli {

// A name, or a JSON null where there is none.
inline nlohmann::json NameOrNull(const char* name) { return name ? nlohmann::json(name) : nlohmann::json(nullptr); }

// Each cook and its re-check: {"c3c4": "holds", ...}, null where none was
// made or recorded.
inline nlohmann::json CooksCheckJson(const Verdict& v) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < v.cooks.size(); ++i) j[v.cooks[i]] = NameOrNull(CookCheckName(v, i));
  return j;
}

}  // namespace canju::cli

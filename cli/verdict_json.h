// JSON of a stored verdict's re-checks, shared by `verify --json` and
// `puzzles show --json` (the server writes its own, server/api.cpp).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "puzzles/record.h"
#include "solver/solver.h"
#include "solver/verify.h"

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

// How a line ends, for the JSON (solver's HowLineEnds): "mate",
// "perpetual_check" (the loser's checks repeat a position, which loses),
// "open" (it stops before either); null where it cannot be said.
inline nlohmann::json LineEndJson(const std::optional<LineEnd>& end) {
  return end ? nlohmann::json(LineEndName(*end)) : nlohmann::json(nullptr);
}

}  // namespace canju::cli

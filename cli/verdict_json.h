// JSON of a stored verdict's re-checks, shared by `verify --json` and
// `puzzles show --json` (the server writes its own, server/api.cpp).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "puzzles/record.h"
#include "solver/solver.h"
#include "solver/verify.h"
#include "variants/position.h"
#include "variants/registry.h"

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

// How a verdict's line ends, replayed from its record's position under the
// rules the verdict was reached under (VerdictRules); nothing where it cannot
// be said (no line, no win or loss, an unreadable position).
inline std::optional<LineEnd> VerdictLineEnd(const std::string& variant, const std::string& fen, const Verdict& v) {
  std::shared_ptr<const Variant> var;
  Position root;
  LineEnd end;
  if (!LoadVariant(variant, &var, VerdictRules(v)).ok() || !Position::FromFen(*var, fen, &root).ok() ||
      !HowLineEnds(root, v.pv, v.proven, &end))
    return std::nullopt;
  return end;
}

}  // namespace canju::cli

// JSON of a stored verdict's re-checks, shared by `verify --json` and
// `puzzles show --json` (the server writes its own, server/api.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include "puzzles/record.h"
#include "solver/solver.h"
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

// How a line from `root` ends (solver's HowLineEnds): "mate",
// "perpetual_check" (the loser's checks repeat a position, which loses),
// "open" (it stops before either); null without a line or a win or loss.
inline nlohmann::json LineEndJson(const Position& root, const std::vector<std::string>& coord_line, Claim result) {
  LineEnd end;
  if (!HowLineEnds(root, coord_line, result, &end)) return nullptr;
  return LineEndName(end);
}

// How a verdict's line ends, replayed from its record's position; false
// where it cannot be said (no line, no win or loss, an unreadable position).
inline bool VerdictLineEnd(const std::string& variant, const std::string& fen, const Verdict& v, LineEnd* end) {
  std::shared_ptr<const Variant> var;
  Position root;
  if (!LoadVariant(variant, &var).ok() || !Position::FromFen(*var, fen, &root).ok()) return false;
  return HowLineEnds(root, v.pv, v.proven, end);
}

inline nlohmann::json LineEndJson(const std::string& variant, const std::string& fen, const Verdict& v) {
  LineEnd end;
  return VerdictLineEnd(variant, fen, v, &end) ? nlohmann::json(LineEndName(end)) : nlohmann::json(nullptr);
}

}  // namespace canju::cli

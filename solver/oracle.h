// Endgame tables as the solver sees them: a probe gives the value of a
// position from the side to move's view, or false when its material has no
// table. Probed once per new node, never per generated move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "puzzles/record.h"
#include "variants/position.h"

namespace canju {

struct TablebaseValue {
  Claim result = Claim::kUnknown;
  int dtm = -1;  // plies to mate for a win or a loss, -1 if unknown or drawn
};

// A material the search reached without a table, and how often.
struct MissingTable {
  std::string material;  // as `canju tb build` takes it, e.g. KRPKRB
  uint64_t probes = 0;   // positions of that material the search asked about
};

class TablebaseOracle {
 public:
  virtual ~TablebaseOracle() = default;
  // Thread-safe; false when the material has no table (cheap to ask).
  virtual bool Probe(const Position& pos, TablebaseValue* out) const = 0;
  // When counting was asked for: the materials probed without a table,
  // most probed first — which table to build next for these puzzles.
  virtual std::vector<MissingTable> MissingTables() const { return {}; }
};

}  // namespace canju

// Endgame tables as the solver sees them: a probe gives the value of a
// position from the side to move's view, or false when its material has no
// table. Probed once per new node, never per generated move.
#pragma once

#include "puzzles/record.h"
#include "variants/position.h"

namespace canju {

struct TablebaseValue {
  Claim result = Claim::kUnknown;
  int dtm = -1;  // plies to mate for a win or a loss, -1 if unknown or drawn
};

class TablebaseOracle {
 public:
  virtual ~TablebaseOracle() = default;
  // Thread-safe; false when the material has no table (cheap to ask).
  virtual bool Probe(const Position& pos, TablebaseValue* out) const = 0;
};

}  // namespace canju

// The endgame tables of tablebase/ as the solver's oracle (solver/oracle.h).
// Only built when the tablebase module is (CANJU_HAVE_TABLEBASE).
#pragma once

#include <memory>
#include <string>

#include "solver/oracle.h"
#include "variants/status.h"

namespace canju {

// Opens the complete tables of `v` in `dir`. `v` must outlive the oracle.
// With `count_missing_up_to` > 0 the oracle counts the probes of materials
// of at most that many pieces that have no table (MissingTables()).
Status OpenTablebaseOracle(const std::string& dir, const Variant& v, std::unique_ptr<TablebaseOracle>* out,
                           int count_missing_up_to = 0);

}  // namespace canju

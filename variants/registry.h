// The built-in variants (definition files embedded in the binary) and
// loading a variant by id or from a definition file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "variants/status.h"
#include "variants/variant.h"

namespace canju {

// Ids of the embedded definitions, in a stable order ("xiangqi" first).
std::vector<std::string> BuiltinVariantIds();

// Loads a variant: a built-in id ("xiangqi", "chess", "cannonchess") or the
// path of a definition file (anything containing '/' or ending in ".ini").
// A built-in is parsed once per set of overrides and shared.
Status LoadVariant(const std::string& id_or_path, std::shared_ptr<const Variant>* out,
                   const std::vector<std::string>& overrides = {});

// A built-in variant that must exist (tests, tools); aborts with a message if not.
const Variant& BuiltinVariant(const std::string& id);

}  // namespace canju

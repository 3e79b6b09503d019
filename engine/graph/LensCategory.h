#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ps::graph {

/// The fixed categories a lens colours by (GraphLens::category): node kinds and phases (Lens::Kind),
/// op kinds (Lens::OpKind) and dtype/layout changes (Lens::DtypeLayout). The other lenses' categories
/// are names (a module path, a kernel, a source line) and are none of these.
enum class LensCategory : std::uint8_t {
    Parameter,
    Buffer,
    Input,
    Constant,
    Output,
    Forward,
    Backward,
    Matmul,
    Convolution,
    Normalization,
    Reduction,
    View,
    Memory,
    Random,
    Elementwise,
    Other,
    DtypeChange,
    LayoutChange,
    Unchanged,
};

/// The category's word as the legend shows it: "parameter", "matmul", "dtype change", ...
std::string_view toString(LensCategory category);
/// The fixed category a word names; nullopt for a name (a module, a kernel, a line) or "".
std::optional<LensCategory> lensCategoryFromString(std::string_view word);

}  // namespace ps::graph

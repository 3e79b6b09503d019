#include "graph/LensCategory.h"

#include <array>
#include <utility>

namespace ps::graph {

namespace {

// The one table of the words: both directions read it.
constexpr std::array<std::pair<LensCategory, std::string_view>, 19> kLensCategoryWords{{
    {LensCategory::Parameter, "parameter"},
    {LensCategory::Buffer, "buffer"},
    {LensCategory::Input, "input"},
    {LensCategory::Constant, "constant"},
    {LensCategory::Output, "output"},
    {LensCategory::Forward, "forward"},
    {LensCategory::Backward, "backward"},
    {LensCategory::Matmul, "matmul"},
    {LensCategory::Convolution, "convolution"},
    {LensCategory::Normalization, "normalization"},
    {LensCategory::Reduction, "reduction"},
    {LensCategory::View, "view"},
    {LensCategory::Memory, "memory"},
    {LensCategory::Random, "random"},
    {LensCategory::Elementwise, "elementwise"},
    {LensCategory::Other, "other"},
    {LensCategory::DtypeChange, "dtype change"},
    {LensCategory::LayoutChange, "layout change"},
    {LensCategory::Unchanged, "unchanged"},
}};

}  // namespace

std::string_view toString(LensCategory category)
{
    for (const auto& [c, word] : kLensCategoryWords)
        if (c == category)
            return word;
    return "";
}

std::optional<LensCategory> lensCategoryFromString(std::string_view word)
{
    for (const auto& [c, w] : kLensCategoryWords)
        if (w == word)
            return c;
    return std::nullopt;
}

}  // namespace ps::graph

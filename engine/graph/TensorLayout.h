#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::graph {

/// One tensor value of a node as its meta gives it: sizes, strides and dtype (a node's
/// "shape"/"stride"/"dtype", or one entry of a tuple-valued node's "values").
struct TensorLayout {
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
    std::string dtype;

    /// Bytes per element of a dtype word ("float32" -> 4, "torch.bfloat16" -> 2); 0 when unknown.
    static int itemSize(const std::string& dtype);
    /// The bytes of the storage the value spans: (1 + sum of (size - 1) * stride) elements times
    /// the itemsize, 0 for a tensor with no elements; strides absent read as contiguous. nullopt
    /// for an unknown dtype, negative sizes or strides, or more than 2^60 bytes.
    std::optional<std::uint64_t> storageBytes() const;

    /// An object with a "shape" list of integers (and "stride", "dtype"); nullopt otherwise.
    static std::optional<TensorLayout> fromJson(const nlohmann::json& j);
};

}  // namespace ps::graph

#include "graph/TensorLayout.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace ps::graph {

namespace {

constexpr long double kMaxBytes = static_cast<long double>(std::uint64_t{1} << 60);

bool integers(const nlohmann::json& j, std::vector<std::int64_t>& out)
{
    if (!j.is_array() || j.size() > 64)
        return false;
    for (const auto& v : j) {
        if (!v.is_number_integer())
            return false;
        out.push_back(v.get<std::int64_t>());
    }
    return true;
}

}  // namespace

int TensorLayout::itemSize(const std::string& dtype)
{
    std::string_view d = dtype;
    if (d.rfind("torch.", 0) == 0)
        d.remove_prefix(6);
    if (d == "float64" || d == "double" || d == "int64" || d == "long" || d == "complex64" || d == "uint64")
        return 8;
    if (d == "complex128")
        return 16;
    if (d == "float32" || d == "float" || d == "int32" || d == "int" || d == "uint32" || d == "complex32")
        return 4;
    if (d == "float16" || d == "half" || d == "bfloat16" || d == "int16" || d == "short" || d == "uint16")
        return 2;
    if (d == "int8" || d == "uint8" || d == "bool" || d.rfind("float8", 0) == 0)
        return 1;
    return 0;
}

std::optional<std::uint64_t> TensorLayout::storageBytes() const
{
    const int item = itemSize(dtype);
    if (item == 0)
        return std::nullopt;
    const bool contiguous = strides.size() != sizes.size();
    long double elements = 1;
    long double running = 1;  // contiguous strides, innermost first
    for (std::size_t k = sizes.size(); k-- > 0;) {
        const std::int64_t size = sizes[k];
        if (size < 0)
            return std::nullopt;
        if (size == 0)
            return 0;
        const long double stride = contiguous ? running : static_cast<long double>(strides[k]);
        if (stride < 0)
            return std::nullopt;
        elements += (static_cast<long double>(size) - 1) * stride;
        running *= static_cast<long double>(size);
        if (elements * item > kMaxBytes)
            return std::nullopt;
    }
    return static_cast<std::uint64_t>(elements * item);
}

std::optional<TensorLayout> TensorLayout::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    auto shape = j.find("shape");
    TensorLayout t;
    if (shape == j.end() || !integers(*shape, t.sizes))
        return std::nullopt;
    if (auto s = j.find("stride"); s != j.end() && !integers(*s, t.strides))
        t.strides.clear();
    if (auto d = j.find("dtype"); d != j.end() && d->is_string())
        t.dtype = d->get<std::string>();
    return t;
}

}  // namespace ps::graph

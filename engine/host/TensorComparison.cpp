#include <ATen/ATen.h>

#include "host/TensorComparison.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace ps::host {

namespace {

std::string dtypeName(const at::Tensor& t)
{
    std::string s = c10::toString(t.scalar_type());  // "Float", "BFloat16", ...
    static const std::pair<const char*, const char*> names[] = {{"Float", "float32"}, {"Double", "float64"},
        {"Half", "float16"}, {"BFloat16", "bfloat16"}, {"ComplexFloat", "complex64"}, {"ComplexDouble", "complex128"},
        {"ComplexHalf", "complex32"}, {"Long", "int64"}, {"Int", "int32"}, {"Short", "int16"}, {"Char", "int8"},
        {"Byte", "uint8"}, {"Bool", "bool"}, {"Float8_e4m3fn", "float8_e4m3fn"}, {"Float8_e5m2", "float8_e5m2"}};
    for (const auto& [from, to] : names)
        if (s == from)
            return to;
    return s;
}

std::vector<std::int64_t> toVector(c10::IntArrayRef r)
{
    return {r.begin(), r.end()};
}

}  // namespace

std::pair<double, double> TensorComparison::tolerance(const std::string& dtype)
{
    if (dtype == "float64" || dtype == "complex128")
        return {1e-7, 1e-7};
    if (dtype == "float32" || dtype == "complex64")
        return {1e-5, 1e-4};
    if (dtype == "float16" || dtype == "complex32")
        return {1e-3, 1e-3};
    if (dtype == "bfloat16")
        return {1e-2, 1.6e-2};
    if (dtype.rfind("float8", 0) == 0)
        return {1e-1, 1.25e-1};
    return {0.0, 0.0};
}

TensorComparison TensorComparison::compare(
    const at::Tensor& expectedIn, const at::Tensor& actualIn, std::optional<double> atol, std::optional<double> rtol)
{
    at::Tensor e = expectedIn.detach();
    at::Tensor a = actualIn.detach();
    TensorComparison r;
    r.expectedSizes = toVector(e.sizes());
    r.actualSizes = toVector(a.sizes());
    if (e.layout() == at::kStrided)
        r.expectedStrides = toVector(e.strides());
    if (a.layout() == at::kStrided)
        r.actualStrides = toVector(a.strides());
    r.expectedDtype = dtypeName(e);
    r.actualDtype = dtypeName(a);
    r.expectedDevice = e.device().str();
    r.actualDevice = a.device().str();
    r.sizesMatch = r.expectedSizes == r.actualSizes;
    r.stridesMatch = r.expectedStrides == r.actualStrides;
    r.dtypesMatch = r.expectedDtype == r.actualDtype;
    r.devicesMatch = r.expectedDevice == r.actualDevice;
    const auto [dAtol, dRtol] = tolerance(r.expectedDtype);
    r.atol = atol.value_or(dAtol);
    r.rtol = rtol.value_or(dRtol);
    if (!r.sizesMatch || !r.dtypesMatch)
        return r;
    if (e.layout() != at::kStrided)
        e = e.to_dense();
    if (a.layout() != at::kStrided)
        a = a.to_dense();
    if (a.device() != e.device())
        a = a.to(e.device());
    if (e.numel() == 0) {
        r.maxAbsDiff = 0.0;
        r.maxRelDiff = 0.0;
        r.mismatched = 0;
        r.ok = true;
        return r;
    }
    if (e.is_complex()) {
        e = at::view_as_real(e.resolve_conj());
        a = at::view_as_real(a.resolve_conj());
    }
    const at::Tensor e64 = e.to(at::kDouble);
    const at::Tensor a64 = a.to(at::kDouble);
    at::Tensor diff = (e64 - a64).abs();
    const at::Tensor ea = e64.abs();
    at::Tensor bad;
    if (e.is_floating_point()) {
        const at::Tensor bothNan = e64.isnan().logical_and(a64.isnan());
        const at::Tensor sameInf = e64.isinf().logical_and(e64.eq(a64));
        diff = at::where(bothNan.logical_or(sameInf), at::zeros_like(diff), diff);
        diff = at::nan_to_num(diff, std::numeric_limits<double>::infinity());
        bad = diff.gt(at::nan_to_num(ea, 0.0, 0.0).mul(r.rtol).add(r.atol));
    } else {
        bad = e.ne(a);
    }
    r.maxAbsDiff = diff.max().item<double>();
    const at::Tensor nz = ea.gt(0).logical_and(ea.isfinite());
    r.maxRelDiff = nz.any().item<bool>() ? diff.masked_select(nz).div(ea.masked_select(nz)).max().item<double>() : 0.0;
    r.mismatched = bad.sum().item<std::int64_t>();
    r.ok = *r.mismatched == 0;
    return r;
}

std::string TensorComparison::toJson() const
{
    auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    auto strides
        = [](const std::vector<std::int64_t>& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
    const nlohmann::json j
        = {{"sizes", {expectedSizes, actualSizes}}, {"strides", {strides(expectedStrides), strides(actualStrides)}},
            {"dtypes", {expectedDtype, actualDtype}}, {"devices", {expectedDevice, actualDevice}},
            {"sizes_match", sizesMatch}, {"strides_match", stridesMatch}, {"dtypes_match", dtypesMatch},
            {"devices_match", devicesMatch}, {"max_abs_diff", opt(maxAbsDiff)}, {"max_rel_diff", opt(maxRelDiff)},
            {"mismatched", opt(mismatched)}, {"atol", atol}, {"rtol", rtol}, {"ok", ok}, {"compared_by", "libtorch"}};
    return j.dump();
}

}  // namespace ps::host

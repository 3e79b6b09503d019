#include <ATen/ATen.h>

#include "host/TensorComparison.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
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

constexpr std::int64_t kChunk = std::int64_t(1) << 20;  // elements compared at a time

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
    if (e.numel() == 0 || at::equal(e, a)) {
        r.maxAbsDiff = 0.0;
        r.maxRelDiff = 0.0;
        r.rmsRelDiff = 0.0;
        r.mismatched = 0;
        r.ok = true;
        return r;
    }
    if (e.is_complex()) {
        e = at::view_as_real(e.resolve_conj());
        a = at::view_as_real(a.resolve_conj());
    }
    // The tensors' own dtype where it is float32 or float64; 16- and 8-bit floats in float32;
    // integers and bools in float64 (exact up to 2^53).
    const auto work = e.scalar_type() == at::kDouble ? at::kDouble : e.is_floating_point() ? at::kFloat : at::kDouble;
    // Flat views (no copy where already contiguous in the working dtype), compared a chunk at a
    // time: a few MB of scratch whatever the tensor's size.
    const at::Tensor ew = e.to(work).reshape({-1});
    const at::Tensor aw = a.to(work).reshape({-1});
    const bool floating = e.is_floating_point();
    double maxAbs = 0, maxRel = 0, d2 = 0, e2 = 0;
    std::int64_t bad = 0, nd = 0, ne = 0;
    for (std::int64_t i = 0; i < ew.numel(); i += kChunk) {
        const at::Tensor x = ew.slice(0, i, i + kChunk);
        const at::Tensor y = aw.slice(0, i, i + kChunk);
        at::Tensor diff = at::sub(x, y).abs_();
        if (floating && !diff.isfinite().all().item<bool>()) {
            diff.masked_fill_(x.isnan().logical_and(y.isnan()).logical_or(x.isinf().logical_and(x.eq(y))), 0.0);
            diff.nan_to_num_(std::numeric_limits<double>::infinity());
        }
        maxAbs = std::max(maxAbs, diff.max().item<double>());
        at::Tensor ea = x.abs();
        const at::Tensor finite = ea.isfinite();
        if (!finite.all().item<bool>()) {
            ea.nan_to_num_(0.0, 0.0);
            e2 += std::pow(at::linalg_vector_norm(ea.masked_select(finite)).item<double>(), 2);
            ne += finite.sum().item<std::int64_t>();
        } else {
            // float32 on the CPU accumulates in double: no float64 copy is needed
            e2 += std::pow(at::linalg_vector_norm(ea).item<double>(), 2);
            ne += ea.numel();
        }
        if (std::isfinite(maxAbs)) {
            d2 += std::pow(at::linalg_vector_norm(diff).item<double>(), 2);
            nd += diff.numel();
        }
        at::Tensor scratch = at::div(diff, ea);
        scratch.masked_fill_(ea.eq(0), 0.0);
        maxRel = std::max(maxRel, scratch.max().item<double>());
        if (floating) {
            at::mul_out(scratch, ea, r.rtol).add_(r.atol);
            bad += diff.gt(scratch).sum().item<std::int64_t>();
        } else {
            bad += x.ne(y).sum().item<std::int64_t>();
        }
    }
    // JSON has no infinity: a non-finite figure is left empty (null), as compare.py does.
    if (std::isfinite(maxAbs)) {
        r.maxAbsDiff = maxAbs;
        const double d = nd ? std::sqrt(d2 / static_cast<double>(nd)) : 0.0;
        const double scale = ne ? std::sqrt(e2 / static_cast<double>(ne)) : 0.0;
        r.rmsRelDiff = scale > 0 ? d / scale : d;
    }
    if (std::isfinite(maxRel))
        r.maxRelDiff = maxRel;
    r.mismatched = bad;
    r.ok = bad == 0;
    return r;
}

std::string TensorComparison::toJson() const
{
    auto opt = [](const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    auto strides
        = [](const std::vector<std::int64_t>& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
    const nlohmann::json j = {{"sizes", {expectedSizes, actualSizes}},
        {"strides", {strides(expectedStrides), strides(actualStrides)}}, {"dtypes", {expectedDtype, actualDtype}},
        {"devices", {expectedDevice, actualDevice}}, {"sizes_match", sizesMatch}, {"strides_match", stridesMatch},
        {"dtypes_match", dtypesMatch}, {"devices_match", devicesMatch}, {"max_abs_diff", opt(maxAbsDiff)},
        {"max_rel_diff", opt(maxRelDiff)}, {"rms_rel_diff", opt(rmsRelDiff)}, {"mismatched", opt(mismatched)},
        {"atol", atol}, {"rtol", rtol}, {"ok", ok}, {"compared_by", "libtorch"}};
    return j.dump();
}

}  // namespace ps::host

#include <ATen/ATen.h>

#include "host/TensorComparison.h"

#include <gtest/gtest.h>

#include <limits>

using ps::host::TensorComparison;

TEST(TensorComparison, EqualTensorsMatchExactly)
{
    const auto e = at::arange(12, at::kFloat).reshape({3, 4});
    const auto r = TensorComparison::compare(e, e.clone());
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.maxAbsDiff.value(), 0.0);
    EXPECT_EQ(r.mismatched.value(), 0);
    EXPECT_EQ(r.expectedSizes, (std::vector<std::int64_t>{3, 4}));
    EXPECT_EQ(r.expectedDtype, "float32");
    EXPECT_EQ(r.expectedDevice, "cpu");
}

TEST(TensorComparison, Float32ToleranceIsDtypeAware)
{
    const auto e = at::ones({100}, at::kFloat);
    const auto r1 = TensorComparison::compare(e, e + 5e-5);
    EXPECT_TRUE(r1.ok) << *r1.maxAbsDiff;
    EXPECT_NEAR(r1.maxAbsDiff.value(), 5e-5, 1e-6);
    EXPECT_NEAR(r1.maxRelDiff.value(), 5e-5, 1e-6);
    auto off = e.clone();
    off[7] = 1.01f;
    const auto r2 = TensorComparison::compare(e, off);
    EXPECT_FALSE(r2.ok);
    EXPECT_EQ(r2.mismatched.value(), 1);
    EXPECT_NEAR(r2.maxAbsDiff.value(), 0.01, 1e-6);
    // float64 is strict where float32 is loose
    const auto d = at::ones({4}, at::kDouble);
    EXPECT_FALSE(TensorComparison::compare(d, d + 5e-5).ok);
}

TEST(TensorComparison, NanWhereEagerHasNanAndEqualInfinitiesMatch)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const auto e = at::tensor({1.0, nan, inf}, at::kFloat);
    EXPECT_TRUE(TensorComparison::compare(e, e.clone()).ok);
    const auto a = at::tensor({1.0, 2.0, inf}, at::kFloat);
    EXPECT_FALSE(TensorComparison::compare(e, a).ok);
    EXPECT_FALSE(TensorComparison::compare(a, e).ok);
}

TEST(TensorComparison, IntegersAndBoolsAreExact)
{
    const auto e = at::tensor({1, 2, 3}, at::kLong);
    EXPECT_TRUE(TensorComparison::compare(e, e.clone()).ok);
    const auto r = TensorComparison::compare(e, at::tensor({1, 2, 4}, at::kLong));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.maxAbsDiff.value(), 1.0);
    const auto b = at::ones({2}, at::kBool);
    EXPECT_FALSE(TensorComparison::compare(b, b.logical_not()).ok);
}

TEST(TensorComparison, SizeAndDtypeMismatchesFailStridesAreOnlyReported)
{
    const auto e = at::zeros({2, 3});
    EXPECT_FALSE(TensorComparison::compare(e, at::zeros({3, 2})).sizesMatch);
    EXPECT_FALSE(TensorComparison::compare(e, at::zeros({3, 2})).ok);
    const auto dt = TensorComparison::compare(e, at::zeros({2, 3}, at::kDouble));
    EXPECT_FALSE(dt.dtypesMatch);
    EXPECT_FALSE(dt.ok);
    const auto t = at::zeros({3, 2}).t();  // same values, transposed layout
    const auto st = TensorComparison::compare(e, t);
    EXPECT_TRUE(st.ok);
    EXPECT_FALSE(st.stridesMatch);
    EXPECT_EQ(st.actualStrides, (std::vector<std::int64_t>{1, 2}));
}

TEST(TensorComparison, EmptyAndComplexTensors)
{
    EXPECT_TRUE(TensorComparison::compare(at::zeros({0, 4}), at::zeros({0, 4})).ok);
    const auto c = at::randn({5}, at::kComplexFloat);
    EXPECT_TRUE(TensorComparison::compare(c, c.clone()).ok);
    EXPECT_FALSE(TensorComparison::compare(c, c * 2).ok);
}

TEST(TensorComparison, JsonHasTheKeysVerifyReports)
{
    const auto j = TensorComparison::compare(at::ones({2}), at::ones({2})).toJson();
    for (const char* key : {"\"sizes\"", "\"strides\"", "\"dtypes\"", "\"max_abs_diff\"", "\"max_rel_diff\"",
             "\"mismatched\"", "\"atol\"", "\"rtol\"", "\"ok\":true"})
        EXPECT_NE(j.find(key), std::string::npos) << key << " in " << j;
}

TEST(TensorComparison, RmsRelativeDifferenceDoesNotExplodeNearZero)
{
    // One element near zero: the element-wise relative difference explodes, the RMS one does not.
    auto e = at::ones({1000}, at::kFloat);
    e[3] = 1e-9f;
    auto a = e.clone();
    a[3] = 1e-5f;
    const auto r = TensorComparison::compare(e, a);
    EXPECT_TRUE(r.ok);  // within atol
    EXPECT_GT(r.maxRelDiff.value(), 1e3);
    EXPECT_LT(r.rmsRelDiff.value(), 1e-6);
    // all-zero eager: the RMS of the difference itself
    const auto z = TensorComparison::compare(at::zeros({4}), at::full({4}, 0.5));
    EXPECT_NEAR(z.rmsRelDiff.value(), 0.5, 1e-12);
    // bitwise equal: settled by the fast path, with every figure 0
    const auto same = TensorComparison::compare(e, e.clone());
    EXPECT_EQ(same.rmsRelDiff.value(), 0.0);
    EXPECT_EQ(same.maxAbsDiff.value(), 0.0);
}

TEST(TensorComparison, HalfPrecisionIsComparedInFloat32)
{
    const auto e = at::ones({8}, at::kHalf);
    const auto r = TensorComparison::compare(e, e + 5e-4);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.expectedDtype, "float16");
    EXPECT_GT(r.maxAbsDiff.value(), 0.0);
    EXPECT_LT(r.maxAbsDiff.value(), 1e-3);
}

TEST(TensorComparison, LargeTensorsAreComparedInChunksWithTheSameFigures)
{
    at::manual_seed(0);
    const auto e = at::randn({3'000'001}, at::kFloat);  // three chunks and one element
    const auto a = e + at::randn({3'000'001}, at::kFloat) * 1e-3;
    const auto r = TensorComparison::compare(e, a);
    const auto diff = (e - a).abs();
    EXPECT_EQ(r.mismatched.value(), diff.gt(e.abs() * 1e-4 + 1e-5).sum().item<std::int64_t>());
    EXPECT_DOUBLE_EQ(r.maxAbsDiff.value(), diff.max().item<double>());
    EXPECT_NEAR(r.rmsRelDiff.value(), (diff.norm() / e.norm()).item<double>(), 1e-6);
    EXPECT_FALSE(r.ok);
}

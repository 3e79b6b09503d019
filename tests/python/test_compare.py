import math

import torch

from precompile_studio.common.compare import compare, tolerance


def test_equal_and_close():
    a = torch.randn(3, 4)
    r = compare(a, a.clone())
    assert r["ok"] and r["max_abs_diff"] == 0.0 and r["sizes"] == [[3, 4], [3, 4]]
    r = compare(a, a + 1e-7)
    assert r["ok"] and 0 < r["max_abs_diff"] < 1e-6
    r = compare(a, a + 1e-2)
    assert not r["ok"] and r["mismatched"] == 12
    assert r["atol"], r["rtol"] == tolerance(torch.float32)


def test_meta_mismatches():
    a = torch.randn(2, 3)
    assert not compare(a, a.double())["ok"]
    assert not compare(a, a.reshape(3, 2))["ok"]
    t = a.t().contiguous().t()
    r = compare(a, t)
    assert r["ok"] and not r["strides_match"] and r["strides"] == [[3, 1], [1, 2]]


def test_integers_bool_nan_and_non_tensors():
    i = torch.arange(5)
    assert compare(i, i.clone())["ok"]
    assert not compare(i, i + 1)["ok"]
    b = torch.tensor([True, False])
    assert compare(b, b.clone())["ok"] and not compare(b, ~b)["ok"]
    n = torch.tensor([1.0, math.nan, math.inf])
    assert compare(n, n.clone())["ok"]
    assert not compare(n, torch.tensor([1.0, 0.0, math.inf]))["ok"]
    assert compare(3, 3)["ok"] and not compare(3, 4)["ok"] and compare(None, None)["ok"]
    assert not compare(torch.ones(1), 1.0)["ok"]
    z = torch.zeros(0, 3)
    assert compare(z, z.clone())["ok"]
    c = torch.randn(3, dtype=torch.complex64)
    assert compare(c, c.clone())["ok"]
    assert tolerance(torch.bfloat16)[1] > tolerance(torch.float32)[1] > tolerance(torch.float64)[1]

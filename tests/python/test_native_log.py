"""NativeLogFilter: torch's profiler prints C++ log lines to fd 2 (``USDT: profiler_start``, and
``ERROR: gpuGetDeviceCount failed`` without a GPU) that read as a failed run; the filter drops
exactly those and gives back everything else written meanwhile."""
import os
import subprocess
import sys

ENGINE_PY = os.path.join(os.path.dirname(__file__), "..", "..", "engine", "python")


def _stderr_of(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": ENGINE_PY})
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_real_profile_leaves_no_native_log_lines_but_other_output_stays():
    err = _stderr_of(
        "import sys, torch\n"
        "from torch.profiler import ProfilerActivity, profile\n"
        "from precompile_studio.common.native_log import NativeLogFilter\n"
        "with NativeLogFilter() as quiet, profile(activities=[ProfilerActivity.CPU]):\n"
        "    torch.randn(4) + 1\n"
        "    print('the user wrote this', file=sys.stderr)\n"
        "print('dropped', quiet.dropped, file=sys.stderr)\n")
    assert "profiler_start" not in err and "USDT:" not in err and "gpuGetDeviceCount" not in err
    assert "the user wrote this" in err
    assert "dropped " in err


def test_without_the_filter_the_profiler_does_print_them():
    # the filter's reason to exist: if torch stops printing them, this says the filter can go
    err = _stderr_of(
        "import torch\n"
        "from torch.profiler import ProfilerActivity, profile\n"
        "with profile(activities=[ProfilerActivity.CPU]):\n"
        "    torch.randn(4) + 1\n")
    assert "profiler_start" in err


def test_only_lines_in_the_native_log_format_are_dropped():
    err = _stderr_of(
        "import os\n"
        "from precompile_studio.common.native_log import NativeLogFilter\n"
        "with NativeLogFilter() as f:\n"
        "    os.write(2, b'ERROR:2026-12-05 03:48:01 25790:25790 DeviceProperties.cpp:56] gpu\\n')\n"
        "    os.write(2, b'ERROR: the user\\'s own error line\\n')\n"
        "    os.write(2, b'no newline at the end')\n"
        "assert f.dropped == 1, f.dropped\n")
    assert "DeviceProperties.cpp" not in err
    assert "ERROR: the user's own error line" in err
    assert err.endswith("no newline at the end")

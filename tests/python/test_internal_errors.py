"""The collector of the studio's own failures a run survives (common/internal_errors.py).

What an entry says (where, the exception's type and message, the innermost frame of the package),
that it is bounded, that the same failure counts up, and that survive() keeps the run going but
not a SystemExit. A failure injected into a real run is tests/python/test_checker.py's; the
check that no other test leaves one is conftest's _no_internal_errors.
"""
import pytest

from precompile_studio.common import compare, internal_errors

pytestmark = pytest.mark.torch_free


@pytest.fixture(autouse=True)
def _fresh_collector():
    """Each test starts from an empty collector and leaves one (what it records is its subject,
    not a failure of the studio's: conftest's check sees nothing)."""
    internal_errors.reset()
    yield
    internal_errors.reset()


class _BadDtype:
    def __str__(self):
        raise ValueError("no name\nfor this dtype")


def _line_of(path: str, text: str) -> int:
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i
    raise AssertionError(f"{text!r} not in {path}")


def test_an_entry_names_where_the_error_and_the_innermost_package_frame():
    with internal_errors.survive("compare: a tolerance"):
        compare.tolerance(_BadDtype())  # raises in this file's __str__, called from compare.py
    line = _line_of(compare.__file__, 'name = str(dtype).replace("torch.", "")')
    assert internal_errors.entries() == [{
        "where": "compare: a tolerance",
        "error": "ValueError: no name for this dtype",  # one line
        "at": f"precompile_studio/common/compare.py:{line}",
        "count": 1,
    }]


def test_record_in_an_except_of_its_own():
    try:
        compare.tolerance(_BadDtype())
    except ValueError as e:
        internal_errors.record("compare: a tolerance", e)
    [entry] = internal_errors.entries()
    assert entry["error"].startswith("ValueError: ") and entry["at"].startswith("precompile_studio/common/compare.py:")


def test_an_exception_that_never_reached_the_package_is_placed_at_the_caller_or_nowhere():
    internal_errors.record("here", KeyError("k"))
    assert internal_errors.entries() == [{"where": "here", "error": "KeyError: 'k'", "at": "", "count": 1}]


def test_the_message_is_bounded_and_an_unprintable_one_still_recorded():
    class Unprintable(Exception):
        def __str__(self):
            raise RuntimeError("no")

    internal_errors.record("long", RuntimeError("x" * 5000))
    internal_errors.record("odd", Unprintable())
    long, odd = internal_errors.entries()
    assert len(long["error"]) == internal_errors.MAX_ERROR_CHARS and long["error"].endswith("...")
    assert odd["error"] == "Unprintable: <message not printable>"


def test_the_same_failure_counts_up_and_past_the_bound_the_rest_is_a_count():
    for _ in range(3):
        internal_errors.record("same", RuntimeError("again"))
    assert [(e["where"], e["count"]) for e in internal_errors.entries()] == [("same", 3)]
    for i in range(internal_errors.MAX_ENTRIES + 7):
        internal_errors.record(f"place {i}", RuntimeError("boom"))
    got = internal_errors.entries()
    assert len(got) == internal_errors.MAX_ENTRIES + 1
    assert got[-1]["where"] == internal_errors.OVERFLOW_WHERE and got[-1]["count"] == 8
    assert "8 more" in got[-1]["error"]


def test_reset_forgets_and_entries_is_a_copy():
    internal_errors.record("a", RuntimeError("b"))
    internal_errors.entries()[0]["count"] = 99
    assert internal_errors.entries()[0]["count"] == 1
    internal_errors.reset()
    assert internal_errors.entries() == []


def test_survive_lets_the_run_go_on_but_not_an_exit():
    after = []
    with internal_errors.survive("step"):
        raise LookupError("gone")
    after.append(True)
    assert after == [True] and internal_errors.entries()[0]["error"] == "LookupError: gone"
    with pytest.raises(SystemExit):
        with internal_errors.survive("exit"):
            raise SystemExit(3)
    with pytest.raises(KeyboardInterrupt):
        with internal_errors.survive("interrupt"):
            raise KeyboardInterrupt
    assert [e["where"] for e in internal_errors.entries()] == ["step"]

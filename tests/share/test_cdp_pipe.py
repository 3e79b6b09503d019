"""tests/support/cdp_pipe.py against real pages in a real headless Chromium: a clean page passes,
and each thing a self-contained report must never do is caught (an uncaught exception, a console
error, a CSP violation, a request to the network)."""

import pytest
from cdp_pipe import Browser, BrowserError, JsError, find_chromium

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="no Chromium (Debian package chromium) to drive")

CSP = (
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">"
)


def page(tmp_path, name, body, script="", csp=True):
    path = tmp_path / name
    path.write_text(
        f"<!doctype html><html><head><meta charset=utf-8>{CSP if csp else ''}<title>{name}</title></head>"
        f"<body>{body}<script>{script}\ndocument.body.dataset.ready = '1';</script></body></html>"
    )
    return path


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


CLEAN = """
<style>#box { margin-top: 1500px; width: 120px; height: 40px; background: #eee; }</style>
<div id=out>0</div>
<input id=q>
<div id=box>click me</div>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
"""
CLEAN_JS = """
let clicks = 0, inputs = 0;
document.getElementById('box').addEventListener('click', e => {
  clicks++; document.getElementById('out').textContent = clicks + ':' + e.isTrusted;
});
const q = document.getElementById('q');
q.addEventListener('input', () => { inputs++; });
q.addEventListener('keydown', e => { if (e.key === 'Enter') document.title = 'searched ' + q.value; });
console.log('a log line is not a problem');
"""


def test_a_clean_page_passes_and_takes_input(browser, tmp_path):
    p = browser.open(page(tmp_path, "clean.html", CLEAN, CLEAN_JS))
    assert p.eval("1 + 1") == 2
    assert p.eval("Promise.resolve('awaited')") == "awaited"
    # the box is below the fold: click scrolls it into view and hits it with a trusted event
    p.click("#box")
    assert p.wait_for("document.getElementById('out').textContent === '1:true'")
    p.type("#q", "conv")
    assert p.eval("document.getElementById('q').value") == "conv"
    assert p.eval("inputs") >= 1
    p.key("#q", "Enter")
    assert p.wait_for("document.title") == "searched conv"
    p.assert_clean()
    assert p.problems == []
    p.close()
    with pytest.raises(BrowserError, match="the page is closed"):
        p.eval("1")


def test_eval_raises_on_a_javascript_exception_and_waits_time_out(browser, tmp_path):
    p = browser.open(page(tmp_path, "eval.html", "<p>x</p>"))
    with pytest.raises(JsError, match="nosuchname"):
        p.eval("nosuchname.length")
    with pytest.raises(TimeoutError):
        p.wait_for("false", timeout=0.3)
    with pytest.raises(LookupError, match="#missing"):
        p.click("#missing")


def test_a_page_that_never_gets_ready_times_out(browser, tmp_path):
    path = tmp_path / "never.html"
    path.write_text("<!doctype html><html><body><p>never ready</p></body></html>")
    with pytest.raises(TimeoutError, match="not ready"):
        browser.open(path, timeout=1)


def test_an_uncaught_exception_is_caught(browser, tmp_path):
    p = browser.open(page(tmp_path, "throws.html", "<p>x</p>", "setTimeout(() => undefinedFunction(), 0);"))
    p.wait_for("true")
    with pytest.raises(AssertionError, match="uncaught exception: ReferenceError: undefinedFunction"):
        p.assert_clean()


def test_console_error_and_warning_are_caught(browser, tmp_path):
    p = browser.open(page(tmp_path, "console.html", "<p>x</p>", "console.error('boom', 42); console.warn('careful');"))
    with pytest.raises(AssertionError) as failure:
        p.assert_clean()
    assert "console.error: boom 42" in str(failure.value)
    assert "console.warning: careful" in str(failure.value)


def test_a_csp_violation_is_caught(browser, tmp_path):
    # an inline style attribute is fine under 'unsafe-inline'; a fetch is refused by default-src 'none'
    script = "fetch('data:text/plain,x').catch(() => {}); fetch('https://example.invalid/x').catch(() => {});"
    p = browser.open(page(tmp_path, "csp.html", "<p>x</p>", script))
    p.wait_for("true")
    problems = "\n".join(p.problems) or "none"
    assert "Content Security Policy" in problems, problems
    assert "[security]" in problems, problems


def test_a_network_request_is_caught(browser, tmp_path):
    # no CSP: the image is really requested (and fails: .invalid never resolves)
    p = browser.open(page(tmp_path, "request.html", '<img src="http://example.invalid/logo.png">', csp=False))
    with pytest.raises(AssertionError, match=r"network request: http://example.invalid/logo.png"):
        p.assert_clean()


def test_allowed_hosts_are_not_problems(browser, tmp_path):
    p = browser.open(
        page(tmp_path, "allowed.html", '<img src="http://example.invalid/logo.png">', csp=False),
        allow_hosts=("example.invalid",),
    )
    p.wait_for("true")
    assert not [x for x in p.problems if x.startswith("network request")], p.problems

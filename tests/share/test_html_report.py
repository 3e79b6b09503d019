"""The one-file HTML report in a real browser: the real binary writes the pages (`run --html`,
`library html`, `library diff --html`) of real runs, headless Chromium opens each from disk
(tests/support/cdp_pipe.py) and the test reads what it drew: the verdict, the violation with its
source line, the sections, the graph (a module expanded by a click, a node's details after a
click), and no console error, no CSP complaint, no request.

Runs: a violation script and a clean one (a few seconds each) and one torchvision resnet18
training step on inductor (the run that takes a minute or more), all stored in one library of
the test's own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from cdp_pipe import Browser, find_chromium

ROOT = Path(__file__).resolve().parents[2]
STUDIO = os.environ.get("PS_STUDIO", str(ROOT / "build" / "bin" / "precompile-studio"))
VIOLATION = ROOT / "tests" / "python" / "scripts" / "inv5_buffer.py"
CLEAN = ROOT / "tests" / "python" / "scripts" / "chk_clean_mlp.py"
RESNET = ROOT / "tests" / "gallery" / "resnet18_training.py"
PAIR = ROOT / "tests" / "library" / "fixtures" / "sin_plus_one"

needs_chromium = pytest.mark.skipif(
    find_chromium() is None, reason="Debian's chromium is not installed (packaging/debian-packages.txt)"
)


def studio(*args, timeout=900):
    started = time.monotonic()
    done = subprocess.run([STUDIO, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    done.seconds = time.monotonic() - started
    return done


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The three runs, stored in the test's own library, each with its `run --html` page."""
    d = tmp_path_factory.mktemp("html_report")
    lib = d / "lib.db"
    out = {"dir": d, "lib": lib}
    for key, script, code in (("violation", VIOLATION, 1), ("clean", CLEAN, 0)):
        page = d / f"{key}.html"
        r = studio("--library", lib, "run", script, "--html", page)
        assert r.returncode == code, r.stdout + r.stderr
        assert f"wrote {page}" in r.stderr
        out[key] = page
    page = d / "resnet.html"
    r = studio("--library", lib, "run", RESNET, "--html", page)
    assert r.returncode == 0, r.stdout + r.stderr  # numerics drift: said, not failed
    print(f"resnet18 training run with --html: {r.seconds:.1f} s")
    out["resnet"] = page
    out["resnet_summary"] = r.stdout
    return out


def run_ids(lib):
    r = studio("--library", lib, "library", "ls", "--json")
    assert r.returncode == 0, r.stderr
    return {Path(x["script"]).stem: x["run_id"] for x in json.loads(r.stdout)["runs"]}


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip("Debian's chromium is not installed (packaging/debian-packages.txt)")
    with Browser() as b:
        yield b


def text(page, selector):
    return page.eval(f"(document.querySelector({selector!r}) || {{}}).textContent || ''")


def sections(page):
    return page.eval("[...document.querySelectorAll('section.ps-section')].map(s => s.id)")


def part_titles(page, capture=0):
    return page.eval(f"[...document.querySelectorAll('#capture-{capture} h3')].map(h => h.textContent)")


def in_view(page, box, selector, attribute):
    """The `attribute` of the first `selector` in the panel that the view shows: its centre inside
    the panel's view and not covered by anything else ("" when none)."""
    return page.eval(
        f"""(() => {{
        for (const g of document.querySelectorAll('{box} {selector}')) {{
            g.scrollIntoView({{block: 'center'}});
            const r = g.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
            const v = document.querySelector('{box} svg.ps-graph').getBoundingClientRect();
            if (x > v.left && x < v.right && y > v.top && y < v.bottom && g.contains(document.elementFromPoint(x, y)))
                return g.getAttribute('{attribute}');
        }}
        return '';
    }})()"""
    )


def verdict_tone(page):
    """The tone class of the verdict's badge: the engine's (model::Tone), read from the page data."""
    return page.eval(
        "[...document.querySelector('#ps-verdict .ps-badge').classList].find(c => c.startsWith('ps-tone-'))"
    )


def check_graph(page, capture=0):
    """The graph of a capture is drawn; a module opens on a click; a node's details on a click."""
    box = f"#capture-{capture} .ps-graph-container"
    page.wait_for(f"document.querySelector('{box}') && document.querySelector('{box}').dataset.ready === '1'")
    drawn = f"document.querySelectorAll('{box} svg.ps-graph g.ps-node, {box} svg.ps-graph g.ps-module').length"
    assert page.eval(drawn) > 0
    # The whole graph in view first (the toolbar's Fit), whatever an earlier click centred on.
    page.eval(f"[...document.querySelectorAll('{box} button')].find(b => b.textContent === 'Fit').click()")
    if page.eval(f"document.querySelectorAll('{box} g.ps-module[data-path]').length"):
        module = in_view(page, box, "g.ps-module[data-path]", "data-path")
        assert module, "no collapsed module of the graph is in view"
        page.click(f'{box} g.ps-module[data-path="{module}"]')
        page.wait_for(f"document.querySelector('{box} g.ps-module-frame[data-path=\"{module}\"]') !== null")
    name = in_view(page, box, "g.ps-node[data-name]", "data-name")
    assert name, "no node of the graph is in view"
    page.click(f'{box} g.ps-node[data-name="{name}"]')
    page.wait_for(f"(document.querySelector('{box} .ps-graph-details') || {{}}).textContent.includes({name!r})")


@needs_chromium
def test_violation_page_says_violation_with_the_source_line(runs, browser):
    page = browser.open(runs["violation"])
    assert text(page, "#ps-verdict").startswith("violation")
    assert verdict_tone(page) == "ps-tone-serious"  # amber-red, as the window shows a violation
    finding = text(page, "#findings .ps-finding")
    assert text(page, "#findings .ps-finding .ps-badge") == "violation"  # a contract outcome, not an error
    assert "buffer-received-gradient" in finding
    assert "invariant 5" in finding
    assert "Fix: Register the tensor as an nn.Parameter" in finding
    # The script's own line, marked, with its neighbours.
    assert text(page, "#findings .ps-source figcaption") == "inv5_buffer.py:19"
    assert "loss.backward()  # HERE" in text(page, "#findings .ps-source .ps-mark")
    assert page.eval("document.querySelectorAll('#findings .ps-source .ps-line').length") == 5
    assert {"findings", "capture-0", "script"} <= set(sections(page))
    assert page.eval("document.title").startswith("inv5_buffer.py: violation")
    # The capture stopped before it had a graph: the panel says so.
    assert "No graph was captured." in text(page, "#capture-0 .ps-part-graph")
    page.assert_clean()


@needs_chromium
def test_clean_page_says_ok_and_has_every_section(runs, browser):
    page = browser.open(runs["clean"])
    assert text(page, "#ps-verdict").startswith("ok")
    assert verdict_tone(page) == "ps-tone-good"
    assert "None: every check passed." in text(page, "#findings")
    titles = part_titles(page)
    for title in ("Verification and accuracy", "Graph", "python_code", "Cache contents", "Timings", "Compile profile"):
        assert title in titles
    # python_code by section, read when opened: the captured graph's lines are there.
    assert page.eval("document.querySelectorAll('#capture-0 .ps-code-section').length") >= 3
    page.click("#capture-0 .ps-code-section > summary")
    page.wait_for("document.querySelector('#capture-0 .ps-code-section .ps-code') !== null")
    assert page.eval("document.querySelector('#capture-0 .ps-code-section .ps-line').dataset.line") == "1"
    assert "matches" in text(page, "#capture-0 .ps-verify")
    # the cache section in the engine's words (model::CacheInfo), as the window's Cache tab
    cache = text(page, "#capture-0 .ps-part-cache")
    assert "code_hash check" in cache and "matches sha256(python_code)" in cache, cache
    assert page.eval("document.querySelector('#capture-0 .ps-part-cache .ps-tone-good') !== null")
    check_graph(page)
    page.assert_clean()


@needs_chromium
def test_library_html_of_the_stored_resnet18_training_run(runs, browser):
    ids = run_ids(runs["lib"])
    page_file = runs["dir"] / "resnet-library.html"
    r = studio("--library", runs["lib"], "library", "html", ids["resnet18_training"], page_file)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(page_file)
    size = page_file.stat().st_size
    print(f"resnet18 training page: {size} bytes")
    for path in (runs["resnet"], page_file):
        started = time.monotonic()
        page = browser.open(path)
        print(f"{path.name}: ready in {time.monotonic() - started:.2f} s")
        # Numerics drift: exit 0, but never said as "ok".
        assert text(page, "#ps-verdict").startswith("numerics drift")
        assert verdict_tone(page) == "ps-tone-warn"
        verify = text(page, "#capture-0 .ps-verify")
        assert "numerics drift" in verify
        # Where the drift starts, named as `run` names it (the node, not its getitem, and its
        # module); or, where localising did not fit the verification's time, why not.
        if "drift starts at" in runs["resnet_summary"]:
            assert "native_batch_norm_backward_4 (model.layer4.0.bn1)" in verify
            # The node is a link: a click selects it in the graph (its module opened) and details it.
            page.click('#capture-0 .ps-verify button.ps-node-link[data-node="native_batch_norm_backward_4"]')
            page.wait_for(
                "(document.querySelector('#capture-0 .ps-graph-details') || {}).textContent"
                ".includes('native_batch_norm_backward_4')"
            )
        else:
            assert "where it starts" in verify
        assert page.eval("document.querySelectorAll('#capture-0 .ps-code-section').length") >= 3
        assert "Compile profile" in part_titles(page)
        check_graph(page)
        page.assert_clean()


@needs_chromium
def test_diff_page_names_the_causes_and_marks_both_graphs(runs, browser):
    # The clean MLP again with a wider hidden layer: same ops, other shapes.
    wider = runs["dir"] / "chk_clean_mlp_wider.py"
    wider.write_text(CLEAN.read_text().replace("HIDDEN = 8", "HIDDEN = 16"))
    lib = runs["lib"]
    r = studio("--library", lib, "run", wider)
    assert r.returncode == 0, r.stdout + r.stderr
    ids = run_ids(lib)
    page_file = runs["dir"] / "diff.html"
    r = studio(
        "--library", lib, "library", "diff", ids["chk_clean_mlp"], ids["chk_clean_mlp_wider"], "--html", page_file
    )
    assert r.returncode == 1, r.stdout + r.stderr  # they differ: diff's own exit code
    page = browser.open(page_file)
    assert text(page, "#ps-verdict").startswith("differ")
    assert verdict_tone(page) == "ps-tone-warn"
    causes = text(page, "#causes")
    assert "the script changed" in causes and "HIDDEN" not in causes  # line numbers, not the text
    assert page.eval("document.querySelectorAll('#causes li').length") >= 1
    assert "library diff" in text(page, "#words h2")
    assert page.eval("document.querySelectorAll('.ps-graph-container').length") == 2
    page.wait_for("[...document.querySelectorAll('.ps-graph-container')].every(c => c.dataset.ready === '1')")
    # Both graphs drawn with the changed nodes marked (the hidden layer's shapes).
    for side in (0, 1):
        box = f"document.querySelectorAll('.ps-graph-container')[{side}]"
        assert page.eval(f"{box}.querySelectorAll('g.ps-node').length") > 0
        assert page.eval(f"{box}.querySelectorAll('.ps-mark-changed').length") > 0
    assert "changed" in text(page, "#capture-0")
    # python_code's changed section as a line diff: the calling convention's parameter shapes.
    added = page.eval(
        "[...document.querySelectorAll('#capture-0 .ps-diff .ps-add')].map(e => e.textContent).join('\\n')"
    )
    removed = page.eval(
        "[...document.querySelectorAll('#capture-0 .ps-diff .ps-del')].map(e => e.textContent).join('\\n')"
    )
    assert "+ PARAM_SHAPES = [(16, 4), (16,), (3, 16), (3,)]" in added
    assert "- PARAM_SHAPES = [(8, 4), (8,), (3, 8), (3,)]" in removed
    page.assert_clean()

    same = runs["dir"] / "same.html"
    clean = ids["chk_clean_mlp"]
    r = studio("--library", lib, "library", "diff", clean, clean, "--html", same)
    assert r.returncode == 0, r.stdout + r.stderr
    page = browser.open(same)
    assert text(page, "#ps-verdict").startswith("equivalent")
    assert verdict_tone(page) == "ps-tone-good"
    page.assert_clean()


HOSTILE = "</script><script>document.body.dataset.pwned = '1'</script><!-- <b>bold</b>"


@needs_chromium
def test_hostile_text_from_a_script_stays_text(runs, browser):
    script = runs["dir"] / "hostile.py"
    script.write_text(
        f"import torch\n\n\ndef fn(x):\n    raise ValueError({HOSTILE!r})\n\n\nexample_inputs = (torch.ones(3),)\n"
    )
    page_file = runs["dir"] / "hostile.html"
    r = studio("run", script, "--no-store", "--html", page_file)
    assert r.returncode in (1, 2), r.stdout + r.stderr
    assert HOSTILE not in page_file.read_text()  # not in the markup at all: it travels as base64
    page = browser.open(page_file)
    assert page.eval("document.body.dataset.pwned") is None
    assert page.eval("document.querySelectorAll('#ps-report b').length") == 0
    assert HOSTILE in page.eval("document.getElementById('ps-report').textContent")
    page.assert_clean()


def test_a_page_that_cannot_be_written_is_exit_2_with_the_reason(runs):
    ids = run_ids(runs["lib"])
    missing = runs["dir"] / "no" / "such" / "folder" / "x.html"
    r = studio("--library", runs["lib"], "library", "html", ids["chk_clean_mlp"], missing)
    assert r.returncode == 2
    assert r.stderr.strip() == f"precompile-studio: cannot write {missing}: No such file or directory"
    clean = ids["chk_clean_mlp"]
    r = studio("--library", runs["lib"], "library", "diff", clean, clean, "--html", missing)
    assert r.returncode == 2
    assert f"cannot write {missing}" in r.stderr
    r = studio("--library", runs["lib"], "library", "html", 999, runs["dir"] / "x.html")
    assert r.returncode == 1 and "no run 999" in r.stderr
    # run --html: the run itself was ok, the page is not there: 2, and said.
    r = studio("run", CLEAN, "--no-store", "--html", missing)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"report page not written: cannot write {missing}" in r.stderr


def test_several_scripts_write_one_page_each_into_a_folder(runs):
    folder = runs["dir"] / "pages"
    r = studio("run", CLEAN, VIOLATION, CLEAN, "--no-store", "--html", folder)
    assert r.returncode == 1, r.stdout + r.stderr  # the worst of 0, 1, 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["chk_clean_mlp-2.html", "chk_clean_mlp.html", "inv5_buffer.html"]


@needs_chromium
def _page_of_pair_with(report: dict, tmp_path: Path, name: str) -> Path:
    """The fixture pair with `report` beside it as NAME.json, imported into a library of its own and
    written as a page (`library html`): the page's path."""
    for suffix in ("py", "cache"):
        shutil.copy(f"{PAIR}.{suffix}", tmp_path / f"{name}.{suffix}")
    (tmp_path / f"{name}.json").write_text(json.dumps(report))
    lib = tmp_path / "lib.db"
    done = studio("--library", lib, "library", "import", tmp_path / f"{name}.py", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    page_file = tmp_path / f"{name}.html"
    done = studio("--library", lib, "library", "html", json.loads(done.stdout)["run_id"], page_file)
    assert done.returncode == 0, done.stderr
    return page_file


def test_compile_phases_in_the_windows_colours(browser, tmp_path):
    # The compile profile's bar and legend colour each phase as the window's CompileProfileBar
    # does (its colour per model::CompilePhase, read from its source), whatever the phases' order;
    # a word it does not know is "other" there.
    source = (ROOT / "ui" / "report" / "CompileProfileBar.cpp").read_text()
    window = {
        re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower(): f"rgb({r}, {g}, {b})"
        for name, r, g, b in re.findall(r"case CompilePhase::(\w+):\s*return QColor\((\d+), (\d+), (\d+)\);", source)
    }
    assert len(window) == 8, window
    phases = ["other", "code_generation", "tracing", "cache", "inductor_lowering", "studio", "imports", "aot_autograd"]
    report = json.loads(Path(f"{PAIR}.json").read_text())
    report["captures"][0]["compile_profile"] = [{"phase": p, "seconds": 0.5 + i} for i, p in enumerate(phases)] + [
        {"phase": "not_a_phase", "seconds": 0.25}
    ]
    page = browser.open(_page_of_pair_with(report, tmp_path, "profiled"))
    want = [window[p] for p in phases] + [window["other"]]
    for part in ("bar-part", "swatch"):
        got = page.eval(
            f"[...document.querySelectorAll('#capture-0 .ps-part-profile .ps-{part}')]"
            ".map(e => getComputedStyle(e).backgroundColor)"
        )
        assert got == want, (part, got)
    page.assert_clean()


def test_the_cold_start_ledger_reads_as_in_the_window(browser, tmp_path):
    # run --cold-start's ledger: one row per step in the window's words and colours (ColdStartBars,
    # read from its source), bars on one scale, a failed step said in its row, a step this page
    # does not know left out, and the run's text never markup.
    source = (ROOT / "ui" / "report" / "ColdStartBars.cpp").read_text()
    colours = dict(re.findall(r"case model::ColdStart::Step::(\w+):\s*return QColor\((\d+, \d+, \d+)\);", source))
    assert set(colours) == {"Precompiled", "PrecompiledNoCache", "CompileWarm", "Eager"}, colours
    report = json.loads(Path(f"{PAIR}.json").read_text())
    report["stamps"] = {"arch": "x86_64", "python": "3.11.7", "torch": "2.15.0+cu132", "torch_git": None,
                        "cuda": "13.2", "triton": "3.9.0", "cpu_isa": "avx2", "gpus": ["9.0"],
                        "precompile_api": "capture-load"}
    report["captures"][0]["cold_start"] = {
        "ran": True, "reason": None, "import_s": 2.5, "saving": 4.0,
        "message": "first call 5.0 s, against 20 s for torch.compile cold and 6.0 s warm",
        "steps": [
            {"step": "eager", "first_call_s": 0.02, "kernels_compiled": None, "error": None},
            {"step": "compile_cold", "first_call_s": 20.0, "kernels_compiled": 3, "error": None},
            {"step": "compile_warm", "first_call_s": 6.0, "kernels_compiled": 0, "error": None},
            {"step": "warp_drive", "first_call_s": 1.0},
            {"step": "precompiled", "first_call_s": 5.0, "kernels_compiled": 2, "error": None},
            {"step": "precompiled_no_cache", "first_call_s": None,
             "error": {"stage": "load", "message": "<img src=x onerror=alert(1)> boom"}},
        ],
    }
    page = browser.open(_page_of_pair_with(report, tmp_path, "started"))
    # the run's stamps in the header, in the words `library show` prints (model::Stamps::summary)
    facts = page.eval("[...document.querySelectorAll('.ps-header dt')].map(d => [d.textContent, "
                      "d.nextElementSibling.textContent])")
    assert ["made with", "torch 2.15.0+cu132 · Python 3.11.7 · Triton 3.9.0 · avx2 · sm 9.0"] in facts, facts
    part = "#capture-0 .ps-part-cold-start"
    assert page.eval(f"document.querySelector('{part} p').textContent") == (
        "Each in a fresh process: first call 5.0 s, against 20 s for torch.compile cold and 6.0 s warm "
        "(import torch 2.50 s apart)")
    rows = page.eval(f"[...document.querySelectorAll('{part} tbody tr')]"
                     ".map(r => [...r.cells].map(c => c.textContent))")
    assert [r[0] for r in rows] == ["eager", "torch.compile, cold cache", "torch.compile, warm cache",
                                    "precompiled, with its cache", "precompiled, without its cache"]
    assert rows[1][3] == "3 kernels compiled" and rows[4][3] == "failed: <img src=x onerror=alert(1)> boom"
    assert page.eval(f"document.querySelectorAll('{part} img').length") == 0
    widths = page.eval(f"[...document.querySelectorAll('{part} .ps-start-bar')].map(b => b.style.width)")
    assert widths == ["0.5%", "100%", "30%", "25%"]  # one scale, the longest full
    got = page.eval(f"getComputedStyle(document.querySelector('{part} .ps-start-precompiled')).backgroundColor")
    assert got == "rgb(" + colours["Precompiled"] + ")"
    page.assert_clean()

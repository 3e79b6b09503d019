"""Pages and exports made from crafted runs ([hostile-2]): whatever a run holds, every file the
studio writes from it stays well-formed, shows the text as text and runs nothing of it.

The runs, all in one library of the test's own:
- a real run of a script whose module name, parameter names, comment and printed output hold
  markup, `</script>`, `]]>`, control characters and a right-to-left override (torch accepts
  any module name without a dot), written with `run --html --junit`;
- a real run of a script that raises with that text and a 200 KB message;
- a real run of a Latin-1 script (a coding line, bytes that are not UTF-8 in a comment), which
  the studio refuses in one line and stores;
- a crafted import: a real artifact pair whose report (tests/fixtures/graphs/training_step.json)
  has every node, module and parameter renamed to hostile text, one node name 5,000 characters
  long, and hostile messages, warnings and source files, as a member of a team could write it.

Each page is opened in headless Chromium (tests/support/cdp_pipe.py): zero console errors, no
script of the run's ran (`window.pwned`), no element of its markup exists, its text is shown as
text, the graph draws and a hostile node's details open on a click. The JUnit files validate
against junit-10.xsd (xmllint), the Model Explorer JSON reads strictly and the dot file parses
with Graphviz and keeps every node and edge.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cdp_pipe import Browser, find_chromium
from test_export_graph import ENV as ME_ENV
from test_export_graph import strict_read

ROOT = Path(__file__).resolve().parents[2]
STUDIO = os.environ.get("PS_STUDIO", str(ROOT / "build" / "bin" / "precompile-studio"))
PAIR = ROOT / "tests/library/fixtures/sin_plus_one"
GRAPH = ROOT / "tests/fixtures/graphs/training_step.json"

# What a run's text may hold: the end of a script element and a new one, a CDATA end, a comment
# opener, an element, an escape sequence, a bell, a NUL-adjacent control and a bidi override.
EVIL = "</script><script>pwned=1</script>]]><!--<b class=evil>x</b>\x1b[31m\x07\x01\u202e"
HUGE = "A" * 200_000 + EVIL
CONTROLS = ("\x1b", "\x07", "\x01")
BIDI = ("\u202e",)

HOSTILE_SCRIPT = f"""import torch

# {EVIL}
EVIL = {EVIL!r}


class Evil(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module(EVIL, torch.nn.Linear(3, 3))
        self.register_buffer(EVIL + "buf", torch.ones(3))

    def forward(self, x):
        print(EVIL)
        return getattr(self, EVIL)(x).relu() + getattr(self, EVIL + "buf")


backend = "eager"


def fn(model, x):
    return model(x)


example_inputs = lambda: (Evil(), torch.randn(2, 3))  # noqa: E731
"""

RAISING_SCRIPT = f"""import torch

HUGE = {HUGE!r}

backend = "eager"


def fn(x):
    raise ValueError(HUGE)


example_inputs = (torch.ones(3),)
"""

LATIN1_SCRIPT = (
    b"# -*- coding: latin-1 -*-\n"
    b"# caf\xe9 \xff\xfe not UTF-8\n"
    b"import torch\n\nbackend = 'eager'\n\n\ndef fn(x):\n    return x.sin() + 1\n\n\n"
    b"example_inputs = (torch.ones(3),)\n"
)


def shown(text: str) -> str:
    """`text` as the page shows it: control and bidirectional characters as escapes."""
    out = []
    for c in text:
        n = ord(c)
        if c in "\t\n\r":
            out.append(c)
        elif n < 0x20 or n == 0x7F:
            out.append(f"\\x{n:02x}")
        elif 0x80 <= n <= 0x9F or n in (0x61C, 0x200E, 0x200F) or 0x202A <= n <= 0x202E or 0x2066 <= n <= 0x2069:
            out.append(f"\\u{n:04x}")
        else:
            out.append(c)
    return "".join(out)


def studio(*args, timeout=600):
    return subprocess.run([STUDIO, *map(str, args)], capture_output=True, timeout=timeout)


def said(done) -> str:
    return (done.stdout + done.stderr).decode("utf-8", "replace")


def crafted_report() -> tuple[dict, dict[str, str]]:
    """The artifact pair's report with training_step's graph, every name made hostile: the report
    and the map from each old node name to its new one."""
    report = json.loads(Path(f"{PAIR}.json").read_text())
    capture = report["captures"][0]
    graph = json.loads(GRAPH.read_text())["graph"]
    names = {}
    for i, node in enumerate(graph["node_list"]):
        names[node["name"]] = f"{EVIL}{i}" if i != 3 else f"{EVIL}{'n' * 5000}"

    def module(path):
        return path.replace("model", f"model{EVIL}", 1) if path else path

    for node in graph["node_list"]:
        node["name"] = names[node["name"]]
        node["inputs"] = [names[i] for i in node["inputs"]]
        if node["op"] == "placeholder":
            node["target"] = node["name"]
        for key in ("qualname", "grad_of"):
            if node.get(key):
                node[key] = module(node[key])
        if node.get("param"):
            node["param"] = f"{EVIL}.{node['param']}"
        for output in node.get("output", []):
            if output.get("param"):
                output["param"] = module(output["param"])
        for key in ("source", "trigger"):
            if node.get(key):
                node[key]["file"] = f"{EVIL}.py"
        if node["op"] == "call_function":
            node["module"] = f"model{EVIL}.0"
    graph["output_list"] = [names.get(o, o) if isinstance(o, str) else o for o in graph["output_list"]]
    for m in graph["modules"]:
        m["path"] = module(m["path"])
        m["type"] = EVIL
    capture["graph"] = graph
    capture["name"] = f"crafted{EVIL}"
    capture["warnings"] = [EVIL, HUGE]
    report["message"] = HUGE
    report["script"] = f"/home/{EVIL}/crafted.py"
    return report, names


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile_pages")
    lib = d / "lib.db"
    out = {"dir": d, "lib": lib}
    (d / "hostile.py").write_text(HOSTILE_SCRIPT)
    (d / "raising.py").write_text(RAISING_SCRIPT)
    (d / "latin1.py").write_bytes(LATIN1_SCRIPT)
    for key, code in (("hostile", 0), ("raising", 1), ("latin1", 2)):
        done = studio(
            "--library", lib, "run", d / f"{key}.py", "--html", d / f"{key}.html", "--junit", d / f"{key}.xml"
        )
        assert done.returncode == code, said(done)
        out[key] = d / f"{key}.html"
    report, names = crafted_report()
    for suffix in ("py", "cache"):
        shutil.copy(f"{PAIR}.{suffix}", d / f"crafted.{suffix}")
    (d / "crafted.json").write_text(json.dumps(report))
    done = studio("--library", lib, "library", "import", d / "crafted.py", "--json")
    assert done.returncode == 0, said(done)
    out["crafted_id"] = json.loads(done.stdout)["run_id"]
    out["names"] = names
    out["report"] = report
    listed = studio("--library", lib, "library", "ls", "--json")
    assert listed.returncode == 0, said(listed)
    out["ids"] = {Path(r["script"]).stem: r["run_id"] for r in json.loads(listed.stdout)["runs"]}
    return out


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip("Debian's chromium is not installed (packaging/debian-packages.txt)")
    with Browser() as b:
        yield b


def assert_inert(page, path: Path, escapes=True) -> None:
    """Nothing of the run's text became markup or ran, and the page met no problem."""
    assert page.eval("typeof window.pwned") == "undefined", f"{path.name}: the run's script ran"
    assert page.eval("document.querySelectorAll('b.evil, [class~=evil]').length") == 0, path.name
    # every fold opened (each builds its body when first opened), then all the page's text read
    page.eval("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.wait_for("[...document.querySelectorAll('.ps-fold-body')].every(b => b.childElementCount > 0)")
    shown = page.eval("document.body.textContent")
    assert "<b class=evil>" in shown or not escapes, f"{path.name}: the run's markup is not shown as text"
    for c in CONTROLS + BIDI:
        assert c not in shown, f"{path.name}: control {c!r} shown raw"
    if escapes:
        assert "\\x1b[31m\\x07\\x01\\u202e" in shown, f"{path.name}: the controls are not shown as escapes"
    page.assert_clean()


def click_node(page, box: str, name: str) -> None:
    """Clicks the graph node named `name` (any text: found by its dataset, never by a selector
    built from it) and waits for its details."""
    page.eval(f"[...document.querySelectorAll('{box} button')].find(b => b.textContent === 'Fit').click()")
    found = page.eval(
        f"""(() => {{
        const name = {json.dumps(name)};
        const g = [...document.querySelectorAll('{box} g.ps-node')].find(g => g.dataset.name === name);
        if (!g) return false;
        g.setAttribute('data-test-target', '1');
        return true;
    }})()"""
    )
    assert found, f"node {name[:60]!r} is not drawn"
    page.click(f"{box} g.ps-node[data-test-target='1']")
    page.wait_for(
        f"(document.querySelector('{box} .ps-graph-details') || {{}}).textContent.includes({json.dumps(name[:200])})"
    )


@pytest.mark.parametrize("key", ["hostile", "raising", "latin1"])
def test_run_html_pages_of_hostile_scripts_are_inert(runs, browser, key):
    path = runs[key]
    page = browser.open(path)
    report_text = page.eval("document.getElementById('ps-report').textContent")
    if key == "hostile":
        assert "</script><script>pwned=1</script>]]><!--<b class=evil>x</b>" in report_text
        box = "#capture-0 .ps-graph-container"
        page.wait_for(f"document.querySelector('{box}').dataset.ready === '1'")
        modules = page.eval(
            f"[...document.querySelectorAll('{box} g.ps-module, {box} g.ps-module-frame')].map(g => g.dataset.path)"
        )
        assert f"model.{shown(EVIL)}" in modules, modules
    if key == "raising":
        assert "AAAA" in page.eval("document.getElementById('findings').textContent")
    if key == "latin1":
        # refused in one line naming the cause and where, the page and the run kept
        assert text_of(page, "#ps-verdict").startswith("error")
        assert "not UTF-8 text: byte 0xe9 at offset 31 (line 2)" in report_text
    assert_inert(page, path, escapes=key != "latin1")


def text_of(page, selector):
    return page.eval(f"(document.querySelector({selector!r}) || {{}}).textContent || ''")


def test_library_html_of_a_crafted_run_is_inert_and_draws_its_hostile_graph(runs, browser):
    path = runs["dir"] / "crafted-library.html"
    done = studio("--library", runs["lib"], "library", "html", runs["crafted_id"], path)
    assert done.returncode == 0, said(done)
    page = browser.open(path)
    box = "#capture-0 .ps-graph-container"
    page.wait_for(f"document.querySelector('{box}').dataset.ready === '1'")
    click = "g => g.dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    page.eval(f"[...document.querySelectorAll('{box} g.ps-module')].forEach({click})")
    drawn = page.eval(f"[...document.querySelectorAll('{box} g.ps-node')].map(g => g.dataset.name)")
    assert drawn, "no node drawn"
    longest = shown(max(runs["names"].values(), key=len))
    assert longest in drawn, drawn
    click_node(page, box, longest)
    assert_inert(page, path)


def test_library_diff_html_of_a_crafted_run_and_a_real_one_is_inert(runs, browser):
    path = runs["dir"] / "diff.html"
    real, crafted = runs["ids"]["hostile"], runs["crafted_id"]
    done = studio("--library", runs["lib"], "library", "diff", real, crafted, "--html", path)
    assert done.returncode in (0, 1), said(done)
    page = browser.open(path)
    page.wait_for("[...document.querySelectorAll('.ps-graph-container')].every(c => c.dataset.ready === '1')")
    assert page.eval("document.querySelectorAll('.ps-graph-container').length") == 2
    assert_inert(page, path)


def xml_ok(path: Path) -> ET.Element:
    env = os.environ.get("PS_TEST_ENV", "")
    xsd = Path(env) / "junit-10.xsd"
    xmllint = shutil.which("xmllint")
    if xmllint and xsd.is_file():
        lint = subprocess.run([xmllint, "--noout", "--schema", str(xsd), str(path)], capture_output=True, text=True)
        assert lint.returncode == 0, lint.stderr
    return ET.parse(path).getroot()  # well-formed, whatever the schema check could run


@pytest.mark.parametrize("key", ["hostile", "raising", "latin1"])
def test_junit_of_hostile_runs_is_well_formed_and_keeps_the_text(runs, key):
    path = runs["dir"] / f"{key}.xml"
    root = xml_ok(path)
    everything = ET.tostring(root, encoding="unicode")
    for c in CONTROLS:
        assert c not in everything
    if key == "raising":
        error = root.find(".//error")
        assert error is not None
        assert "AAAA" in (error.get("message") or "")
        assert "]]>" in (error.text or "") + (error.get("message") or "")


def not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


def test_model_explorer_export_of_the_crafted_run_is_strict_json_with_the_names(runs, tmp_path):
    path = tmp_path / "crafted.json"
    done = studio("--library", runs["lib"], "library", "export-graph", runs["crafted_id"], path, "--json")
    assert done.returncode == 0, said(done)
    files = [Path(f) for f in json.loads(done.stdout)["files"]]
    assert files[0] == path
    for f in files:
        json.loads(f.read_text(encoding="utf-8"), parse_constant=not_json)  # no NaN, no Infinity
    exported = json.loads(path.read_text())
    labels = set()

    def walk(o):
        if isinstance(o, dict):
            if "id" in o and "label" in o:
                labels.add(o["id"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(exported)
    assert set(runs["names"].values()) <= labels
    if ME_ENV is None:
        pytest.skip("no test environment with Model Explorer (PS_TEST_ENV; packaging/test-env.sh makes it)")
    # Model Explorer's own dataclasses read it strictly, every hostile name a node of its own and
    # no module path read as more levels than it has ("/" in a name is not a separator there)
    read = strict_read(path, files[1:])
    owned = {node for g in read["graphs"].values() for node, space in g["nodes"] if space != "[saved from forward]"}
    assert owned == set(runs["names"].values())
    spaces = {space for g in read["graphs"].values() for _, space in g["nodes"]}
    assert all(space.count("/") <= 1 for space in spaces), spaces


def test_dot_export_of_the_crafted_run_parses_and_keeps_every_node_and_edge(runs, tmp_path):
    if not all(shutil.which(t) for t in ("nop", "gc")):
        pytest.skip("no Graphviz (Debian package graphviz)")
    path = tmp_path / "crafted.dot"
    done = studio("--library", runs["lib"], "library", "export-graph", runs["crafted_id"], path)
    assert done.returncode == 0, said(done)
    text = path.read_text(encoding="utf-8")
    for c in CONTROLS:
        assert c not in text
    parsed = subprocess.run(["nop", str(path)], capture_output=True, text=True)
    assert parsed.returncode == 0 and not parsed.stderr, parsed.stderr
    counted = subprocess.run(["gc", "-n", "-e", str(path)], capture_output=True, text=True)
    assert counted.returncode == 0, counted.stderr
    nodes, edges = (int(x) for x in counted.stdout.split()[:2])
    graph = runs["report"]["captures"][0]["graph"]
    assert nodes == len(graph["node_list"])
    assert edges == sum(len(n["inputs"]) for n in graph["node_list"])


def test_the_terminal_never_gets_a_control_byte_of_a_crafted_run(runs):
    shows = (("library", "show", runs["crafted_id"]), ("library", "show", runs["ids"]["hostile"]))
    for args in (("library", "ls"), *shows):
        done = studio("--library", runs["lib"], *args)
        assert done.returncode == 0, said(done)
        for c in CONTROLS + BIDI:
            assert c.encode() not in done.stdout + done.stderr, (args, c)

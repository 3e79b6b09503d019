"""A headless Chromium for the tests, driven over the DevTools protocol on a pipe (stdlib only).

Chromium started with ``--remote-debugging-pipe`` reads protocol commands on its fd 3 and writes
replies and events on its fd 4, each message one JSON object ended by a NUL byte: no port, no
websocket, no package beyond the standard library (docs/research/share.md, section A).

    with Browser() as browser:
        page = browser.open(path_or_url)          # waits for document.body.dataset.ready === '1'
        page.click('g.ps-module[data-path="layer1"]')
        page.wait_for("document.querySelectorAll('g.ps-node').length > 10")
        assert page.eval("document.title") == "..."
        page.assert_clean()                        # no exception, console error, CSP or request

A page's ``problems`` are what a test of an offline, self-contained page must fail on: uncaught
exceptions, console error/warning/assert calls, Log entries of level error or warning (CSP
violations, failed loads) and any network request other than the page's own URL or a data:/blob:
URL, unless its host is in ``allow_hosts``. A blocked fetch() shows only as a Log entry and a
blocked <img> as both, hence the two sources.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

CHROMIUM = "/usr/lib/chromium/chromium"

# /usr/bin/chromium is a wrapper that sources /etc/chromium.d/ (one of whose lines fails here);
# the binary itself is called. --no-sandbox: the tests may run as root, which the sandbox refuses.
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--remote-debugging-pipe",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--enable-unsafe-swiftshader",
    "--window-size=1280,900",
)

_READY = "document.body.dataset.ready === '1'"

# Key name -> (code, windowsVirtualKeyCode, text) for Page.key.
_KEYS = {
    "Enter": ("Enter", 13, "\r"),
    "Escape": ("Escape", 27, ""),
    "Tab": ("Tab", 9, ""),
    "Backspace": ("Backspace", 8, ""),
    "Delete": ("Delete", 46, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "Home": ("Home", 36, ""),
    "End": ("End", 35, ""),
    "PageUp": ("PageUp", 33, ""),
    "PageDown": ("PageDown", 34, ""),
    " ": ("Space", 32, " "),
}


def find_chromium() -> str | None:
    """The Chromium binary to drive: $PS_CHROMIUM when set, else Debian's, else None."""
    for candidate in (os.environ.get("PS_CHROMIUM"), CHROMIUM):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


class BrowserError(RuntimeError):
    """Chromium died, closed its pipe, or refused a protocol command."""


class JsError(RuntimeError):
    """An expression given to Page.eval threw."""


class Browser:
    """One headless Chromium; a context manager that stops it (and removes its profile) on exit."""

    def __init__(self, executable: str | None = None, args: tuple[str, ...] = (), command_timeout: float = 30):
        exe = executable or find_chromium()
        if exe is None:
            raise BrowserError(f"no Chromium: neither $PS_CHROMIUM nor {CHROMIUM} (Debian package chromium)")
        self._command_timeout = command_timeout
        self._profile = tempfile.mkdtemp(prefix="ps-cdp-")
        self._stderr = open(os.path.join(self._profile, "stderr.log"), "w+b")
        to_chromium_r, self._to_chromium = os.pipe()
        self._from_chromium, from_chromium_w = os.pipe()

        def onto_3_and_4():
            # Dup out of the way first: when os.pipe() returned 3 or 4 itself, dup2(3, 3) would be a
            # no-op that keeps close-on-exec, and Chromium would get no fd 3.
            r, w = os.dup(to_chromium_r), os.dup(from_chromium_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        try:
            self._process = subprocess.Popen(
                [exe, *_FLAGS, f"--user-data-dir={self._profile}/profile", *args, "about:blank"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._stderr,
                close_fds=False,
                preexec_fn=onto_3_and_4,
            )
        finally:
            os.close(to_chromium_r)
            os.close(from_chromium_w)
        self._buffer = b""
        self._next_id = 0
        self._replies: dict[int, dict] = {}
        self._pages: dict[str, Page] = {}
        self._closed = False

    # -- context manager -------------------------------------------------------------------------
    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._send("Browser.close", timeout=5)
        except (BrowserError, TimeoutError, OSError):
            pass
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._to_chromium, self._from_chromium):
            try:
                os.close(fd)
            except OSError:
                pass
        self._stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    # -- pages -----------------------------------------------------------------------------------
    def open(self, url, *, ready: str | None = _READY, timeout: float = 30, allow_hosts=()) -> Page:
        """Opens url (a file path is made a file:// URL) in a new tab; waits for its load event, then
        until the expression `ready` is true (None: the load event only). A page that never gets
        ready raises TimeoutError naming its problems so far."""
        url = _as_url(url)
        target = self._send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self._send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target, url, tuple(allow_hosts))
        self._pages[session] = page
        for domain in ("Runtime", "Log", "Network", "Page"):
            self._send(f"{domain}.enable", session=session)
        deadline = time.monotonic() + timeout
        page._loaded = False
        reply = self._send("Page.navigate", {"url": url}, session=session)
        if reply.get("errorText"):
            raise BrowserError(f"{url}: {reply['errorText']}")
        self._pump(deadline, lambda: page._loaded, f"load event of {url}")
        if ready is not None:
            try:
                page.wait_for(ready, timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError as e:
                raise TimeoutError(f"{url} was not ready ({ready}) in {timeout} s; problems: {page.problems}") from e
        return page

    # -- protocol --------------------------------------------------------------------------------
    def _send(self, method: str, params: dict | None = None, session: str | None = None, timeout=None) -> dict:
        self._next_id += 1
        message_id = self._next_id
        message = {"id": message_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self._to_chromium, data) :]
        except BrokenPipeError as e:
            raise BrowserError(f"Chromium closed its pipe before {method}{self._stderr_tail()}") from e
        deadline = time.monotonic() + (timeout or self._command_timeout)
        self._pump(deadline, lambda: message_id in self._replies, f"reply to {method}")
        reply = self._replies.pop(message_id)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')} ({reply['error'].get('data', '')})")
        return reply.get("result", {})

    def _pump(self, deadline: float | None, done, what: str) -> None:
        """Reads messages until done() (deadline None: only those already waiting, then returns)."""
        while not done():
            while b"\0" not in self._buffer:
                wait = 0 if deadline is None else deadline - time.monotonic()
                if wait < 0 or not select.select([self._from_chromium], [], [], wait)[0]:
                    if deadline is None:
                        return
                    raise TimeoutError(f"no {what} from Chromium in time")
                chunk = os.read(self._from_chromium, 1 << 20)
                if not chunk:
                    raise BrowserError(f"Chromium closed its pipe while waiting for {what}{self._stderr_tail()}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\0")
            message = json.loads(raw)
            if "id" in message:
                self._replies[message["id"]] = message
            elif message.get("sessionId") in self._pages:
                self._pages[message["sessionId"]]._on_event(message["method"], message.get("params", {}))

    def _drain(self) -> None:
        self._pump(None, lambda: False, "events")

    def _stderr_tail(self) -> str:
        self._stderr.flush()
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().decode(errors="replace").splitlines() if "dbus" not in line]
        return (": " + " | ".join(lines[-5:])) if lines else ""


class Page:
    """One tab of a Browser (Browser.open makes it)."""

    def __init__(self, browser: Browser, session: str, target: str, url: str, allow_hosts: tuple[str, ...]):
        self._browser = browser
        self._session = session
        self._target = target
        self.url = url
        self._own = urllib.parse.urldefrag(url)[0]
        self._allow_hosts = allow_hosts
        self._problems: list[str] = []
        self._loaded = False

    # -- reading and waiting ---------------------------------------------------------------------
    def eval(self, expr: str):
        """The value of a JavaScript expression (a promise is awaited); JsError when it throws."""
        reply = self._call(
            "Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True, "userGesture": True}
        )
        if "exceptionDetails" in reply:
            raise JsError(f"{expr!r} threw: {_exception_text(reply['exceptionDetails'])}")
        return reply.get("result", {}).get("value")

    def wait_for(self, expr: str, timeout: float = 10):
        """Polls expr until it is truthy and returns its value; TimeoutError after timeout seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.eval(expr)
            if value:
                return value
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{expr!r} was still {value!r} after {timeout} s")
            time.sleep(0.02)

    # -- input -----------------------------------------------------------------------------------
    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released, hit-tested) at the centre of the first element
        matching selector, scrolled into view first."""
        x, y = self._centre(selector)
        self._call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self._call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def type(self, selector: str, text: str) -> None:
        """Focuses the element and inserts text as typing would (the element gets `input` events)."""
        self._focus(selector)
        self._call("Input.insertText", {"text": text})

    def key(self, selector: str, key: str) -> None:
        """Focuses the element and presses one key: "Enter", "Escape", "ArrowDown"... or a character."""
        self._focus(selector)
        if key in _KEYS:
            code, vk, text = _KEYS[key]
        elif len(key) == 1:
            code, vk, text = (f"Key{key.upper()}" if key.isalpha() else ""), ord(key.upper()), key
        else:
            raise ValueError(f"unknown key {key!r}: one character or one of {sorted(_KEYS)}")
        common = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        self._call("Input.dispatchKeyEvent", {"type": "keyDown" if text else "rawKeyDown", "text": text, **common})
        self._call("Input.dispatchKeyEvent", {"type": "keyUp", **common})

    # -- problems --------------------------------------------------------------------------------
    @property
    def problems(self) -> list[str]:
        """What went wrong so far (the events already sent by Chromium are read first)."""
        self._browser._drain()
        return list(self._problems)

    def assert_clean(self) -> None:
        """Raises AssertionError listing every problem; a round trip first, so that what the page
        did before this call has been reported."""
        self._call("Runtime.evaluate", {"expression": "0"})
        problems = self.problems
        if problems:
            raise AssertionError(f"{self.url}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))

    def close(self) -> None:
        """Closes the tab (the Browser closes every tab it opened when it stops)."""
        if self._session in self._browser._pages:
            self._browser._send("Target.closeTarget", {"targetId": self._target})
            del self._browser._pages[self._session]

    # -- internals -------------------------------------------------------------------------------
    def _call(self, method: str, params: dict | None = None) -> dict:
        if self._session not in self._browser._pages:
            raise BrowserError(f"{self.url}: the page is closed")
        return self._browser._send(method, params, session=self._session)

    def _centre(self, selector: str) -> tuple[float, float]:
        box = self.eval(
            f"""(() => {{
                const el = document.querySelector({json.dumps(selector)});
                if (!el) return null;
                el.scrollIntoView({{block: 'center', inline: 'center'}});
                const r = el.getBoundingClientRect();
                return [r.x + r.width / 2, r.y + r.height / 2, r.width, r.height];
            }})()"""
        )
        if box is None:
            raise LookupError(f"{self.url}: no element matches {selector!r}")
        if box[2] <= 0 or box[3] <= 0:
            raise LookupError(f"{self.url}: {selector!r} has no size ({box[2]} x {box[3]}): not displayed")
        return box[0], box[1]

    def _focus(self, selector: str) -> None:
        found = self.eval(
            f"""(() => {{
                const el = document.querySelector({json.dumps(selector)});
                if (!el) return false;
                el.scrollIntoView({{block: 'center'}});
                el.focus();
                return true;
            }})()"""
        )
        if not found:
            raise LookupError(f"{self.url}: no element matches {selector!r}")

    def _on_event(self, method: str, params: dict) -> None:
        if method == "Page.loadEventFired":
            self._loaded = True
        elif method == "Runtime.exceptionThrown":
            self._problems.append(f"uncaught exception: {_exception_text(params['exceptionDetails'])}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            text = " ".join(_remote_text(a) for a in params.get("args", []))
            self._problems.append(f"console.{params['type']}: {text}")
        elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
            entry = params["entry"]
            where = f" ({entry['url']})" if entry.get("url") else ""
            self._problems.append(f"log {entry['level']} [{entry.get('source', '?')}]: {entry.get('text', '')}{where}")
        elif method == "Network.requestWillBeSent":
            request_url = params["request"]["url"]
            if not self._allowed(request_url):
                self._problems.append(f"network request: {request_url[:200]}")
        elif method == "Inspector.targetCrashed":
            self._problems.append("the page crashed")

    def _allowed(self, url: str) -> bool:
        if url.startswith(("data:", "blob:")) or urllib.parse.urldefrag(url)[0] == self._own:
            return True
        host = urllib.parse.urlsplit(url).hostname
        return host is not None and host in self._allow_hosts


def _as_url(url) -> str:
    if isinstance(url, Path) or "://" not in str(url) and not str(url).startswith(("about:", "data:")):
        return Path(url).resolve().as_uri()
    return str(url)


def _exception_text(details: dict) -> str:
    exception = details.get("exception") or {}
    text = exception.get("description") or details.get("text", "exception")
    where = details.get("url")
    if where:
        text += f" ({where}:{details.get('lineNumber', 0) + 1})"
    return text


def _remote_text(arg: dict) -> str:
    if "value" in arg:
        return str(arg["value"])
    return str(arg.get("description", arg.get("type", "?")))

"""One start-up measured in a fresh process: ``python -m precompile_studio.deploy.probe REQUEST RESULT``.

A server that starts has imported nothing and compiled nothing; so does this process. It times
``import torch`` first (nothing of torch is imported before), executes the user's script to get
``fn`` and its example inputs (regenerated here, as the server would build them), then does
one thing the way a user's code would, timed to its first result:

- ``eager``: calls ``fn`` once;
- ``compile``: calls ``torch.compile(fn, backend=...)`` once (its Inductor cache is the folder
  the parent names in TORCHINDUCTOR_CACHE_DIR: empty for a cold start, filled for a warm one);
- ``load``: loads the pair with plain ``torch.compiler.precompile`` from its two files and calls
  it once; counts the kernels compiled meanwhile (none when its cache was reused), keeps what
  precompile logged, and with ``compare`` calls eager ``fn`` on a copy of the same inputs and
  judges the two against float64 as the studio's verification does.

The result is one JSON object written to RESULT (never to stdout, which the script may fill);
every failure is a field of it, named by the stage it happened in.
"""
from __future__ import annotations

import json
import os
import sys
import time

STAGES = ("import", "script", "load", "call", "eager")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}"[:2000] if text else type(exc).__name__


class _Probe:
    def __init__(self, request: dict):
        self.request = request
        self.result: dict = {"mode": request.get("mode"), "stage": "import"}

    # ------------------------------------------------------------------ the steps
    def run(self) -> None:
        imported_before = "torch" in sys.modules
        t0 = time.perf_counter()
        import torch  # noqa: F401 - timed: the first thing a server pays

        self.result["import_s"] = None if imported_before else time.perf_counter() - t0
        from precompile_studio.deploy.stamps import current

        self.result["stamps"] = current()
        self.result["stage"] = "script"
        spec, args, script_s = self._script()
        self.result["script_s"] = script_s
        mode = self.request.get("mode")
        if mode == "eager":
            self._eager(spec, args)
        elif mode == "compile":
            self._compile(spec, args)
        elif mode == "load":
            self._load(spec, args)
        else:
            raise ValueError(f"unknown probe mode {mode!r}")
        self.result["stage"] = "done"

    def _script(self):
        from precompile_studio.script.loader import execute, read_source
        from precompile_studio.script.names import read_contract

        script = self.request["script"]
        t0 = time.perf_counter()
        saved = sys.argv
        sys.argv = [script]
        try:
            source = read_source(script)
            module = execute(source)
            spec = read_contract(module, source, self.request.get("backend"), self.request.get("tracer"))
            args = spec.example_inputs()
        finally:
            sys.argv = saved
        return spec, args, time.perf_counter() - t0

    def _timed_call(self, f, args):
        from precompile_studio.common.calls import rng_fork, seeded_call
        from precompile_studio.common.devices import synchronize, tensor_devices

        devices = tensor_devices(args)
        with rng_fork():
            t0 = time.perf_counter()
            out = seeded_call(f, args, int(self.request.get("seed", 0)))
            synchronize(devices)
            return out, time.perf_counter() - t0

    def _eager(self, spec, args) -> None:
        self.result["stage"] = "call"
        _out, dt = self._timed_call(spec.fn, args)
        self.result["first_call_s"] = dt

    def _compile(self, spec, args) -> None:
        import torch

        self.result["stage"] = "call"
        compiled = torch.compile(spec.fn, backend=spec.backend)
        counter = _KernelBuilds()
        with counter:
            _out, dt = self._timed_call(compiled, args)
        self.result["first_call_s"] = dt
        self.result["kernels_compiled"] = counter.count

    def _load(self, spec, args) -> None:
        from precompile_studio.api.choose import current
        from precompile_studio.common.calls import fresh_copy
        from precompile_studio.contract.precompile_log import captured, message_of

        compare = bool(self.request.get("compare"))
        eager_args = fresh_copy(args) if compare else None
        reference_args = fresh_copy(args) if compare else None
        self.result["stage"] = "load"
        records: list = []
        counter = _KernelBuilds()
        with captured(records.append), counter:
            t0 = time.perf_counter()
            try:
                f = current().load_files(self.request["python_code"], self.request["cache"])
            finally:
                self.result["load_s"] = time.perf_counter() - t0
                self.result["log"] = [message_of(r) for r in records]
            self.result["stage"] = "call"
            out, dt = self._timed_call(f, args)
        self.result["call_s"] = dt
        self.result["first_call_s"] = self.result["load_s"] + dt
        self.result["kernels_compiled"] = counter.count
        self.result["log"] = [message_of(r) for r in records]
        if compare:
            self.result["stage"] = "eager"
            expected, _dt = self._timed_call(spec.fn, eager_args)
            self.result["accuracy"] = _judge(spec.fn, reference_args, expected, out, int(self.request.get("seed", 0)))


class _KernelBuilds:
    """Counts the kernels compiled while the block runs: each C++ kernel Inductor builds (its
    ``CppBuilder.build`` of a shared object) and each Triton kernel compiled (``triton.compile``),
    whatever cache priming came before; none when a load reused its cache. (precompile's cache
    primes Triton binaries and autotune results; Inductor's C++ kernels are not in it, so on the
    CPU they are compiled at a fresh load whatever the cache.)"""

    def __init__(self) -> None:
        self.count = 0
        self._undo: list = []

    def __enter__(self):
        try:
            from torch._inductor import cpp_builder

            self._wrap(cpp_builder.CppBuilder, "build")
        except Exception:  # noqa: BLE001 - an inductor without it: C++ builds go uncounted
            pass
        if "triton" in sys.modules or self._has_triton():
            try:
                import triton

                self._wrap(triton, "compile")
            except Exception:  # noqa: BLE001 - no usable Triton: nothing of it to count
                pass
        return self

    @staticmethod
    def _has_triton() -> bool:
        import importlib.util

        try:
            import torch

            return torch.cuda.is_available() and importlib.util.find_spec("triton") is not None
        except Exception:  # noqa: BLE001 - no GPU, no Triton kernels
            return False

    def _wrap(self, owner, name: str) -> None:
        original = getattr(owner, name)
        probe = self

        def counted(*args, **kwargs):
            probe.count += _is_kernel(owner, args)
            return original(*args, **kwargs)

        setattr(owner, name, counted)
        self._undo.append((owner, name, original))

    def __exit__(self, *exc) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)
        self._undo.clear()


def _is_kernel(owner, args) -> int:
    """1 for a kernel's build: a Triton compile, or a C++ build whose target is a shared object
    (not the header Inductor preprocesses once per process)."""
    if getattr(owner, "__name__", "") != "CppBuilder":
        return 1
    try:
        return int(str(args[0].get_target_file_path()).endswith(".so"))
    except Exception:  # noqa: BLE001 - a builder that cannot say: counted
        return 1


def _judge(fn, reference_args: tuple, expected, actual, seed: int) -> dict:
    """The verdict on the artifact's first result against eager's, as verification words it."""
    from precompile_studio.common.calls import compare_values, leaves
    from precompile_studio.verify import accuracy

    e_leaves, a_leaves = leaves(expected)[0], leaves(actual)[0]
    if len(e_leaves) != len(a_leaves):
        return {"verdict": "wrong", "message": f"wrong: the artifact returns {len(a_leaves)} values, eager "
                                               f"fn {len(e_leaves)}"}
    entries = [{"name": f"out[{i}]", "result": compare_values(e, a)}
               for i, (e, a) in enumerate(zip(e_leaves, a_leaves))]
    result = {"outputs": entries}
    if all(entry["result"].get("ok") for entry in entries):
        acc = accuracy.tolerance_verdict()
    else:
        acc = accuracy.judge_call(fn, reference_args, [], seed, result,
                                  {"outputs": {e["name"]: v for e, v in zip(entries, e_leaves)}},
                                  {"outputs": {e["name"]: v for e, v in zip(entries, a_leaves)}})
    return {"verdict": acc.get("verdict"), "message": acc.get("message"), "values": len(entries)}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: python -m precompile_studio.deploy.probe REQUEST.json RESULT.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        request = json.load(f)
    probe = _Probe(request)
    code = 0
    try:
        probe.run()
    except BaseException as exc:  # noqa: BLE001 - every outcome is the result's, sys.exit in a script included
        probe.result["error"] = {"stage": probe.result.get("stage"), "message": _one_line(exc)}
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - the script may have closed them
                pass
    tmp = argv[2] + ".part"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(probe.result, f)
    os.replace(tmp, argv[2])
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))

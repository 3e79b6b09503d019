"""Watch one precompile call from the inside, without changing what it captures or lowers.

precompile's make_fx trace records neither stack traces nor module stacks, and the studio
must not turn them on: ``record_stack_traces`` writes ``node.stack_trace``, which FX prints
into ``gm.code`` (and the eager backend inlines ``gm.code`` into python_code), and
``record_module_stack`` swaps in a different tracer. Instead, for the duration of the
trace only, the probe

- wraps ``torch._precompile.make_fx`` (the name ``_capture`` calls) so it holds the very
  GraphModule precompile goes on to check and lower -- also when a capture-time check
  (invariant 1, control flow, effectful op) then rejects it;
- wraps ``torch._precompile._capture`` to hold the capture object (names, specs, grads);
- wraps ``torch.fx.Graph.create_node`` to note, in a side table keyed by the Node object,
  the innermost user frame (file, line), the stack of frames that made it (user, package and
  ``torch/nn`` frames up to ``flat_fn``: capture/stacks.py), the innermost nn.Module being called (from global
  forward pre/post hooks, which add no ops) and, for nodes created while autograd runs a
  backward, the forward node whose gradient they compute (by autograd sequence number).
  Nothing is written to the nodes or the graph;
- during an inductor lowering, wraps ``CppScheduling.define_kernel`` and, where the capture
  may run on a GPU, ``TritonScheduling.define_kernel`` to note which captured nodes each
  generated kernel computes (the origins Inductor itself tracks: it prints them into python_code
  as a "Source Nodes" comment above a Triton kernel, but not for C++ kernels nor for a combo
  (foreach) kernel, whose scheduler node holds the nodes it fuses).

Factories in ``trace_contexts`` (the contract checker's value-read recorder) are entered
around the make_fx trace alone, under the same rule: they record, they never add an op.

Everything is restored on exit. tests/python/test_graph.py checks that ``gm.code`` and
python_code are byte-identical with and without the probe.
"""
from __future__ import annotations

import contextlib
import inspect
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from precompile_studio.capture.stacks import StackWalker
from precompile_studio.common import internal_errors
from precompile_studio.common.frames import library_file


class NodeInfo:
    """What the probe saw when one node was created."""

    __slots__ = ("file", "line", "module", "phase", "forward", "trigger", "param", "stack")

    def __init__(self, file, line, module, phase, forward=None, trigger=None, param=None, stack=()):
        self.file = file          # innermost user frame (forward: the line that ran the op)
        self.line = line
        self.module = module      # (path, type) or None
        self.phase = phase        # "forward" | "backward" | None (placeholders / output)
        self.forward = forward    # backward nodes: the forward node they differentiate
        self.trigger = trigger    # backward nodes: (file, line) of the .backward() call
        self.param = param        # gradient accumulation: index of the parameter
        self.stack = stack        # the frames that made it (capture.stacks), innermost first;
        #                           a backward node: its forward node's


def arg_names(fn: Callable, n: int) -> list[str]:
    """Names of fn's first n positional parameters (arg0... where unknown)."""
    names: list[str] = []
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    star = None
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            star = p.name
            break
    out = []
    for i in range(n):
        if i < len(names):
            out.append(names[i])
        elif star:
            out.append(f"{star}[{i - len(names)}]")
        else:
            out.append(f"arg{i}")
    return out


def kernel_origins(nodes) -> list:
    """The FX nodes (of the graph Inductor lowers) that a kernel's scheduler nodes came from, in
    order, each once: ``node.node.origins`` of each scheduler node, the nodes inside a fused,
    foreach or combo node (whose own ``node`` is None), an extern kernel's ``origins``. Markers
    in a Triton node schedule (EnableReduction, DisableReduction) have none."""
    out: list = []
    seen: set[int] = set()

    def add(origins) -> None:
        for o in origins or ():
            if id(o) not in seen:
                seen.add(id(o))
                out.append(o)

    def visit(n, depth: int) -> None:
        inner = getattr(n, "node", None)
        if inner is not None:  # a scheduler node of one ir node
            add(getattr(inner, "origins", None))
            return
        get_nodes = getattr(n, "get_nodes", None)
        if callable(get_nodes) and depth < 8:  # fused, foreach, combo: the nodes inside
            try:
                subs = [sub for sub in get_nodes() if sub is not n]
            except Exception as e:  # noqa: BLE001 - that node's own origins instead
                internal_errors.record("probe: the nodes inside a fused kernel", e)
                subs = []
            if subs:
                for sub in subs:
                    visit(sub, depth + 1)
                return
        add(getattr(n, "origins", None))  # an ir node itself (an extern kernel)

    for n in nodes if isinstance(nodes, (list, tuple)) else [nodes]:
        visit(n, 0)
    return out


def captured_name(node, known: set[str]) -> str:
    """The captured graph's name for a node of the graph Inductor lowers: along its ``from_node``
    provenance (each step the node it was made from), the first name the captured graph has;
    where none is, the nearest source's name (what Inductor's "Source Nodes" comment prints), else
    the node's own."""
    src = node.meta.get("from_node") if hasattr(node, "meta") else None
    first = src[0].name if src else node.name
    steps = 0
    while src and steps < 32:
        nm = src[0].name
        if nm in known:
            return nm
        src = getattr(src[0], "from_node", None)
        steps += 1
    return first


class CaptureProbe:
    """Context manager around one precompile call; see the module docstring."""

    def __init__(
        self,
        script_path: str | None = None,
        on_lower: Callable[[], None] | None = None,
        backend: str = "inductor",
        devices: list[str] | None = None,
    ):
        self.backend = backend
        self.devices = list(devices or [])  # the example tensors' devices (common.devices)
        self.script_path = os.path.realpath(script_path) if script_path else None
        self.on_lower = on_lower
        self.fn: Callable | None = None
        self.args: tuple | None = None
        self.capture: Any = None          # torch._precompile._Capture, on success
        self.gm: Any = None               # the make_fx GraphModule precompile checked/lowered
        self.graph: Any = None            # the top-level fx.Graph (also while it is built)
        self.info: dict[Any, NodeInfo] = {}
        self.module_paths: dict[int, tuple[str, str]] = {}
        self.module_types: dict[str, str] = {}
        self.param_ids: dict[int, int] = {}
        self.argnames: list[str] = []
        self.module_positions: list[int] = []
        self.param_names: list[str] = []
        self.buffer_names: list[str] = []
        self.alias_entries: list[tuple[int, str, int]] = []
        self.kernels: list[dict] = []     # [{name, nodes, ops}] from the inductor lowering
        # get_attr node -> (stack entries outermost first, the names user and package frames
        # give to tensors): how precompile_studio.constants names a baked constant.
        self.const_frames: dict[Any, tuple[list, list]] = {}
        self.trace_s = 0.0                # time spent in the make_fx call itself
        self.hook_s = 0.0                 # our share of it (approximate)
        self.exception: BaseException | None = None
        self._stack: list[tuple[str, str]] = []
        self._fwd_seq: dict[int, Any] = {}
        self._user_code: dict[int, tuple[Any, bool]] = {}
        self._stacks = StackWalker(self.script_path)
        self.stack_s = 0.0                # of hook_s: walking the stacks (capture.stacks)
        self._restore: list[Callable[[], None]] = []
        # Context-manager factories entered around the make_fx trace only (the contract
        # checker's value-read recorder); like the probe, they must not change the capture.
        self.trace_contexts: list[Callable[[], Any]] = []

    # ------------------------------------------------------------------ patching
    def __enter__(self) -> CaptureProbe:
        from precompile_studio.api.choose import current

        P = current().internals()

        orig_make_fx = P.make_fx
        orig_capture = P._capture
        probe = self

        def make_fx_probe(f, *a, **kw):
            traced = orig_make_fx(f, *a, **kw)

            def run(*args, **kwargs):
                t0 = time.perf_counter()
                with probe._recording(), contextlib.ExitStack() as extra:
                    for make_cm in probe.trace_contexts:
                        extra.enter_context(make_cm())
                    gm = traced(*args, **kwargs)
                probe.trace_s += time.perf_counter() - t0
                probe.gm = gm
                return gm

            return run

        def capture_probe(fn, args, decompositions=None):
            probe._prepare(fn, tuple(args))
            cap = orig_capture(fn, args, decompositions)
            probe.capture = cap
            if probe.on_lower is not None:
                probe.on_lower()
            return cap

        P.make_fx = make_fx_probe
        P._capture = capture_probe
        self._restore.append(lambda: setattr(P, "make_fx", orig_make_fx))
        self._restore.append(lambda: setattr(P, "_capture", orig_capture))
        if self.backend == "inductor":
            self._patch_inductor()
        return self

    def __exit__(self, *exc) -> None:
        while self._restore:
            self._restore.pop()()

    def _patch_inductor(self) -> None:
        # Only when inductor's C++ codegen is importable anyway (it is imported by the
        # lowering); importing it here for an eager run would cost a second.
        self._patch_scheduling("torch._inductor.codegen.cpp", "CppScheduling", True)
        # Triton: where the capture may run on a GPU (an example tensor on one, or a process
        # that has initialised CUDA), or where the lowering imported it already.
        self._patch_scheduling("torch._inductor.codegen.triton", "TritonScheduling", self._may_use_gpu())

    def _may_use_gpu(self) -> bool:
        from precompile_studio.common.devices import asynchronous

        if asynchronous(self.devices):
            return True
        try:
            import torch

            return torch.cuda.is_initialized()
        except Exception:  # noqa: BLE001 - no usable CUDA here: not the GPU
            return False

    def _patch_scheduling(self, module: str, cls_name: str, import_it: bool) -> None:
        """Wrap ``cls_name.define_kernel(src_code, nodes, ...)`` of ``module`` (every backend's
        scheduling takes the scheduler nodes second) to note the nodes each kernel computes."""
        import importlib

        mod = sys.modules.get(module)
        if mod is None:
            if not import_it:
                return
            try:
                mod = importlib.import_module(module)
            except Exception:  # pragma: no cover - inductor always ships with torch
                return
        cls = getattr(mod, cls_name, None)
        if cls is None or "define_kernel" not in cls.__dict__:
            return
        orig = cls.__dict__["define_kernel"]
        probe = self

        def define_kernel(sched, src_code, nodes, *a, **kw):
            name = orig(sched, src_code, nodes, *a, **kw)
            with internal_errors.survive("probe: noting a kernel's nodes"):
                probe._note_kernel(name, nodes)
            return name

        cls.define_kernel = define_kernel
        self._restore.append(lambda: setattr(cls, "define_kernel", orig))

    def _note_kernel(self, name: str, nodes) -> None:
        names: list[str] = []
        ops: list[str] = []
        known = self._graph_names()
        for o in kernel_origins(nodes):
            if getattr(o, "op", None) != "call_function":
                continue
            n = captured_name(o, known)
            if n not in names:
                names.append(n)
            aten = o.meta.get("original_aten")
            if aten is not None:
                s = str(getattr(aten, "_overloadpacket", aten))
                if s not in ops:
                    ops.append(s)
        self.kernels.append({"name": name, "nodes": names, "ops": ops})

    def _graph_names(self) -> set[str]:
        """The captured graph's node names (empty before the trace)."""
        gm = self.gm
        if gm is None:
            return set()
        cached = getattr(self, "_names_of", None)
        if cached is not None and cached[0] is gm:
            return cached[1]
        names = {n.name for n in gm.graph.nodes}
        self._names_of = (gm, names)
        return names

    # ------------------------------------------------------------------ naming
    def _prepare(self, fn: Callable, args: tuple) -> None:
        import torch

        self.fn, self.args = fn, args
        self.argnames = arg_names(fn, len(args))
        for i, a in enumerate(args):
            if not isinstance(a, torch.nn.Module):
                continue
            base = self.argnames[i]
            for name, m in a.named_modules(remove_duplicate=False):
                path = f"{base}.{name}" if name else base
                if id(m) not in self.module_paths:
                    self.module_paths[id(m)] = (path, type(m).__name__)
                self.module_types.setdefault(path, type(m).__name__)
        try:
            from precompile_studio.api.choose import current

            _intern_param_buffers = current().internals()._intern_param_buffers

            self.module_positions = [i for i, a in enumerate(args) if isinstance(a, torch.nn.Module)]
            mods = [args[i] for i in self.module_positions]
            pb, pnames, bnames, aliases, nparams = _intern_param_buffers(mods)
            self.param_ids = {id(t): i for i, t in enumerate(pb[:nparams])}
            self.param_names, self.buffer_names = list(pnames), list(bnames)
            self.alias_entries = [(int(mi), n, u) for mi, n, u in aliases]
        except Exception as e:  # noqa: BLE001 - gradient accumulations go unnamed
            internal_errors.record("probe: the models' parameters and buffers", e)
            self.param_ids = {}

    # ------------------------------------------------------------------ recording
    def _note_constant(self, node, f) -> None:
        """Keep the stack that created a get_attr node and what its frames call tensors."""
        from precompile_studio.common.frames import frame_entry, owner
        from precompile_studio.contract.constants import frame_bindings

        frames = []
        while f is not None:
            frames.append(f)
            f = f.f_back
        frames.reverse()
        entries, bindings = [], []
        for i, fr in enumerate(frames):
            e = frame_entry(fr)
            entries.append(e)
            if owner(e[0], e[3], self.script_path) in ("user", "package"):
                meta = (fr.f_code.co_filename, fr.f_code.co_firstlineno, fr.f_globals.get("__file__"))
                bindings.extend((i, b, meta) for b in frame_bindings(fr))
        self.const_frames[node] = (entries, bindings)

    @contextlib.contextmanager
    def _recording(self):
        """For the make_fx trace only: every node created is noted (``_note_node``), and global
        module hooks keep the stack of nn.Modules being called."""
        from torch.fx import Graph

        orig_create_node = Graph.create_node
        note = self._note_node

        def create_node(graph, *a, **kw):
            node = orig_create_node(graph, *a, **kw)
            note(graph, node, sys._getframe(1))
            return node

        with self._module_hooks():
            Graph.create_node = create_node
            try:
                yield
            finally:
                Graph.create_node = orig_create_node

    @contextlib.contextmanager
    def _module_hooks(self):
        """Global forward pre/post hooks (they add no ops) that keep ``_stack``: the (path, type)
        of each nn.Module being called, the innermost last."""
        from torch.nn.modules import module as nn_module

        stack = self._stack
        paths = self.module_paths

        def pre_hook(mod, _inputs):
            p = paths.get(id(mod))
            stack.append(p if p is not None else (None, type(mod).__name__))

        def post_hook(mod, _inputs, _out):
            if stack:
                stack.pop()

        h1 = nn_module.register_module_forward_pre_hook(pre_hook)
        h2 = nn_module.register_module_forward_hook(post_hook, always_call=True)
        try:
            yield
        finally:
            h1.remove()
            h2.remove()
            stack.clear()

    def _note_node(self, graph, node, frame) -> None:
        """What the probe keeps of one node ``frame`` created (placeholders and the output: only
        the graph); never raises, its time counted in ``hook_s``."""
        import torch

        t0 = time.perf_counter()
        try:
            if self.graph is None:
                self.graph = graph
            op = node.op
            if op == "placeholder" or op == "output":
                return
            if op == "get_attr":
                self._note_constant(node, frame)
            file, line = self._user_frame(frame)
            anode = torch._C._current_autograd_node()
            if anode is None:
                self._note_forward(node, file, line, torch.autograd._get_sequence_nr() - 1, self._walk(frame))
            else:
                self._note_backward(node, file, line, anode, frame)
        except Exception as e:  # noqa: BLE001 - never get in the way of the trace: that node goes unplaced
            internal_errors.record("probe: placing a traced node", e)
        finally:
            self.hook_s += time.perf_counter() - t0

    def _is_user(self, code) -> bool:
        """Whether a code object is the user's (the script, or outside the libraries)."""
        # Keyed by id: hashing a code object hashes its bytecode and constants on
        # every lookup. The code object is kept in the entry, so its id stays valid.
        e = self._user_code.get(id(code))
        if e is not None and e[0] is code:
            return e[1]
        fn = code.co_filename
        script = self.script_path
        v = (script is not None and fn == script) or not library_file(fn)
        if not v and script is not None and not fn.startswith("<"):
            v = os.path.realpath(fn) == script
        self._user_code[id(code)] = (code, v)
        return v

    def _user_frame(self, f) -> tuple[str | None, int | None]:
        """(file, line) of the innermost user frame from ``f`` outwards; (None, None) if none."""
        user_code = self._user_code
        while f is not None:
            code = f.f_code
            e = user_code.get(id(code))  # the cache hit inline: this runs for every frame
            if (e[1] if e is not None and e[0] is code else self._is_user(code)):
                return code.co_filename, f.f_lineno
            f = f.f_back
        return None, None

    def _walk(self, frame) -> tuple:
        t0 = time.perf_counter()
        stack = self._stacks.walk(frame)
        self.stack_s += time.perf_counter() - t0
        return stack

    def _note_forward(self, node, file, line, seq: int, stack: tuple = ()) -> None:
        """A forward node: its line, module and stack; the first node of an autograd sequence
        number is the one a backward node with that number differentiates."""
        if seq not in self._fwd_seq:
            self._fwd_seq[seq] = node
        self.info[node] = NodeInfo(file, line, self._stack[-1] if self._stack else None, "forward", stack=stack)

    def _note_backward(self, node, file, line, anode, frame=None) -> None:
        """A node created while autograd runs ``anode``: the forward node it differentiates
        (whose line, module and stack it takes), or for a gradient accumulation the parameter
        (its own stack: the backward call); the line that called backward is its trigger."""
        fwd = None
        pidx = None
        try:
            fwd = self._fwd_seq.get(anode._sequence_nr())
        except Exception as e:  # noqa: BLE001 - the parameter it accumulates, if any, instead
            internal_errors.record("probe: the forward node of a backward node", e)
        if fwd is None:
            var = getattr(anode, "variable", None)
            if var is not None:
                pidx = self.param_ids.get(id(var))
        fi = self.info.get(fwd) if fwd is not None else None
        if fi is not None:
            self.info[node] = NodeInfo(fi.file, fi.line, fi.module, "backward", fwd, (file, line), stack=fi.stack)
        else:
            own = self._walk(frame) if frame is not None else ()
            self.info[node] = NodeInfo(file, line, None, "backward", None, (file, line), pidx, stack=own)

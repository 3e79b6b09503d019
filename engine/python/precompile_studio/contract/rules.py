"""The rules: precompile's contract outcomes by their fixed message text, and the invariants.

``torch.compiler.PrecompileError`` carries no fields: only its message. The messages have
fixed opening texts in torch 2.14.1's and 2.15.0's ``torch/_precompile.py`` and
``torch/_precompile_driver.py`` (and one in ``torch/_functorch/_aot_autograd/
to_standalone_python.py``); RULES below lists them, quoted as the source writes them
(``…`` marks an interpolated value). tests/python/test_violations.py reads every message
template out of the installed torch and checks that each one is classified, and triggers
each invariant for real, so a drift in torch's wording fails the tests.

| rule | inv. | kind | phase | opening text |
|---|---|---|---|---|
| constant-tensor | 1 | PrecompileError | capture | "precompile traced a tensor that is neither a graph input" |
| control-flow-subgraph | - | PrecompileError | capture | "precompile cannot lower a captured control-flow subgraph" |
| effectful-op | 4 | PrecompileError | capture | "precompile cannot compile this computation: " (+ "effectful op …") |
| effectful-op-lowering | 4 | NotImplementedError | lower | "aot_autograd.compile_to_python cannot lower this graph to standalone source" |
| buffer-received-gradient | 5 | PrecompileError | capture | "precompile: a registered buffer received a gradient" |
| input-received-gradient | 5 | PrecompileError | capture | "precompile: a user input received a gradient" |
| mark-dynamic-unsupported | 3 | PrecompileError | capture | "precompile: an input has a mark_dynamic (backed dynamic) dim" |
| specialize-on-unsupported | 3 | PrecompileError | capture | "precompile: an input has a mark_unbacked specialize_on list" |
| unbacked-subclass | 3 | PrecompileError | capture | "precompile: an input is a tensor subclass (e.g. DTensor) with a mark_unbacked dynamic dim" |
| unbacked-memory-format | 3 | PrecompileError | capture | "precompile: a mark_unbacked input has a memory format that is neither" |
| guard-on-unbacked-dim | 3 | PrecompileError | capture | "precompile: fn needs to guard on a dim marked with mark_unbacked" |
| unbacked-needs-inductor | 3 | NotImplementedError | capture | "precompile: mark_unbacked (dynamic shapes) is only supported with backend='inductor'" |
| data-dependent-value | 3 | RuntimeError | capture | "It appears that you're trying to get value out of a tracing tensor with" (make_fx, torch/fx/experimental/proxy_tensor.py) |
| tracer-not-implemented | - | NotImplementedError | capture | "precompile tracer=… is not implemented yet" |
| unknown-backend | - | ValueError | call | "precompile backend must be 'inductor' or 'eager'" |
| unknown-tracer | - | ValueError | call | "precompile tracer must be 'make_fx' or 'dynamo'" |
| positional-arguments-only | - | TypeError | capture | (Python's own arity message, raised calling fn) |
| no-compute-graph | - | PrecompileError | lower | "the inductor backend cannot lower a graph with no compute" |
| non-tensor-output | - | PrecompileError | lower | "the inductor backend cannot lower a graph whose output mixes a non-tensor Python value" |
| output-structure-not-serializable | - | PrecompileError | lower | "precompile cannot serialize the output structure of fn" |
| argument-count | 2 | PrecompileError | call | "precompile: expected … positional args (the same as the traced fn)" |
| module-argument | 2 | PrecompileError | call | "precompile: argument at position … must be the nn.Module the traced fn took" |
| model-structure | 2 | PrecompileError | call | "precompile: the runtime model's param/buffer names" |
| param-buffer-mismatch | 2 | PrecompileError | call | "precompile: the runtime param/buffer …" (has shape / has dtype / is on device) |
| input-structure | 3 | PrecompileError | call | "precompile: runtime inputs have a different structure than the traced example inputs" |
| input-leaf-count | 3 | PrecompileError | call | "precompile: runtime inputs flattened to a different number of leaves" |
| input-shape | 3 | PrecompileError | call | "precompile: a runtime input has shape" |
| dynamic-dim-bounds | 3 | PrecompileError | call | "precompile: runtime input dim … mark_unbacked declared min=/max=" |
| input-dtype | 6 | PrecompileError | call | "precompile: a runtime input has dtype" |
| input-device | 6 | PrecompileError | call | "precompile: a runtime input is on device" |
| input-layout | 6 (3 and 6) | PrecompileError | call | "precompile: a runtime tensor's shape or memory format differs from the traced example" |
| python-code-invalid | 7 | PrecompileError | load | "python_code is not valid Python" |
| python-code-no-metadata | 7 | PrecompileError | load | "python_code is missing calling-convention metadata" |
| cache-backend-mismatch | 7 | PrecompileError | load | "cache backend … does not match the python_code backend" |
| cache-code-hash-mismatch | 7 | PrecompileError | load | "cache does not match python_code (its code_hash" |
| not-runnable | - | PrecompileError | call | "this object is not runnable;" |
| loaded-object-no-artifact | - | PrecompileError | call | "this object was produced by torch.compiler.precompile.load()" |
| capture-second-call | 3 | PrecompileError | capture | "MakeFxTracer captures a single call and one has already been traced" (2.15) |
| capture-no-call | - | PrecompileError | capture | "nothing was captured: call the capture with your example arguments" (2.15) |
| capture-call-raised | - | PrecompileError | capture | "nothing was captured: the capture's call raised" (2.15) |
| capture-not-active | - | PrecompileError | capture | "capture is not active" / "this capture has already been entered" (2.15) |
| capture-keyword-arguments | - | ValueError | capture | "MakeFxTracer takes positional arguments only" (2.15) |
| capture-updates-parameter | 4 | PrecompileError | capture | "MakeFxTracer cannot capture a fn that updates a parameter in place" (2.15) |
| capture-partial | - | TypeError | capture | "precompile.capture takes the function itself, not a functools.partial" (2.15) |
| capture-tracer-type | - | TypeError | capture | "precompile.capture tracer must be a MakeFxTracer" (2.15) |
| artifact-pair-unreadable | 7 | PrecompileError | load | "precompile could not read the artifact pair" (2.15) |
| artifact-write-failed | - | PrecompileError | capture | "precompile could not write the artifact" (2.15) |
| nested-tensor-input | 3 | PrecompileError | capture | "precompile: example … is a nested tensor" (2.15) |
| unbacked-inside-trace | 3 | PrecompileError | capture | "precompile: unbacked capture cannot run inside another trace" (2.15) |
| python-code-unknown-backend | 7 | PrecompileError | load | "python_code names an unknown backend" (2.15) |
| python-code-malformed-metadata | 7 | PrecompileError | load | "python_code … calling-convention metadata is malformed" (2.15) |
| cache-tracer-mismatch | 7 | PrecompileError | load | "cache tracer … does not match the python_code tracer" (2.15) |
| dynamo-front-end | - | PrecompileError | capture | the multi-graph (Dynamo) artifact's refusals (2.15, not reachable from capture yet) |
| nested-tensor-example | 3 | ValueError | capture | the studio's own: an input is nested and torch failed in its own words |
| other-precompile-api | - | TypeError | call | the studio's own: a script calls the other torch version's API (api/) |
| artifact-other-torch | - | ValueError | load | the studio's own: a script loads a pair another torch series made (api/) |
| internal | - | PrecompileError | any | "internal: " |

Warnings (logger ``torch._precompile``; at load the load goes on, JIT from python_code; 2.15
writes "torch.compiler.precompile" where 2.14 wrote "torch.compiler.precompile.load"):

| rule | inv. | opening text |
|---|---|---|
| cache-format-mismatch | 7 | "torch.compiler.precompile[.load] got a cache with format=" |
| cache-envelope-unreadable | 7 | "torch.compiler.precompile[.load] could not read the cache envelope" |
| cache-priming-failed | 7 | "torch.compiler.precompile[.load] could not prime the cache from the artifact bundle" |
| untrusted-python-code | 7 | "torch.compiler.precompile.load is about to EXEC python_code" (every load) |
| artifact-restore-failed | - | "precompile could not put the previous artifact back at" (2.15, at capture) |
| artifact-half-written | - | "precompile wrote the artifact at" (2.15, at capture) |

A message no rule knows is reported with invariant None, rule "unclassified" and its full
text; "mentions" then lists any "(invariant N)" it names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

INVARIANTS = {
    1: ("Everything live is an input",
        "Every tensor fn reads must reach it as an argument: a registered parameter or "
        "buffer of an nn.Module argument, or an explicit tensor argument. Tensors closed "
        "over by fn (globals, captured locals), plain module attributes and tensor "
        "literals built inside fn would be hard-coded into the graph, so precompile "
        "rejects them."),
    2: ("The runtime model matches the traced model",
        "At runtime you pass the model again; its parameters and buffers must have the "
        "same names, order, tying, shapes, dtypes and devices as the example model's. "
        "Only the weight values may differ (a checkpoint)."),
    3: ("Control flow and shapes are specialised to the example",
        "make_fx is a non-strict trace: it records the single path the example took. "
        "Python branches on tensor values, .item() and sizes are resolved at trace time "
        "and baked; shapes are static unless opted in with mark_unbacked, and runtime "
        "inputs must have the traced structure and shapes."),
    4: ("Boundary effects",
        "Input mutation, output aliasing, tensor subclasses and functionalized RNG are "
        "supported; effectful ops (printing, torchbind calls, ordered side effects) are "
        "not yet, and are rejected at capture."),
    5: ("Backward is part of the computation",
        "A backward inside fn is traced too; only parameter gradients are harvested and "
        "scattered (accumulated) onto the runtime model's .grad. A buffer or user input "
        "that receives a gradient would lose it silently, so it is rejected."),
    6: ("Dtype, device and (inductor) layout are baked",
        "Each input's dtype and device are fixed at capture and checked at runtime; the "
        "inductor backend also bakes each read tensor's strides (memory format), for "
        "parameters and buffers too."),
    7: ("python_code and cache are trusted executable input",
        "load() executes python_code and unpickles the cache. The cache's backend and "
        "code_hash bind it to the python_code it came from; a mismatched pair is "
        "rejected, while a foreign or unreadable cache only falls back to JIT."),
}


@dataclass(frozen=True)
class Rule:
    rule: str
    invariant: int | None
    kind: str
    phase: str
    opening: str                 # fixed opening text as torch writes it ("…" = a value)
    pattern: str | None = None   # regex (re.match) when the opening has a value in it
    fix: str = ""
    explanation: str = ""
    invariants: tuple[int, ...] = ()
    # the torch series whose precompile writes this message; () for the studio's own words
    torch: tuple[str, ...] = ("2.14", "2.15")

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return re.match(self.pattern, message, re.S) is not None
        return message.startswith(self.opening)


_E = re.escape

RULES: tuple[Rule, ...] = (
    Rule("constant-tensor", 1, "PrecompileError", "capture",
         "precompile traced a tensor that is neither a graph input",
         fix="Pass the tensor to fn as an argument, or register it on the module "
             "(register_buffer / nn.Parameter); hoist a tensor literal out of fn."),
    Rule("control-flow-subgraph", None, "PrecompileError", "capture",
         "precompile cannot lower a captured control-flow subgraph",
         explanation="A limitation, not an invariant: torch.cond / torch.while_loop bodies "
                     "become nested graphs that neither backend can inline yet.",
         fix="Express the branch with tensor ops (torch.where), or keep it outside fn."),
    Rule("effectful-op", 4, "PrecompileError", "capture",
         "precompile cannot compile this computation: ",
         fix="Remove the effectful op (e.g. a print op or torchbind call) from fn."),
    Rule("effectful-op-lowering", 4, "NotImplementedError", "lower",
         "aot_autograd.compile_to_python cannot lower this graph to standalone source",
         fix="Remove the effectful op from fn."),
    Rule("buffer-received-gradient", 5, "PrecompileError", "capture",
         "precompile: a registered buffer received a gradient",
         fix="Register the tensor as an nn.Parameter, or set requires_grad=False on the buffer."),
    Rule("input-received-gradient", 5, "PrecompileError", "capture",
         "precompile: a user input received a gradient",
         fix="Pass the tensor as a module parameter if you need its gradient; otherwise "
             "give it requires_grad=False."),
    Rule("mark-dynamic-unsupported", 3, "PrecompileError", "capture",
         "precompile: an input has a mark_dynamic (backed dynamic) dim",
         fix="Use torch._dynamo.decorators.mark_unbacked, or leave the dim static."),
    Rule("specialize-on-unsupported", 3, "PrecompileError", "capture",
         "precompile: an input has a mark_unbacked specialize_on list",
         fix="Remove specialize_on: precompile produces one artifact."),
    Rule("unbacked-subclass", 3, "PrecompileError", "capture",
         "precompile: an input is a tensor subclass (e.g. DTensor) with a mark_unbacked dynamic dim",
         fix="Mark a dense input instead, or keep the dim static."),
    Rule("unbacked-memory-format", 3, "PrecompileError", "capture",
         "precompile: a mark_unbacked input has a memory format that is neither",
         fix="Pass the input contiguous or channels_last, or keep the dim static.",
         invariants=(3, 6)),
    Rule("unbacked-inside-trace", 3, "PrecompileError", "capture",
         "precompile: unbacked capture cannot run inside another trace",
         explanation="A capture with mark_unbacked dims traces under a fake mode of its own; "
                     "inside torch.compile, export or AOTAutograd another one is active (torch 2.15).",
         fix="Capture outside the enclosing trace.",
         torch=("2.15",)),
    Rule("guard-on-unbacked-dim", 3, "PrecompileError", "capture",
         "precompile: fn needs to guard on a dim marked with mark_unbacked",
         fix="Do not mark that dim, or avoid branching on / specialising its size."),
    Rule("unbacked-needs-inductor", 3, "NotImplementedError", "capture",
         "precompile: mark_unbacked (dynamic shapes) is only supported with backend='inductor'",
         fix="Use backend='inductor', or remove the mark_unbacked marks."),
    Rule("data-dependent-value", 3, "RuntimeError", "capture",
         "It appears that you're trying to get value out of a tracing tensor with",
         explanation="make_fx refuses to read a traced tensor's value into Python (.item(), "
                     "bool(t), `if t > 0:`): the branch it decides could not be re-evaluated "
                     "by the artifact.",
         fix="Keep value-dependent control flow out of fn: compute both branches and select "
             "with torch.where, or decide the branch outside fn and pass the result in."),
    Rule("tracer-not-implemented", None, "NotImplementedError", "capture",
         "precompile tracer=… is not implemented yet",
         pattern=r"precompile tracer=.* is not implemented yet",
         explanation="Only the make_fx tracer exists in torch 2.14 and 2.15; 'dynamo' is planned.",
         fix="Use tracer='make_fx' (the default)."),
    Rule("unknown-backend", None, "ValueError", "call",
         "precompile backend must be 'inductor' or 'eager'",
         explanation="precompile checks its backend argument before capturing anything.",
         fix="Use backend='inductor' or backend='eager'."),
    Rule("unknown-tracer", None, "ValueError", "call",
         "precompile tracer must be 'make_fx' or 'dynamo'",
         explanation="precompile checks its tracer argument before capturing anything.",
         fix="Use tracer='make_fx'."),
    Rule("positional-arguments-only", None, "TypeError", "capture",
         "(Python's arity TypeError, raised calling fn)",
         explanation="precompile calls fn positionally with the example inputs; keyword "
                     "arguments are not part of the calling convention, so a fn that needs "
                     "them fails with Python's own TypeError.",
         fix="Make every argument of fn positional (no keyword-only parameters) and pass "
             "all example inputs positionally.",
         torch=()),
    Rule("no-compute-graph", None, "PrecompileError", "lower",
         "the inductor backend cannot lower a graph with no compute",
         explanation="A limitation of the inductor backend: fn returns its inputs or Python "
                     "constants unchanged, so there is no kernel to generate.",
         fix="Return a computed tensor, or use backend='eager'."),
    Rule("non-tensor-output", None, "PrecompileError", "lower",
         "the inductor backend cannot lower a graph whose output mixes a non-tensor Python value",
         explanation="A limitation of the inductor backend: float / complex / str outputs "
                     "next to computed tensors cannot be lowered (int, bool and None can).",
         fix="Return only tensors (wrap a float with torch.tensor outside the graph), or use "
             "backend='eager'."),
    Rule("output-structure-not-serializable", None, "PrecompileError", "lower",
         "precompile cannot serialize the output structure of fn",
         explanation="The artifact rebuilds fn's output from a JSON pytree spec; an "
                     "unregistered namedtuple or a custom node without a JSON context "
                     "cannot be written.",
         fix="Return a plain tuple / list / dict of tensors, or register the namedtuple "
             "with torch.utils._pytree._register_namedtuple."),
    Rule("argument-count", 2, "PrecompileError", "call",
         "precompile: expected … positional args (the same as the traced fn)",
         pattern=r"precompile: expected \S+ positional args \(the same as the traced fn\)",
         fix="Call the artifact with the same positional arguments fn took: the model(s) "
             "and the inputs."),
    Rule("module-argument", 2, "PrecompileError", "call",
         "precompile: argument at position … must be the nn.Module the traced fn took",
         pattern=r"precompile: argument at position \S+ must be the nn\.Module the traced fn took",
         fix="Pass the model at the position it had when traced."),
    Rule("model-structure", 2, "PrecompileError", "call",
         "precompile: the runtime model's param/buffer names",
         fix="Use a model of the traced architecture (same named_parameters / "
             "named_buffers, in the same order, with the same tying)."),
    Rule("param-buffer-mismatch", 2, "PrecompileError", "call",
         "precompile: the runtime param/buffer …",
         pattern=r"precompile: the runtime param/buffer .* (has shape|has dtype|is on device) ",
         fix="Give the runtime model's parameters and buffers the traced shapes, dtypes "
             "and devices (load a checkpoint of the same architecture)."),
    Rule("input-structure", 3, "PrecompileError", "call",
         "precompile: runtime inputs have a different structure than the traced example inputs",
         fix="Pass inputs nested and counted exactly like the example inputs."),
    Rule("input-leaf-count", 3, "PrecompileError", "call",
         "precompile: runtime inputs flattened to a different number of leaves",
         fix="Pass inputs nested and counted exactly like the example inputs."),
    Rule("input-shape", 3, "PrecompileError", "call",
         "precompile: a runtime input has shape",
         fix="Pass inputs of the traced shapes, retrace for the new shape, or mark the "
             "dim dynamic with mark_unbacked (inductor)."),
    Rule("dynamic-dim-bounds", 3, "PrecompileError", "call",
         "precompile: runtime input dim … mark_unbacked declared min=/max=",
         pattern=r"precompile: runtime input dim \S+ has size \S+ but mark_unbacked declared (min|max)=",
         fix="Keep the dynamic dim within the min/max given to mark_unbacked."),
    Rule("input-dtype", 6, "PrecompileError", "call",
         "precompile: a runtime input has dtype",
         fix="Cast the input to the traced dtype, or retrace."),
    Rule("input-device", 6, "PrecompileError", "call",
         "precompile: a runtime input is on device",
         fix="Move the input to the traced device, or retrace."),
    Rule("input-layout", 6, "PrecompileError", "call",
         "precompile: a runtime tensor's shape or memory format differs from the traced example",
         fix="Pass inputs and weights in the example's layout (.contiguous() to match a "
             "contiguous example), or use backend='eager', which is layout-flexible.",
         invariants=(3, 6)),
    Rule("python-code-invalid", 7, "PrecompileError", "load",
         "python_code is not valid Python",
         fix="Load the python_code exactly as precompile returned it (byte-exact)."),
    Rule("python-code-no-metadata", 7, "PrecompileError", "load",
         "python_code is missing calling-convention metadata",
         fix="Load the python_code exactly as precompile returned it (byte-exact)."),
    Rule("cache-backend-mismatch", 7, "PrecompileError", "load",
         "cache backend … does not match the python_code backend",
         pattern=r"cache backend .* does not match the python_code backend",
         fix="Pair each cache with the python_code of the same precompile() call."),
    Rule("cache-code-hash-mismatch", 7, "PrecompileError", "load",
         "cache does not match python_code (its code_hash",
         fix="Pair each cache with the python_code of the same precompile() call."),
    Rule("not-runnable", None, "PrecompileError", "call",
         "this object is not runnable;",
         explanation="Only the object precompile.load() returns is callable.",
         fix="Call torch.compiler.precompile.load (2.14: with python_code and cache; 2.15: with "
             "the artifact and cache paths) and call its result."),
    Rule("python-code-unknown-backend", 7, "PrecompileError", "load",
         "python_code names an unknown backend",
         fix="Load the python_code a capture wrote, unchanged.", torch=("2.15",)),
    Rule("python-code-malformed-metadata", 7, "PrecompileError", "load",
         "python_code … calling-convention metadata is malformed",
         pattern=r"python_code .* calling-convention metadata is malformed",
         fix="Load the python_code a capture wrote, unchanged.", torch=("2.15",)),
    Rule("cache-tracer-mismatch", 7, "PrecompileError", "load",
         "cache tracer … does not match the python_code tracer",
         pattern=r"cache tracer .* does not match the python_code tracer",
         fix="Pair each cache with the python_code of the same capture.", torch=("2.15",)),
    Rule("dynamo-front-end", None, "PrecompileError", "capture",
         "precompile captured no dispatchable graph / cannot build a self-contained artifact / …",
         pattern=(r"precompile (captured no dispatchable graph|cannot build a self-contained artifact for"
                  r"|captured frame\(s\) a standalone artifact cannot reach|cannot carry .* default arguments)"),
         explanation="The multi-graph artifacts of a Dynamo front end, which torch 2.15's source has "
                     "but its public capture does not accept yet.",
         fix="Capture with the make_fx tracer (torch.compiler.precompile.MakeFxTracer).", torch=("2.15",)),
    Rule("loaded-object-no-artifact", None, "PrecompileError", "call",
         "this object was produced by torch.compiler.precompile.load()",
         explanation="A loaded artifact does not re-emit python_code or a cache.",
         fix="Keep the python_code and cache you loaded it from."),
    # torch 2.15's capture block and file pair (api/capture_api.py)
    Rule("capture-second-call", 3, "PrecompileError", "capture",
         "MakeFxTracer captures a single call and one has already been traced",
         explanation="A make_fx capture records one execution of fn; a second call inside the "
                     "same `with` block has nothing to add (torch 2.15).",
         fix="Call the capture once per `with` block; open another capture() block for "
             "another artifact.",
         torch=("2.15",)),
    Rule("capture-no-call", None, "PrecompileError", "capture",
         "nothing was captured: call the capture with your example arguments",
         explanation="The `with torch.compiler.precompile.capture(...) as cap:` block ended "
                     "without calling `cap`, so there is no artifact to write (torch 2.15).",
         fix="Call `cap(*example_inputs)` inside the `with` block.",
         torch=("2.15",)),
    Rule("capture-call-raised", None, "PrecompileError", "capture",
         "nothing was captured: the capture's call raised",
         explanation="The capture's one call failed, so the block has no pair to write.",
         fix="Fix the failure of the call first (it is reported with its own line).",
         torch=("2.15",)),
    Rule("capture-not-active", None, "PrecompileError", "capture",
         "capture is not active",
         pattern=r"capture is not active|this capture has already been entered",
         explanation="A capture is called inside its own `with` block, once, and is single-use "
                     "(torch 2.15).",
         fix="Call `cap(...)` inside `with torch.compiler.precompile.capture(...) as cap:`; "
             "call capture() again for another capture.",
         torch=("2.15",)),
    Rule("capture-keyword-arguments", None, "ValueError", "capture",
         "MakeFxTracer takes positional arguments only",
         explanation="The artifact is called positionally, as the capture was (torch 2.15).",
         fix="Pass the model(s) and inputs to `cap(...)` positionally.",
         torch=("2.15",)),
    Rule("capture-updates-parameter", 4, "PrecompileError", "capture",
         "MakeFxTracer cannot capture a fn that updates a parameter in place",
         explanation="torch 2.15's capture serves the artifact once on the example arguments "
                     "after tracing; an in-place parameter update (an optimizer step) would "
                     "land twice.",
         fix="Step the optimizer outside the captured fn.",
         torch=("2.15",)),
    Rule("capture-partial", None, "TypeError", "capture",
         "precompile.capture takes the function itself, not a functools.partial",
         explanation="The artifact rebuilds the call from fn's own parameters, so a pre-bound "
                     "model or argument would not be one of them (torch 2.15).",
         fix="Pass fn itself and give the bound values as arguments of the call: "
             "`cap(model, x)` instead of `partial(fn, model)`.",
         torch=("2.15",)),
    Rule("capture-tracer-type", None, "TypeError", "capture",
         "precompile.capture tracer must be a MakeFxTracer",
         explanation="torch 2.15 takes the tracer as an object: "
                     "torch.compiler.precompile.MakeFxTracer(decompositions=...); the 2.14 "
                     "string 'make_fx' / 'dynamo' is gone.",
         fix="Use tracer=torch.compiler.precompile.MakeFxTracer() (the default), or in the "
             "studio's script convention tracer = \"make_fx\".",
         torch=("2.15",)),
    Rule("artifact-pair-unreadable", 7, "PrecompileError", "load",
         "precompile could not read the artifact pair",
         fix="Name the two files the capture wrote: load(artifact_path, cache_path).",
         torch=("2.15",)),
    Rule("artifact-write-failed", None, "PrecompileError", "capture",
         "precompile could not write the artifact",
         fix="Make the folders of artifact_path and cache_path writable, then capture again.",
         torch=("2.15",)),
    Rule("nested-tensor-input", 3, "PrecompileError", "capture",
         "precompile: … is a nested tensor",
         pattern=r"precompile: example .* is a nested tensor",
         explanation="A nested (jagged) tensor has no fixed shape to capture; precompile "
                     "refuses it as an example input (torch 2.15).",
         fix="Pass a padded dense tensor (torch.nested.to_padded_tensor) with a mask, or run "
             "the nested part outside fn.",
         torch=("2.15",)),
    Rule("nested-tensor-example", 3, "ValueError", "capture",
         "example input … is a nested tensor (torch.nested): …",
         pattern=r"example input .* is a nested tensor \(torch\.nested\)",
         explanation="A nested (jagged) tensor has no fixed shape to capture, and precompile's "
                     "contract takes dense tensors; where torch fails on one in words of its own "
                     "(a kernel missing for NestedTensorCPU), the studio names the input.",
         fix="Pass a padded dense tensor (torch.nested.to_padded_tensor) with a mask, or run "
             "the nested part outside fn.",
         torch=()),
    Rule("other-precompile-api", None, "TypeError", "call",
         "this script … torch 2.1… precompile API",
         pattern=r"this script (calls|uses) torch 2\.1\d's precompile API",
         explanation="torch 2.14's torch.compiler.precompile is a callable returning "
                     "(python_code, cache); torch 2.15 replaced it with the module API "
                     "capture(...) / load(artifact_path, cache_path). The message shows the rewrite.",
         fix="Rewrite the call for this environment's torch as the message shows, or run the "
             "script with an environment of the torch it was written for (--python-env).",
         torch=()),
    Rule("artifact-other-torch", None, "ValueError", "load",
         "… was made by torch … and this environment runs torch …",
         pattern=r"the artifact\b.* was made by torch .+ and this environment runs torch ",
         explanation="An artifact holds graph code and kernels generated for the torch that made "
                     "it, and precompile does not check which torch that was (a pair often loads "
                     "in another release, with nothing to say it computes the same). The studio "
                     "refuses it, naming the torch from the report exported beside it, else from "
                     "the cache envelope (torch 2.15 writes a tracer field, 2.14 does not).",
         fix="Load the pair with the torch that made it (--python-env), or capture it again with "
             "this one.",
         torch=()),
    Rule("internal", None, "PrecompileError", "any", "internal: ",
         explanation="An internal consistency check of precompile failed (a torch bug)."),
)

WARNING_RULES: tuple[Rule, ...] = (
    Rule("cache-format-mismatch", 7, "warning", "load",
         "torch.compiler.precompile[.load] got a cache with format=",
         pattern=r"torch\.compiler\.precompile(\.load)? got a cache with format=",
         fix="Use a cache made by this torch build; the artifact ran, JIT-compiling its kernels."),
    Rule("cache-envelope-unreadable", 7, "warning", "load",
         "torch.compiler.precompile[.load] could not read the cache envelope",
         pattern=r"torch\.compiler\.precompile(\.load)? could not read the cache envelope",
         fix="The cache is corrupt or from another torch build; the artifact ran, "
             "JIT-compiling its kernels."),
    Rule("cache-priming-failed", 7, "warning", "load",
         "torch.compiler.precompile[.load] could not prime the cache from the artifact bundle",
         pattern=r"torch\.compiler\.precompile(\.load)? could not prime the cache from the artifact bundle",
         fix="The kernel bundle is stale or from another torch build; the artifact ran, "
             "JIT-compiling its kernels."),
    Rule("untrusted-python-code", 7, "warning", "load",
         "torch.compiler.precompile.load is about to EXEC python_code",
         fix="Only load artifacts you produced or trust."),
    Rule("artifact-restore-failed", None, "warning", "capture",
         "precompile could not put the previous artifact back at",
         explanation="Writing the pair failed and the pair that was there before could not be "
                     "restored (torch 2.15).",
         fix="Move the kept previous source back over the artifact path, or capture again.",
         torch=("2.15",)),
    Rule("artifact-half-written", None, "warning", "capture",
         "precompile wrote the artifact at",
         explanation="The artifact was written but its cache was not, and the artifact could not "
                     "be removed again: no cache beside it matches (torch 2.15).",
         fix="Capture again once the cache's folder is writable.",
         torch=("2.15",)),
)

_BY_NAME = {r.rule: r for r in RULES + WARNING_RULES}
ARITY = re.compile(
    r"(takes \S+ positional arguments? but \S+ (were|was) given"
    r"|missing \d+ required (positional|keyword-only) arguments?"
    r"|got an unexpected keyword argument"
    r"|takes no arguments)"
)
_MENTIONS = re.compile(r"\(invariants? (\d+)(?: and (\d+))?\)")


def rule_named(name: str) -> Rule:
    return _BY_NAME[name]


def match_rule(message: str, kind: str | None = None) -> Rule | None:
    for r in RULES:
        if r.rule == "positional-arguments-only":
            continue
        if kind is not None and r.kind != kind:
            continue
        if r.matches(message):
            return r
    return None


def match_warning(message: str) -> Rule | None:
    for r in WARNING_RULES:
        if r.matches(message):
            return r
    return None


def mentioned_invariants(message: str) -> list[int]:
    out: list[int] = []
    for m in _MENTIONS.finditer(message):
        for g in m.groups():
            if g and int(g) not in out:
                out.append(int(g))
    return out

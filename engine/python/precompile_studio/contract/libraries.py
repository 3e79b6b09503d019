"""What to tell a user whose violation is raised inside a third-party package.

The user cannot edit a package's code; what they can change is how fn calls it: an argument,
a config option, or a wrapper that computes the value outside fn. :func:`library_fix` writes
that fix for a chain (:mod:`precompile_studio.frames`), and :data:`KNOWN` lists the library
patterns seen in the wild with the specific remedy, and the versions they were seen in.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class LibraryPattern:
    name: str
    package: str
    file: str                    # the file's path ends with this
    rules: tuple[str, ...]       # the violation rules it produces
    seen: tuple[str, ...]        # the package versions it was seen in
    what: str                    # what the library does there, in one sentence
    remedy: str                  # what the user can change
    function: str | None = None  # regex (fullmatch) on the function's name
    code: str | None = None      # regex (search) on the code of the line

    def matches(self, step: dict, rule: str | None) -> bool:
        if rule not in self.rules or (step.get("package") or "") != self.package:
            return False
        if not (step.get("file") or "").replace(os.sep, "/").endswith("/" + self.file):
            return False
        if self.function is not None and not re.fullmatch(self.function, step.get("function") or ""):
            return False
        if self.code is not None and not re.search(self.code, step.get("code") or ""):
            return False
        return True


_EAGER_ATTN = ('load the model with attn_implementation="eager" (in its config, e.g. '
               'GPT2Config(..., attn_implementation="eager"), or '
               'from_pretrained(..., attn_implementation="eager")), whose mask is built with tensor '
               "ops only")

KNOWN: tuple[LibraryPattern, ...] = (
    LibraryPattern(
        "transformers-cache-tensor-literal", "transformers", "cache_utils.py", ("constant-tensor",),
        seen=("5.25.0",),
        code=r"torch\.tensor\(\s*\[\s*\]",
        what="transformers' KV cache (DynamicCache) creates its empty key/value tensors with "
             "torch.tensor([]) inside fn the first time a layer caches, so they are baked "
             "constants of the graph.",
        remedy="Call the model with use_cache=False inside fn: a KV cache is per-call state "
               "that the artifact cannot carry."),
    LibraryPattern(
        "transformers-packed-sequence-check", "transformers", "masking_utils.py",
        ("data-dependent-value",), seen=("5.25.0",),
        function=r"find_packed_sequence_indices",
        what="with no attention_mask and no cache, transformers checks position_ids for packed "
             "sequences with `.all()` on a tensor; its is_tracing() test does not see a make_fx "
             "trace, so it reads the value.",
        remedy="Pass an attention_mask into fn and on to the model (model(input_ids=ids, "
               "attention_mask=mask, use_cache=False)): with a mask the check is skipped; with "
               f"the default sdpa attention also {_EAGER_ATTN}."),
    LibraryPattern(
        "transformers-sdpa-mask-all", "transformers", "masking_utils.py", ("data-dependent-value",),
        seen=("5.25.0",),
        function=r"_ignore_causal_mask_sdpa",
        what="transformers' sdpa attention checks whether the padding mask is all ones "
             "(`.all()`) to drop the mask; its is_tracing() test does not see a make_fx trace, "
             "so it reads the value.",
        remedy=f"Use the eager attention: {_EAGER_ATTN}."),
    LibraryPattern(
        "transformers-bidirectional-mask-all", "transformers", "masking_utils.py",
        ("data-dependent-value",), seen=("5.25.0",),
        function=r"_ignore_bidirectional_mask_sdpa",
        what="encoder models (BERT, RoBERTa, ...) build their mask with create_bidirectional_mask, "
             "which checks whether the 2-D padding mask is all ones (`.all()`) to drop it, with the "
             "sdpa and the eager attention alike; its is_tracing() test does not see a make_fx trace.",
        remedy="Build the 4-D additive mask outside fn and pass it as attention_mask: transformers "
               "uses a 4-D mask as it is. For a 2-D 0/1 mask of shape (batch, seq): "
               "(1.0 - mask[:, None, None, :].float()).expand(batch, 1, seq, seq) "
               "* torch.finfo(torch.float32).min, made where the inputs are made."),
    LibraryPattern(
        "transformers-mask-all", "transformers", "masking_utils.py", ("data-dependent-value",),
        seen=("5.25.0",),
        code=r"\.all\(\)|fast_all\(",
        what="transformers' mask code reads a mask's value with `.all()` to choose a fast path; "
             "its is_tracing() test does not see a make_fx trace.",
        remedy=f"Pass an attention_mask into fn and {_EAGER_ATTN}."),
)


def known_pattern(step: dict | None, rule: str | None) -> LibraryPattern | None:
    if not step:
        return None
    return next((p for p in KNOWN if p.matches(step, rule)), None)


def _where(step: dict) -> str:
    pkg = step.get("package") or "a package"
    ver = f" {step['version']}" if step.get("version") else ""
    fn = f", in {step['function']}" if step.get("function") else ""
    return f"{pkg}{ver} ({os.path.basename(step.get('file') or '?')}:{step.get('line')}{fn})"


_GENERIC = {
    "data-dependent-value": (
        "reads a traced tensor's value into Python ({expr}) to choose a path",
        "an argument or config option that makes it skip that path (often passing the "
        "tensor it inspects, e.g. a mask, instead of letting it derive one), or a wrapper "
        "that decides outside fn and passes the result in"),
    "constant-tensor": (
        "builds or holds a tensor that is neither an input nor a registered parameter or buffer",
        "an argument or config option that avoids building it inside fn, or a wrapper module "
        "that registers the tensor as a buffer (register_buffer) and passes it in"),
}


def library_fix(step: dict, rule: str | None) -> tuple[str, dict | None]:
    """(the fix, the known pattern as a dict or None) for a violation raised in a package."""
    where = _where(step)
    p = known_pattern(step, rule)
    if p is not None:
        seen = ", ".join(p.seen)
        fix = (f"This happens inside {where}, which you cannot edit: {p.what} {p.remedy} "
               f"(pattern seen in {p.package} {seen}.)")
        return fix, {"name": p.name, "package": p.package, "seen": list(p.seen), "what": p.what,
                     "remedy": p.remedy}
    does, change = _GENERIC.get(rule or "", ("raises this", "an argument, a config option or a wrapper"))
    does = does.format(expr=step.get("code") or "?")
    fix = (f"This happens inside {where}, which {does}; you cannot edit it. Change what you "
           f"control: {change}.")
    return fix, None

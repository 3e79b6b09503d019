"""Runtime models whose parameters' requires_grad differs from the traced model's.

The contract lets it happen silently: the artifact's backward is the traced one (invariant 5),
so a parameter frozen at runtime still receives the gradient the trace computed for it, and one
unfrozen at runtime still gets none; eager fn follows the runtime flags (and raises outright when
every parameter is frozen and it calls backward). ``flipped`` names the parameters, and
``warning`` explains it as a report warning instead of a raw eager error string.
"""
from __future__ import annotations


def _modules(args) -> list[tuple[int, object]]:
    import torch

    return [(i, a) for i, a in enumerate(args) if isinstance(a, torch.nn.Module)]


def flipped(traced_args, runtime_args) -> list[dict]:
    """[{argument, name, traced, runtime}] for each parameter whose requires_grad differs."""
    out = []
    runtime = dict(_modules(runtime_args))
    for i, traced in _modules(traced_args):
        other = runtime.get(i)
        if other is None:
            continue
        now = dict(other.named_parameters())
        for name, p in traced.named_parameters():
            q = now.get(name)
            if q is not None and bool(p.requires_grad) != bool(q.requires_grad):
                out.append({"argument": i, "name": name, "traced": bool(p.requires_grad),
                            "runtime": bool(q.requires_grad)})
    return out


def warning(changes: list[dict], eager_error: str | None, location: dict | None) -> dict:
    frozen = [c["name"] for c in changes if c["traced"] and not c["runtime"]]
    thawed = [c["name"] for c in changes if not c["traced"] and c["runtime"]]

    def names(xs: list[str]) -> str:
        shown = ", ".join(xs[:5])
        return shown + (f" and {len(xs) - 5} more" if len(xs) > 5 else "")

    parts = []
    if frozen:
        parts.append(f"the runtime model's {names(frozen)} {'is' if len(frozen) == 1 else 'are'} frozen "
                     "(requires_grad=False) but trainable in the traced model: the artifact still "
                     "computes and accumulates their gradients")
    if thawed:
        parts.append(f"the runtime model's {names(thawed)} {'requires' if len(thawed) == 1 else 'require'} "
                     "grad but the traced model's did not: the artifact leaves their .grad unset")
    message = "; ".join(parts) + "."
    if eager_error:
        message += f" Eager fn, which follows the runtime flags, raised: {eager_error.splitlines()[0]}"
    return {
        "invariant": 5,
        "rule": "requires-grad-flipped",
        "message": message,
        "fix": "Set requires_grad on the example model as it will be at runtime and precompile again "
               "(the backward is part of the artifact), or restore the flags before calling it.",
        "location": location,
        "details": {"parameters": changes},
    }

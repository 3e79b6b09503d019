"""The user's inputs as precompile sees them: the flattened leaves of the non-module arguments
(their names and shapes, in placeholder order) and the dims marked with ``mark_unbacked``.

Below capture (specialise.py, graph.py), script (provenance.py) and verify (resized.py), which
all name inputs the same way.
"""
from __future__ import annotations


def leaf_names(args: tuple, argnames: list[str]) -> list[str]:
    """The user's name of each leaf precompile flattens from the non-module arguments, in its
    order: ``x``, ``batch['ids']``, ``xs[1]``."""
    import torch
    import torch.utils._pytree as pytree

    positions = [i for i, a in enumerate(args) if not isinstance(a, torch.nn.Module)]
    user = tuple(args[i] for i in positions)
    names = []
    for path, _leaf in pytree.tree_flatten_with_path(user)[0]:
        first = path[0].idx if path and hasattr(path[0], "idx") else None
        base = (argnames[positions[first]] if first is not None and positions[first] < len(argnames)
                else f"arg{positions[first] if first is not None else '?'}")
        names.append(base + pytree.keystr(path[1:]))
    return names


def leaf_shapes(args: tuple) -> list[tuple[int, ...] | None]:
    """Each flattened user-input leaf's shape (None for a non-tensor), as precompile flattens them."""
    import torch
    import torch.utils._pytree as pytree

    user = tuple(a for a in args if not isinstance(a, torch.nn.Module))
    return [tuple(int(s) for s in t.shape) if isinstance(t, torch.Tensor) else None
            for t in pytree.tree_flatten(user)[0]]


def dynamic_marks(t) -> list[dict]:
    """The dims ``torch._dynamo.decorators.mark_unbacked`` marked on a tensor (captured as unbacked
    sizes: one artifact serves any size of them), each {dim, shape_id, min, max}, in dim order;
    the attributes the decorator sets, read as precompile reads them."""
    dims = set(getattr(t, "_dynamo_unbacked_indices", None) or ())
    dims |= set(getattr(t, "_dynamo_strict_unbacked_indices", None) or ())
    if not dims:
        return []
    shape_ids = getattr(t, "_dynamo_shape_ids", None) or {}
    bounds = getattr(t, "_dynamo_unbacked_bounds", None) or {}
    out = []
    for dim in sorted(dims):
        lo, hi = bounds.get(dim, (None, None))
        sid = shape_ids.get(dim)
        out.append({"dim": int(dim), "shape_id": None if sid is None else str(sid),
                    "min": None if lo is None else int(lo), "max": None if hi is None else int(hi)})
    return out


class NestedInputError(ValueError):
    """An example input is a nested tensor and precompile failed on it in words of its own (a raw
    ``Could not run 'aten::equal' ... 'NestedTensorCPU'``): the studio's reading, classified by the
    rule ``nested-tensor-example``."""


def nested_leaves(args: tuple, argnames: list[str]) -> list[str]:
    """The user's names of the input leaves that are nested tensors (torch.nested)."""
    import torch
    import torch.utils._pytree as pytree

    user = tuple(a for a in args if not isinstance(a, torch.nn.Module))
    names = leaf_names(tuple(args), argnames)
    return [names[i] if i < len(names) else f"input[{i}]" for i, t in enumerate(pytree.tree_flatten(user)[0])
            if isinstance(t, torch.Tensor) and t.is_nested]


def nested_input_error(exc: BaseException, args: tuple, argnames: list[str]) -> BaseException:
    """``exc``, or a NestedInputError (with its traceback) where an input is a nested tensor and
    precompile did not say so itself."""
    if "is a nested tensor" in str(exc):
        return exc  # torch's own refusal (2.15's rule nested-tensor-input)
    try:
        nested = nested_leaves(args, argnames)
    except Exception as e:  # noqa: BLE001 - unknown: the exception as raised
        from precompile_studio.common import internal_errors

        internal_errors.record("inputs: looking for nested-tensor inputs", e)
        return exc
    if not nested:
        return exc
    first = str(exc).splitlines()[0][:200] if str(exc) else ""
    which = ", ".join(f"`{n}`" for n in nested)
    return NestedInputError(
        f"example input {which} is a nested tensor (torch.nested): precompile captures dense tensors "
        f"only, and failed on it with {type(exc).__name__}: {first}").with_traceback(exc.__traceback__)

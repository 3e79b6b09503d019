"""Read the names of the script contract (docs/design/script-contract.md) from an executed script module."""
from __future__ import annotations

import os
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from precompile_studio.common.errors import ContractError
from precompile_studio.script.loader import ScriptSource

BACKENDS = ("inductor", "eager")
TRACERS = ("make_fx", "dynamo")


@dataclass
class ContractSpec:
    """What the script asks for, resolved against the command line's overrides."""

    name: str
    fn: Callable[..., Any]
    example_inputs: Callable[[], tuple]
    backend: str
    tracer: str
    decompositions: Any
    runtime_inputs: Callable[[], tuple] | None


def _type_name(value: object) -> str:
    """'an int', 'a dict', ..."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _as_args(value: object, what: str, source: ScriptSource) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value)
    raise ContractError(
        f"{what} must be a tuple or list of positional arguments, or a zero-argument "
        f"callable returning one; it is {_type_name(value)}",
        source.path,
        source.line_of(what.split()[0]),
    )


def _input_factory(module: types.ModuleType, name: str, source: ScriptSource, required: bool):
    if not hasattr(module, name):
        if required:
            raise ContractError(
                f"the script defines no `{name}`: define {name} as a tuple of positional "
                "arguments for fn, or a zero-argument callable returning one",
                source.path,
            )
        return None
    value = getattr(module, name)
    if callable(value) and not isinstance(value, (tuple, list)):
        def make() -> tuple:
            return _as_args(value(), f"{name} (the value its callable returned)", source)
        return make
    args = _as_args(value, name, source)
    return lambda: args


def read_contract(
    module: types.ModuleType,
    source: ScriptSource,
    backend_override: str | None,
    tracer_override: str | None,
) -> ContractSpec:
    if not hasattr(module, "fn"):
        raise ContractError(
            "the script defines no `fn`: define fn, the computation to precompile, and "
            "example_inputs (or call torch.compiler.precompile yourself)",
            source.path,
        )
    fn = module.fn
    if not callable(fn):
        raise ContractError(
            f"`fn` is not callable: it is {_type_name(fn)}", source.path, source.line_of("fn")
        )
    example_inputs = _input_factory(module, "example_inputs", source, required=True)
    runtime_inputs = None
    if hasattr(module, "runtime_inputs"):
        if not callable(module.runtime_inputs):
            raise ContractError(
                "`runtime_inputs` must be a zero-argument callable returning the "
                f"arguments to call the loaded artifact with; it is {_type_name(module.runtime_inputs)}",
                source.path,
                source.line_of("runtime_inputs"),
            )
        runtime_inputs = _input_factory(module, "runtime_inputs", source, required=True)
    name = getattr(module, "name", None)
    if name is not None and not isinstance(name, str):
        raise ContractError(
            f"`name` must be a string; it is {_type_name(name)}", source.path, source.line_of("name")
        )
    return ContractSpec(
        name=name or os.path.splitext(os.path.basename(source.path))[0],
        fn=fn,
        example_inputs=example_inputs,
        backend=backend_override or getattr(module, "backend", "inductor"),
        tracer=tracer_override or getattr(module, "tracer", "make_fx"),
        decompositions=getattr(module, "decompositions", None),
        runtime_inputs=runtime_inputs,
    )

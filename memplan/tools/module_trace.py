"""A planned `.mlir` module as a packing trace, so `memplan plot` can draw it.

Each static `memory.alloc_tensor` of one function and scope becomes a buffer:
its live range from the liveness analysis `memory-plan` uses, its offset from
the op. When the function has several storages in the scope, each is stacked
above the previous one, so the picture shows the scope's whole footprint.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import memplan_context
from memplan.dialects.memory import AllocStorageOp, AllocTensorOp, static_byte_size
from memplan.parser import MemplanParser
from memplan.passes.liveness import FunctionLiveness
from memplan.planning import Buffer, BufferId


class ModuleTraceError(Exception):
    """The module cannot be read or holds nothing to draw."""


@dataclass(frozen=True)
class ModuleTrace:
    buffers: list[Buffer]
    offsets: dict[BufferId, int]
    title: str


def read_module(path: Path) -> ModuleOp:
    try:
        text = path.read_text()
    except OSError as error:
        raise ModuleTraceError(f"cannot read {path}: {error.strerror}") from None
    try:
        module = MemplanParser(memplan_context(), text, str(path)).parse_module()
        module.verify()
    except ParseError as error:
        raise ModuleTraceError(str(error).strip()) from None
    except VerifyException as error:
        raise ModuleTraceError(f"{path}: {error}") from None
    return module


def _drawable_tensors(
    function: func.FuncOp,
) -> list[tuple[AllocStorageOp, AllocTensorOp]]:
    """Static tensors at static offsets of static storages, with their storage."""
    found: list[tuple[AllocStorageOp, AllocTensorOp]] = []
    for op in function.walk():
        if not isinstance(op, AllocTensorOp) or op.static_offset_bytes() is None:
            continue
        storage = op.storage.owner
        if (
            isinstance(storage, AllocStorageOp)
            and storage.static_size_bytes() is not None
            and isinstance(op.result.type, MemRefType)
            and static_byte_size(op.result.type) is not None
        ):
            found.append((storage, op))
    return found


def _tensors_by_storage(
    function: func.FuncOp, scope: str
) -> dict[AllocStorageOp, list[AllocTensorOp]]:
    placed: dict[AllocStorageOp, list[AllocTensorOp]] = {}
    for storage, tensor in _drawable_tensors(function):
        if storage.scope == scope:
            placed.setdefault(storage, []).append(tensor)
    return placed


def module_trace(
    module: ModuleOp, scope: str, function_name: str | None
) -> ModuleTrace:
    """The buffers of `scope` in the named function (default: the first with any)."""
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    if function_name is not None:
        functions = [f for f in functions if f.sym_name.data == function_name]
        if not functions:
            raise ModuleTraceError(f"argument --function: no function @{function_name}")
    for function in functions:
        placed = _tensors_by_storage(function, scope)
        if placed:
            return _trace_of(function, scope, placed)
    where = f"@{function_name}" if function_name else "any function"
    scopes = sorted(
        {storage.scope for f in functions for storage, _ in _drawable_tensors(f)}
    )
    others = (
        "expected one of the scopes that have some: "
        + ", ".join(f'"{other}"' for other in scopes)
        if scopes
        else "no scope has any (run memory-manifest and memory-plan first)"
    )
    raise ModuleTraceError(
        f'no tensor at a static offset of a static storage in scope "{scope}" '
        f"in {where}; {others}"
    )


def _trace_of(
    function: func.FuncOp, scope: str, placed: dict[AllocStorageOp, list[AllocTensorOp]]
) -> ModuleTrace:
    liveness = FunctionLiveness(function)
    buffers: list[Buffer] = []
    offsets: dict[BufferId, int] = {}
    base = 0
    for storage, tensors in placed.items():
        for tensor in tensors:
            live = liveness.range_of(tensor)
            result_type = tensor.result.type
            assert isinstance(result_type, MemRefType)
            size = static_byte_size(result_type)
            assert size is not None
            name = f"%{tensor.result.name_hint or len(buffers)}"
            if name in offsets:
                name = f"{name}#{len(buffers)}"
            buffers.append(Buffer(name, live.start, live.upper, size))
            offset = tensor.static_offset_bytes()
            assert offset is not None
            offsets[name] = base + offset
        size = storage.static_size_bytes()
        assert size is not None
        base += size
    count = len(placed)
    title = f'@{function.sym_name.data}, "{scope}", {count} storage{"s" if count > 1 else ""} of {base} bytes'
    return ModuleTrace(buffers, offsets, title)

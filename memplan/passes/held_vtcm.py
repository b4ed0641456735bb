"""VTCM memory that is there before a function runs: the module's globals in
VTCM (for the whole program) and the VTCM arguments of a function called from
outside the module (its caller holds them over the call).  memory-place cannot
move either, so both count against the capacity of every placement they
overlap, as `memplan-run` counts them in the VTCM window."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import VerifyException

from memplan.dialects import memref
from memplan.dialects.memory import scope_of, static_byte_size
from memplan.passes.retype import kept_signature
from memplan.planning.buffers import align_up
from memplan.targets import VTCM_SCOPE

Held = tuple[str, int, str]
"""(what holds VTCM, its bytes, why it cannot move), for messages."""


def held_vtcm(
    module: ModuleOp,
    function: func.FuncOp,
    callers: list[func.CallOp],
    alignment: int,
) -> list[Held]:
    """What is in VTCM all through `function` (called by `callers` in the
    module), each size rounded up to the scope's `alignment` (each takes its
    own aligned range of the window)."""
    held: list[Held] = [
        (
            f"memref.global @{op.sym_name.data}",
            align_up(size, alignment),
            "in VTCM for the whole run",
        )
        for op in module.ops
        if isinstance(op, memref.GlobalOp)
        for size in [_vtcm_bytes(op.type)]
        if size is not None
    ]
    if kept_signature(function, callers) is not None:
        name = function.sym_name.data
        held += [
            (
                f"argument {position} of @{name}",
                align_up(size, alignment),
                "callers outside the module hold it in VTCM",
            )
            for position, type_ in enumerate(function.function_type.inputs)
            for size in [_vtcm_bytes(type_)]
            if size is not None
        ]
    return held


def _vtcm_bytes(type_: object) -> int | None:
    """Bytes of a static memref in VTCM, else None (a dynamic size cannot be
    counted: `memplan-run` still checks it)."""
    if not isinstance(type_, MemRefType):
        return None
    try:
        if scope_of(type_) != VTCM_SCOPE:
            return None
    except VerifyException:
        return None
    return static_byte_size(type_)

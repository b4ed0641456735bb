"""VTCM memory that is there before a function runs: the module's globals in
VTCM (for the whole program) and the VTCM arguments of a function called from
outside the module (its caller holds them over the call).  memory-place and
memory-plan cannot move either, so both count against the capacity of every
placement and every device-0 arena they overlap: they are device 0's memory,
and `memplan-run` counts them in device 0's VTCM window.  An argument of a
dynamic size cannot be counted before the run: the passes say so in a remark
and check the rest."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import VerifyException

from memplan.dialects import memref
from memplan.dialects.memory import scope_of, static_byte_size
from memplan.ir_walk import walk
from memplan.passes.retype import kept_signature
from memplan.planning.buffers import align_up
from memplan.targets import VTCM_SCOPE

Held = tuple[str, int, str]
"""(what holds VTCM, its bytes, why it cannot move), for messages."""


class HeldVtcm:
    """What is in VTCM all through each function of `module`: its VTCM
    globals, scanned once (a scan per function was quadratic in a module of
    many functions), and a function's own VTCM arguments when callers
    outside the module hold them."""

    def __init__(self, module: ModuleOp):
        self.globals = [
            (f"memref.global @{op.sym_name.data}", op.type, "in VTCM for the whole run")
            for op in module.ops
            if isinstance(op, memref.GlobalOp) and _is_vtcm(op.type)
        ]

    def of(
        self, function: func.FuncOp, callers: list[func.CallOp], alignment: int
    ) -> list[Held]:
        """What is in VTCM all through `function` (called by `callers` in
        the module) with a static size, each size rounded up to the scope's
        `alignment` (each takes its own aligned range of the window)."""
        return [
            (what, align_up(size, alignment), reason)
            for what, type_, reason in chain(
                self.globals, _held_arguments(function, callers)
            )
            for size in [static_byte_size(type_)]
            if size is not None
        ]


def remark_dynamic_held(
    pass_name: str, function: func.FuncOp, callers: list[func.CallOp]
) -> None:
    """Say on stderr which VTCM held all through `function` the capacity check
    of `pass_name` leaves out because its size is dynamic (only an entry
    function's argument can be: a `memref.global` is static)."""
    name = function.sym_name.data
    for what, type_, reason in _held_arguments(function, callers):
        if static_byte_size(type_) is None:
            print(
                f"{pass_name}: remark: in @{name}, the capacity check does not "
                f"count {what} ({type_}, {reason}): its size is dynamic, so only "
                "the VTCM of static size is checked; memplan-run counts it at "
                "run time",
                file=sys.stderr,
            )


def held_list(held: Iterable[Held]) -> list[str]:
    """How messages list what `HeldVtcm.of` found, one entry per holder."""
    return [f"{what} of {size} bytes ({reason})" for what, size, reason in held]


def module_callers(module: ModuleOp) -> defaultdict[str, list[func.CallOp]]:
    """The calls in `module` of each function, by callee name."""
    callers: defaultdict[str, list[func.CallOp]] = defaultdict(list)
    for op in walk(module):
        if isinstance(op, func.CallOp):
            callers[op.callee.string_value()].append(op)
    return callers


def module_callees(callers: Mapping[str, list[func.CallOp]]) -> dict[str, list[str]]:
    """The functions each function calls, once per call, by caller name
    (`callers` as `module_callers` gives them); a function that calls
    nothing has no entry."""
    callees: defaultdict[str, list[str]] = defaultdict(list)
    for callee, calls in callers.items():
        for call in calls:
            parent = call.parent_op()
            while parent is not None and not isinstance(parent, func.FuncOp):
                parent = parent.parent_op()
            if parent is not None:
                callees[parent.sym_name.data].append(callee)
    return callees


def _held_arguments(
    function: func.FuncOp, callers: list[func.CallOp]
) -> Iterator[tuple[str, MemRefType, str]]:
    """The VTCM arguments of `function` that callers outside the module hold
    all through it: what holds each, its type, and why it cannot move."""
    if kept_signature(function, callers) is None:
        return
    name = function.sym_name.data
    for position, type_ in enumerate(function.function_type.inputs):
        if isinstance(type_, MemRefType) and _is_vtcm(type_):
            yield (
                f"argument {position} of @{name}",
                type_,
                "callers outside the module hold it in VTCM",
            )


def _is_vtcm(type_: MemRefType) -> bool:
    try:
        return scope_of(type_) == VTCM_SCOPE
    except VerifyException:
        return False

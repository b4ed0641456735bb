"""Bytes a callee places in a storage its caller passes to it.

A function may take a `!memory.storage` argument and place tensors in it;
those bytes belong to the caller's storage, so the caller's tensors live
across the call must not share them.  `callee_footprints` collects, for each
storage argument of each function, the placements made in it during a call:
the function's own and, through the calls that pass the argument on, its
callees' (to a fixed point, so recursion is covered).  `memory-verify`
compares them with the caller's placements at every call.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.ir import BlockArgument, SSAValue

from memplan.dialects.memory import StorageType
from memplan.passes.diagnostics import describe
from memplan.passes.liveness import FunctionLiveness, LiveRange
from memplan.passes.placements import Placement

Argument = tuple[str, int]
"""A function by name and the position of one of its arguments."""


@dataclass(frozen=True)
class CalleePlacement:
    """A placement made in a passed storage, by `function` (the callee or a
    function it calls) in its argument at `position`."""

    placement: Placement
    function: str
    position: int

    def describe(self) -> str:
        where = self.placement
        return (
            f"{where.tensor_name()} ({where.part}bytes [{where.start}, {where.end}) "
            f"of argument {self.position} of @{self.function})"
        )


def _argument_position(value: SSAValue, function: func.FuncOp) -> int | None:
    if isinstance(value, BlockArgument) and value.block is function.body.block:
        return value.index
    return None


def _storage_operands(call: func.CallOp) -> Iterator[tuple[int, SSAValue]]:
    for position, operand in enumerate(call.arguments):
        if isinstance(operand.type, StorageType):
            yield position, operand


def callee_footprints(
    functions: Mapping[str, FunctionLiveness],
    placements: Mapping[str, Sequence[Placement]],
) -> dict[Argument, set[CalleePlacement]]:
    """For each storage argument, every placement a call may make in it."""
    footprints: dict[Argument, set[CalleePlacement]] = {}
    passes_on: list[tuple[Argument, Argument]] = []
    for name, liveness in functions.items():
        function = liveness.function
        for placement in placements[name]:
            position = _argument_position(placement.storage, function)
            if position is not None:
                footprints.setdefault((name, position), set()).add(
                    CalleePlacement(placement, name, position)
                )
        for op in liveness.index:
            if not isinstance(op, func.CallOp):
                continue
            callee = op.callee.string_value()
            for at, operand in _storage_operands(op):
                position = _argument_position(operand, function)
                if position is not None and callee in functions:
                    passes_on.append(((name, position), (callee, at)))
    changed = True
    while changed:
        changed = False
        for caller, callee in passes_on:
            added = footprints.get(callee, set()) - footprints.get(caller, set())
            if added:
                footprints.setdefault(caller, set()).update(added)
                changed = True
    return footprints


def call_overlap_problems(
    liveness: FunctionLiveness,
    placements: Sequence[tuple[Placement, LiveRange]],
    footprints: Mapping[Argument, set[CalleePlacement]],
) -> Iterator[str]:
    """The caller's tensors live during a call (used after it or by it) on
    bytes the callee places a tensor at in the storage it is passed."""
    by_storage: dict[SSAValue, list[tuple[Placement, LiveRange]]] = {}
    for placement, live in placements:
        by_storage.setdefault(placement.storage, []).append((placement, live))
    for call in liveness.index:
        if not isinstance(call, func.CallOp):
            continue
        point = liveness.index[call]
        callee = call.callee.string_value()
        for position, operand in _storage_operands(call):
            placed = sorted(
                footprints.get((callee, position), ()),
                key=lambda item: (item.placement.start, item.placement.end),
            )
            for placement, live in by_storage.get(operand, ()):
                if not live.start < point <= live.end:
                    continue
                for other in placed:
                    if (
                        placement.start < other.placement.end
                        and other.placement.start < placement.end
                    ):
                        yield (
                            f"{placement.tensor_name()} ({placement.describe()}) is "
                            f"live during func.call @{callee}, which passes "
                            f"{describe(operand)} as argument {position} and places "
                            f"{other.describe()} over its bytes: expected disjoint "
                            "bytes or disjoint live ranges"
                        )
                        break

"""The capacity check of `memory-verify`, which `memory-plan` also makes on
the module it planned: a plan `memory-plan` accepts, `memory-verify` accepts
on the same target and capacity.

Per function with a body, each bounded scope must fit its address window
on each device (`memory.alloc_storage ... device N` in device N's, all else
in device 0's) with what the function holds (`memplan.passes.scope_usage`: alignment
padding, the first fit the run replays, what a callee holds at its peak at
each `func.call`, storages held across a recursive call) on top of the VTCM
held all through the function (`memplan.passes.held_vtcm`: VTCM globals,
arguments callers outside the module hold).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from memplan.ir_walk import walk
from memplan.passes.call_aliases import CallAliases
from memplan.passes.held_vtcm import HeldVtcm, module_callers
from memplan.passes.liveness import FunctionLiveness
from memplan.passes.scope_usage import Holding, ModuleUsage, function_usage
from memplan.targets import VTCM_SCOPE, Target


def capacity_problems(
    module: ModuleOp, functions: Sequence[FunctionLiveness], target: Target
) -> dict[str, list[str]]:
    """The capacity problems of each of `functions` (every function of
    `module` with a body) on `target`, by function name."""
    usage = ModuleUsage([function_usage(f) for f in functions], target)
    callers = module_callers(module)
    held = HeldVtcm(module)
    problems: dict[str, list[str]] = {}
    for liveness in functions:
        function = liveness.function
        name = function.sym_name.data
        problems[name] = list(
            usage.capacity_problems(name, _held(held, function, callers[name], target))
        )
    return problems


def planned_capacity_problems(module: ModuleOp, target: Target) -> dict[str, list[str]]:
    """`capacity_problems` of every function of a planned `module`, whose call
    summaries are found again, on the planned module, as `memory-verify`
    would."""
    calls = CallAliases(module)
    functions = [
        FunctionLiveness(function, calls.forward)
        for function in walk(module)
        if isinstance(function, func.FuncOp) and function.body.blocks
    ]
    return capacity_problems(module, functions, target)


def _held(
    held: HeldVtcm, function: func.FuncOp, callers: list[func.CallOp], target: Target
) -> list[Holding]:
    """The VTCM `held` finds, held all through `function`, in device 0's window."""
    alignment = target.alignment(VTCM_SCOPE)
    return [
        Holding(VTCM_SCOPE, -1, sys.maxsize, size, alignment, what)
        for what, size, _ in held.of(function, callers, alignment)
    ]

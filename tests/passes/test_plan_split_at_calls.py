"""A program `memory-verify{capacity=C}` accepts, whose VTCM tensors are
live across calls to functions holding VTCM of their own, `memory-plan
{capacity=C}` plans: a run of chained live ranges whose one arena would
hold, at a call, more than the callee leaves room for is split so that only
the tensors live across the call are held there.

Random programs (tests/passes/call_runs_gen.py) of tensors that fill whole
2048-byte VTCM ranges: of 300 (derandomized), 84 were accepted by
`memory-verify`, 9 of which `memory-plan` refused before runs were split.
With tensors of 512 bytes to 4 KiB at 6144 bytes, in both arena modes: of
600 (derandomized), `memory-verify` accepts 269, of which `memory-plan`
refused 8 (`arenas=function`: 36, its arena never split) when a run split
only into the tensors live across the pressed calls and the others, and
none once the tensors live across different calls, those allocated late,
and last every tensor could get arenas of their own.
"""

from __future__ import annotations

from call_runs_gen import ELEMENTS, WHOLE_ELEMENTS, call_runs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

CONTEXT = memplan_context()

REFUSAL_EXAMPLES = 600
"""Random programs the refusal count draws."""


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=call_runs(WHOLE_ELEMENTS), capacity=st.sampled_from([4096, 6144, 8192]))
def test_programs_verify_accepts_with_calls_are_planned_under_the_same_capacity(
    text: str, capacity: int
) -> None:
    module = Parser(CONTEXT, text).parse_module()
    try:
        MemoryVerifyPass(capacity=capacity).apply(CONTEXT, module.clone())
    except PassFailedException:
        return
    MemoryPlanPass(capacity=capacity).apply(CONTEXT, module)
    MemoryVerifyPass(capacity=capacity).apply(CONTEXT, module)


def test_no_program_verify_accepts_with_calls_is_refused_in_either_arena_mode() -> None:
    """Counts, over random programs with tensors of 512 bytes to 4 KiB,
    those `memory-verify{capacity=6144}` accepts and `memory-plan` with the
    same capacity refuses, with `arenas=run` and `arenas=function`: none."""
    accepted: list[str] = []
    refused: dict[str, list[str]] = {"run": [], "function": []}

    @settings(
        max_examples=REFUSAL_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(text=call_runs(ELEMENTS))
    def plan(text: str) -> None:
        module = Parser(CONTEXT, text).parse_module()
        try:
            MemoryVerifyPass(capacity=6144).apply(CONTEXT, module.clone())
        except PassFailedException:
            return
        accepted.append(text)
        for arenas, found in refused.items():
            planned = module.clone()
            try:
                MemoryPlanPass(capacity=6144, arenas=arenas).apply(CONTEXT, planned)
            except PassFailedException:
                found.append(text)
                continue
            MemoryVerifyPass(capacity=6144).apply(CONTEXT, planned)

    plan()
    counts = {arenas: len(found) for arenas, found in refused.items()}
    assert counts == {"run": 0, "function": 0}, (
        f"of {len(accepted)} programs memory-verify accepts, memory-plan "
        f"refuses {counts}; the first: {next(f for f in refused.values() if f)[0]}"
    )

"""A program `memory-verify{capacity=C}` accepts, whose VTCM tensors are
live across calls to functions holding VTCM of their own, `memory-plan
{capacity=C}` plans: a run of chained live ranges whose one arena would
hold, at a call, more than the callee leaves room for is split so that only
the tensors live across the call are held there.

Random programs (tests/passes/call_runs_gen.py) of tensors that fill whole
2048-byte VTCM ranges (alignment padding, which can leave first fit no
room where the input's storages had it, is a different problem): of 300
(derandomized), 84 were accepted by `memory-verify`, 9 of which
`memory-plan` refused before runs were split.
"""

from __future__ import annotations

from call_runs_gen import WHOLE_ELEMENTS, call_runs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from memplan.context import memplan_context
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

CONTEXT = memplan_context()


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

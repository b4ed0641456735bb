"""Offset packing: give buffers with known lifetimes byte offsets in one arena.

Plain data in, plain data out (no IR): the `memory-plan` pass and the
`memplan plan` tool both call `plan`.
"""

from memplan.planning.buffers import (
    Buffer,
    BufferId,
    Plan,
    TraceError,
    check_buffers,
    live_peak,
    lower_bound,
)
from memplan.planning.registry import ALGORITHMS, plan
from memplan.planning.validate import validate

__all__ = [
    "ALGORITHMS",
    "Buffer",
    "BufferId",
    "Plan",
    "TraceError",
    "check_buffers",
    "live_peak",
    "lower_bound",
    "plan",
    "validate",
]

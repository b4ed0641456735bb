"""The peak `memory-verify` reports per scope: the first live set of the
sweep that needs the most of the window, found without weighing every set."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from stable_strategies import one_of_values

from memplan.passes.scope_usage import Holding, ModuleUsage, _sweep
from memplan.targets import VTCM_SCOPE, get_target


@st.composite
def holdings(draw: st.DrawFn) -> list[Holding]:
    found: list[Holding] = []
    for index in range(draw(st.integers(1, 14))):
        start = draw(st.integers(0, 12))
        found.append(
            Holding(
                VTCM_SCOPE,
                start,
                start + draw(st.integers(0, 8)),
                draw(one_of_values([0, 1, 100, 128, 2048, 3000, 4096])),
                draw(one_of_values([1, 64, 2048, 4096])),
                f"storage {index}",
                copies=draw(st.integers(1, 3)),
            )
        )
    return found


@settings(max_examples=300, deadline=None)
@given(held=holdings())
def test_peak_is_the_first_live_set_that_weighs_most(held: list[Holding]):
    usage = ModuleUsage([], get_target("hexagon-v66"))
    every = [live for _, live in _sweep(held)]
    weighed = max(
        every, key=lambda live: (usage.needed(live), sum(h.bytes for h in live))
    )
    peak = usage.peak_of(held)
    assert [h.origin for h in peak] == [h.origin for h in weighed]


def test_storages_held_to_the_end_are_weighed_once_per_run(monkeypatch):
    """A function that holds its storages to the end makes one run of live
    sets, each extending the one before: a few weighings, not one per set."""
    held = [
        Holding(VTCM_SCOPE, start, 100, 128, 2048, f"storage {start}")
        for start in range(64)
    ]
    usage = ModuleUsage([], get_target("hexagon-v66"))
    weighed: list[int] = []
    needed = usage.needed

    def counted(live):
        weighed.append(len(live))
        return needed(live)

    monkeypatch.setattr(usage, "needed", counted)
    assert len(usage.peak_of(held)) == 64
    assert len(weighed) <= 8

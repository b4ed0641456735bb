"""The time structure the exact search prunes with: sections, overlaps, cuts."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packing_strategies import examples, traces

from memplan.planning import Buffer, live_peak, plan, validate
from memplan.planning.sections import TooManyOverlaps, restrict, sweep

# b0 [1, 2) and b1 [2, 4) both meet b2 [0, 5); b3 [5, 9) meets nobody.
BUFFERS = [
    Buffer(0, 1, 2, 1),
    Buffer(1, 2, 4, 1),
    Buffer(2, 0, 5, 1),
    Buffer(3, 5, 9, 1),
]


def test_sections_are_the_maximal_live_sets() -> None:
    structure = sweep(BUFFERS, max_overlaps=100)
    assert structure.section_members == [[0, 2], [1, 2], [3]]
    assert structure.section_totals == [2, 2, 1]
    assert structure.first_section == [0, 1, 0, 2]
    assert structure.last_section == [1, 2, 2, 3]


def test_overlaps_list_every_pair_alive_together() -> None:
    structure = sweep(BUFFERS, max_overlaps=100)
    assert [sorted(o) for o in structure.overlaps] == [[2], [2], [0, 1], []]


def test_cuts_count_buffers_crossing_each_section_boundary() -> None:
    # Only b2 crosses from section 0 to 1; nothing crosses into b3's section,
    # which is where the search splits the problem in two.
    assert sweep(BUFFERS, max_overlaps=100).cuts == [1, 0, 0]


def test_too_many_overlaps_is_reported() -> None:
    with pytest.raises(TooManyOverlaps):
        sweep(BUFFERS, max_overlaps=1)


def test_restricting_to_sections_keeps_who_is_alive_there() -> None:
    structure = sweep(BUFFERS, max_overlaps=100)
    # Sections 0 and 2: b1 lives only in section 1 and goes; b2 spans 0-1 only.
    assert restrict(BUFFERS, structure, [0, 2]) == [
        Buffer(0, 0, 1, 1),
        Buffer(2, 0, 1, 1),
        Buffer(3, 1, 2, 1),
    ]


@settings(max_examples=examples(200, 2000), deadline=None)
@given(traces(max_buffers=10), st.data())
def test_a_plan_of_the_whole_is_a_plan_of_any_section_restriction(
    buffers: list[Buffer], data: st.DataObject
) -> None:
    sized = [b for b in buffers if b.size]
    structure = sweep(sized, max_overlaps=1000)
    count = len(structure.section_totals)
    sections = sorted(data.draw(st.sets(st.integers(0, max(count - 1, 0)))))
    sections = [s for s in sections if s < count]
    relaxation = restrict(sized, structure, sections)
    whole = plan(sized, None, "greedy")
    kept = {b.id: whole.offsets[b.id] for b in relaxation}
    assert validate(relaxation, kept) is None
    assert live_peak(relaxation) == max(
        (structure.section_totals[s] for s in sections), default=0
    )

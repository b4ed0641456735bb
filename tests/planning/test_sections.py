"""The time structure the exact search prunes with: sections, overlaps, cuts."""

import pytest

from memplan.planning import Buffer
from memplan.planning.sections import TooManyOverlaps, sweep

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

"""lower_bound() is the peak of bytes alive at once, raised by the gaps alignment forces."""

from packing_strategies import MINIMALLOC

from memplan.planning import Buffer, lower_bound
from memplan.planning.trace_csv import read_trace


def test_empty_trace_needs_nothing() -> None:
    assert lower_bound([]) == 0


def test_disjoint_lifetimes_take_the_largest() -> None:
    assert lower_bound([Buffer("a", 0, 2, 5), Buffer("b", 2, 4, 7)]) == 7


def test_overlapping_lifetimes_add_up() -> None:
    buffers = [Buffer("a", 0, 3, 5), Buffer("b", 2, 4, 7), Buffer("c", 3, 5, 1)]
    assert lower_bound(buffers) == 12


def test_zero_size_buffers_add_nothing() -> None:
    assert lower_bound([Buffer("a", 0, 3, 5), Buffer("z", 0, 3, 0)]) == 5


def test_minimalloc_example_peaks_at_its_capacity() -> None:
    path = MINIMALLOC / "examples" / "input.12.csv"
    assert lower_bound(read_trace(path).buffers) == 12


def test_two_buffers_alive_together_leave_an_alignment_gap() -> None:
    # The higher one starts at a multiple of 64 at or above the other's end.
    buffers = [Buffer("a", 0, 2, 8, 64), Buffer("b", 0, 2, 8, 64)]
    assert lower_bound(buffers) == 72


def test_the_buffer_on_top_may_be_the_one_needing_no_gap() -> None:
    buffers = [Buffer("a", 0, 2, 8, 1), Buffer("b", 0, 2, 8, 64)]
    assert lower_bound(buffers) == 16


def test_the_most_aligned_buffers_are_bounded_on_their_own() -> None:
    # Whatever goes on top, b and c need two multiples of 2**62.
    buffers = [
        Buffer("a", 0, 2, 8),
        Buffer("b", 0, 2, 8, 2**62),
        Buffer("c", 0, 2, 8, 2**62),
    ]
    assert lower_bound(buffers) == 2**62 + 8


def test_aligned_buffers_never_alive_together_need_no_gap() -> None:
    buffers = [Buffer("a", 0, 2, 8, 64), Buffer("b", 2, 4, 8, 64)]
    assert lower_bound(buffers) == 8

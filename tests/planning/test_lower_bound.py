"""lower_bound() is the peak of bytes alive at once."""

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

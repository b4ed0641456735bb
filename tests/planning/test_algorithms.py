"""The algorithms on hand-made cases and on the MiniMalloc benchmark files."""

import pytest
from packing_strategies import MINIMALLOC

from memplan.planning import (
    ALGORITHMS,
    Buffer,
    TraceError,
    check_buffers,
    plan,
    validate,
)
from memplan.planning.buffers import alignment_problem
from memplan.planning.greedy import best_fit_offset
from memplan.planning.trace_csv import read_trace

# Three buffers where whole-storage reuse wastes space but packing does not:
# "big" dies at 2, then "left" and "right" fit side by side in its bytes.
REUSE = [
    Buffer("big", 0, 2, 8),
    Buffer("left", 2, 4, 4),
    Buffer("right", 2, 4, 4),
]


def test_registry_names_the_three_algorithms() -> None:
    assert set(ALGORITHMS) == {"token", "greedy", "best"}


def test_unknown_algorithm_lists_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown algorithm 'magic' \(known: token, greedy, best\)"
    ):
        plan(REUSE, algorithm="magic")


@pytest.mark.parametrize(
    ("buffer", "message"),
    [
        (Buffer("x", 3, 3, 1), "lower 3 must be below upper 3"),
        (Buffer("x", 0, 1, -1), "negative size -1"),
        (
            Buffer("x", 0, 1, 1, alignment=3),
            "alignment 3 is not a positive power of two",
        ),
        (
            Buffer("x", 0, 1, 1, alignment=0),
            "alignment 0 is not a positive power of two",
        ),
    ],
)
def test_check_buffers_rejects_malformed_buffers(buffer: Buffer, message: str) -> None:
    with pytest.raises(TraceError, match=message):
        check_buffers([buffer])
    with pytest.raises(TraceError, match=message):
        plan([buffer])


def test_alignment_problem_accepts_exactly_the_powers_of_two_within_64_bits() -> None:
    accepted = [n for n in range(-2, 17) if alignment_problem(n) is None]
    assert accepted == [1, 2, 4, 8, 16]
    assert alignment_problem(2**62) is None
    assert alignment_problem(2**63) == (
        f"{2**63} does not fit in 64 bits (the largest power of two that does "
        f"is {2**62})"
    )
    assert alignment_problem(12) == "12 is not a positive power of two"


def test_check_buffers_rejects_duplicate_ids() -> None:
    with pytest.raises(TraceError, match="duplicate buffer id 'a'"):
        check_buffers([Buffer("a", 0, 1, 1), Buffer("a", 1, 2, 1)])


def test_negative_capacity_and_time_limit_are_rejected() -> None:
    with pytest.raises(ValueError, match="capacity"):
        plan(REUSE, capacity=-1)
    with pytest.raises(ValueError, match="time limit"):
        plan(REUSE, time_limit=-1)


def test_token_reuses_whole_storages_only() -> None:
    result = plan(REUSE, algorithm="token")
    # "left" takes over big's storage; "right" needs a storage of its own.
    assert result.offsets == {"big": 0, "left": 0, "right": 8}
    assert result.height == 12


def test_token_does_not_reuse_outside_the_match_range() -> None:
    buffers = [Buffer("huge", 0, 1, 1600), Buffer("tiny", 1, 2, 99)]
    assert plan(buffers, algorithm="token").offsets == {"huge": 0, "tiny": 1600}
    buffers = [Buffer("huge", 0, 1, 1600), Buffer("small", 1, 2, 100)]
    assert plan(buffers, algorithm="token").offsets == {"huge": 0, "small": 0}


def test_token_grows_a_smaller_storage_and_respects_alignment() -> None:
    buffers = [
        Buffer("first", 0, 1, 4),
        Buffer("grown", 1, 2, 6),
        Buffer("aligned", 0, 2, 2, alignment=16),
    ]
    result = plan(buffers, algorithm="token")
    assert result.offsets == {"first": 0, "grown": 0, "aligned": 16}
    assert result.height == 18


@pytest.mark.parametrize("algorithm", ["greedy", "best"])
def test_packing_algorithms_fill_the_freed_bytes(algorithm: str) -> None:
    result = plan(REUSE, algorithm=algorithm)
    assert result.height == 8
    assert result.optimal
    assert validate(REUSE, result.offsets) is None


def test_best_fit_takes_the_smallest_gap_that_fits() -> None:
    # Occupied [0, 4), [10, 14), [17, 21): gaps of 6 bytes at 4 and 3 bytes at 14.
    neighbours = [(10, 14), (0, 4), (17, 21)]
    assert best_fit_offset(list(neighbours), 2, 1) == 14
    assert best_fit_offset(list(neighbours), 7, 1) == 21
    # Aligned to 8, only the wide gap still has room (at 8).
    assert best_fit_offset(list(neighbours), 2, 8) == 8


def test_greedy_places_big_buffers_first() -> None:
    buffers = [Buffer("small", 0, 4, 1), Buffer("large", 1, 3, 5)]
    assert plan(buffers, algorithm="greedy").offsets == {"large": 0, "small": 5}


def test_capacity_decides_the_optimal_flag() -> None:
    assert plan(REUSE, capacity=8, algorithm="greedy").optimal
    assert not plan(REUSE, capacity=7, algorithm="greedy").optimal
    too_small = plan(REUSE, capacity=7)
    assert too_small.height == 8 and not too_small.optimal


def test_zero_size_buffers_get_offset_zero() -> None:
    buffers = [*REUSE, Buffer("empty", 0, 4, 0)]
    for algorithm in ALGORITHMS:
        assert plan(buffers, algorithm=algorithm).offsets["empty"] == 0


def _minimalloc(name: str) -> list[Buffer]:
    path = MINIMALLOC / name
    return read_trace(path).buffers


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_minimalloc_example_fits_its_capacity(algorithm: str) -> None:
    buffers = _minimalloc("examples/input.12.csv")
    result = plan(buffers, capacity=12, algorithm=algorithm)
    assert validate(buffers, result.offsets, capacity=12) is None


def test_best_fits_a_challenging_file_where_greedy_does_not() -> None:
    buffers = _minimalloc("challenging/H.1048576.csv")
    capacity = 1_048_576
    assert plan(buffers, capacity=capacity, algorithm="greedy").height > capacity
    result = plan(buffers, capacity=capacity, time_limit=60)
    assert validate(buffers, result.offsets, capacity=capacity) is None
    assert result.optimal

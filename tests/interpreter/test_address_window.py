"""Scopes as address windows served first fit, and the ranges behind them."""

from __future__ import annotations

import random

import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError
from memplan.interpreter.model import AddressSpace
from memplan.interpreter.ranges import DisjointRanges
from memplan.planning.buffers import align_up
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, get_target

VTCM = '!memory.storage<"global.vtcm">'


def _storages(sizes: list[int], kills: list[int], last: int) -> str:
    lines = ["func.func @main() {"]
    lines += [
        f"  %s{i} = memory.alloc_storage [{size}] : {VTCM}"
        for i, size in enumerate(sizes)
    ]
    lines += [f"  memory.kill %s{i} : {VTCM}" for i in kills]
    lines += [f"  %last = memory.alloc_storage [{last}] : {VTCM}", "  func.return", "}"]
    return "\n".join(lines)


def test_live_bytes_that_fit_fail_when_no_free_range_holds_the_request(run: Run):
    program = _storages([2048] * 4, kills=[0, 2], last=4096)
    with pytest.raises(
        InterpretationError,
        match=r"memory.alloc_storage %last \(in @main\): cannot allocate 4096 bytes "
        r'in "global.vtcm": no free range of its 8192-byte window holds them at a '
        r"2048-byte aligned address \(4096 bytes free in total, the largest free "
        r"range has 2048 bytes\)",
    ):
        run(program, target=get_target().with_vtcm_size(8192))


def test_a_freed_neighbour_merges_into_one_free_range(run: Run):
    program = _storages([2048] * 4, kills=[1, 2], last=4096)
    stats = run(program, target=get_target().with_vtcm_size(8192)).stats
    assert stats.peak_bytes == {VTCM_SCOPE: 8192}
    assert stats.peak_extent == {VTCM_SCOPE: 8192}


def test_alignment_padding_counts_in_the_window_and_the_extent(run: Run):
    stats = run(_storages([100] * 3, kills=[], last=100)).stats
    assert stats.peak_bytes == {VTCM_SCOPE: 400}
    assert stats.peak_extent == {VTCM_SCOPE: 3 * 2048 + 100}
    with pytest.raises(InterpretationError, match="7792 bytes free in total"):
        run(
            _storages([100] * 4, kills=[], last=100),
            target=get_target().with_vtcm_size(8192),
        )


def _reference_first_fit(
    live: list[tuple[int, int]], base: int, size: int, alignment: int
) -> int:
    """The lowest aligned address clear of every live range (a linear scan)."""
    address = align_up(base, alignment)
    for start, end in sorted(live):
        if address + max(size, 1) <= start:
            break
        address = max(address, align_up(end, alignment))
    return address


def test_unbounded_scope_places_storages_as_a_linear_first_fit_scan_does():
    rng = random.Random(7)
    base = 0x1000_0000
    space = AddressSpace(base, None, 64)
    live: list[tuple[int, int]] = []
    high = 0
    for _ in range(2000):
        if live and rng.random() < 0.45:
            start, _ = live.pop(rng.randrange(len(live)))
            space.free(start)
            continue
        size = rng.choice([0, 1, 64, 100, 4096, rng.randrange(1, 20000)])
        alignment = rng.choice([64, 64, 128, 4096])
        expected = _reference_first_fit(live, base, size, alignment)
        address = space.allocate(size, alignment)
        assert address == expected
        assert address is not None
        live.append((address, address + max(size, 1)))
        high = max(high, address + max(size, 1) - base)
    assert space.extent == high


def test_bounded_window_fails_exactly_when_no_aligned_hole_is_large_enough():
    rng = random.Random(11)
    base, capacity = 0xD800_0000, 64 * 1024
    space = AddressSpace(base, capacity, 2048)
    live: list[tuple[int, int]] = []
    for _ in range(3000):
        if live and rng.random() < 0.5:
            start, _ = live.pop(rng.randrange(len(live)))
            space.free(start)
            continue
        size = rng.randrange(1, 12 * 1024)
        alignment = rng.choice([2048, 2048, 8192])
        expected = _reference_first_fit(live, base, size, alignment)
        address = space.allocate(size, alignment)
        if expected + size > base + capacity:
            assert address is None
            continue
        assert address == expected
        assert address is not None
        live.append((address, address + size))
    assert space.free_bytes == capacity - sum(end - start for start, end in live)


def test_disjoint_ranges_find_overlaps_and_neighbours_like_a_scan():
    rng = random.Random(3)
    ranges = DisjointRanges[int]()
    present: dict[int, int] = {}
    for step in range(3000):
        start = rng.randrange(0, 5000)
        end = start + rng.randrange(1, 60)
        clash = [s for s, e in present.items() if s < end and start < e]
        found = ranges.overlapping(start, end)
        assert [r.start for r in found] == sorted(clash)
        assert [r.value for r in found] == sorted(clash)
        for s in clash:
            ranges.remove(s)
            del present[s]
        ranges.add(start, end, start)
        present[start] = end
        key = rng.randrange(0, 5100)
        below = [s for s in present if s <= key]
        above = [s for s in present if s >= key]
        floor, ceiling = ranges.floor(key), ranges.ceiling(key)
        assert (floor.start if floor else None) == (max(below) if below else None)
        assert (ceiling.start if ceiling else None) == (min(above) if above else None)
        assert ranges.count == len(present), step
    assert [(r.start, r.end) for r in ranges] == sorted(present.items())


def test_ddr_storages_are_not_bounded(run: Run):
    sizes = "\n".join(
        f'  %s{i} = memory.alloc_storage [1048576] : !memory.storage<"global">'
        for i in range(64)
    )
    stats = run(f"func.func @main() {{\n{sizes}\n  func.return\n}}").stats
    assert stats.peak_bytes == {GLOBAL_SCOPE: 64 * 1048576}
    assert stats.peak_extent == {GLOBAL_SCOPE: 64 * 1048576}

"""Iterations of `scf.parallel`: run one after another, checked as if at once.

memplan-run runs a parallel loop's iterations in order (see `scf_impl.py`),
so two iterations that share bytes run correctly here and race on a device
that runs them together.  memory-plan gives what a parallel body allocates
storages of its own (`LiveRange.concurrent`) and memory-verify flags a
tensor at a static offset in a storage allocated outside such a loop; a run
also sees dynamic offsets and hand-written plans, so while a loop runs:

* a tensor placed on bytes of a storage allocated outside the iteration
  that an earlier iteration gave to a tensor (killed or not) is an error:
  running at once, both iterations would own those bytes;
* killing a tensor or storage made outside the iteration, in a loop of more
  than one iteration, is an error: the other iterations may still use it.

Storages and tensors are numbered by `stamp` as they are made; those
numbered before an iteration began were made outside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from memplan.interpreter.errors import ModelError
from memplan.interpreter.ranges import DisjointRanges
from memplan.interpreter.source import describe

if TYPE_CHECKING:
    from memplan.interpreter.model import ByteRange, Storage

Owner = tuple[Operation, tuple[int, ...]]
"""The op that placed a tensor and the iteration (induction values) it ran in."""


@dataclass
class _Loop:
    """One running parallel loop and the bytes its iterations gave away."""

    op: Operation
    trips: int
    index: tuple[int, ...] = ()
    first: int = 0
    """The number of the first storage or tensor the current iteration made."""
    earlier: dict[Storage, DisjointRanges[Owner]] = field(default_factory=dict)
    """Bytes of storages made outside the loop that earlier iterations placed
    tensors on, each with the tensor that placed them last."""
    current: list[tuple[ByteRange, Operation]] = field(default_factory=list)
    """Such bytes the current iteration placed tensors on, in order."""

    def shares(self, serial: int) -> bool:
        return serial < self.first

    def where(self) -> str:
        return f"iteration {list(self.index)} of {describe(self.op)}"

    def end_iteration(self) -> None:
        """Move the current iteration's bytes to `earlier`, the last tensor
        placed on a byte owning it."""
        for claimed, op in self.current:
            ranges = self.earlier.setdefault(claimed.storage, DisjointRanges())
            for old in ranges.overlapping(claimed.start, claimed.end):
                ranges.remove(old.start)
                if old.start < claimed.start:
                    ranges.add(old.start, claimed.start, old.value)
                if claimed.end < old.end:
                    ranges.add(claimed.end, old.end, old.value)
            ranges.add(claimed.start, claimed.end, (op, self.index))
        self.current.clear()


class ParallelIterations:
    """The parallel loops running now, innermost last."""

    def __init__(self) -> None:
        self._serial = 0
        self._loops: list[_Loop] = []

    def stamp(self) -> int:
        """A number for a new storage or tensor, above every earlier one."""
        self._serial += 1
        return self._serial

    @contextmanager
    def loop(self, op: Operation, trips: int) -> Iterator[None]:
        """Track `op`'s iterations while its body runs."""
        self._loops.append(_Loop(op, trips))
        try:
            yield
        finally:
            self._loops.pop()

    def begin(self, index: tuple[int, ...]) -> None:
        """The innermost loop starts its iteration `index`."""
        loop = self._loops[-1]
        loop.end_iteration()
        loop.index = index
        loop.first = self._serial + 1

    def check_placement(self, op: Operation, ranges: tuple[ByteRange, ...]) -> None:
        """`op` places a tensor on `ranges`: no earlier iteration of a running
        loop may have placed one there in a storage made outside the loop."""
        for loop in self._loops:
            for claimed in ranges:
                if claimed.start == claimed.end or not loop.shares(
                    claimed.storage.serial
                ):
                    continue
                earlier = loop.earlier.get(claimed.storage)
                hits = (
                    earlier.overlapping(claimed.start, claimed.end) if earlier else []
                )
                if hits:
                    _raise_shared(
                        loop, claimed, hits[0].start, hits[0].end, *hits[0].value
                    )
                loop.current.append((claimed, op))

    def check_kill(self, serial: int, what: str) -> None:
        """Killing `what` (numbered `serial`) must not end it for the other
        iterations of a running loop."""
        for loop in reversed(self._loops):
            if loop.trips > 1 and loop.shares(serial):
                raise ModelError(
                    f"kills {what} in {loop.where()}, but it was made outside "
                    "the loop; iterations of a parallel loop may run at once: "
                    "expected it killed after the loop, when no iteration uses it"
                )


def _raise_shared(
    loop: _Loop,
    claimed: ByteRange,
    start: int,
    end: int,
    other: Operation,
    other_index: tuple[int, ...],
) -> None:
    storage = claimed.storage
    start, end = max(start, claimed.start), min(end, claimed.end)
    raise ModelError(
        f"in {loop.where()}, places its tensor on bytes [{start}, {end}) of "
        f'the "{storage.scope}" storage allocated by {describe(storage.op)}, '
        f"which iteration {list(other_index)} gave to the tensor allocated by "
        f"{describe(other)}; iterations of a parallel loop may run at once: "
        "expected bytes of its own for each iteration's tensor"
    )

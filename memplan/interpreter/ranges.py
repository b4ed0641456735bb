"""Disjoint byte ranges kept in address order, each operation in O(log n).

The memory model keeps two kinds of such sets: the free ranges of a scope's
address window (where allocation searches first fit) and the byte ranges of
the live tensors of one storage (where a new tensor finds the tensors it
overwrites).  Both are a treap keyed by start address; each node also knows
the largest aligned room in its subtree, so a first-fit search skips every
subtree that cannot hold the request.  Priorities come from one seeded
generator: the tree's shape, never its contents, depends on them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from memplan.planning.buffers import align_up

T = TypeVar("T")

_PRIORITIES = random.Random(0)


@dataclass(frozen=True)
class Range(Generic[T]):
    start: int
    end: int
    value: T


class _Node(Generic[T]):
    __slots__ = ("end", "left", "priority", "right", "room", "start", "value")

    def __init__(self, start: int, end: int, value: T, priority: float):
        self.start = start
        self.end = end
        self.value = value
        self.priority = priority
        self.left: _Node[T] | None = None
        self.right: _Node[T] | None = None
        self.room = 0


class DisjointRanges(Generic[T]):
    """Disjoint half-open ranges `[start, end)`, each carrying a value.

    `alignment` is the smallest alignment any `first_fit` request uses: the
    room of a range is the bytes left from its first aligned address, and a
    search for exactly that alignment visits one root-to-leaf path.
    """

    def __init__(self, alignment: int = 1):
        self.alignment = alignment
        self._root: _Node[T] | None = None
        self.count = 0

    def _own_room(self, node: _Node[T]) -> int:
        return node.end - align_up(node.start, self.alignment)

    def _update(self, node: _Node[T]) -> _Node[T]:
        room = self._own_room(node)
        if node.left is not None and node.left.room > room:
            room = node.left.room
        if node.right is not None and node.right.room > room:
            room = node.right.room
        node.room = room
        return node

    def _split(
        self, node: _Node[T] | None, key: int
    ) -> tuple[_Node[T] | None, _Node[T] | None]:
        """(ranges starting before `key`, ranges starting at or after it)."""
        if node is None:
            return None, None
        if node.start < key:
            node.right, right = self._split(node.right, key)
            return self._update(node), right
        left, node.left = self._split(node.left, key)
        return left, self._update(node)

    def _merge(self, left: _Node[T] | None, right: _Node[T] | None) -> _Node[T] | None:
        """Join two trees, every start in `left` below every start in `right`."""
        if left is None:
            return right
        if right is None:
            return left
        if left.priority > right.priority:
            left.right = self._merge(left.right, right)
            return self._update(left)
        right.left = self._merge(left, right.left)
        return self._update(right)

    def add(self, start: int, end: int, value: T) -> None:
        """Insert a range that overlaps none of the present ones."""
        node = self._update(_Node(start, end, value, _PRIORITIES.random()))
        left, right = self._split(self._root, start)
        self._root = self._merge(self._merge(left, node), right)
        self.count += 1

    def remove(self, start: int) -> Range[T]:
        """Take out the range starting at `start` (it must be present)."""
        left, rest = self._split(self._root, start)
        middle, right = self._split(rest, start + 1)
        assert middle is not None and middle.start == start
        self._root = self._merge(left, right)
        self.count -= 1
        return Range(middle.start, middle.end, middle.value)

    def floor(self, key: int) -> Range[T] | None:
        """The range with the largest start at or below `key`."""
        node, best = self._root, None
        while node is not None:
            if node.start <= key:
                best, node = node, node.right
            else:
                node = node.left
        return None if best is None else Range(best.start, best.end, best.value)

    def ceiling(self, key: int) -> Range[T] | None:
        """The range with the smallest start at or above `key`."""
        node, best = self._root, None
        while node is not None:
            if node.start >= key:
                best, node = node, node.left
            else:
                node = node.right
        return None if best is None else Range(best.start, best.end, best.value)

    def overlapping(self, start: int, end: int) -> list[Range[T]]:
        """The ranges sharing bytes with `[start, end)`, in address order."""
        found: list[Range[T]] = []
        first = self.floor(start)
        if first is not None and first.end > start:
            found.append(first)
        position = start + 1 if first is None else max(first.start, start) + 1
        while (following := self.ceiling(position)) is not None and (
            following.start < end
        ):
            found.append(following)
            position = following.start + 1
        return found

    def first_fit(self, size: int, alignment: int) -> tuple[Range[T], int] | None:
        """The lowest range holding `size` bytes at an `alignment`-aligned
        address (a multiple of this set's alignment), and that address."""
        node = self._root
        stack: list[_Node[T]] = []
        while node is not None or stack:
            if node is None:
                node = stack.pop()
                address = align_up(node.start, alignment)
                if address + size <= node.end:
                    return Range(node.start, node.end, node.value), address
                node = node.right
                continue
            if node.room < size:
                node = None
                continue
            stack.append(node)
            node = node.left
        return None

    def __iter__(self) -> Iterator[Range[T]]:
        node, stack = self._root, list[_Node[T]]()
        while node is not None or stack:
            while node is not None:
                stack.append(node)
                node = node.left
            node = stack.pop()
            yield Range(node.start, node.end, node.value)
            node = node.right

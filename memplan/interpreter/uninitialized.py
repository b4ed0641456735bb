"""`--check-uninitialized`: flag reads of bytes no op wrote since allocation.

A fresh tensor holds undefined values, as in MLIR: before planning they
happen to be the zeros of a fresh storage, after planning whatever the
previous tensor on those bytes left.  A program that reads them computes
something its plan decides, so this check makes such reads an error.

Each storage gets a byte mask of what was written.  Placing a tensor
(`memory.alloc_tensor`, the blocks of a discontiguous tensor, `memref.alloc`)
clears its bytes; ops write and read masks through views that mirror the
tensor's own strides.  Reads are known exactly for linalg ops (an operand is
read when its body block argument is used; pack and unpack read their
source and write their dest), copies, `bufferization.clone`,
`memref.load`, `affine.load` (the element its map names),
`memref.atomic_rmw` (but `assign`) and the shape operand of `memref.reshape`
(a view: its source is neither read nor written); writes for linalg
outputs, copy targets, clones, `memref.store`, `affine.store` and
`atomic_rmw`.  `memref.realloc` carries the mask of the elements it keeps
over to its new buffer.  Any other op that is
handed a memref counts as writing all of it, so the check never reports a
read that a write it cannot see made valid (it may miss reads by such ops).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
from xdsl.dialects import affine
from xdsl.ir import Operation

from memplan.dialects import memref
from memplan.interpreter.affine_impl import CompiledMap
from memplan.interpreter.errors import ModelError
from memplan.interpreter.model import (
    DiscontiguousTensor,
    MemoryModel,
    Storage,
    pointer,
)
from memplan.interpreter.source import describe

COPY_OPS = frozenset({"memory.copy", "memref.copy"})
"""Ops are told apart by name, as in the cost model: the parsing context may
define its own class for an op."""
ELEMENT_OPS = frozenset({"memref.load", "memref.store", "memref.atomic_rmw"})
"""Ops that read or write one element: (value,) memref, indices."""


def _outputs(op: Operation) -> int:
    """How many trailing operands of a linalg op are its outputs."""
    outputs = getattr(op, "outputs", None)
    if outputs is not None:
        return len(outputs)
    return 1 if hasattr(op, "init") else 0


RELAYOUT_OPS = frozenset({"linalg.pack", "linalg.unpack"})
"""(source, dest, ...): read the source, write all of the dest."""


def linalg_access(op: Operation, operand_count: int) -> tuple[set[int], set[int]]:
    """(operands read, operands written) of a linalg op with `operand_count`
    operands; `memory-place` asks the same of the ops it moves data around."""
    if op.name in RELAYOUT_OPS:
        return {0}, {1}
    outputs = _outputs(op)
    first_output = operand_count - outputs
    written = set(range(first_output, operand_count))
    body = op.regions[0].blocks.first if op.regions else None
    if body is not None and len(body.args) == operand_count:
        read = {i for i, arg in enumerate(body.args) if arg.first_use is not None}
    else:
        read = set(range(first_output))
    return read, written


@dataclass(frozen=True, slots=True)
class _Layout:
    """A plain array's place in the written-byte mask of its storage."""

    array: weakref.ref[np.ndarray]
    written: memoryview
    """The storage's mask as bytes: numpy bools, 1 for a written byte."""
    size: int
    """Bytes of the storage."""
    start: int
    """Offset of the array's first element in the storage."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    ones: bytes
    """What the mask holds for an element all written: one 1 per byte."""


class UninitializedReads:
    """Keeps the written-byte masks up to date and checks each read."""

    def __init__(self, model: MemoryModel):
        self.model = model
        self._layouts: dict[int, _Layout] = {}
        """id(array) -> where a plain array lies in its checked storage."""

    def prepare(self, op: Operation) -> Callable[[Sequence[object]], None]:
        """What to check before each run of `op` (what it is about to read),
        then mark (what it will write); which operands those are is worked
        out once per op."""
        if op.name in ELEMENT_OPS:
            load = op.name == "memref.load"
            reads = load or _combines_with_memory(op)
            return partial(self._element_access, 0 if load else 1, reads, not load)
        if isinstance(op, affine.LoadOp | affine.StoreOp):
            load = isinstance(op, affine.LoadOp)
            return partial(
                self._affine_element_access,
                0 if load else 1,
                CompiledMap.of(op.map.data),
                load,
            )
        if op.name == "memref.realloc":
            # The run carries the source's written bytes over to the result.
            return _nothing
        if op.name in COPY_OPS:
            return partial(self._operands_access, (0,), (1,), "the source")
        if op.name == "memref.reshape":
            # A view: it reads the sizes, not the source's bytes.
            return partial(self._operands_access, (1,), (), "the shape")
        if op.name == "bufferization.clone":
            # Its result, a copy, is marked written when the run makes it.
            return partial(self._operands_access, (0,), (), "the source")
        if op.name.startswith("linalg."):
            read, written = linalg_access(op, len(op.operands))
            return partial(
                self._operands_access, tuple(sorted(read)), tuple(written), None
            )
        return self._mark_all

    def _element_access(
        self, position: int, reads: bool, writes: bool, args: Sequence[object]
    ) -> None:
        """A load, store or atomic_rmw of the element that the operands
        from `position` (memref, indices) name."""
        target = args[position]
        indices = args[position + 1 :]
        if self._element_fast(target, indices, reads, writes):
            return
        element = _element(target, indices)
        storage = self._storage_of(target)
        if element is None or storage is None:
            return
        masks = self._array_masks(element, storage)
        if reads:
            self._check(masks, target, "the element it loads")
        if writes:
            _mark(masks)

    def _affine_element_access(
        self, position: int, access: CompiledMap, load: bool, args: Sequence[object]
    ) -> None:
        """An affine.load or affine.store: its map gives the element's indices."""
        indices = access(args[position + 1 :])  # pyright: ignore[reportArgumentType]
        self._element_access(0, load, not load, (args[position], *indices))

    def _operands_access(
        self,
        read: tuple[int, ...],
        written: tuple[int, ...],
        what: str | None,
        args: Sequence[object],
    ) -> None:
        """Check the operands at `read` (named `what`, or by position), then
        mark those at `written`."""
        for index in read:
            self._check(
                self._masks(args[index]), args[index], what or f"operand {index}"
            )
        for index in written:
            _mark(self._masks(args[index]))

    def _mark_all(self, args: Sequence[object]) -> None:
        for value in args:
            _mark(self._masks(value))

    def _element_fast(
        self, target: object, indices: Sequence[object], reads: bool, writes: bool
    ) -> bool:
        """Check and mark one element of a plain array by its byte offset,
        without the views `_array_masks` builds (scalar code runs millions of
        loads and stores).  As there, an element out of bounds or outside a
        checked storage is left alone (the op itself refuses the former);
        False leaves the op to `_array_masks`: a tensor in blocks, and a read
        of unwritten bytes, for the error it words."""
        if type(target) is not np.ndarray:
            return False
        layout = self._layouts.get(id(target))
        if layout is None or layout.array() is not target:
            layout = self._layout(target)
            if layout is None:
                return True
        shape, strides = layout.shape, layout.strides
        if len(indices) != len(shape):
            return True
        start = layout.start
        for dim, index in enumerate(indices):
            position = int(index)  # pyright: ignore[reportArgumentType]
            if not 0 <= position < shape[dim]:
                return True
            start += position * strides[dim]
        end = start + len(layout.ones)
        if start < 0 or end > layout.size:
            return True
        if reads and layout.written[start:end] != layout.ones:
            return False
        if writes:
            layout.written[start:end] = layout.ones
        return True

    def layout_of(self, array: np.ndarray) -> tuple[np.ndarray, int, int] | None:
        """For a plain array whose accesses are checked: its storage's
        written-byte mask (1 for a written byte, writable), the offset of the
        array's first byte in it and the storage's size; else None."""
        layout = self._layouts.get(id(array))
        if layout is None or layout.array() is not array:
            layout = self._layout(array)
            if layout is None:
                return None
        return np.frombuffer(layout.written, dtype=np.uint8), layout.start, layout.size

    def _layout(self, array: np.ndarray) -> _Layout | None:
        """Where `array` lies in its checked storage, kept until `array`
        dies: its storage and place there do not change while it lives (a
        new array that gets its `id` is not the one the entry refers to)."""
        storage = self._storage_of(array)
        if storage is None or storage.written is None:
            return None
        key = id(array)

        def forget(ref: weakref.ref[np.ndarray]) -> None:
            if (entry := self._layouts.get(key)) is not None and entry.array is ref:
                del self._layouts[key]

        layout = _Layout(
            weakref.ref(array, forget),
            storage.written.view(np.uint8).data,
            storage.size,
            pointer(array) - pointer(storage.buffer),
            array.shape,
            array.strides,
            b"\x01" * array.itemsize,
        )
        self._layouts[key] = layout
        return layout

    def check_result(self, value: object, position: int) -> None:
        self._check(self._masks(value), value, f"result {position}")

    def _storage_of(self, value: object) -> Storage | None:
        if isinstance(value, DiscontiguousTensor):
            return value.data
        record = self.model.record_of(value)
        return None if record is None else record.ranges[0].storage

    def _masks(self, value: object) -> list[tuple[Storage, np.ndarray, int]]:
        """(storage, byte mask mirroring `value`, offset of value's first byte)."""
        if isinstance(value, DiscontiguousTensor):
            return [
                mask
                for index in range(value.block_count)
                for mask in self._array_masks(value.block(index), value.data)
            ]
        storage = self._storage_of(value)
        if not isinstance(value, np.ndarray) or storage is None:
            return []
        return self._array_masks(value, storage)

    @staticmethod
    def _array_masks(
        array: np.ndarray, storage: Storage
    ) -> list[tuple[Storage, np.ndarray, int]]:
        written = storage.written
        if written is None or array.size == 0:
            return []
        base = pointer(storage.buffer)
        low, high = np.lib.array_utils.byte_bounds(array)
        if low < base or high > base + storage.size:
            return []
        start = pointer(array) - base
        mask = np.lib.stride_tricks.as_strided(
            written[start:],
            shape=(*array.shape, array.itemsize),
            strides=(*array.strides, 1),
        )
        return [(storage, mask, start)]

    def _check(
        self, masks: list[tuple[Storage, np.ndarray, int]], tensor: object, what: str
    ) -> None:
        for storage, mask, start in masks:
            if mask.all():
                continue
            unwritten = ~mask
            first = np.unravel_index(int(np.argmax(unwritten)), mask.shape)
            offset = start + sum(
                int(i) * s for i, s in zip(first, mask.strides, strict=True)
            )
            record = self.model.record_of(tensor)
            owner = (
                f"the tensor allocated by {describe(record.op)}"
                if record is not None
                else "the tensor"
            )
            raise ModelError(
                f"{what} reads bytes never written since {owner} was allocated: "
                f"{int(unwritten.sum())} of the {mask.size} bytes it reads, the first "
                f'at byte {offset} of the "{storage.scope}" storage allocated by '
                f"{describe(storage.op)}"
            )


def _nothing(args: Sequence[object]) -> None:
    return None


def _combines_with_memory(op: Operation) -> bool:
    """An `atomic_rmw` reads the element it updates, unless it assigns."""
    return isinstance(op, memref.AtomicRMWOp) and op.kind_name() != "assign"


def _mark(masks: list[tuple[Storage, np.ndarray, int]]) -> None:
    for _, mask, _ in masks:
        mask[...] = True


def _element(value: object, indices: Sequence[object]) -> np.ndarray | None:
    """A one-element view of `value` at `indices`, None when out of bounds."""
    shape = tuple(getattr(value, "shape", ()))
    index = tuple(int(i) for i in indices)  # pyright: ignore[reportArgumentType]
    if len(index) != len(shape) or any(
        not 0 <= i < d for i, d in zip(index, shape, strict=True)
    ):
        return None
    if isinstance(value, DiscontiguousTensor):
        block, (inner,) = value.element(index)
        return block[inner : inner + 1]
    if isinstance(value, np.ndarray):
        # The Ellipsis keeps a view when there are no indices (a 0-d memref).
        return value[(*(slice(i, i + 1) for i in index), ...)]
    return None

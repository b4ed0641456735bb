"""The memory model: storages as byte buffers, tensors as views, live tracking.

Every storage is one numpy uint8 buffer with a fake but realistic base
address taken from an address space per scope and device.  A tensor is a
zero-copy view into its storage, so a plan that places two live tensors on
the same bytes really corrupts data; the model also remembers who owns
which bytes so that such a plan fails loudly, naming both allocations,
instead of silently.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
from xdsl.ir import Operation

from memplan.dialects.memory import INDEX_MAX
from memplan.interpreter.errors import ModelError
from memplan.interpreter.parallel import ParallelIterations
from memplan.interpreter.ranges import DisjointRanges
from memplan.interpreter.source import describe
from memplan.interpreter.stats import Stats
from memplan.targets import GLOBAL_SCOPE, VTCM_SCOPE, Target

SCOPE_BASE_ADDRESSES = {GLOBAL_SCOPE: 0x1000_0000, VTCM_SCOPE: 0xD800_0000}
"""Where each scope's address space starts; VTCM sits high, as on Hexagon."""
OTHER_SCOPES_BASE = 0x4000_0000
OTHER_SCOPES_STRIDE = 0x1000_0000


SPARE_MIN_BYTES = 64 * 1024
SPARE_MAX_BYTES = 256 * 1024 * 1024
"""Buffers of killed storages kept for reuse: from this size, up to this total."""

UNBOUNDED_WINDOW = 1 << 62
"""Bytes in the address window of a scope without capacity (DDR)."""


class AddressSpace:
    """The address window `[base, base + capacity)` of one scope of one
    device, served first fit.

    Free bytes are kept as disjoint ranges in address order; an allocation
    takes the lowest address that is aligned as asked and starts a free range
    long enough, so alignment padding and fragmentation cost space as in a
    runtime allocator.  A zero-byte storage still takes one byte, so live
    storages have distinct addresses.
    """

    def __init__(self, base: int, capacity: int | None, alignment: int):
        self.base = base
        self.window = UNBOUNDED_WINDOW if capacity is None else capacity
        self.free_bytes = self.window
        self.extent = 0
        """The highest address (from base) any storage has reached."""
        self._free = DisjointRanges[None](alignment)
        if self.window:
            self._free.add(base, base + self.window, None)
        self._sizes: dict[int, int] = {}

    def allocate(self, size: int, alignment: int) -> int | None:
        """The address of `size` fresh bytes, or None when no free range fits."""
        size = max(size, 1)
        hit = self._free.first_fit(size, alignment)
        if hit is None:
            return None
        free, address = hit
        self._free.remove(free.start)
        if free.start < address:
            self._free.add(free.start, address, None)
        if address + size < free.end:
            self._free.add(address + size, free.end, None)
        self._sizes[address] = size
        self.free_bytes -= size
        self.extent = max(self.extent, address + size - self.base)
        return address

    def free(self, address: int) -> None:
        start = address
        end = address + self._sizes.pop(address)
        self.free_bytes += end - start
        before = self._free.floor(start)
        if before is not None and before.end == start:
            start = self._free.remove(before.start).start
        after = self._free.ceiling(end)
        if after is not None and after.start == end:
            end = self._free.remove(after.start).end
        self._free.add(start, end, None)

    def largest_free_range(self) -> int:
        return max((r.end - r.start for r in self._free), default=0)


def address_space(scope: str, target: Target, others: int = 0) -> AddressSpace:
    """The empty window of `scope` on `target`, where `others` scopes without
    a base address of their own got a window before it (`memory-verify`
    replays allocations in one, as the run makes them)."""
    base = SCOPE_BASE_ADDRESSES.get(
        scope, OTHER_SCOPES_BASE + others * OTHER_SCOPES_STRIDE
    )
    return AddressSpace(base, target.capacity(scope), target.alignment(scope))


@dataclass(eq=False)
class Storage:
    """Bytes reserved in one scope; the runtime value of a storage SSA value."""

    op: Operation
    scope: str
    size: int
    address: int
    buffer: np.ndarray
    device: int = 0
    """The device whose window of the scope holds it."""
    killed_by: str | None = None
    written: np.ndarray | None = None
    """Which bytes were written since their tensor was placed (a bool per
    byte), kept only when the run checks for uninitialized reads."""
    tensors: DisjointRanges[TensorRecord] = field(
        default_factory=DisjointRanges["TensorRecord"]
    )
    """The byte ranges of the live tensors placed in this storage."""
    empty_tensors: list[TensorRecord] = field(default_factory=list)
    """The live tensors of zero bytes placed in it: they own no bytes, so
    they share offsets with anything, but die with the storage all the same."""
    serial: int = 0
    """When it was made, from `ParallelIterations.stamp`."""


@dataclass(frozen=True)
class ByteRange:
    storage: Storage
    start: int
    end: int

    def overlap(self, other: ByteRange) -> tuple[int, int] | None:
        if other.storage is not self.storage:
            return None
        start, end = max(self.start, other.start), min(self.end, other.end)
        return (start, end) if start < end else None


@dataclass(eq=False)
class TensorRecord:
    """Which bytes one tensor owns and whether it may still be used."""

    op: Operation
    ranges: tuple[ByteRange, ...]
    killed_by: str | None = None
    overwritten_by: str | None = None
    serial: int = 0
    """When it was placed, from `ParallelIterations.stamp`."""

    @property
    def live(self) -> bool:
        return self.killed_by is None and self.overwritten_by is None

    def check_usable(self) -> None:
        if self.killed_by is not None:
            raise ModelError(
                f"uses the tensor allocated by {describe(self.op)} after it was "
                f"killed by {self.killed_by}"
            )
        if self.overwritten_by is not None:
            raise ModelError(
                f"uses the tensor allocated by {describe(self.op)}, but "
                f"{self.overwritten_by} while it was still live"
            )


@dataclass(eq=False)
class DiscontiguousTensor:
    """A tensor whose blocks are found by reading its pointer table's bytes.

    Its elements, in row-major order, are cut into `block_count` blocks of
    `block_elements` each (the last one may be partial).  Nothing caches the
    block addresses: every access decodes the table, so a plan that corrupts
    the table (or moves a block) shows up as wrong data or as an address
    outside the data storage.
    """

    record: TensorRecord
    table: Storage
    table_offset: int
    data: Storage
    shape: tuple[int, ...]
    dtype: np.dtype
    pointer_width: int
    block_elements: int
    block_count: int
    read_only: bool = False
    """Writes through this handle are refused, as through a read-only array
    (the buffer of a `bufferization.to_buffer` that is `read_only`)."""

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def block_bytes(self, index: int) -> int:
        """Bytes of block `index`: all blocks are full but the last."""
        start = index * self.block_elements
        return (
            min(start + self.block_elements, self.size) - start
        ) * self.dtype.itemsize

    def block_addresses(self) -> np.ndarray:
        end = self.table_offset + self.block_count * self.pointer_width
        entry = np.dtype(f"<u{self.pointer_width}")
        return self.table.buffer[self.table_offset : end].view(entry)

    def block(self, index: int) -> np.ndarray:
        """Zero-copy flat view of block `index`, located through the table."""
        address = int(self.block_addresses()[index])
        offset = address - self.data.address
        nbytes = self.block_bytes(index)
        if offset < 0 or offset + nbytes > self.data.size:
            raise ModelError(
                f"pointer table entry {index} holds address {address:#x}, outside "
                f"the {self.data.size}-byte data storage at {self.data.address:#x}"
            )
        if offset % self.dtype.itemsize:
            raise ModelError(
                f"pointer table entry {index} holds address {address:#x}, not "
                f"aligned to the element size {self.dtype.itemsize}"
            )
        view = self.data.buffer[offset : offset + nbytes].view(self.dtype)
        if self.read_only:
            view.flags.writeable = False
        return view

    def element(self, index: tuple[int, ...]) -> tuple[np.ndarray, tuple[int]]:
        """The block holding the element at (in-bounds) `index`, and its position."""
        flat = int(np.ravel_multi_index(index, self.shape)) if self.shape else 0
        return self.block(flat // self.block_elements), (flat % self.block_elements,)

    def gather(self) -> np.ndarray:
        """A contiguous copy of the whole tensor."""
        if not self.block_count:
            return np.zeros(self.shape, self.dtype)
        blocks = [self.block(i) for i in range(self.block_count)]
        return np.concatenate(blocks).reshape(self.shape)

    def scatter(self, values: np.ndarray) -> None:
        """Write a whole tensor's values into its blocks."""
        flat = np.broadcast_to(values, self.shape).reshape(-1)
        for index in range(self.block_count):
            start = index * self.block_elements
            block = self.block(index)
            block[...] = flat[start : start + block.size]


Tensor = np.ndarray | DiscontiguousTensor
"""The runtime value of a memref SSA value."""


class MemoryModel:
    """All storages and tensors of one run, with the checks a plan must pass."""

    def __init__(self, target: Target, stats: Stats, check_uninitialized: bool = False):
        self.target = target
        self.stats = stats
        self.check_uninitialized = check_uninitialized
        self._spaces: dict[tuple[str, int], AddressSpace] = {}
        """(scope, device) -> its window: each device has its own."""
        self._in_use: dict[tuple[str, int], int] = {}
        self._owners: dict[int, tuple[weakref.ref[np.ndarray], TensorRecord]] = {}
        """id(view) -> (the view, its tensor); an entry dies with its view."""
        self._spare: dict[int, list[np.ndarray]] = {}
        self._spare_bytes = 0
        self.iterations = ParallelIterations()

    def _space(self, scope: str, device: int) -> AddressSpace:
        """The window of `scope` on `device`; the windows of one scope on
        different devices start at the same base address."""
        key = (scope, device)
        if key not in self._spaces:
            others = list(
                dict.fromkeys(
                    s for s, _ in self._spaces if s not in SCOPE_BASE_ADDRESSES
                )
            )
            index = others.index(scope) if scope in others else len(others)
            self._spaces[key] = address_space(scope, self.target, index)
        return self._spaces[key]

    def allocate_storage(
        self, op: Operation, scope: str, size: int, alignment: int, device: int = 0
    ) -> Storage:
        if size < 0:
            raise ModelError(f"storage size must be non-negative, got {size}")
        if alignment <= 0 or alignment & (alignment - 1):
            raise ModelError(f"alignment {alignment} is not a positive power of two")
        alignment = max(alignment, self.target.alignment(scope))
        space = self._space(scope, device)
        address = space.allocate(size, alignment)
        where = f'"{scope}"' + (f" of device {device}" if device else "")
        if address is None:
            raise ModelError(
                f"cannot allocate {size} bytes in {where}: no free range of its "
                f"{space.window}-byte window holds them at a {alignment}-byte "
                f"aligned address ({space.free_bytes} bytes free in total, the "
                f"largest free range has {space.largest_free_range()} bytes)"
            )
        try:
            buffer = self._zeroed_buffer(size)
        except MemoryError:
            raise ModelError(
                f"cannot allocate {size} bytes in {where}: the interpreter keeps "
                "every storage in host memory, and the host has not that much free"
            ) from None
        in_use = self._in_use[scope, device] = (
            self._in_use.get((scope, device), 0) + size
        )
        self.stats.record_allocation(scope, device, in_use, space.extent)
        storage = Storage(
            op, scope, size, address, buffer, device, serial=self.iterations.stamp()
        )
        if self.check_uninitialized:
            storage.written = np.zeros(size, dtype=np.bool_)
        return storage

    def kill_storage(self, storage: Storage, killer: str) -> None:
        if storage.killed_by is not None:
            raise ModelError(
                f"storage allocated by {describe(storage.op)} was already killed by "
                f"{storage.killed_by}"
            )
        self.iterations.check_kill(
            storage.serial, f"the storage allocated by {describe(storage.op)}"
        )
        storage.killed_by = killer
        tensors, storage.tensors = storage.tensors, DisjointRanges[TensorRecord]()
        empty, storage.empty_tensors = storage.empty_tensors, []
        for record in [placed.value for placed in tensors] + empty:
            if record.live:
                record.killed_by = f"{killer}, which killed its storage"
                _forget(record)
        self._space(storage.scope, storage.device).free(storage.address)
        self._in_use[storage.scope, storage.device] -= storage.size
        if storage.size >= SPARE_MIN_BYTES and self._spare_bytes < SPARE_MAX_BYTES:
            self._spare.setdefault(storage.size, []).append(storage.buffer)
            self._spare_bytes += storage.size

    def _zeroed_buffer(self, size: int) -> np.ndarray:
        """A zero-filled buffer, reusing one a killed storage of that size left.

        Writing into freshly mapped memory costs a page fault per 4 KiB, several
        times the write itself (numpy code reuses its freed memory instead).  A
        killed storage's bytes are never read again (every use is checked), so
        its buffer serves the next storage of its size once zeroed.
        """
        spare = self._spare.get(size)
        if spare:
            buffer = spare.pop()
            self._spare_bytes -= size
            buffer.fill(0)
            return buffer
        return np.zeros(size, dtype=np.uint8)

    def check_storage(self, storage: Storage) -> None:
        if storage.killed_by is not None:
            raise ModelError(
                f"uses the storage allocated by {describe(storage.op)} after it was "
                f"killed by {storage.killed_by}"
            )

    def _claim(self, op: Operation, ranges: tuple[ByteRange, ...]) -> TensorRecord:
        """Own `ranges` for a new tensor; live tensors on those bytes lose them."""
        for claimed in ranges:
            self.check_storage(claimed.storage)
        self.iterations.check_placement(op, ranges)
        record = TensorRecord(op, ranges, serial=self.iterations.stamp())
        for claimed in ranges:
            storage = claimed.storage
            if claimed.start == claimed.end:
                continue
            for placed in storage.tensors.overlapping(claimed.start, claimed.end):
                start = max(placed.start, claimed.start)
                end = min(placed.end, claimed.end)
                old = placed.value
                old.overwritten_by = (
                    f"{describe(op)} was placed over its bytes [{start}, {end}) of "
                    f'the "{storage.scope}" storage allocated by {describe(storage.op)}'
                )
                _forget(old)
        for claimed in ranges:
            if claimed.start == claimed.end:
                claimed.storage.empty_tensors.append(record)
            else:
                claimed.storage.tensors.add(claimed.start, claimed.end, record)
        return record

    def place_tensor(
        self,
        op: Operation,
        storage: Storage,
        offset: int,
        shape: tuple[int, ...],
        dtype: np.dtype,
        requested: int | None = None,
    ) -> np.ndarray:
        """A tensor at byte `offset` of `storage`, as a zero-copy view, at an
        address aligned to its element size and to the `requested` alignment
        (the `align` of `memory.alloc_tensor`)."""
        self.check_storage(storage)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        _check_inside(storage, offset, nbytes, "tensor")
        _check_aligned(storage, offset, dtype.itemsize, "tensor offset", "element size")
        if requested is not None:
            _check_aligned(
                storage, offset, requested, "tensor offset", "requested alignment"
            )
        record = self._claim(op, (ByteRange(storage, offset, offset + nbytes),))
        if storage.written is not None:
            storage.written[offset : offset + nbytes] = False
        view = storage.buffer[offset : offset + nbytes].view(dtype).reshape(shape)
        self.register_view(view, record)
        return view

    def place_discontiguous(
        self,
        op: Operation,
        table: Storage,
        table_offset: int,
        data: Storage,
        block_offsets: list[int],
        shape: tuple[int, ...],
        dtype: np.dtype,
        pointer_width: int,
        block_elements: int,
    ) -> DiscontiguousTensor:
        """Write the pointer table and return the tensor that reads it."""
        self.check_storage(table)
        self.check_storage(data)
        table_bytes = len(block_offsets) * pointer_width
        _check_inside(table, table_offset, table_bytes, "pointer table")
        _check_aligned(
            table, table_offset, pointer_width, "table offset", "pointer width"
        )
        tensor = DiscontiguousTensor(
            TensorRecord(op, ()),
            table,
            table_offset,
            data,
            shape,
            dtype,
            pointer_width,
            block_elements,
            len(block_offsets),
        )
        ranges = [ByteRange(table, table_offset, table_offset + table_bytes)]
        for index, offset in enumerate(block_offsets):
            block_bytes = tensor.block_bytes(index)
            _check_inside(data, offset, block_bytes, f"block {index}")
            _check_aligned(
                data, offset, dtype.itemsize, f"block {index} offset", "element size"
            )
            ranges.append(ByteRange(data, offset, offset + block_bytes))
        _check_disjoint(ranges)
        limit = 1 << (8 * pointer_width)
        addresses = [data.address + offset for offset in block_offsets]
        if any(address >= limit for address in addresses):
            raise ModelError(
                f"block addresses do not fit in {pointer_width}-byte pointers"
            )
        entries = np.array(addresses, dtype=f"<u{pointer_width}")
        table.buffer[table_offset : table_offset + table_bytes] = entries.view(np.uint8)
        tensor.record = self._claim(op, tuple(ranges))
        for placed in ranges:
            if placed.storage.written is not None:
                placed.storage.written[placed.start : placed.end] = placed is ranges[0]
        return tensor

    def allocate_memref(
        self,
        op: Operation,
        scope: str,
        shape: tuple[int, ...],
        dtype: np.dtype,
        alignment: int,
    ) -> np.ndarray:
        """`memref.alloc`: a storage of its own holding one tensor."""
        if any(dim < 0 for dim in shape):
            raise ModelError(f"negative dimension in shape {list(shape)}")
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes > INDEX_MAX:
            raise ModelError(
                f"a memref of shape {list(shape)} needs {nbytes} bytes, more than "
                f"a storage size holds (at most {INDEX_MAX})"
            )
        storage = self.allocate_storage(op, scope, nbytes, alignment)
        return self.place_tensor(op, storage, 0, shape, dtype)

    def move_elements(self, source: np.ndarray, target: np.ndarray, scope: str) -> None:
        """Copy the leading elements of `source` that `target` holds (both 1-D,
        contiguous, of one dtype), with what is known of their bytes being
        written, and count the bytes as a copy within `scope`."""
        count = min(source.size, target.size)
        target[:count] = source[:count]
        nbytes = count * source.itemsize
        self.stats.record_copy(scope, scope, nbytes)
        written = self._written_bytes(source)
        target_written = self._written_bytes(target)
        if target_written is not None:
            target_written[:nbytes] = True if written is None else written[:nbytes]

    def mark_written(self, array: np.ndarray) -> None:
        """Count every byte of a contiguous tensor the run allocated as
        written (the copy a clone makes)."""
        written = self._written_bytes(array)
        if written is not None:
            written[: array.nbytes] = True

    def _written_bytes(self, array: np.ndarray) -> np.ndarray | None:
        """The written-byte mask from the first byte of a contiguous tensor the
        run allocated, when the run checks for uninitialized reads."""
        record = self.record_of(array)
        if record is None:
            return None
        storage = record.ranges[0].storage
        if storage.written is None:
            return None
        start = pointer(array) - pointer(storage.buffer)
        return storage.written[start:]

    def register_view(self, view: np.ndarray, record: TensorRecord) -> None:
        key = id(view)

        def forget(_: weakref.ref[np.ndarray]) -> None:
            self._owners.pop(key, None)

        self._owners[key] = (weakref.ref(view, forget), record)

    def record_of(self, value: object) -> TensorRecord | None:
        if isinstance(value, DiscontiguousTensor):
            return value.record
        entry = self._owners.get(id(value))
        if entry is None or entry[0]() is not value:
            return None
        return entry[1]

    def share_owner(self, view: np.ndarray, source: object) -> np.ndarray:
        """Let a view (subview, cast, reshape) answer for the tensor it views."""
        record = self.record_of(source)
        if record is not None:
            self.register_view(view, record)
        return view

    def check_use(self, value: object) -> None:
        if isinstance(value, Storage):
            self.check_storage(value)
            return
        record = self.record_of(value)
        if record is not None:
            record.check_usable()

    def kill(self, value: object, killer: str) -> None:
        if isinstance(value, Storage):
            self.kill_storage(value, killer)
            return
        record = self.record_of(value)
        if record is None:
            raise ModelError("kills a value that no memory op allocated")
        if record.killed_by is not None:
            raise ModelError(
                f"kills the tensor allocated by {describe(record.op)} again: it was "
                f"killed by {record.killed_by}"
            )
        self.iterations.check_kill(
            record.serial, f"the tensor allocated by {describe(record.op)}"
        )
        was_live = record.live
        record.killed_by = killer
        if was_live:
            _forget(record)

    def free_memref(self, value: object, killer: str) -> None:
        """`memref.dealloc`: kill the storage `memref.alloc` made."""
        record = self.record_of(value)
        if record is None:
            return
        self.kill_storage(record.ranges[0].storage, killer)


def pointer(array: np.ndarray) -> int:
    """The host address of an array's first element."""
    return array.__array_interface__["data"][0]


def _forget(record: TensorRecord) -> None:
    """Take a tensor that just stopped being live out of its storages' maps."""
    for byte_range in record.ranges:
        storage = byte_range.storage
        if storage.killed_by is not None:
            continue
        if byte_range.start == byte_range.end:
            storage.empty_tensors.remove(record)
        else:
            storage.tensors.remove(byte_range.start)


def _check_disjoint(ranges: list[ByteRange]) -> None:
    """No block of a tensor shares bytes with another or with its pointer
    table (`ranges[0]`), checked in address order."""
    names = ["the pointer table"] + [f"block {i}" for i in range(len(ranges) - 1)]
    ordered = sorted(
        range(len(ranges)),
        key=lambda i: (id(ranges[i].storage), ranges[i].start, i),
    )
    for first, second in pairwise(ordered):
        if ranges[first].overlap(ranges[second]) is not None:
            earlier, later = min(first, second), max(first, second)
            block, other = ranges[later], ranges[earlier]
            raise ModelError(
                f"{names[later]} at bytes [{block.start}, {block.end}) "
                f"overlaps {names[earlier]} at bytes [{other.start}, {other.end})"
            )


def _check_inside(storage: Storage, offset: int, nbytes: int, what: str) -> None:
    if offset < 0 or offset + nbytes > storage.size:
        raise ModelError(
            f"{what} of {nbytes} bytes at offset {offset} does not fit in its "
            f'{storage.size}-byte "{storage.scope}" storage allocated by '
            f"{describe(storage.op)}"
        )


def _check_aligned(
    storage: Storage, offset: int, alignment: int, what: str, unit: str
) -> None:
    if (storage.address + offset) % alignment:
        raise ModelError(
            f"{what} {offset} is misaligned: address {storage.address + offset:#x} "
            f"is not a multiple of the {unit} {alignment}"
        )

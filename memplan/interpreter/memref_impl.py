"""memref ops on numpy views; allocations go through the memory model."""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_attr,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from memplan.dialects import bufferization, memref
from memplan.dialects.memory import AllocTensorOp, scope_of
from memplan.interpreter.arith_impl import constant_value
from memplan.interpreter.atomics import atomic_update
from memplan.interpreter.element_types import numpy_dtype
from memplan.interpreter.errors import ModelError
from memplan.interpreter.memory_impl import copy_tensor, merge_static, runtime_shape
from memplan.interpreter.model import (
    DiscontiguousTensor,
    MemoryModel,
    Tensor,
    pointer,
)
from memplan.interpreter.regions import Compiled, CompilingFunctions
from memplan.interpreter.resource_globals import global_values
from memplan.interpreter.source import describe
from memplan.planning.buffers import align_up
from memplan.symbols import lookup_symbol

EXTERNAL_BASE = 0x0100_0000
"""Where the addresses of buffers the run did not allocate (arguments,
globals) start: below every scope's window, handed out in the order the
program asks for them, so pointers print the same on every run."""
EXTERNAL_ALIGNMENT = 64


def _contiguous_tensor(value: Tensor, what: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise ModelError(f"{what} of a discontiguous tensor is not supported")
    return value


def _memref_type(value: Attribute) -> MemRefType:
    """`value` as a ranked memref type; anything else (an unranked memref) is
    a model error naming it, since the interpreter runs ranked memrefs only."""
    if not isinstance(value, MemRefType):
        raise ModelError(
            f"{value} is not supported: the interpreter runs ranked memrefs only"
        )
    return value


def _static_size_mismatch(
    shape: Sequence[int], target: MemRefType
) -> tuple[int, int, int] | None:
    """The first dimension, with its run-time and static size, where
    run-time sizes `shape` break a static size of `target` (a static size
    asserts the run-time one); None when they fit."""
    return next(
        (
            (dim, have, want)
            for dim, (have, want) in enumerate(
                zip(shape, target.get_shape(), strict=True)
            )
            if want not in (DYNAMIC_INDEX, have)
        ),
        None,
    )


def _fits_static_sizes(shape: Sequence[int], target: MemRefType) -> bool:
    return _static_size_mismatch(shape, target) is None


def check_indices(shape: tuple[int, ...], indices: Sequence[Any]) -> tuple[int, ...]:
    index = tuple(map(int, indices))
    if (
        len(index) != len(shape)
        or min(index, default=0) < 0
        or not all(map(operator.lt, index, shape))
    ):
        raise ModelError(
            f"index {list(index)} is out of bounds for shape {list(shape)}"
        )
    return index


def element_at(
    value: Tensor, index: tuple[int, ...]
) -> tuple[np.ndarray, tuple[int, ...]]:
    """The array holding element `index` and the index within it."""
    if isinstance(value, DiscontiguousTensor):
        return value.element(index)
    return value, index


def _element_value(element: object, dtype: np.dtype) -> object:
    """`element` converted to `dtype` as numpy's `astype` does; a value that
    already has that dtype (the usual case) is kept as it is, skipping the
    conversion's two allocations."""
    if getattr(element, "dtype", None) == dtype:
        return element
    return np.asarray(element).astype(dtype)


def _offsets_sizes_strides(
    op: memref.SubviewOp | memref.ReinterpretCastOp, dynamic: Sequence[Any]
) -> tuple[list[int], list[int], list[int]]:
    """The op's offsets, sizes and strides with dynamic entries filled in."""
    sizes_start = len(op.offsets)
    strides_start = sizes_start + len(op.sizes)
    return (
        merge_static(op.static_offsets.get_values(), dynamic[:sizes_start]),
        merge_static(op.static_sizes.get_values(), dynamic[sizes_start:strides_start]),
        merge_static(op.static_strides.get_values(), dynamic[strides_start:]),
    )


def _no_copy_reshape(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    try:
        return np.reshape(array, shape, copy=False)
    except ValueError:
        raise ModelError(
            f"cannot view shape {list(array.shape)} as {list(shape)} without copying"
        ) from None


@register_impls
class MemRefFunctions(CompilingFunctions):
    """memref allocation, access and view ops."""

    def __init__(self, model: MemoryModel):
        self.model = model
        self._globals: dict[str, np.ndarray] = {}
        self._frames: list[list[np.ndarray]] = []
        self._bases: dict[int, tuple[weakref.ref[np.ndarray], np.ndarray]] = {}
        """The base bytes of each `memref.view` result and of what views it."""
        self._external: dict[int, tuple[np.ndarray, int]] = {}
        """id(root) -> (root, address) of the buffers the run did not allocate."""
        self._next_external = EXTERNAL_BASE

    def _allocate(
        self,
        interpreter: Interpreter,
        op: memref.AllocOp | memref.AllocaOp,
        args: PythonValues,
    ) -> np.ndarray:
        type_ = _memref_type(op.memref.type)
        shape = runtime_shape(type_, args[: len(op.dynamic_sizes)])
        dtype = numpy_dtype(type_.element_type, interpreter.index_bitwidth)
        alignment = op.alignment.value.data if op.alignment is not None else 1
        return self.model.allocate_memref(op, scope_of(type_), shape, dtype, alignment)

    def run_alloc(
        self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues
    ) -> PythonValues:
        return (self._allocate(interpreter, op, args),)

    run_xdsl_alloc = impl(memref.AllocOp)(run_alloc)
    run_checked_alloc = impl(memref.CheckedAllocOp)(run_alloc)

    def run_alloca(
        self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues
    ) -> PythonValues:
        array = self._allocate(interpreter, op, args)
        if self._frames:
            self._frames[-1].append(array)
        return (array,)

    run_xdsl_alloca = impl(memref.AllocaOp)(run_alloca)
    run_checked_alloca = impl(memref.CheckedAllocaOp)(run_alloca)

    def enter_scope(self) -> None:
        """A function or another automatic allocation scope starts."""
        self._frames.append([])

    def leave_scope(self, killer: str) -> None:
        """Free the scope's `memref.alloca`s, as returning pops the stack:
        also one whose tensor a `memory.kill` ended (that frees no bytes)."""
        for array in self._frames.pop():
            self.model.free_memref(array, killer)

    @impl(bufferization.CloneOp)
    def run_clone(
        self, interpreter: Interpreter, op: bufferization.CloneOp, args: PythonValues
    ) -> PythonValues:
        """A new buffer of the result type holding a copy of the operand,
        allocated as `memref.alloc` would (MLIR lowers the op to an alloc and a
        copy), so `memref.dealloc` frees it.  MLIR's deallocation pipeline
        clones each function argument or global a function returns, and a view
        into a buffer of the identity layout."""
        source_type = _memref_type(op.input.type)
        try:
            type_ = bufferization.clone_allocation(source_type, op.output.type)
        except VerifyException as error:
            raise ModelError(f"cannot clone {error}") from None
        if not _fits_static_sizes(args[0].shape, type_):
            raise ModelError(
                f"cannot clone shape {list(args[0].shape)} to {op.output.type}"
            )
        dtype = numpy_dtype(type_.element_type, interpreter.index_bitwidth)
        clone = self.model.allocate_memref(
            op, scope_of(type_), tuple(args[0].shape), dtype, 1
        )
        copy_tensor(self.model, source_type, type_, args[0], clone)
        self.model.mark_written(clone)
        return (clone,)

    @impl(bufferization.ToTensorOp)
    def run_to_tensor(
        self,
        interpreter: Interpreter,
        op: bufferization.ToTensorOp,
        args: PythonValues,
    ) -> PythonValues:
        """The tensor is the memref's bytes, not a copy of them (MLIR's meaning:
        an alias), so it dies with them: a use of it after they are freed or
        given to another tensor is a use of a dead tensor."""
        return (self._alias(args[0], read_only=False),)

    @impl(bufferization.ToBufferOp)
    def run_to_buffer(
        self,
        interpreter: Interpreter,
        op: bufferization.ToBufferOp,
        args: PythonValues,
    ) -> PythonValues:
        """A memref over the tensor's bytes, nothing copied.  MLIR leaves
        writing it undefined when the op is `read_only` or the tensor is an
        argument of the entry function (`check_argument` makes those
        read-only): the run stops at such a write."""
        return (self._alias(args[0], read_only=op.read_only is not None),)

    def _alias(self, value: Tensor, read_only: bool) -> Tensor:
        """A view of `value` answering for its tensor, read-only if asked."""
        if isinstance(value, DiscontiguousTensor):
            return replace(value, read_only=True) if read_only else value
        if not isinstance(value, np.ndarray):
            return value
        view = self._derived(value.view(), value)
        if read_only:
            view.flags.writeable = False
        return view

    @impl(memref.DeallocOp)
    def run_dealloc(
        self, interpreter: Interpreter, op: memref.DeallocOp, args: PythonValues
    ) -> PythonValues:
        _check_freeable(self.model, args[0], "deallocates", DEALLOCATABLE)
        self.model.free_memref(args[0], describe(op))
        return ()

    @impl(memref.ReallocOp)
    def run_realloc(
        self, interpreter: Interpreter, op: memref.ReallocOp, args: PythonValues
    ) -> PythonValues:
        """A new allocation of the result's size holding the first
        min(old, new) elements of the source, which it then frees: as MLIR's
        `expand-realloc` lowers it (alloc, copy, dealloc), so both buffers
        count in the peak while the elements move."""
        _check_freeable(self.model, args[0], "reallocates", REALLOCATABLE)
        source = _contiguous_tensor(args[0], "a realloc")
        type_ = _memref_type(op.result.type)
        shape = runtime_shape(type_, args[1:])
        alignment = op.alignment.value.data if op.alignment is not None else 1
        result = self.model.allocate_memref(
            op, scope_of(type_), shape, source.dtype, alignment
        )
        self.model.move_elements(source, result, scope_of(type_))
        self.model.free_memref(source, describe(op))
        return (result,)

    @impl(memref.AtomicRMWOp)
    def run_atomic_rmw(
        self, interpreter: Interpreter, op: memref.AtomicRMWOp, args: PythonValues
    ) -> PythonValues:
        """Combine the element with the value by the op's kind, store the
        result and return the element's value from before."""
        value, target, *indices = args
        array, index = element_at(target, check_indices(tuple(target.shape), indices))
        old = array[index]
        array[index] = atomic_update(op, old, value, interpreter.index_bitwidth)
        return (old,)

    def compile(self, interpreter: Interpreter, op: Operation) -> Compiled | None:
        """Loads and stores of one element for scalar code: see `_load`."""
        if isinstance(op, memref.LoadOp):
            return _load
        if isinstance(op, memref.StoreOp):
            return _store
        return None

    @impl(memref.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues
    ) -> PythonValues:
        return _load(args)

    @impl(memref.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues
    ) -> PythonValues:
        return _store(args)

    @impl(memref.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: memref.CopyOp, args: PythonValues
    ) -> PythonValues:
        copy_tensor(
            self.model,
            _memref_type(op.source.type),
            _memref_type(op.destination.type),
            args[0],
            args[1],
        )
        return ()

    @impl(memref.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: memref.DimOp, args: PythonValues
    ) -> PythonValues:
        value, dim = args
        rank = len(value.shape)
        if not 0 <= int(dim) < rank:
            raise ModelError(
                f"dimension index {int(dim)} is out of range for a rank-{rank} memref"
            )
        return (int(value.shape[int(dim)]),)

    @impl(memref.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: memref.CastOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        target = _memref_type(op.dest.type)
        mismatch = _static_size_mismatch(value.shape, target)
        if mismatch is not None:
            dim, have, want = mismatch
            raise ModelError(
                f"cannot cast a memref of shape {list(value.shape)} to {target}: "
                f"its size {have} in dimension {dim} is not the static size {want}"
            )
        return (value,)

    @impl(memref.ViewOp)
    def run_view(
        self, interpreter: Interpreter, op: memref.ViewOp, args: PythonValues
    ) -> PythonValues:
        source, shift, *sizes = args
        if (
            not isinstance(source, np.ndarray)
            or source.dtype.itemsize != 1
            or source.ndim != 1
        ):
            raise ModelError("memref.view needs a 1-D i8 source memref")
        target = _memref_type(op.result.type)
        shape = runtime_shape(target, sizes)
        dtype = numpy_dtype(target.element_type, interpreter.index_bitwidth)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        start = int(shift)
        if start < 0 or start + nbytes > source.shape[0]:
            raise ModelError(
                f"view of {nbytes} bytes at byte shift {start} does not fit in its "
                f"{source.shape[0]}-byte source"
            )
        if start % dtype.itemsize:
            raise ModelError(
                f"byte shift {start} is not a multiple of the element size {dtype.itemsize}"
            )
        raw = source[start : start + nbytes]
        view = raw.view(dtype).reshape(shape)
        # As in MLIR, the view's base pointer is the source's plus the shift:
        # reinterpret_cast offsets of the view count from its first byte.
        self._set_base(view, raw)
        return (self.model.share_owner(view, source),)

    @impl(memref.SubviewOp)
    def run_subview(
        self, interpreter: Interpreter, op: memref.SubviewOp, args: PythonValues
    ) -> PythonValues:
        source = args[0]
        if not isinstance(source, np.ndarray):
            raise ModelError("subviews of discontiguous tensors are not supported")
        offsets, sizes, strides = _offsets_sizes_strides(op, args[1:])
        slices: list[slice] = []
        for dim, (offset, size, stride) in enumerate(
            zip(offsets, sizes, strides, strict=True)
        ):
            last = offset + (size - 1) * stride
            if (
                size < 0
                or stride <= 0
                or offset < 0
                or (size and last >= source.shape[dim])
            ):
                raise ModelError(
                    f"subview offset {offset}, size {size}, stride {stride} is out of "
                    f"bounds for dimension {dim} of size {source.shape[dim]}"
                )
            slices.append(slice(offset, offset + size * stride, stride))
        view = source[tuple(slices)]
        result_rank = len(_memref_type(op.result.type).get_shape())
        if result_rank != view.ndim:
            dropped = op.dropped_dims()
            if dropped is None:
                view = _no_copy_reshape(
                    view, _drop_unit_dims(view.shape, _memref_type(op.result.type))
                )
            else:
                view = view[
                    tuple(0 if d in dropped else slice(None) for d in range(view.ndim))
                ]
        return (self._derived(view, source),)

    @impl(memref.ReinterpretCastOp)
    def run_reinterpret_cast(
        self, interpreter: Interpreter, op: memref.ReinterpretCastOp, args: PythonValues
    ) -> PythonValues:
        source = args[0]
        if not isinstance(source, np.ndarray):
            raise ModelError("reinterpreting a discontiguous tensor is not supported")
        (offset,), sizes, strides = _offsets_sizes_strides(op, args[1:])
        base = self._allocation_of(source)
        last = offset + sum(
            (size - 1) * stride for size, stride in zip(sizes, strides, strict=True)
        )
        if (
            offset < 0
            or any(s < 0 for s in strides)
            or (all(sizes) and last >= base.size)
        ):
            raise ModelError(
                f"offset {offset}, sizes {sizes}, strides {strides} reach element "
                f"{last} of an allocation of {base.size} elements"
            )
        itemsize = base.itemsize
        view = np.lib.stride_tricks.as_strided(
            base[offset:],
            shape=tuple(sizes),
            strides=tuple(s * itemsize for s in strides),
        )
        return (self._derived(view, source),)

    @impl(memref.ExtractStridedMetaDataOp)
    def run_extract_strided_metadata(
        self,
        interpreter: Interpreter,
        op: memref.ExtractStridedMetaDataOp,
        args: PythonValues,
    ) -> PythonValues:
        """The 0-d base buffer (a view of the element at the base pointer, so
        `memref.dealloc` and `reinterpret_cast` of it reach the allocation),
        then offset, sizes and strides in elements: the type's where static."""
        source = _contiguous_tensor(args[0], "extracting the metadata")
        base = self._allocation_of(source)
        buffer = base[:1].reshape(()) if base.size else np.zeros((), base.dtype)
        self._set_base(buffer, base.view(np.uint8))
        type_ = _memref_type(op.source.type)
        static_offset = type_.get_offset()
        offset = (
            (pointer(source) - pointer(base)) // base.itemsize
            if static_offset is None
            else static_offset
        )
        static_strides = type_.get_strides() or [None] * source.ndim
        strides = [
            stride // base.itemsize if static is None else static
            for stride, static in zip(source.strides, static_strides, strict=True)
        ]
        return (
            self.model.share_owner(buffer, source),
            offset,
            *source.shape,
            *strides,
        )

    @impl(memref.ExtractAlignedPointerAsIndexOp)
    def run_extract_aligned_pointer_as_index(
        self,
        interpreter: Interpreter,
        op: memref.ExtractAlignedPointerAsIndexOp,
        args: PythonValues,
    ) -> PythonValues:
        """The modeled address of the base pointer: storage address plus the
        byte offset for what the run allocated, an external one otherwise."""
        source = _contiguous_tensor(args[0], "the pointer")
        base = self._allocation_of(source)
        record = self.model.record_of(source)
        if record is not None:
            storage = record.ranges[0].storage
            return (storage.address + pointer(base) - pointer(storage.buffer),)
        root = base
        while isinstance(root.base, np.ndarray):
            root = root.base
        if id(root) not in self._external:
            self._external[id(root)] = (root, self._next_external)
            self._next_external = align_up(
                self._next_external + max(root.nbytes, 1), EXTERNAL_ALIGNMENT
            )
        return (self._external[id(root)][1] + pointer(base) - pointer(root),)

    @impl(memref.MemorySpaceCastOp)
    def run_memory_space_cast(
        self, interpreter: Interpreter, op: memref.MemorySpaceCastOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)

    @impl(memref.TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: memref.TransposeOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        if not isinstance(source, np.ndarray):
            raise ModelError("transposing a discontiguous tensor is not supported")
        order = op.permutation.data.apply_permutation(range(source.ndim))
        return (self._derived(source.transpose(order), source),)

    @impl(memref.PrefetchOp)
    def run_prefetch(
        self, interpreter: Interpreter, op: memref.PrefetchOp, args: PythonValues
    ) -> PythonValues:
        """A cache hint: nothing to do, but the memory must be live."""
        return ()

    @impl(memref.AllocaScopeOp)
    def run_alloca_scope(
        self, interpreter: Interpreter, op: memref.AllocaScopeOp, args: PythonValues
    ) -> PythonValues:
        """The scope's block, then freeing the `memref.alloca`s it made."""
        self.enter_scope()
        try:
            return interpreter.run_ssacfg_region(op.scope, ())
        finally:
            self.leave_scope("the end of their memref.alloca_scope")

    @impl_terminator(memref.AllocaScopeReturnOp)
    def run_alloca_scope_return(
        self,
        interpreter: Interpreter,
        op: memref.AllocaScopeReturnOp,
        args: PythonValues,
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    def _set_base(self, view: np.ndarray, base: np.ndarray) -> None:
        key = id(view)

        def forget(_: weakref.ref[np.ndarray]) -> None:
            self._bases.pop(key, None)

        self._bases[key] = (weakref.ref(view, forget), base)

    def _base_of(self, value: np.ndarray) -> np.ndarray | None:
        entry = self._bases.get(id(value))
        if entry is None or entry[0]() is not value:
            return None
        return entry[1]

    def _derived(self, view: np.ndarray, source: np.ndarray) -> np.ndarray:
        """`view` (a subview, reshape, reinterpret_cast) answers for the tensor
        `source` views and keeps its base pointer."""
        base = self._base_of(source)
        if base is not None:
            self._set_base(view, base)
        return self.model.share_owner(view, source)

    def _allocation_of(self, value: np.ndarray) -> np.ndarray:
        """The bytes from the base pointer behind a view, flat, in its dtype.

        reinterpret_cast offsets count from the base pointer, not from the
        view's first element.  The base pointer is the first byte of a
        `memref.view` (as in MLIR, where the view's aligned pointer is its
        source's plus the byte shift), else of the tensor (a
        `memory.alloc_tensor` is such a view of its storage) or allocation.
        """
        base = self._base_of(value)
        if base is not None:
            return base.view(value.dtype)
        record = self.model.record_of(value)
        if record is not None:
            (byte_range,) = record.ranges
            raw = byte_range.storage.buffer[byte_range.start : byte_range.end]
        else:
            root = value
            while isinstance(root.base, np.ndarray):
                root = root.base
            raw = root.reshape(-1).view(np.uint8)
        return raw.view(value.dtype)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: memref.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        """Each result size is the product of the source sizes its group
        collapses (any number of them dynamic)."""
        source = args[0]
        shape = tuple(
            math.prod(source.shape[dim.value.data] for dim in group.data)
            for group in op.reassociation.data
        )
        return (self._reshape(source, shape),)

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: memref.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        shape = merge_static(op.static_output_shape.get_values(), args[1:])
        return (self._reshape(args[0], tuple(shape)),)

    @impl(memref.ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: memref.ReshapeOp, args: PythonValues
    ) -> PythonValues:
        """A view of the source with the shape `shape` holds: every size
        non-negative, the result type's static sizes, and the source's
        element count."""
        source, shape_values = args
        target = _memref_type(op.result.type)
        shape = tuple(int(size) for size in shape_values)
        if min(shape, default=0) < 0 or not _fits_static_sizes(shape, target):
            raise ModelError(
                f"the shape operand holds {list(shape)}: expected non-negative "
                f"sizes that fit {target}"
            )
        count = math.prod(shape)
        if count != math.prod(source.shape):
            raise ModelError(
                f"cannot reshape {list(source.shape)} ({math.prod(source.shape)} "
                f"elements) to {list(shape)} ({count} elements)"
            )
        return (self._reshape(source, shape),)

    def _reshape(self, source: Any, shape: tuple[int, ...]) -> np.ndarray:
        if not isinstance(source, np.ndarray):
            raise ModelError("reshaping a discontiguous tensor is not supported")
        return self._derived(_no_copy_reshape(source, shape), source)

    def in_window(
        self, op: Operation, type_: MemRefType, values: np.ndarray
    ) -> np.ndarray:
        """`values` copied into a storage of `type_`'s scope held for the rest of
        the run, when that scope has an address window (VTCM); else `values`.

        Memory that is in VTCM before the entry function runs, a global or an
        argument there, takes its bytes from the window as on the device, so
        the run's allocations compete with it."""
        scope = self._windowed_scope(type_)
        if scope is None:
            return values
        held = self.model.allocate_memref(op, scope, values.shape, values.dtype, 1)
        held[...] = values
        self.model.mark_written(held)
        return held

    def _windowed_scope(self, type_: MemRefType) -> str | None:
        """`type_`'s scope if it has an address window (VTCM), else None."""
        try:
            scope = scope_of(type_)
        except VerifyException:
            return None  # not a memplan scope: no window to take bytes from
        return None if self.model.target.capacity(scope) is None else scope

    def hold_globals(self, module: ModuleOp, index_bitwidth: int) -> None:
        """Load the module's globals in VTCM into its window (see `in_window`);
        the others are read when first used."""
        for op in module.ops:
            if (
                not isinstance(op, memref.GlobalOp)
                or op.initial_value is None
                or self._windowed_scope(op.type) is None
                or op.sym_name.data in self._globals  # held by an earlier run
            ):
                continue
            values = global_values(op, index_bitwidth)
            try:
                held = self.in_window(op, op.type, values)
            except ModelError as error:
                raise ModelError(
                    f"memref.global @{op.sym_name.data}: {error}"
                ) from None
            held.flags.writeable = values.flags.writeable
            self._globals[op.sym_name.data] = held

    @impl(memref.GetGlobalOp)
    def run_get_global(
        self, interpreter: Interpreter, op: memref.GetGlobalOp, args: PythonValues
    ) -> PythonValues:
        name = op.name_.root_reference.data
        if name not in self._globals:
            definition = lookup_symbol(op, op.name_)
            if not isinstance(definition, memref.GlobalOp):
                raise ModelError(f"no memref.global named @{name}")
            self._globals[name] = global_values(definition, interpreter.index_bitwidth)
        return (self._globals[name],)

    @impl_attr(MemRefType)
    def dense_memref_argument(
        self, interpreter: Interpreter, attr: Attribute, type_: MemRefType
    ) -> np.ndarray:
        """A `--args` dense literal as a numpy array (unowned; `Runner` copies
        one typed in VTCM into the window)."""
        if not isinstance(attr, DenseIntOrFPElementsAttr):
            raise ModelError(f"memref argument {attr} must be a dense literal")
        dtype = numpy_dtype(type_.element_type, interpreter.index_bitwidth)
        return np.array(np.broadcast_to(constant_value(attr, dtype), type_.get_shape()))


def _in_bounds(array: object, indices: PythonValues) -> bool:
    """Whether `array` is a numpy array that `indices` (one per dimension,
    none negative) may index directly; numpy refuses the ones past the end."""
    return (
        type(array) is np.ndarray
        and len(indices) == array.ndim
        and (not indices or min(indices) >= 0)
    )


def _load(args: PythonValues) -> PythonValues:
    """`memref.load`: an element of a numpy array indexed by the index values
    as they are, for scalar code; anything else (a discontiguous tensor, an
    index out of bounds) is checked, and its error worded, by
    `check_indices`."""
    value = args[0]
    indices = args[1:]
    if _in_bounds(value, indices):
        try:
            return (value[indices],)
        except IndexError:
            pass
    array, index = element_at(value, check_indices(tuple(value.shape), indices))
    return (array[index],)


def _store(args: PythonValues) -> PythonValues:
    """`memref.store`, as `_load`; a value that does not have the array's
    element type yet is converted first."""
    element, value = args[0], args[1]
    indices = args[2:]
    if _in_bounds(value, indices) and type(element) is value.dtype.type:
        try:
            value[indices] = element
            return ()
        except IndexError:
            pass
    array, index = element_at(value, check_indices(tuple(value.shape), indices))
    array[index] = _element_value(element, array.dtype)
    return ()


REALLOCATABLE = (memref.AllocOp, memref.ReallocOp, bufferization.CloneOp)
"""Ops whose results `memref.realloc` may free: heap buffers of their own."""

DEALLOCATABLE = (*REALLOCATABLE, AllocTensorOp)
"""Ops whose results `memref.dealloc` may free.  A `memory.alloc_tensor`
frees its whole storage, as the dealloc of the `memref.view` it lowers to
frees the view's base buffer."""


def _check_freeable(
    model: MemoryModel, value: object, verb: str, freeable: tuple[type[Operation], ...]
) -> None:
    """`value` is made by one of `freeable`, or is a buffer the run did not
    make (an argument: the caller's); any other tensor of the run may not be
    freed (stack memory, discontiguous blocks)."""
    record = model.record_of(value)
    if record is not None and not isinstance(record.op, freeable):
        names = ", ".join(op.name for op in freeable)
        raise ModelError(
            f"{verb} the tensor made by {describe(record.op)}; expected a "
            f"result of {names}"
        )


def _drop_unit_dims(shape: tuple[int, ...], result: MemRefType) -> tuple[int, ...]:
    """The shape of a rank-reducing subview whose result layout gives no
    strides (an affine map): drop size-1 dims until ranks match."""
    rank = len(result.get_shape())
    kept: list[int] = []
    for position, size in enumerate(shape):
        if size == 1 and len(shape) - position > rank - len(kept):
            continue
        kept.append(size)
    return tuple(kept)

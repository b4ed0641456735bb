"""Loop nests of scalar code run on whole arrays, where that provably
changes nothing the run computes or reports.

`convert-linalg-to-loops` and `-to-affine-loops` leave perfect nests of
`scf.for` / `affine.for` around straight-line loads, arith, `affine.apply`
and stores, which the scalar path runs op by op.  When such a nest starts,
`LoopVectorizer.run` tries to run it on numpy arrays over its iteration
points instead, with the kernels of scalar and vectorized arith
(`arith_impl.evaluate`), and returns False (the caller then runs the loop
as before, and its inner loops try their own nests) unless all of this
holds, and the nest is large enough to gain (`MIN_OPS`,
`MIN_POINTS_PER_STEP`, `MAX_POINTS`):

* The nest is perfect: each loop's body is the next loop and a yield (after
  scalar constants, such as the bounds `lower-affine` leaves there), the
  innermost body only `arith` and `math` ops with kernels (but those of
  `SCALAR_ONLY`), `arith.constant`,
  `affine.apply`, and `memref`/`affine` loads and stores; no loop carries
  values; bounds and memrefs come from outside the nest; indices do not
  depend on loaded values.
* Nothing fails: bounds, index arithmetic, every index in bounds, memrefs
  usable (not killed or overwritten), stores to writable plain arrays,
  with `--check-uninitialized` every byte read written before the nest
  starts.  Any failure, or any error while the nest runs (whose stores are
  then undone), leaves the nest to the scalar path, which reports the
  error it reports.
* Running it in *steps* keeps every dependence.  The loops whose induction
  variable no store index depends on (a reduction's, `k` of a matmul) run
  one step per value, outermost first; each step runs every body op, in
  order, over all points of the other loops.  This is checked on the
  addresses the accesses touch in this run: for each element some store
  writes, the points that touch it, in the nest's order, must lie in
  strictly later steps.  Then every pair of accesses to one element that
  includes a write happens in the nest's order, and the others commute.
  The check sees through views, aliasing arguments and any index
  arithmetic.

The ops executed and their modeled cycles are added as the scalar run adds
them: cycles are a float summed op by op, so the total is computed exactly
when every partial sum is representable (all cycle counts multiples of a
power of two, as the default targets' are) and otherwise added in the
scalar order with `np.add.accumulate`, which folds left to right.

Set `MEMPLAN_SCALAR_LOOPS=1` (or `Runner(vectorize_loops=False)`) to run
every loop op by op: the reference the tests compare with.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Any, Protocol

import numpy as np
from xdsl.dialects import affine, arith, math, scf
from xdsl.interpreter import PythonValues
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from memplan.dialects import memref
from memplan.interpreter import libm
from memplan.interpreter.affine_impl import AFFINE_BINARY, CompiledMap
from memplan.interpreter.arith_impl import ARITH_KERNELS, evaluate
from memplan.interpreter.element_types import is_scalar_type
from memplan.interpreter.math_impl import MATH_KERNELS
from memplan.interpreter.model import MemoryModel, pointer
from memplan.interpreter.regions import RegionInterpreter
from memplan.interpreter.uninitialized import UninitializedReads

SCALAR_LOOPS_ENV = "MEMPLAN_SCALAR_LOOPS"
"""Set to 1 to run every loop nest op by op."""

MIN_POINTS_PER_STEP = 4
"""Fewer points per step run faster op by op."""
MIN_OPS = 128
"""Nests of fewer body ops run (they are rerun for every trip of a loop
around them) faster op by op: a run on arrays costs some 0.2 ms to set up."""
MAX_POINTS = 1 << 21
"""Larger nests are left to their loops: each runs its own inner nest."""
MAX_SEQUENTIAL_CYCLES = 1 << 24
"""The most cycle terms added one by one when they cannot be summed exactly."""
MAX_FAILURES = 8
"""A loop whose nest failed to vectorize this often is not tried again."""
SCALAR_ONLY: tuple[type[Operation], ...] = (
    arith.FPToUIOp,
    math.PowFOp,
)
"""Ops whose numpy kernels give other bits on arrays than on the 0-d arrays
of the scalar path: float to unsigned 32-bit casts out of range (`fptoui`
to i32) and `np.power` of two arrays (`powf`: `x ** 0.5` and `x ** 2.0` 1
ulp apart on f32 and f64, `(-inf) ** 0.5` +inf on arrays and NaN on one
element on f64; with `--libm-math` `powf` calls the C library for each
element and runs in nests).  `fpowi` (products), `fma`
(`fused_multiply_add`) and `maxnumf`/`minnumf` (selects, `float_extrema`)
give the same bits either way
(`tests/interpreter/test_math_kernels_on_arrays.py`)."""
NAN_CHOOSING_OPS: tuple[type[Operation], ...] = (arith.AddfOp, arith.MulfOp)
"""Ops whose result, where both operands are NaNs, is the second's NaN on
arrays of 17 or more elements (numpy's SIMD loops swap the operands of these
commutative ops) and the first's on one element: a nest in which two NaNs
meet in one of them runs op by op."""
NEST_KERNELS = frozenset((*ARITH_KERNELS, *MATH_KERNELS))
"""The ops a nest's body may hold besides loads, stores and `affine.apply`
(but `SCALAR_ONLY`)."""
_INDEX_LIMIT = 1 << 62
"""Integers of index arithmetic stay below this, so int64 holds them exactly."""


class _Scalar(Exception):
    """This run of the nest goes to the scalar path."""


class Accounts(Protocol):
    """What the runner's tracker adds up for each op run."""

    cycles: float

    def op_cycles(self, op: Operation, args: PythonValues) -> float | None:
        """The cycles one run of `op` on `args` adds, None if it adds none
        (it lies in a linalg body)."""
        ...


def scalar_loops_forced() -> bool:
    return os.environ.get(SCALAR_LOOPS_ENV, "") not in ("", "0")


def _bound_operands(loop: Operation) -> Sequence[SSAValue] | None:
    """The operands of a loop this module runs, None for other ops and for
    loops that carry values."""
    if isinstance(loop, scf.ForOp):
        return None if loop.iter_args or loop.results else loop.operands
    if isinstance(loop, affine.ForOp):
        return None if loop.inits or loop.results else loop.operands
    return None


Bounds = Callable[[PythonValues], range]
"""A loop's induction values given its operands."""


def _scf_bounds(args: PythonValues) -> range:
    lower, upper, step = (int(a) for a in args)
    if step <= 0:
        raise _Scalar
    return range(lower, upper, step)


def _affine_bounds(loop: affine.ForOp) -> Bounds:
    lower_map = CompiledMap.of(loop.lowerBoundMap.data)
    upper_map = CompiledMap.of(loop.upperBoundMap.data)
    lower_count = len(loop.lowerBoundOperands)
    step = loop.step.value.data

    def bounds(args: PythonValues) -> range:
        lower = max(lower_map(args[:lower_count]))
        upper = min(upper_map(args[lower_count:]))
        if step <= 0:
            raise _Scalar
        return range(lower, upper, step)

    return bounds


def _access_parts(
    op: Operation,
) -> tuple[SSAValue, tuple[SSAValue, ...], AffineMap | None, bool] | None:
    """(memref, index operands, access map, whether it stores) of a load or
    store, None for other ops."""
    if isinstance(op, memref.LoadOp | memref.StoreOp):
        return op.memref, tuple(op.indices), None, isinstance(op, memref.StoreOp)
    if isinstance(op, affine.LoadOp | affine.StoreOp):
        if op.map is None:
            return None
        store = isinstance(op, affine.StoreOp)
        return op.memref, tuple(op.indices), op.map.data, store


@dataclass(frozen=True)
class _Access:
    memref: SSAValue
    indices: tuple[SSAValue, ...]
    map: AffineMap | None
    store: bool


@dataclass(frozen=True)
class _Nest:
    """A perfect loop nest whose innermost body may run on whole arrays."""

    loops: tuple[Operation, ...]
    bounds: tuple[Bounds, ...]
    constants: tuple[tuple[Operation, ...], ...]
    """The constants each loop but the innermost defines before the next."""
    yields: tuple[Operation, ...]
    body: tuple[Operation, ...]
    """The innermost body's ops but its yield."""
    ivs: tuple[SSAValue, ...]
    pure: frozenset[Operation]
    """Body ops that no loaded value feeds: evaluated once over all points."""
    accesses: dict[Operation, _Access]
    sequential: tuple[int, ...]
    """Levels whose induction variable no store index depends on: one step
    per value."""


def _is_constant(op: Operation) -> bool:
    return isinstance(op, arith.ConstantOp) and is_scalar_type(op.result.type)


def _loops(
    top: Operation,
) -> tuple[list[Operation], list[Operation], list[tuple[Operation, ...]]] | None:
    """The loops of the perfect nest `top` starts, their yields and the
    constants each loop's body defines before the next loop (as
    `lower-affine` leaves the bounds)."""
    loops: list[Operation] = []
    yields: list[Operation] = []
    constants: list[tuple[Operation, ...]] = []
    hoisted: set[Operation] = set()
    loop = top
    while True:
        operands = _bound_operands(loop)
        if operands is None:
            return None
        if loop is not top and any(
            top.is_ancestor(v.owner) and v.owner not in hoisted for v in operands
        ):
            return None
        block = loop.regions[0].blocks.first
        last = None if block is None else block.last_op
        if block is None or last is None or last.operands:
            return None
        loops.append(loop)
        yields.append(last)
        ops = list(block.ops)[:-1]
        if not ops or not _is_loop(ops[-1]) or not all(map(_is_constant, ops[:-1])):
            return loops, yields, constants
        constants.append(tuple(ops[:-1]))
        hoisted.update(ops[:-1])
        loop = ops[-1]


def _agrees_on_arrays(op: Operation) -> bool:
    """Whether `op`'s kernel gives on arrays the bits it gives on one element
    (`powf` does with `--libm-math`: one C library call per element)."""
    if type(op) not in NEST_KERNELS or op.regions:
        return False
    return not isinstance(op, SCALAR_ONLY) or (
        isinstance(op, math.PowFOp) and libm.active()
    )


def _is_loop(op: Operation) -> bool:
    return isinstance(op, scf.ForOp | affine.ForOp)


def _analyse(top: Operation) -> _Nest | None:
    found = _loops(top)
    if found is None:
        return None
    loops, yields, constants = found
    block = loops[-1].regions[0].block
    body = tuple(block.ops)[:-1]
    ivs = tuple(loop.regions[0].block.args[0] for loop in loops)
    load_fed: set[SSAValue] = set()
    levels: dict[SSAValue, frozenset[int]] = {
        iv: frozenset({level}) for level, iv in enumerate(ivs)
    }
    pure: set[Operation] = set()
    accesses: dict[Operation, _Access] = {}
    stored_levels: set[int] = set()
    for op in body:
        parts = _access_parts(op)
        if parts is not None:
            memref_value, indices, access_map, store = parts
            if top.is_ancestor(memref_value.owner) or load_fed.intersection(indices):
                return None
            if not store and not is_scalar_type(op.results[0].type):
                return None
            accesses[op] = _Access(memref_value, indices, access_map, store)
            if store:
                for index in indices:
                    stored_levels.update(levels.get(index, ()))
            else:
                load_fed.add(op.results[0])
            continue
        if not (isinstance(op, affine.ApplyOp) or _agrees_on_arrays(op)) or not all(
            is_scalar_type(v.type) for v in (*op.operands, *op.results)
        ):
            return None
        if load_fed.intersection(op.operands):
            load_fed.update(op.results)
            continue
        pure.add(op)
        depends = frozenset(
            level for operand in op.operands for level in levels.get(operand, ())
        )
        levels.update((result, depends) for result in op.results)
    bounds = tuple(
        _scf_bounds if isinstance(loop, scf.ForOp) else _affine_bounds(loop)
        for loop in loops
        if isinstance(loop, scf.ForOp | affine.ForOp)
    )
    return _Nest(
        tuple(loops),
        bounds,
        tuple(constants),
        tuple(yields),
        body,
        ivs,
        frozenset(pure),
        accesses,
        tuple(level for level in range(len(loops)) if level not in stored_levels),
    )


def _evaluated(op: Operation, operands: list[np.ndarray], bits: int) -> Any:
    """`op` on arrays, refused (`_Scalar`) where arrays and one element
    would give other bits: two NaNs meeting in a `NAN_CHOOSING_OPS` op."""
    result = evaluate(op, operands, bits)
    if (
        isinstance(op, NAN_CHOOSING_OPS)
        and np.isnan(result).any()
        and (np.isnan(operands[0]) & np.isnan(operands[1])).any()
    ):
        raise _Scalar
    return result


def _magnitude(array: np.ndarray) -> int:
    """The largest absolute value in an integer array, as a Python int."""
    if not array.size:
        return 0
    return max(-int(array.min()), int(array.max()))


def _index_array(value: object) -> np.ndarray:
    """An index value as int64, refused when index arithmetic on it could
    leave int64 (the scalar path computes affine maps on Python ints)."""
    array = np.asarray(value)
    if array.dtype.kind != "i" or _magnitude(array) >= _INDEX_LIMIT:
        raise _Scalar
    return array.astype(np.int64, copy=False)


def _operand(value: object) -> np.ndarray:
    """A value from outside the nest as a kernel's operand: numpy values as
    they are, Python ints (induction variables, affine results) as int64."""
    return _index_array(value) if type(value) is int else np.asarray(value)


def _bound(expr: AffineExpr, num_dims: int, bounds: Sequence[int]) -> int:
    """The largest magnitude `expr` or any of its subexpressions reaches."""
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if isinstance(expr, AffineDimExpr):
        return bounds[expr.position]
    if isinstance(expr, AffineSymExpr):
        return bounds[num_dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _bound(expr.lhs, num_dims, bounds)
    rhs = _bound(expr.rhs, num_dims, bounds)
    if expr.kind == AffineBinaryOpKind.Add:
        own = lhs + rhs
    elif expr.kind == AffineBinaryOpKind.Mul:
        own = lhs * rhs
    elif expr.kind == AffineBinaryOpKind.Mod:
        own = rhs
    else:
        own = lhs
    return max(own, lhs, rhs)


def _affine_value(
    expr: AffineExpr, num_dims: int, operands: Sequence[np.ndarray]
) -> np.ndarray:
    if isinstance(expr, AffineConstantExpr):
        return np.asarray(expr.value, dtype=np.int64)
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[num_dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _affine_value(expr.lhs, num_dims, operands)
    rhs = _affine_value(expr.rhs, num_dims, operands)
    if expr.kind not in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul) and (
        rhs.size and int(rhs.min()) <= 0
    ):
        raise _Scalar  # the scalar path's error
    return AFFINE_BINARY[expr.kind](lhs, rhs)


def _apply(affine_map: AffineMap, operands: Sequence[object]) -> list[np.ndarray]:
    """The map's results over all points, exactly as on Python ints."""
    if len(operands) != affine_map.num_dims + affine_map.num_symbols:
        raise _Scalar
    arrays = [_index_array(o) for o in operands]
    bounds = [_magnitude(a) for a in arrays]
    results: list[np.ndarray] = []
    for expr in affine_map.results:
        if _bound(expr, affine_map.num_dims, bounds) >= _INDEX_LIMIT:
            raise _Scalar
        results.append(_affine_value(expr, affine_map.num_dims, arrays))
    return results


@dataclass
class _Placed:
    """One load or store over all points of a run."""

    array: np.ndarray
    index: tuple[np.ndarray, ...]
    """Per dimension, the index at each point (execution order)."""
    addresses: np.ndarray
    """Host address of the element at each point."""
    store: bool


def _ordered(placed: Sequence[_Placed], points: np.ndarray, per_step: int) -> bool:
    """Whether running the points in steps of `per_step` (in `points`' order:
    the point numbers in the nest's order) keeps every pair of accesses to
    one element that includes a store in the nest's order."""
    stores = [p for p in placed if p.store]
    if not stores:
        return True
    spans = [
        (int(p.addresses.min()), int(p.addresses.max()) + p.array.itemsize)
        for p in stores
    ]

    def overlaps(p: _Placed) -> bool:
        low, high = int(p.addresses.min()), int(p.addresses.max()) + p.array.itemsize
        return any(low < end and start < high for start, end in spans)

    touching = [p for p in placed if p.store or overlaps(p)]
    # Elements as units when all are alike and aligned alike, else bytes.
    size, residue = touching[0].array.itemsize, 0
    residues = {int(a) for p in touching for a in np.unique(p.addresses % size)}
    if len(residues) == 1 and all(p.array.itemsize == size for p in touching):
        (residue,) = residues
    else:
        size = 1
    step = np.arange(points.size, dtype=np.int64) // per_step
    units, owners, steps, written = [], [], [], []
    for p in touching:
        width = p.array.itemsize // size
        unit = (p.addresses - residue) // size
        if width > 1:
            unit = (unit[:, None] + np.arange(width)).ravel()
        units.append(unit)
        owners.append(np.repeat(points, width))
        steps.append(np.repeat(step, width))
        if p.store:
            written.append(unit)
    unit = np.concatenate(units)
    keep = np.isin(unit, np.concatenate(written))
    unit = unit[keep]
    owner = np.concatenate(owners)[keep]
    stage = np.concatenate(steps)[keep]
    order = np.lexsort((owner, unit))
    unit, owner, stage = unit[order], owner[order], stage[order]
    clash = (
        (unit[1:] == unit[:-1]) & (owner[1:] != owner[:-1]) & (stage[1:] <= stage[:-1])
    )
    return not bool(clash.any())


class LoopVectorizer:
    """Runs perfect loop nests of scalar code on whole arrays (see the
    module's docstring); one per run."""

    def __init__(
        self,
        interpreter: RegionInterpreter,
        model: MemoryModel,
        reads: UninitializedReads | None,
        accounts: Accounts,
    ):
        self.interpreter = interpreter
        self.model = model
        self.reads = reads
        self.accounts = accounts
        self._nests: dict[int, tuple[Operation, _Nest | None]] = {}
        """id(loop) -> (the loop, kept so the id stays its own, its nest)."""
        self._failures: dict[int, int] = {}
        self._sums: dict[
            int,
            tuple[
                tuple[tuple[int, ...], tuple[int, ...]],
                tuple[list[tuple[list[float], int, list[float]]], int, Fraction, int],
            ],
        ] = {}
        """id(nest) -> (element sizes and trips, `_sum` of the last run)."""
        self.nests_run = 0
        """How many nests ran on whole arrays (the tests ask)."""

    def compile(
        self, loop: Operation, scalar: Callable[[PythonValues], PythonValues]
    ) -> Callable[[PythonValues], PythonValues] | None:
        """`loop`'s implementation: `scalar`, after trying to run the nest it
        starts on whole arrays if it starts one this module runs; None when
        it does not (the loop's own implementation is then the one)."""
        if self._nest(loop) is None:
            return None

        def run(args: PythonValues) -> PythonValues:
            if self.run(loop, args):
                return ()
            return scalar(args)

        return run

    def _nest(self, loop: Operation) -> _Nest | None:
        entry = self._nests.get(id(loop))
        if entry is None:
            entry = self._nests[id(loop)] = (loop, _analyse(loop))
        return entry[1]

    def run(self, loop: Operation, args: PythonValues) -> bool:
        """Run the nest `loop` starts, given its operands, on whole arrays;
        False (and nothing done) when it must run op by op."""
        key = id(loop)
        if self._failures.get(key, 0) >= MAX_FAILURES or self.interpreter.listeners != (
            self.accounts,
        ):
            return False
        nest = self._nest(loop)
        if nest is not None:
            try:
                self._run(nest, args)
                return True
            except _Scalar:
                pass
        self._failures[key] = self._failures.get(key, 0) + 1
        return False

    def _run(self, nest: _Nest, args: PythonValues) -> None:
        try:
            prepared = self._prepare(nest, args)
        except _Scalar:
            raise
        except Exception:
            raise _Scalar from None
        values, placed, total, per_step, count, cycles, written = prepared
        undo = [(p, p.array[p.index]) for p in placed.values() if p.store]
        try:
            self._execute(nest, values, placed, total, per_step)
        except Exception:
            for p, old in reversed(undo):
                p.array[p.index] = old
            raise _Scalar from None
        self.model.stats.ops_executed += count
        self.accounts.cycles = cycles
        for mask, offsets, size in written:
            for byte in range(size):
                mask[offsets + byte] = 1
        self.nests_run += 1

    def _prepare(
        self, nest: _Nest, args: PythonValues
    ) -> tuple[
        dict[SSAValue, np.ndarray],
        dict[Operation, _Placed],
        int,
        int,
        int,
        float,
        list[tuple[np.ndarray, np.ndarray, int]],
    ]:
        """Everything the run needs, every check passed, nothing changed yet:
        values over all points, the accesses, the points, the points per
        step, the ops counted, the cycles total after the nest, and the
        written-byte masks to mark."""
        bits = self.interpreter.index_bitwidth
        known: dict[SSAValue, np.ndarray] = {
            op.results[0]: evaluate(op, [], bits)
            for level in nest.constants
            for op in level
        }
        ranges = self._ranges(nest, args, known)
        trips = [len(r) for r in ranges]
        total = prod(trips)
        vector = [level for level in range(len(trips)) if level not in nest.sequential]
        per_step = prod(trips[level] for level in vector)
        if (
            total * (len(nest.body) + 1) < MIN_OPS
            or total > MAX_POINTS
            or per_step < MIN_POINTS_PER_STEP
        ):
            raise _Scalar
        order = [*nest.sequential, *vector]
        grid = np.indices([trips[level] for level in order]).reshape(len(order), total)
        ivs: dict[SSAValue, np.ndarray] = {}
        points = np.zeros(total, dtype=np.int64)
        for axis, level in enumerate(order):
            found = ranges[level]
            ivs[nest.ivs[level]] = found.start + found.step * grid[axis]
            points += grid[axis] * prod(trips[level + 1 :])
        values = self._pure_values(nest, ivs | known)
        placed = self._placed(nest, values)
        if not _ordered(list(placed.values()), points, per_step):
            raise _Scalar
        written = self._check_bytes(placed)
        count, cycles = self._accounts(nest, trips, placed)
        return values, placed, total, per_step, count, cycles, written

    def _ranges(
        self, nest: _Nest, args: PythonValues, known: dict[SSAValue, np.ndarray]
    ) -> list[range]:
        """Each loop's induction values; `known`: the constants of the nest."""
        ranges: list[range] = []
        try:
            for level, (loop, bounds) in enumerate(
                zip(nest.loops, nest.bounds, strict=True)
            ):
                operands = (
                    args
                    if level == 0
                    else tuple(
                        known[v] if v in known else self._outside(v)
                        for v in loop.operands
                    )
                )
                found = bounds(operands)
                if max(abs(found.start), abs(found.stop)) >= _INDEX_LIMIT:
                    raise _Scalar
                ranges.append(found)
        except _Scalar:
            raise
        except Exception:
            raise _Scalar from None
        return ranges

    def _outside(self, value: SSAValue) -> object:
        return self.interpreter.get_values((value,))[0]

    def _pure_values(
        self, nest: _Nest, ivs: dict[SSAValue, np.ndarray]
    ) -> dict[SSAValue, np.ndarray]:
        """Induction variables, the nest's constants and the values no load
        feeds, over all points."""
        values: dict[SSAValue, np.ndarray] = dict(ivs)
        bits = self.interpreter.index_bitwidth

        def value_of(value: SSAValue) -> np.ndarray:
            found = values.get(value)
            if found is not None:
                return found
            return _operand(self._outside(value))

        try:
            for op in nest.body:
                if op not in nest.pure:
                    continue
                operands = [value_of(o) for o in op.operands]
                if isinstance(op, affine.ApplyOp):
                    results = _apply(op.map.data, operands)
                else:
                    results = [_evaluated(op, operands, bits)]
                values.update(zip(op.results, results, strict=True))
        except _Scalar:
            raise
        except Exception:
            raise _Scalar from None
        return values

    def _placed(
        self, nest: _Nest, values: dict[SSAValue, np.ndarray]
    ) -> dict[Operation, _Placed]:
        """Each load and store's array, indices and addresses, all checked as
        the scalar path checks them."""
        placed: dict[Operation, _Placed] = {}
        total = values[nest.ivs[0]].size
        for op, access in nest.accesses.items():
            array = self._outside(access.memref)
            if type(array) is not np.ndarray or (
                access.store and not array.flags.writeable
            ):
                raise _Scalar
            try:
                self.model.check_use(array)
            except Exception:
                raise _Scalar from None
            operands = [
                values[i] if i in values else self._outside(i) for i in access.indices
            ]
            if access.map is not None:
                operands = _apply(access.map, operands)
            if len(operands) != array.ndim:
                raise _Scalar
            index = tuple(np.broadcast_to(_index_array(o), (total,)) for o in operands)
            addresses = np.full(total, pointer(array), dtype=np.int64)
            for axis, (where, size) in enumerate(zip(index, array.shape, strict=True)):
                if where.size and (int(where.min()) < 0 or int(where.max()) >= size):
                    raise _Scalar
                addresses += where * array.strides[axis]
            placed[op] = _Placed(array, index, addresses, access.store)
        return placed

    def _byte_offsets(self, p: _Placed) -> tuple[np.ndarray, np.ndarray] | None:
        """(the storage's written-byte mask, the offset of each element in it)
        for an array whose accesses `--check-uninitialized` checks."""
        assert self.reads is not None
        layout = self.reads.layout_of(p.array)
        if layout is None:
            return None
        mask, start, size = layout
        offsets = start + (p.addresses - pointer(p.array))
        if offsets.size and (
            int(offsets.min()) < 0 or int(offsets.max()) + p.array.itemsize > size
        ):
            raise _Scalar
        return mask, offsets

    def _check_bytes(
        self, placed: dict[Operation, _Placed]
    ) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """With `--check-uninitialized`: every byte loaded was written before
        the nest (else the scalar path decides: a store of the nest may write
        it first, or it is the error); the (mask, element offsets, element
        size) of each store, to mark after the run."""
        written: list[tuple[np.ndarray, np.ndarray, int]] = []
        if self.reads is None:
            return written
        for p in placed.values():
            found = self._byte_offsets(p)
            if found is None:
                continue
            mask, offsets = found
            if p.store:
                written.append((mask, offsets, p.array.itemsize))
                continue
            for byte in range(p.array.itemsize):
                if not mask[offsets + byte].all():
                    raise _Scalar
        return written

    def _accounts(
        self, nest: _Nest, trips: list[int], placed: dict[Operation, _Placed]
    ) -> tuple[int, float]:
        """The ops the scalar run of the nest counts and the cycles total
        after it: each loop but the first, each body op and each yield, in
        the order the scalar run adds them."""
        sizes = tuple(p.array.itemsize for p in placed.values())
        key = (sizes, tuple(trips))
        cached = self._sums.get(id(nest))
        if cached is None or cached[0] != key:
            cached = self._sums[id(nest)] = (key, self._sum(nest, trips, placed))
        levels, count, exact, denominator = cached[1]
        start = self.accounts.cycles
        total = Fraction(start) + exact
        if (
            denominator
            and start >= 0
            and total * max(denominator, Fraction(start).denominator) < 1 << 53
        ):
            return count, float(total)
        if count > MAX_SEQUENTIAL_CYCLES:
            raise _Scalar
        sequence = np.asarray([], dtype=np.float64)
        for before, times, after in levels:
            sequence = np.concatenate((before, np.tile(sequence, times), after))
        sequence = np.tile(sequence, trips[0])
        return count, float(np.add.accumulate(np.concatenate(([start], sequence)))[-1])

    def _sum(
        self, nest: _Nest, trips: list[int], placed: dict[Operation, _Placed]
    ) -> tuple[list[tuple[list[float], int, list[float]]], int, Fraction, int]:
        """The cycles of one trip of each level (innermost first: those of
        the ops before the inner loop, its trips, those after it), the ops
        counted, their cycles' exact sum and the largest denominator of a
        term (0 when a term is negative: the sum is then not exact)."""

        def cycles(op: Operation) -> float:
            args = tuple(
                placed[op].array
                if op in placed and v is nest.accesses[op].memref
                else None
                for v in op.operands
            )
            found = self.accounts.op_cycles(op, args)
            if found is None:
                raise _Scalar
            return found

        depth = len(nest.loops)
        inner = [cycles(op) for op in nest.body] + [cycles(nest.yields[-1])]
        levels: list[tuple[list[float], int, list[float]]] = [(inner, 1, [])]
        for level in range(depth - 2, -1, -1):
            levels.append(
                (
                    [
                        *map(cycles, nest.constants[level]),
                        cycles(nest.loops[level + 1]),
                    ],
                    trips[level + 1],
                    [cycles(nest.yields[level])],
                )
            )
        count = 0
        exact = Fraction(0)
        for before, times, after in levels:
            count = len(before) + times * count + len(after)
            exact = (
                sum(map(Fraction, before), Fraction(0))
                + times * exact
                + sum(map(Fraction, after), Fraction(0))
            )
        terms = [c for before, _, after in levels for c in (*before, *after)]
        denominator = max(Fraction(c).denominator for c in terms)
        if min(terms) < 0:
            denominator = 0
        return levels, count * trips[0], exact * trips[0], denominator

    def _execute(
        self,
        nest: _Nest,
        values: dict[SSAValue, np.ndarray],
        placed: dict[Operation, _Placed],
        total: int,
        per_step: int,
    ) -> None:
        for start in range(0, total, per_step):
            self._step(nest, values, placed, start, start + per_step)

    def _step(
        self,
        nest: _Nest,
        values: dict[SSAValue, np.ndarray],
        placed: dict[Operation, _Placed],
        start: int,
        stop: int,
    ) -> None:
        """Every op of the body, in order, over the points [start, stop)."""
        bits = self.interpreter.index_bitwidth
        local: dict[SSAValue, np.ndarray] = {}

        def value_of(value: SSAValue) -> np.ndarray:
            found = local.get(value)
            if found is not None:
                return found
            found = values.get(value)
            if found is not None:
                return found[start:stop] if found.ndim else found
            return _operand(self._outside(value))

        for op in nest.body:
            if op in nest.pure:
                continue
            p = placed.get(op)
            if p is None:
                local[op.results[0]] = _evaluated(
                    op, [value_of(o) for o in op.operands], bits
                )
                continue
            index = tuple(i[start:stop] for i in p.index)
            if not p.store:
                local[op.results[0]] = p.array[index]
                continue
            element = value_of(op.operands[0])
            if element.dtype != p.array.dtype:
                element = element.astype(p.array.dtype)
            p.array[index] = element

"""The affine ops that `convert-linalg-to-loops` and `-to-affine-loops` leave,
`affine.if`, and the `affine.parallel` of `-affine-parallelize`.

xDSL's own affine interpreter passes every operand of `affine.apply` as a
dimension (symbols are wrong), ignores loop bounds' operands and results of
`affine.for`, and has no `affine.min`; these follow MLIR: a map's
operands are its dimensions then its symbols, a loop runs from the largest
lower bound to the smallest upper bound, and `floordiv`/`mod` round toward
negative infinity, by a divisor that must be positive (semi-affine maps,
which `memplan.semi_affine` reads, divide by symbols).

`affine.parallel` runs as the `scf.parallel` MLIR's `-lower-affine` makes of
it (`scf_impl.ScfFunctionsExtra.run_box`): each bound is the largest result
of its group of the lower bounds map and the smallest of the upper, and each
reduction folds from the identity of its kind with the arith op MLIR uses
(`"maxnumf"`: `arith.maxnumf` from a negative NaN, ...).  `-lower-affine`
lowers no other kind (`"assign"`, `"maxs"`, ...: it leaves the loop as is),
and neither does memplan-run.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING, Any

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
)
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintKind, AffineSet

from memplan.dialects.affine import (
    ApplyOp,
    ForOp,
    IfOp,
    LoadOp,
    ParallelOp,
    StoreOp,
)
from memplan.interpreter.errors import ModelError
from memplan.interpreter.memref_impl import check_indices, element_at
from memplan.interpreter.regions import Compiled, CompilingFunctions
from memplan.interpreter.scf_impl import ScfFunctionsExtra, loop_range

if TYPE_CHECKING:
    from memplan.interpreter.loop_vectorize import LoopVectorizer

Evaluator = Callable[[Sequence[int]], int]
"""An affine expression as a function of its map's dimensions then symbols."""

AFFINE_BINARY: dict[AffineBinaryOpKind, Callable[[Any, Any], Any]] = {
    AffineBinaryOpKind.Add: operator.add,
    AffineBinaryOpKind.Mul: operator.mul,
    AffineBinaryOpKind.Mod: operator.mod,
    AffineBinaryOpKind.FloorDiv: operator.floordiv,
    AffineBinaryOpKind.CeilDiv: lambda lhs, rhs: -(-lhs // rhs),
}
"""What xDSL's `AffineExpr.eval` computes for each kind (MLIR's rounding), on
Python ints or, alike, on int64 arrays (`loop_vectorize`)."""


def _evaluator(expr: AffineExpr, num_dims: int) -> Evaluator:
    """`expr` as nested closures: evaluated without walking its tree."""
    if isinstance(expr, AffineConstantExpr):
        constant = expr.value
        return lambda values: constant
    if isinstance(expr, AffineDimExpr):
        return operator.itemgetter(expr.position)
    if isinstance(expr, AffineSymExpr):
        return operator.itemgetter(num_dims + expr.position)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = _evaluator(expr.lhs, num_dims), _evaluator(expr.rhs, num_dims)
    combine = AFFINE_BINARY[expr.kind]
    if expr.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul):
        return lambda values: combine(lhs(values), rhs(values))
    if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value > 0:
        return lambda values: combine(lhs(values), rhs(values))
    token = expr.kind.get_token()

    def divide(values: Sequence[int]) -> int:
        divisor = rhs(values)
        if divisor <= 0:
            raise ModelError(
                f"an affine map computes `{token}` by {divisor}: expected a "
                "positive divisor (MLIR defines floordiv, ceildiv and mod by a "
                "positive value only)"
            )
        return combine(lhs(values), divisor)

    return divide


@dataclass(frozen=True, slots=True)
class CompiledMap:
    """An affine map evaluated as Python closures, for maps run per element."""

    operand_count: int
    results: tuple[Evaluator, ...]

    @staticmethod
    def of(affine_map: AffineMap) -> CompiledMap:
        return CompiledMap(
            affine_map.num_dims + affine_map.num_symbols,
            tuple(_evaluator(e, affine_map.num_dims) for e in affine_map.results),
        )

    def __call__(self, operands: Sequence[Any]) -> tuple[int, ...]:
        """The results given the map's dimension then symbol operands."""
        values = tuple(map(int, operands))
        if len(values) != self.operand_count:
            raise ModelError(
                f"an affine map of {self.operand_count} dimension(s) and "
                f"symbol(s) is given {len(values)} operand(s)"
            )
        return tuple([result(values) for result in self.results])


_REDUCTIONS: dict[str, tuple[Callable[[SSAValue, SSAValue], Operation], float]] = {
    "addf": (arith.AddfOp, 0.0),
    "mulf": (arith.MulfOp, 1.0),
    "maximumf": (arith.MaximumfOp, float("-inf")),
    "minimumf": (arith.MinimumfOp, float("inf")),
    "maxnumf": (arith.MaxnumfOp, -float("nan")),
    "minnumf": (arith.MinnumfOp, float("nan")),
    "addi": (arith.AddiOp, 0.0),
    "muli": (arith.MuliOp, 1.0),
    "andi": (arith.AndIOp, -1.0),
    "ori": (arith.OrIOp, 0.0),
    "xori": (arith.XOrIOp, 0.0),
}
"""The `affine.parallel` reductions `-lower-affine` lowers: the arith op
folding two values, and the identity the fold starts from, as a value of the
float or integer type reduced (MLIR's `getIdentityValueAttr`: `0xFFC00000`,
a negative NaN, for an f32 `maxnumf`)."""


@dataclass(frozen=True)
class _Reduction:
    """One reduction of an `affine.parallel`, as ops the interpreter runs: the
    constant of its identity and a region folding two values."""

    identity: arith.ConstantOp
    region: Region

    @staticmethod
    def of(kind: str, type_: Attribute) -> _Reduction:
        lowered = _REDUCTIONS.get(kind)
        if lowered is None:
            raise ModelError(
                f'reduction "{kind}" of affine.parallel is not run: MLIR\'s '
                "-lower-affine lowers only "
                f"{', '.join(_REDUCTIONS)} (it leaves the loop as it is)"
            )
        combine, identity = lowered
        if isinstance(type_, AnyFloat):
            value = FloatAttr(identity, type_)
        else:
            assert isinstance(type_, IntegerType)
            value = IntegerAttr(int(identity), type_)
        block = Block(arg_types=(type_, type_))
        folded = combine(*block.args)
        block.add_ops([folded, scf.ReduceReturnOp(folded.results[0])])
        return _Reduction(arith.ConstantOp(value, type_), Region(block))


_HOLDS: dict[AffineConstraintKind, Callable[[int, int], bool]] = {
    AffineConstraintKind.ge: operator.ge,
    AffineConstraintKind.le: operator.le,
    AffineConstraintKind.eq: operator.eq,
}


@dataclass(frozen=True, slots=True)
class CompiledSet:
    """An integer set as closures: whether a point satisfies every constraint."""

    constraints: tuple[tuple[Callable[[int, int], bool], Evaluator, Evaluator], ...]

    @staticmethod
    def of(integer_set: AffineSet) -> CompiledSet:
        dims = integer_set.num_dims
        return CompiledSet(
            tuple(
                (_HOLDS[c.kind], _evaluator(c.lhs, dims), _evaluator(c.rhs, dims))
                for c in integer_set.constraints
            )
        )

    def __call__(self, operands: Sequence[Any]) -> bool:
        values = tuple(map(int, operands))
        return all(
            holds(lhs(values), rhs(values)) for holds, lhs, rhs in self.constraints
        )


@register_impls
class AffineFunctions(CompilingFunctions):
    """affine.apply/min/max/for/if/yield/load/store on Python ints and numpy
    arrays."""

    def __init__(
        self, loops: ScfFunctionsExtra, vectorizer: LoopVectorizer | None = None
    ) -> None:
        self.loops = loops
        """Runs the iterations of `affine.parallel` (with the checks of
        `scf.parallel`), and opens the allocation scope of each `affine.for`
        iteration (`ScfFunctionsExtra.iteration_runner`)."""
        self.vectorizer = vectorizer
        """Runs loop nests on whole arrays where that changes nothing."""
        self._reductions: dict[ParallelOp, tuple[_Reduction, ...]] = {}
        """Each `affine.parallel`'s reductions, made on its first run."""
        self._maps: dict[int, tuple[AffineMapAttr, CompiledMap]] = {}
        """id(map attribute) -> (the attribute, kept so the id stays its own,
        its compiled map)."""
        self._sets: dict[int, tuple[AffineSetAttr, CompiledSet]] = {}
        """The same for the integer sets of `affine.if`."""

    def apply_map(
        self, map_attr: AffineMapAttr, operands: Sequence[Any]
    ) -> tuple[int, ...]:
        """The results of an affine map given its dimension then symbol operands."""
        return self.compiled_map(map_attr)(operands)

    def compiled_map(self, map_attr: AffineMapAttr) -> CompiledMap:
        entry = self._maps.get(id(map_attr))
        if entry is None:
            entry = self._maps[id(map_attr)] = (map_attr, CompiledMap.of(map_attr.data))
        return entry[1]

    def compile(self, interpreter: Interpreter, op: Operation) -> Compiled | None:
        """`affine.apply` as its compiled map, called directly; a loop nest
        on whole arrays when `loop_vectorize` can run it so."""
        if isinstance(op, affine.ForOp) and self.vectorizer is not None:
            return self.vectorizer.compile(op, partial(self.run_for, interpreter, op))
        if not isinstance(op, affine.ApplyOp):
            return None
        return self.compiled_map(op.map)

    def run_apply(
        self, interpreter: Interpreter, op: affine.ApplyOp, args: PythonValues
    ) -> PythonValues:
        return self.apply_map(op.map, args)

    run_xdsl_apply = impl(affine.ApplyOp)(run_apply)
    run_memplan_apply = impl(ApplyOp)(run_apply)

    @impl(affine.MinOp)
    def run_min(
        self, interpreter: Interpreter, op: affine.MinOp, args: PythonValues
    ) -> PythonValues:
        return (min(self.apply_map(op.map, args)),)

    def run_load(
        self, interpreter: Interpreter, op: affine.LoadOp, args: PythonValues
    ) -> PythonValues:
        value, *operands = args
        assert op.map is not None
        index = check_indices(tuple(value.shape), self.apply_map(op.map, operands))
        array, inner = element_at(value, index)
        return (array[inner],)

    def run_store(
        self, interpreter: Interpreter, op: affine.StoreOp, args: PythonValues
    ) -> PythonValues:
        element, value, *operands = args
        assert op.map is not None
        index = check_indices(tuple(value.shape), self.apply_map(op.map, operands))
        array, inner = element_at(value, index)
        array[inner] = element
        return ()

    run_xdsl_load = impl(affine.LoadOp)(run_load)
    run_memplan_load = impl(LoadOp)(run_load)
    run_xdsl_store = impl(affine.StoreOp)(run_store)
    run_memplan_store = impl(StoreOp)(run_store)

    def run_for(
        self, interpreter: Interpreter, op: affine.ForOp, args: PythonValues
    ) -> PythonValues:
        lower_count = len(op.lowerBoundOperands)
        upper_count = len(op.upperBoundOperands)
        lower = max(self.apply_map(op.lowerBoundMap, args[:lower_count]))
        upper = min(
            self.apply_map(
                op.upperBoundMap, args[lower_count : lower_count + upper_count]
            )
        )
        carried = tuple(args[lower_count + upper_count :])
        body = self.loops.iteration_runner(
            op, partial(interpreter.run_ssacfg_region, op.body, name="affine.for")
        )
        for i in loop_range(lower, upper, op.step.value.data):
            carried = body((i, *carried))
        return carried

    run_xdsl_for = impl(affine.ForOp)(run_for)
    run_memplan_for = impl(ForOp)(run_for)

    def run_if(
        self, interpreter: Interpreter, op: affine.IfOp, args: PythonValues
    ) -> PythonValues:
        entry = self._sets.get(id(op.condition))
        if entry is None:
            entry = (op.condition, CompiledSet.of(op.condition.data))
            self._sets[id(op.condition)] = entry
        if entry[1](args):
            return interpreter.run_ssacfg_region(op.then_region, (), "affine.if")
        if not op.else_region.blocks:
            return ()
        return interpreter.run_ssacfg_region(op.else_region, (), "affine.if")

    run_xdsl_if = impl(affine.IfOp)(run_if)
    run_memplan_if = impl(IfOp)(run_if)

    @impl(ParallelOp)
    def run_parallel(
        self, interpreter: Interpreter, op: ParallelOp, args: PythonValues
    ) -> PythonValues:
        """The loop `-lower-affine` makes of it: bounds of the groups' max and
        min, reductions from their identities."""
        split = len(op.lower_operands)
        bounds = []
        for bounds_map, groups, operands, pick in (
            (op.lowerBoundsMap, op.lowerBoundsGroups, args[:split], max),
            (op.upperBoundsMap, op.upperBoundsGroups, args[split:], min),
        ):
            results = self.apply_map(bounds_map, operands)
            ends = list(accumulate(groups.get_values(), initial=0))
            bounds.append([pick(results[a:b]) for a, b in pairwise(ends)])
        spaces = [
            loop_range(lower, upper, step.value.data, f" of induction variable {dim}")
            for dim, (lower, upper, step) in enumerate(
                zip(*bounds, op.steps, strict=True)
            )
        ]
        reductions = self._reductions.get(op)
        if reductions is None:
            reductions = self._reductions[op] = tuple(
                _Reduction.of(kind, type_)
                for kind, type_ in zip(op.reduction_kinds, op.res.types, strict=True)
            )
        identities = tuple(
            interpreter.run_op(reduction.identity, ())[0] for reduction in reductions
        )
        return self.loops.run_box(
            interpreter,
            op,
            spaces,
            [reduction.region for reduction in reductions],
            identities,
        )

    @impl_terminator(affine.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: affine.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

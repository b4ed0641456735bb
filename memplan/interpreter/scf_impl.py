"""The scf ops xDSL 0.74's interpreter lacks (parallel, forall, reduce,
execute_region) and `scf.for` with its body looked up once (scalar loop nests
run it often).

`scf.parallel` runs its iterations one after another, in row-major order of
the induction variables (the last varies fastest), and folds each
`scf.reduce` operand into its result in that order, from the init value
(`acc = region(acc, value)`, as MLIR's lowering to `scf.for` does).
`scf.forall` (its memref form, without `shared_outs`) and `affine.parallel`
(`affine_impl.py`) run the same way.  The
memory model sees one iteration at a time; `parallel.py` checks that no
iteration relies on that.  As in MLIR, each iteration of these loops, and
of `scf.for` and `affine.for`, is an automatic allocation scope
(`memplan.allocation_scopes`): the `memref.alloca`s it makes are freed when
it ends.  A sequential loop whose body makes none (most: scalar loop nests)
runs its iterations without opening a scope.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import product
from math import prod
from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.interpreter import (
    Interpreter,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation, Region

from memplan.allocation_scopes import makes_scoped_allocas
from memplan.dialects.scf import (
    ExecuteRegionOp,
    ForallOp,
    ForOp,
    IfOp,
    InParallelOp,
    ParallelOp,
    ReduceOp,
    WhileOp,
)
from memplan.interpreter.errors import ModelError
from memplan.interpreter.memref_impl import MemRefFunctions
from memplan.interpreter.parallel import ParallelIterations
from memplan.interpreter.regions import (
    Compiled,
    CompilingFunctions,
    RegionInterpreter,
)
from memplan.interpreter.source import describe

if TYPE_CHECKING:
    from xdsl.interpreters.scf import ScfFunctions

    from memplan.interpreter.loop_vectorize import LoopVectorizer


@cache
def _xdsl_scf() -> ScfFunctions:
    """xDSL's scf functions, made at the first loop run: the passes import
    this module, and xDSL's interpreters, which they do not need, take a
    tenth of a second to import."""
    from xdsl.interpreters.scf import ScfFunctions

    return ScfFunctions()


@register_impls
class ScfFunctionsExtra(CompilingFunctions):
    """scf.for, scf.parallel, scf.forall, scf.reduce, scf.reduce.return,
    scf.forall.in_parallel, scf.execute_region, scf.while, scf.if.

    Parallel and reduce ops run whether they are memplan's (what memplan
    parses) or xDSL's (what xDSL's builders and implicit terminators make)."""

    def __init__(
        self,
        iterations: ParallelIterations,
        memrefs: MemRefFunctions,
        vectorizer: LoopVectorizer | None = None,
    ):
        self.iterations = iterations
        self.memrefs = memrefs
        self.vectorizer = vectorizer
        self._scopes: dict[int, tuple[Operation, bool]] = {}
        """id(loop) -> (the loop, kept so the id stays its own, whether its
        body makes `memref.alloca`s it frees per iteration)."""

    def iteration_runner(
        self, loop: Operation, body: Callable[[PythonValues], PythonValues]
    ) -> Callable[[PythonValues], PythonValues]:
        """`body`, which runs one iteration of the sequential loop `loop`
        given its induction value and carried values, freeing the
        `memref.alloca`s the iteration makes when it ends where the loop's
        body makes any (worked out on the loop's first run): `body` itself
        otherwise."""
        entry = self._scopes.get(id(loop))
        if entry is None:
            entry = self._scopes[id(loop)] = (loop, makes_scoped_allocas(loop))
        if not entry[1]:
            return body
        name = describe(loop)

        def iteration(args: PythonValues) -> PythonValues:
            self.memrefs.enter_scope()
            try:
                return body(args)
            finally:
                self.memrefs.leave_scope(f"the end of iteration {[args[0]]} of {name}")

        return iteration

    def run_box(
        self,
        interpreter: Interpreter,
        op: Operation,
        spaces: Sequence[range],
        reductions: Sequence[Region],
        values: PythonValues,
    ) -> PythonValues:
        """Run the body of the parallel loop `op` for every point of
        `spaces` (row-major), each iteration an automatic allocation scope
        checked by `ParallelIterations`, and fold what each iteration
        yields into `values` (`acc = reduction(acc, new)`, the reduction
        regions in order)."""
        body = op.regions[0]
        with self.iterations.loop(op, prod(map(len, spaces))):
            for index in product(*spaces):
                self.iterations.begin(index)
                self.memrefs.enter_scope()
                results = interpreter.run_ssacfg_region(body, index, op.name)
                self.memrefs.leave_scope(
                    f"the end of iteration {list(index)} of {describe(op)}"
                )
                values = tuple(
                    interpreter.run_ssacfg_region(region, (acc, new), "reduce")[0]
                    for region, acc, new in zip(
                        reductions, values, results, strict=True
                    )
                )
        return values

    def run_parallel(
        self, interpreter: Interpreter, op: scf.ParallelOp, args: PythonValues
    ) -> PythonValues:
        rank = len(op.lowerBound)
        bounds = [int(value) for value in args[: 3 * rank]]
        lower, upper, steps = bounds[:rank], bounds[rank : 2 * rank], bounds[2 * rank :]
        reduce = op.body.block.last_op
        assert isinstance(reduce, scf.ReduceOp)
        return self.run_box(
            interpreter,
            op,
            _spaces(lower, upper, steps),
            reduce.reductions,
            tuple(args[3 * rank :]),
        )

    @impl(ForallOp)
    def run_forall(
        self, interpreter: Interpreter, op: ForallOp, args: PythonValues
    ) -> PythonValues:
        """The memref form only: with `shared_outs`, the iterations insert
        into tensors, which bufferization turns into writes to memrefs."""
        if op.outputs:
            raise ModelError(
                "shared_outs of tensors are not run: memplan-run runs bufferized "
                "code, expected the memref form of scf.forall (no shared_outs, an "
                "empty scf.forall.in_parallel)"
            )
        operands = iter(int(value) for value in args)
        lower, upper, steps = (
            [
                value if value != DYNAMIC_INDEX else next(operands)
                for value in static.get_values()
            ]
            for static in (op.staticLowerBound, op.staticUpperBound, op.staticStep)
        )
        return self.run_box(interpreter, op, _spaces(lower, upper, steps), (), ())

    @impl_terminator(InParallelOp)
    def run_in_parallel(
        self, interpreter: Interpreter, op: InParallelOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(()), ()

    run_xdsl_parallel = impl(scf.ParallelOp)(run_parallel)
    run_memplan_parallel = impl(ParallelOp)(run_parallel)

    @impl(IfOp)
    def run_if(
        self, interpreter: Interpreter, op: IfOp, args: PythonValues
    ) -> PythonValues:
        """memplan's `scf.if` (what memplan parses), run as xDSL's."""
        return _xdsl_scf().run_if(interpreter, op, args).values

    @impl(WhileOp)
    def run_while(
        self, interpreter: Interpreter, op: WhileOp, args: PythonValues
    ) -> PythonValues:
        """memplan's `scf.while` (what memplan parses), run as xDSL's."""
        return _xdsl_scf().run_while(interpreter, op, args).values

    def run_reduce(
        self, interpreter: Interpreter, op: scf.ReduceOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    run_xdsl_reduce = impl_terminator(scf.ReduceOp)(run_reduce)
    run_memplan_reduce = impl_terminator(ReduceOp)(run_reduce)

    @impl_terminator(scf.ReduceReturnOp)
    def run_reduce_return(
        self, interpreter: Interpreter, op: scf.ReduceReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    def run_for(
        self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues
    ) -> PythonValues:
        """As xDSL's `scf.for`, each iteration an automatic allocation scope."""
        body = partial(interpreter.run_ssacfg_region, op.body)
        return _for(self.iteration_runner(op, body), args)

    run_xdsl_for = impl(scf.ForOp)(run_for)
    run_memplan_for = impl(ForOp)(run_for)

    def compile(self, interpreter: Interpreter, op: Operation) -> Compiled | None:
        """`scf.for` with its body's block looked up once, not per trip; a
        loop nest on whole arrays when `loop_vectorize` can run it so."""
        if not isinstance(op, scf.ForOp) or not isinstance(
            interpreter, RegionInterpreter
        ):
            return None
        body = self.iteration_runner(op, interpreter.region_runner(op.body))
        scalar = partial(_for, body)
        if self.vectorizer is None:
            return scalar
        return self.vectorizer.compile(op, scalar) or scalar

    @impl(ExecuteRegionOp)
    def run_execute_region(
        self, interpreter: Interpreter, op: ExecuteRegionOp, args: PythonValues
    ) -> PythonValues:
        return interpreter.run_ssacfg_region(op.region, (), "execute_region")


def _for(
    body: Callable[[PythonValues], PythonValues], args: PythonValues
) -> PythonValues:
    lower, upper, step, *carried = args
    values = tuple(carried)
    for i in loop_range(lower, upper, step):
        values = body((i, *values))
    return values


def _spaces(
    lower: Sequence[int], upper: Sequence[int], steps: Sequence[int]
) -> list[range]:
    """The induction values of each variable of a parallel loop."""
    return [
        loop_range(*bound, f" of induction variable {dim}")
        for dim, bound in enumerate(zip(lower, upper, steps, strict=True))
    ]


def loop_range(lower: int, upper: int, step: int, of: str = "") -> range:
    """The induction values of a loop; a step that is not positive (which
    MLIR leaves undefined) is an error."""
    if step <= 0:
        raise ModelError(f"step {step}{of} is not positive: expected a step above 0")
    return range(lower, upper, step)

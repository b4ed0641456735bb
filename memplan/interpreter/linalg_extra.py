"""`linalg.div` and `linalg.batch_matmul`, which xDSL 0.74 does not define.

They follow MLIR's definitions (hidden body, default maps) so that programs
written for mlir-opt parse.  `memplan-run` registers `EXTENDED_LINALG` in
place of xDSL's linalg dialect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, TensorType
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition
from xdsl.universe import Universe


def _init_with_hidden_body(
    op: NamedOperation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> None:
    """Build `op` as MLIR's builders do: its body from the operand types,
    results for tensor outputs only."""
    NamedOperation.__init__(
        op,
        ins=inputs,
        outs=outputs,
        result_types=tuple(o.type for o in outputs if isinstance(o.type, TensorType)),
        hidden_region=op.get_hidden_region(inputs, outputs),
    )


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """Elementwise division (signed and truncating for integers)."""

    name = "linalg.div"

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = ()):
        _init_with_hidden_body(self, inputs, outputs)

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(div(args[0], args[1]))

        return hidden_region


BATCH_MATMUL_MAPS = (
    AffineMap.from_callable(lambda b, i, _, k: (b, i, k)),
    AffineMap.from_callable(lambda b, _, j, k: (b, k, j)),
    AffineMap.from_callable(lambda b, i, j, _: (b, i, j)),
)


@irdl_op_definition
class BatchMatmulOp(NamedOperation):
    """C[b] += A[b] @ B[b]."""

    name = "linalg.batch_matmul"

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue] = ()):
        _init_with_hidden_body(self, inputs, outputs)

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        add, mul = (
            (arith.AddfOp, arith.MulfOp)
            if isinstance(arg_types[-1], AnyFloat)
            else (arith.AddiOp, arith.MuliOp)
        )

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(add(mul(args[0], args[1]), args[2]))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return BATCH_MATMUL_MAPS

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return ArrayAttr(AffineMapAttr(m) for m in BATCH_MATMUL_MAPS)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel = IteratorTypeAttr.parallel()
        return ArrayAttr([parallel, parallel, parallel, IteratorTypeAttr.reduction()])


EXTENDED_LINALG = Dialect(
    "linalg",
    [*Linalg.operations, DivOp, BatchMatmulOp],
    list(Linalg.attributes),
)
"""xDSL's linalg plus the two ops above."""


def run_dialects() -> dict[str, Callable[[], Dialect]]:
    """Every installed dialect (memplan's included), with linalg extended."""
    dialects = dict(Universe.get_multiverse().all_dialects)
    dialects["linalg"] = lambda: EXTENDED_LINALG
    return dialects

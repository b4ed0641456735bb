"""`linalg.fill_rng_2d`: MLIR's named op that fills a 2-d output with
pseudo-random numbers in [min, max), from a fixed integer LCG.

The hidden body is the one MLIR's OpDSL definition builds, op for op (its
order, its constants, its casts), so memplan-run computes what MLIR's
compiled body computes, wrapping i32 arithmetic included:

    r1  = (i32(m) + seed) * 1103515245 + 12345
    r2  = (i32(n) + r1) * 1103515245 + 12345
    out = cast((2147483647.0 + f64(r2)) * ((max - min) * 2.3283064e-10) + min)

with `m`, `n` the loop indices (`linalg.index`), the constants built as i64
and truncated to i32 (2147483647 converted to f64), and the result cast to
the output's element type (`truncf`, `fptosi`, ...).  `min` and `max` are
f64 scalars and `seed` an i32 one (with others MLIR's body is ill-typed and
its ops' verifiers fail; memplan says what the op takes).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
    f64,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.linalg_base import (
    HiddenBodyOperation,
    binary_scalar,
    body_arg_types,
    cast_scalar,
    shape_of,
)
from memplan.dialects.linalg_index import IndexOp

__all__ = ["FillRng2DOp"]

_MULTIPLIER = 1103515245
_INCREMENT = 12345
_OFFSET = 2147483647
_INVERSE_RANGE = 2.3283064e-10


def _i32_constant(value: int) -> SSAValue:
    """`cast_signed(I32, const(value))`: an i64 constant truncated to i32."""
    return cast_scalar(arith.ConstantOp(IntegerAttr(value, i64)).result, i32)


def _lcg_step(index: SSAValue, state: SSAValue) -> SSAValue:
    """(index + state) * multiplier + increment, in i32."""
    total = binary_scalar("add", index, state)
    product = binary_scalar("mul", total, _i32_constant(_MULTIPLIER))
    return binary_scalar("add", product, _i32_constant(_INCREMENT))


@irdl_op_definition
class FillRng2DOp(HiddenBodyOperation):
    """O[m, n] = a number in [min, max) from a LCG of (seed, m, n)."""

    name = "linalg.fill_rng_2d"

    @classmethod
    def defined_body(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = body_arg_types((*inputs, *outputs))
        if len(outputs) != 1 or arg_types[:-1] != [f64, f64, i32]:
            raise VerifyException(
                "linalg.fill_rng_2d takes min and max as f64 and seed as i32 "
                "scalars and one output, got "
                f"ins({', '.join(map(str, arg_types[: len(inputs)]))}) and "
                f"{len(outputs)} output(s)"
            )

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            low, high, seed = args[:3]
            offset = cast_scalar(
                arith.ConstantOp(IntegerAttr(_OFFSET, i64)).result, f64
            )
            column = cast_scalar(IndexOp(1).result, i32)
            row = cast_scalar(IndexOp(0).result, i32)
            state = _lcg_step(column, _lcg_step(row, seed))
            shifted = binary_scalar("add", offset, cast_scalar(state, f64))
            span = binary_scalar("sub", high, low)
            inverse_range = arith.ConstantOp(FloatAttr(_INVERSE_RANGE, f64)).result
            scaling = binary_scalar("mul", span, inverse_range)
            value = binary_scalar("add", binary_scalar("mul", shifted, scaling), low)
            YieldOp(cast_scalar(value, arg_types[-1]))

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        scalar = AffineMap(2, 0, ())
        return (scalar, scalar, scalar, AffineMap.identity(2))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 2)

    def verify_(self) -> None:
        output = self.outputs[0].type if len(self.outputs) == 1 else None
        if not isinstance(output, ShapedType) or len(shape_of(output)) != 2:
            raise VerifyException(
                f"linalg.fill_rng_2d fills one 2-d output, got {output}"
            )
        super().verify_()

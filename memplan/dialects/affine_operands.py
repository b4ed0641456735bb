"""Which values an affine op may take as dimensions and which as symbols:
MLIR's `isValidDim` and `isValidSymbol` (AffineOps.cpp), which the verifiers
of `affine.if`, `affine.for`, `affine.load`/`store` and their vector forms
apply to their map operands ("operand cannot be used as a dimension id" /
"as a symbol").  xDSL 0.74 checks none of it, so an `affine.if` whose symbol
is a loop's induction variable, or a load whose index is a loaded value,
verified.

The affine scope of an op is the region of its closest `func.func` or
`builtin.module` ancestor (the ops with MLIR's `AffineScope` trait that
memplan reads).  A symbol of that scope is an index value that is:
- defined at the scope's top level (an op there, or an argument);
- a constant;
- the result of a pure op whose operands are all symbols;
- a `memref.dim`/`tensor.dim` of a value defined at the top level of a scope,
  or of the dynamic size of an alloc, view or subview that is a symbol;
- or, failing those, a symbol of the region around the value's region
  (MLIR: "dominates region's parent op"), up to an op isolated from above.

A dimension is a symbol, an induction variable of `affine.for` or
`affine.parallel`, an `affine.apply` of dimensions, or a `dim` of a value
defined at the top level of a scope.

Purity is MLIR's: xDSL's traits and MLIR's differ for arith's divisions, so
those follow MLIR's rule (speculatable only by a constant divisor that is
not 0, nor -1 for the signed `divsi` and `ceildivsi`), and for `affine.min`,
pure in MLIR and without traits in xDSL.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnrankedMemRefType,
)
from xdsl.interfaces import ConditionallySpeculatableInterface
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import (
    ConstantLike,
    IsolatedFromAbove,
    is_side_effect_free,
    is_speculatable,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.memref import (
    AllocOp,
    CastOp,
    DimOp,
    SubviewOp,
    ViewOp,
)

__all__ = ["affine_scope", "valid_dim", "valid_symbol", "verify_dims_and_symbols"]

_DIVISIONS: dict[type[Operation], bool] = {
    arith.DivSIOp: True,
    arith.CeilDivSIOp: True,
    arith.DivUIOp: False,
    arith.CeilDivUIOp: False,
    arith.RemSIOp: False,
    arith.RemUIOp: False,
}
"""arith's divisions MLIR speculates only by a constant divisor other than
0: the value says whether -1 is also excluded (signed overflow)."""


def affine_scope(op: Operation) -> Region | None:
    """The region of `op`'s closest ancestor that is an affine scope
    (`func.func` or `builtin.module`), if any."""
    current = op
    while (parent := current.parent_op()) is not None:
        if isinstance(parent, func.FuncOp | ModuleOp):
            return current.parent_region()
        current = parent
    return None


def verify_dims_and_symbols(
    operands: Sequence[SSAValue], num_dims: int, op: Operation
) -> None:
    """MLIR's `verifyDimAndSymbolIdentifiers`: the first `num_dims` operands
    of `op` must be dimensions, the others symbols, of `op`'s affine scope."""
    scope = affine_scope(op)
    check = _Operands()
    for position, operand in enumerate(operands):
        if position < num_dims:
            if not check.dim(operand, scope):
                raise VerifyException("operand cannot be used as a dimension id")
        elif not check.symbol(operand, scope):
            raise VerifyException("operand cannot be used as a symbol")


def valid_dim(value: SSAValue, region: Region | None) -> bool:
    """MLIR's `isValidDim(value, region)`."""
    return _Operands().dim(value, region)


def valid_symbol(value: SSAValue, region: Region | None) -> bool:
    """MLIR's `isValidSymbol(value, region)`."""
    return _Operands().symbol(value, region)


class _Operands:
    """MLIR's recursive rules with each value's answer kept: a chain of
    index ops that each use the previous value twice would otherwise be
    walked once per path, exponentially many."""

    def __init__(self) -> None:
        self._dims: dict[tuple[SSAValue, Region | None], bool] = {}
        self._symbols: dict[tuple[SSAValue, Region | None], bool] = {}

    def dim(self, value: SSAValue, region: Region | None) -> bool:
        key = (value, region)
        if key not in self._dims:
            self._dims[key] = self._dim(value, region)
        return self._dims[key]

    def symbol(self, value: SSAValue, region: Region | None) -> bool:
        key = (value, region)
        if key not in self._symbols:
            self._symbols[key] = self._symbol(value, region)
        return self._symbols[key]

    def _dim(self, value: SSAValue, region: Region | None) -> bool:
        if not isinstance(value.type, IndexType):
            return False
        if self.symbol(value, region):
            return True
        if isinstance(value, BlockArgument):
            return _induction_variable(value)
        assert isinstance(value, OpResult)
        op = value.op
        if isinstance(op, affine.ApplyOp):
            return all(self.dim(operand, region) for operand in op.operands)
        if isinstance(op, DimOp | tensor.DimOp):
            return _top_level(op.source)
        return False

    def _symbol(self, value: SSAValue, region: Region | None) -> bool:
        if not isinstance(value.type, IndexType):
            return False
        if region is not None and _region_of(value) is region:
            return True
        if isinstance(value, OpResult):
            op = value.op
            if op.has_trait(ConstantLike):
                return True
            if _pure(op) and all(
                self.symbol(operand, region) for operand in op.operands
            ):
                return True
            if isinstance(op, DimOp | tensor.DimOp):
                return self._dim_op_symbol(op, region)
        if region is None:
            return False
        around = region.parent_op()
        if around is None or around.has_trait(IsolatedFromAbove):
            return False
        outer = around.parent_region()
        return outer is not None and self.symbol(value, outer)

    def _dim_op_symbol(self, op: DimOp | tensor.DimOp, region: Region | None) -> bool:
        """MLIR's `isDimOpValidSymbol`: the source is defined at a scope's top
        level, or its size `index` is a static or symbol size of the alloc, view
        or subview that defines it (through `memref.cast`s)."""
        if _top_level(op.source):
            return True
        if isinstance(op.source, BlockArgument):
            return False
        index = ConstantLike.get_constant_value(op.index)
        if not isinstance(index, IntegerAttr):
            return False
        assert isinstance(op.source, OpResult)
        definer = op.source.op
        while isinstance(definer, CastOp):
            if isinstance(definer.source.type, UnrankedMemRefType):
                return False
            if not isinstance(definer.source, OpResult):
                return False
            definer = definer.source.op
        if isinstance(definer, AllocOp):
            sizes = definer.dynamic_sizes
        elif isinstance(definer, ViewOp | SubviewOp):
            sizes = definer.sizes
        else:
            return False
        memref_type = definer.results[0].type
        assert isinstance(memref_type, MemRefType)
        shape = memref_type.get_shape()
        position = index.value.data
        if not 0 <= position < len(shape):
            return False
        if shape[position] != DYNAMIC_INDEX:
            return True
        return self.symbol(sizes[shape[:position].count(DYNAMIC_INDEX)], region)


def _region_of(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent_region()
    assert isinstance(value, OpResult)
    return value.op.parent_region()


def _top_level(value: SSAValue) -> bool:
    """MLIR's `isTopLevelValue(value)`: defined in the region of an affine
    scope."""
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
    else:
        assert isinstance(value, OpResult)
        parent = value.op.parent_op()
    return isinstance(parent, func.FuncOp | ModuleOp)


def _induction_variable(value: BlockArgument) -> bool:
    owner = value.block.parent_op()
    if isinstance(owner, affine.ForOp):
        return value.index == 0
    # By name: memplan's `affine.parallel` is its own class, not xDSL's, and
    # every argument of its body is an induction variable.
    return owner is not None and owner.name == "affine.parallel"


def _pure(op: Operation) -> bool:
    """MLIR's `isPure`: no memory effect, and speculatable."""
    if isinstance(op, affine.MinOp):
        return True
    signed = _DIVISIONS.get(type(op))
    if signed is not None:
        divisor = ConstantLike.get_constant_value(op.operands[1])
        return (
            isinstance(divisor, IntegerAttr)
            and divisor.value.data != 0
            and not (signed and divisor.value.data == -1)
        )
    if not is_side_effect_free(op):
        return False
    if isinstance(op, ConditionallySpeculatableInterface):
        return op.is_speculatable()
    return is_speculatable(op)

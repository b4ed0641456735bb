"""scf.parallel: iterations run in order, checked as if they ran at once."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, i32
from xdsl.ir import Block, Region

from memplan.dialects import memref
from memplan.interpreter import InterpretationError, run_function

S = '!memory.storage<"global.vtcm">'
V = 'memref<4xi32, "global.vtcm">'


def parallel(upper: str, body: str, iv: str = "%i") -> str:
    """A one-dimensional `scf.parallel` from 0 to `upper` in MLIR's custom
    form (its `scf.reduce` implicit)."""
    return f"scf.parallel ({iv}) = (%c0) to ({upper}) step (%c1) {{\n{body}\n}}"


def program(*lines: str) -> str:
    return "\n".join(
        [
            "func.func @main() {",
            "  %c0 = arith.constant 0 : index",
            "  %c1 = arith.constant 1 : index",
            "  %c2 = arith.constant 2 : index",
            "  %c16 = arith.constant 16 : index",
            "  %one = arith.constant 1 : i32",
            *lines,
            "  func.return",
            "}",
        ]
    )


def test_sum_and_product_reductions_match_numpy(run: Run):
    text = """
    func.func @main(%m: memref<3x4xf64>) -> (f64, f64) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f64
      %one = arith.constant 1.0 : f64
      %r:2 = "scf.parallel"(%c0, %c0, %c3, %c4, %c1, %c1, %zero, %one) <{operandSegmentSizes = array<i32: 2, 2, 2, 2>}> ({
      ^bb0(%i: index, %j: index):
        %v = memref.load %m[%i, %j] : memref<3x4xf64>
        "scf.reduce"(%v, %v) ({
        ^bb1(%a: f64, %b: f64):
          %s = arith.addf %a, %b : f64
          "scf.reduce.return"(%s) : (f64) -> ()
        }, {
        ^bb1(%a: f64, %b: f64):
          %p = arith.mulf %a, %b : f64
          "scf.reduce.return"(%p) : (f64) -> ()
        }) : (f64, f64) -> ()
      }) : (index, index, index, index, index, index, f64, f64) -> (f64, f64)
      func.return %r#0, %r#1 : f64, f64
    }
    """
    m = np.linspace(0.5, 2.0, 12).reshape(3, 4)
    total, product = run(text, m).results
    assert total == pytest.approx(m.sum())
    assert product == pytest.approx(m.prod())


def test_a_loop_without_iterations_returns_its_init_values(run: Run):
    text = """
    func.func @main() -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %init = arith.constant 42 : i32
      %r = "scf.parallel"(%c1, %c0, %c1, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
      ^bb0(%i: index):
        %v = arith.index_cast %i : index to i32
        "scf.reduce"(%v) ({
        ^bb1(%a: i32, %b: i32):
          "scf.reduce.return"(%b) : (i32) -> ()
        }) : (i32) -> ()
      }) : (index, index, index, i32) -> i32
      func.return %r : i32
    }
    """
    assert run(text).results == (42,)


def test_an_iteration_may_reuse_its_own_bytes_of_a_storage_made_outside(run: Run):
    body = "\n".join(
        [
            "  %off = arith.muli %i, %c16 : index",
            f"  %a = memory.alloc_tensor %s[%off] : {S} to {V}",
            f"  linalg.fill ins(%one : i32) outs(%a : {V})",
            f"  memory.kill %a : {V}",
            f"  %b = memory.alloc_tensor %s[%off] : {S} to {V}",
            f"  linalg.fill ins(%one : i32) outs(%b : {V})",
        ]
    )
    text = program(
        f"  %s = memory.alloc_storage [32] : {S}",
        parallel("%c2", body),
    )
    assert run(text).stats.peak_bytes["global.vtcm"] == 32


def test_the_error_names_the_last_tensor_an_earlier_iteration_placed_there(
    run: Run,
):
    """Iteration 0 places %a on [0, 16) then %b on [8, 24): bytes 0-7 stay
    %a's, 8-23 are %b's; iteration 1's %c on [16, 32) meets %b at [16, 24)."""
    body = "\n".join(
        [
            "  %c8 = arith.constant 8 : index",
            "  %first = arith.cmpi eq, %i, %c0 : index",
            "  scf.if %first {",
            f"    %a = memory.alloc_tensor %s[%c0] : {S} to {V}",
            f"    memory.kill %a : {V}",
            f"    %b = memory.alloc_tensor %s[%c8] : {S} to {V}",
            f"    memory.kill %b : {V}",
            "  } else {",
            f"    %c = memory.alloc_tensor %s[%c16] : {S} to {V}",
            "  }",
        ]
    )
    text = program(f"  %s = memory.alloc_storage [32] : {S}", parallel("%c2", body))
    with pytest.raises(
        InterpretationError,
        match=r"memory.alloc_tensor %c \(in @main\): in iteration \[1\] of "
        r"scf.parallel \(in @main\), places its tensor on bytes \[16, 24\) of the "
        r'"global.vtcm" storage allocated by memory.alloc_storage %s \(in @main\), '
        r"which iteration \[0\] gave to the tensor allocated by "
        r"memory.alloc_tensor %b \(in @main\);",
    ):
        run(text)


def test_nested_loops_flag_the_loop_whose_iterations_share_a_storage(run: Run):
    """Each outer iteration allocates its own storage, so the outer loop is
    fine; the inner iterations all place at offset 0 of it."""

    def nest(inner_upper: str) -> str:
        inner = parallel(
            inner_upper, f"  %t = memory.alloc_tensor %s[%c0] : {S} to {V}", "%j"
        )
        return program(
            parallel("%c2", f"  %s = memory.alloc_storage [16] : {S}\n{inner}")
        )

    with pytest.raises(
        InterpretationError,
        match=r"in iteration \[1\] of scf.parallel \(in @main\), places its tensor "
        r"on bytes \[0, 16\) .* which iteration \[0\] gave",
    ):
        run(nest("%c2"))
    assert run(nest("%c1")).stats.storage_allocations == {"global.vtcm": 2}


def test_killing_a_tensor_made_outside_the_loop_in_an_iteration_fails(run: Run):
    text = program(
        f"  %s = memory.alloc_storage [16] : {S}",
        f"  %t = memory.alloc_tensor %s[%c0] : {S} to {V}",
        parallel("%c2", f"  memory.kill %t : {V}"),
    )
    with pytest.raises(
        InterpretationError,
        match=r"memory.kill \(in @main\): kills the tensor allocated by "
        r"memory.alloc_tensor %t \(in @main\) in iteration \[0\] of scf.parallel "
        r"\(in @main\), but it was made outside the loop",
    ):
        run(text)


def test_parallel_loops_built_from_xdsl_classes_run():
    """xDSL's builders make xDSL's scf.parallel and scf.reduce, not memplan's
    subclasses (which only parsing makes); both run."""
    out = func.FuncOp("main", ([MemRefType(i32, [3])], []))
    c0, c1, c3 = (
        arith.ConstantOp.from_int_and_width(v, IndexType()) for v in (0, 1, 3)
    )
    body = Block(arg_types=[IndexType()])
    value = arith.IndexCastOp(body.args[0], i32)
    body.add_ops([value, memref.StoreOp.get(value, out.args[0], [body.args[0]])])
    body.add_op(scf.ReduceOp())
    loop = scf.ParallelOp([c0], [c3], [c1], Region(body))
    out.body.block.add_ops([c0, c1, c3, loop, func.ReturnOp()])
    m = np.zeros(3, np.int32)
    run_function(ModuleOp([out]), "main", (m,))
    assert type(loop) is scf.ParallelOp
    np.testing.assert_array_equal(m, [0, 1, 2])


IDENTITY_BITS = {
    "f16": {"maxnumf": 0xFE00, "minnumf": 0x7E00, "maximumf": 0xFC00},
    "f64": {
        "maxnumf": 0xFFF8000000000000,
        "minnumf": 0x7FF8000000000000,
        "maximumf": 0xFFF0000000000000,
    },
}
"""The bits of what an `affine.parallel` of no iteration returns: the
identities MLIR's `-lower-affine` starts these reductions from (quiet NaNs,
negative for `maxnumf`; -inf)."""


@pytest.mark.parametrize("element", sorted(IDENTITY_BITS))
def test_affine_parallel_without_iterations_returns_mlirs_identities(
    run: Run, element: str
):
    kinds = sorted(IDENTITY_BITS[element])
    integer = {"f16": "i16", "f64": "i64"}[element]
    count = len(kinds)
    floats, integers = ", ".join([element] * count), ", ".join([integer] * count)
    reductions = ", ".join(f'"{kind}"' for kind in kinds)
    lines = [
        f"func.func @main() -> ({integers}) {{",
        f"  %r:{count} = affine.parallel (%i) = (3) to (1) reduce ({reductions})"
        f" -> ({floats}) {{",
        f"    %c = arith.constant 1.0 : {element}",
        f"    affine.yield {', '.join(['%c'] * count)} : {floats}",
        "  }",
        *(
            f"  %b{n} = arith.bitcast %r#{n} : {element} to {integer}"
            for n in range(count)
        ),
        f"  func.return {', '.join(f'%b{n}' for n in range(count))} : {integers}",
        "}",
    ]
    width = int(integer[1:])
    results = np.array(run("\n".join(lines)).results, np.int64)
    bits = [int(value) % (1 << width) for value in results]
    assert bits == [IDENTITY_BITS[element][kind] for kind in kinds]


def test_scf_forall_iterations_on_the_same_bytes_of_a_storage_made_outside_fail(
    run: Run,
):
    text = program(
        f"  %s = memory.alloc_storage [16] : {S}",
        "  scf.forall (%i, %j) in (1, 2) {",
        f"    %t = memory.alloc_tensor %s[%c0] : {S} to {V}",
        "  }",
    )
    with pytest.raises(
        InterpretationError,
        match=r"in iteration \[0, 1\] of scf.forall \(in @main\), places its "
        r"tensor on bytes \[0, 16\) .* which iteration \[0, 0\] gave",
    ):
        run(text)


def test_affine_parallel_iterations_each_free_their_alloca(run: Run):
    text = program(
        "  affine.parallel (%i) = (0) to (3) {",
        f"    %t = memref.alloca() : {V}",
        f"    linalg.fill ins(%one : i32) outs(%t : {V})",
        "  }",
    )
    assert run(text).stats.peak_bytes["global.vtcm"] == 16

"""arith where numpy's obvious formula differs from MLIR: rounding divisions at
the integer minimum, unsigned ceiling division, the order of signed zeros in
`maximumf` / `minimumf`, and the two-result ops whose words exceed 64 bits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from interpreter_helpers import Run, parse

from memplan.interpreter import InterpretationError, run_function


def _ceil_div(lhs: int, rhs: int) -> int:
    return -(-lhs // rhs)


def test_ceildivsi_at_the_integer_minimum_keeps_its_sign(run: Run):
    program = """
    func.func @main(%a: i32, %b: i32, %a8: i8, %b8: i8) -> (i32, i8) {
      %q = arith.ceildivsi %a, %b : i32
      %q8 = arith.ceildivsi %a8, %b8 : i8
      func.return %q, %q8 : i32, i8
    }
    """
    assert run(program, -(2**31), 2, -128, 2).results == (-(2**30), -64)
    assert run(program, -(2**31), -3, -128, -3).results == (715827883, 43)


def test_ceil_divisions_of_every_i8_pair_in_a_body_are_exact(run: Run):
    """Signed and unsigned, over all 256 x 255 dividend and nonzero divisor
    pairs (the signed quotient of -128 by -1 overflows: left out)."""
    program = """
    #map = affine_map<(d0) -> (d0)>
    func.func @main(%a: memref<65280xi8>, %b: memref<65280xi8>,
                    %s: memref<65280xi8>, %u: memref<65280xi8>) {
      linalg.generic {indexing_maps = [#map, #map, #map, #map],
                      iterator_types = ["parallel"]}
          ins(%a, %b : memref<65280xi8>, memref<65280xi8>)
          outs(%s, %u : memref<65280xi8>, memref<65280xi8>) {
      ^bb0(%x: i8, %y: i8, %o: i8, %p: i8):
        %signed = arith.ceildivsi %x, %y : i8
        %unsigned = arith.ceildivui %x, %y : i8
        linalg.yield %signed, %unsigned : i8, i8
      }
      func.return
    }
    """
    pairs = [(x, y) for x, y in itertools.product(range(-128, 128), repeat=2) if y != 0]
    a = np.array([x for x, _ in pairs], np.int8)
    b = np.array([y for _, y in pairs], np.int8)
    signed, unsigned = np.zeros_like(a), np.zeros_like(a)
    run(program, a, b, signed, unsigned)
    defined = [i for i, (x, y) in enumerate(pairs) if (x, y) != (-128, -1)]
    expected_signed = np.array([_ceil_div(x, y) for x, y in pairs], np.int64)
    np.testing.assert_array_equal(signed[defined], expected_signed[defined])
    expected_unsigned = [_ceil_div(x % 256, y % 256) for x, y in pairs]
    np.testing.assert_array_equal(unsigned.view(np.uint8), expected_unsigned)


def test_ceildivui_reads_its_operands_as_unsigned(run: Run):
    program = """
    func.func @main(%a: i32, %b: i32) -> i32 {
      %q = arith.ceildivui %a, %b : i32
      func.return %q : i32
    }
    """
    assert run(program, 7, 2).results == (4,)
    assert run(program, -1, 2).results == (-(2**31),)


def test_ceildivui_by_zero_is_an_error(run: Run):
    program = """
    func.func @main(%a: i32, %b: i32) -> i32 {
      %q = arith.ceildivui %a, %b : i32
      func.return %q : i32
    }
    """
    with pytest.raises(InterpretationError, match="integer division by zero"):
        run(program, 7, 0)


def _signs(values: tuple[object, ...]) -> list[bool]:
    return np.signbit(np.asarray(values, np.float32)).tolist()


def test_maximumf_and_minimumf_order_negative_zero_below_positive_zero(run: Run):
    program = """
    func.func @main(%x: f32, %y: f32) -> (f32, f32, f32, f32) {
      %max_xy = arith.maximumf %x, %y : f32
      %max_yx = arith.maximumf %y, %x : f32
      %min_xy = arith.minimumf %x, %y : f32
      %min_yx = arith.minimumf %y, %x : f32
      func.return %max_xy, %max_yx, %min_xy, %min_yx : f32, f32, f32, f32
    }
    """
    assert _signs(run(program, -0.0, 0.0).results) == [False, False, True, True]
    assert _signs(run(program, -0.0, -0.0).results) == [True, True, True, True]
    assert _signs(run(program, 0.0, 0.0).results) == [False, False, False, False]
    assert np.isnan(np.asarray(run(program, np.nan, 0.0).results, np.float32)).all()


@pytest.mark.parametrize(("named", "winner"), [("max", 0.0), ("min", -0.0)])
def test_named_elementwise_max_and_min_order_signed_zeros(
    run: Run, named: str, winner: float
):
    program = f"""
    func.func @main(%a: memref<4xf32>, %b: memref<4xf32>, %o: memref<4xf32>) {{
      linalg.{named} ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
      func.return
    }}
    """
    a = np.array([0.0, -0.0, -0.0, 2.0], np.float32)
    b = np.array([-0.0, 0.0, -0.0, np.nan], np.float32)
    out = np.ones(4, np.float32)
    run(program, a, b, out)
    assert list(np.signbit(out[:2])) == [np.signbit(winner)] * 2
    assert np.signbit(out[2]) and out[2] == 0
    assert np.isnan(out[3])


@pytest.mark.parametrize(
    ("combiner", "column", "expected_negative"),
    [
        ("maximumf", [-0.0, 0.0, -1.0], False),
        ("maximumf", [-0.0, -0.0, -1.0], True),
        ("minimumf", [0.0, -0.0, 1.0], True),
        ("minimumf", [0.0, 0.0, 1.0], False),
    ],
)
def test_reductions_by_maximumf_and_minimumf_sign_a_zero_result_as_mlir(
    run: Run, combiner: str, column: list[float], expected_negative: bool
):
    """Both ways a reduction runs (`linalg.reduce`, and a `linalg.generic`
    whose body folds into its output), with the zeros in either order."""
    program = f"""
    #in = affine_map<(d0, d1) -> (d1, d0)>
    #out = affine_map<(d0, d1) -> (d0)>
    func.func @main(%m: memref<3x2xf32>, %r: memref<2xf32>, %g: memref<2xf32>) {{
      linalg.reduce ins(%m : memref<3x2xf32>) outs(%r : memref<2xf32>) dimensions = [0]
        (%x: f32, %acc: f32) {{
          %c = arith.{combiner} %x, %acc : f32
          linalg.yield %c : f32
        }}
      linalg.generic {{indexing_maps = [#in, #out],
                      iterator_types = ["parallel", "reduction"]}}
          ins(%m : memref<3x2xf32>) outs(%g : memref<2xf32>) {{
      ^bb0(%x: f32, %acc: f32):
        %c = arith.{combiner} %x, %acc : f32
        linalg.yield %c : f32
      }}
      func.return
    }}
    """
    swapped = [column[1], column[0], column[2]]
    m = np.array([column, swapped], np.float32).T.copy()
    reduced = np.full(2, column[2], np.float32)
    generic = np.full(2, column[2], np.float32)
    run(program, m, reduced, generic)
    for out in (reduced, generic):
        assert list(out) == [0.0, 0.0]
        assert list(np.signbit(out)) == [expected_negative] * 2


def test_arg_reduction_by_maximumf_signs_a_zero_maximum_as_mlir(run: Run):
    """An argmax body (value and index outputs) folds the value with a running
    maximum: +0.0 wins over -0.0 whichever comes first."""
    program = """
    #in = affine_map<(i, j) -> (i, j)>
    #out = affine_map<(i, j) -> (i)>
    func.func @main(%x: memref<2x3xf32>, %best: memref<2xf32>, %at: memref<2xi64>) {
      linalg.generic {indexing_maps = [#in, #out, #out],
                      iterator_types = ["parallel", "reduction"]}
          ins(%x : memref<2x3xf32>) outs(%best, %at : memref<2xf32>, memref<2xi64>) {
      ^bb0(%v: f32, %m: f32, %k: i64):
        %j = linalg.index 1 : index
        %jj = arith.index_cast %j : index to i64
        %new = arith.maximumf %v, %m : f32
        %greater = arith.cmpf ogt, %v, %m : f32
        %idx = arith.select %greater, %jj, %k : i64
        linalg.yield %new, %idx : f32, i64
      }
      func.return
    }
    """
    x = np.array([[-0.0, 0.0, -1.0], [0.0, -0.0, -1.0]], np.float32)
    best = np.full(2, -np.inf, np.float32)
    at = np.full(2, -1, np.int64)
    run(program, x, best, at)
    assert list(best) == [0.0, 0.0]
    assert not np.signbit(best).any()
    np.testing.assert_array_equal(at, [0, 0])


NUMBER_PREFERRING_F16 = """
func.func @main(%a: f16, %b: f16) -> (f16, f16) {
  %max = arith.maxnumf %a, %b : f16
  %min = arith.minnumf %a, %b : f16
  func.return %max, %min : f16, f16
}
"""


@pytest.mark.parametrize(
    ("a", "b", "max_bits", "min_bits"),
    [
        (0x0000, 0x8000, 0x8000, 0x8000),  # +0, -0: the second zero
        (0x8000, 0x0000, 0x0000, 0x0000),
        (0x7E01, 0x7D02, 0x7E01, 0x7E01),  # two NaNs: the first, quieted
        (0x7D02, 0xFE03, 0x7F02, 0x7F02),
        (0x7D02, 0x3C00, 0x3C00, 0x3C00),  # a signaling NaN: the number
    ],
)
def test_f16_maxnumf_and_minnumf_follow_the_c_library_as_mlirs_code(
    run: Run, a: int, b: int, max_bits: int, min_bits: int
):
    """LLVM widens an f16 maxnum/minnum to f32 and calls `fmaxf`/`fminf`
    (x86's `maxss`): of equal operands the second, of two NaNs the first,
    quieted; f32 and f64 code keeps the first of equal operands."""
    bits = np.array([a, b], np.uint16).view(np.float16)
    result = run(NUMBER_PREFERRING_F16, bits[0], bits[1]).results
    got = np.array(result, np.float16).view(np.uint16)
    assert [hex(v) for v in got] == [hex(max_bits), hex(min_bits)]


def _wrap(value: int, bits: int) -> int:
    """`value` as a signed `bits`-bit integer."""
    value %= 1 << bits
    return value - (1 << bits) if value >> (bits - 1) else value


@pytest.mark.parametrize(
    ("type_", "bits", "a", "b"),
    [
        ("i32", 32, -1, 3),
        ("i32", 32, 2**31 - 1, 2**31 - 1),
        ("i8", 8, -128, -128),
        ("i64", 64, -(2**63), 3),
        ("i64", 64, 2**63 - 1, -(2**63) + 5),
    ],
)
def test_extended_ops_give_the_carry_and_the_high_word_exactly(
    run: Run, type_: str, bits: int, a: int, b: int
):
    """The sum's carry and both halves of the double-width products, as MLIR
    defines them (an i64 product needs 128 bits)."""
    program = f"""
    func.func @main(%a: {type_}, %b: {type_}) -> ({type_}, i1, {type_}, {type_}, {type_}, {type_}) {{
      %s, %o = arith.addui_extended %a, %b : {type_}, i1
      %l, %h = arith.mulsi_extended %a, %b : {type_}
      %ul, %uh = arith.mului_extended %a, %b : {type_}
      func.return %s, %o, %l, %h, %ul, %uh : {type_}, i1, {type_}, {type_}, {type_}, {type_}
    }}
    """
    ua, ub = a % (1 << bits), b % (1 << bits)
    expected = (
        _wrap(ua + ub, bits),
        (ua + ub) >> bits == 1,
        _wrap(a * b, bits),
        _wrap((a * b) >> bits, bits),
        _wrap(ua * ub, bits),
        _wrap((ua * ub) >> bits, bits),
    )
    assert run(program, a, b).results == expected


def test_extended_ops_run_in_a_body_element_by_element(run: Run):
    program = """
    #map = affine_map<(d0) -> (d0)>
    func.func @main(%a: memref<4xi8>, %b: memref<4xi8>, %high: memref<4xi8>) {
      linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
          ins(%a, %b : memref<4xi8>, memref<4xi8>) outs(%high : memref<4xi8>) {
      ^bb0(%x: i8, %y: i8, %o: i8):
        %l, %h = arith.mului_extended %x, %y : i8
        linalg.yield %h : i8
      }
      func.return
    }
    """
    a = np.array([-1, 16, 3, -128], np.int8)
    b = np.array([-1, 16, 5, 2], np.int8)
    high = np.zeros(4, np.int8)
    run(program, a, b, high)
    expected = [(int(x) % 256) * (int(y) % 256) >> 8 for x, y in zip(a, b, strict=True)]
    np.testing.assert_array_equal(high.view(np.uint8), expected)


I1_OPS = """
    func.func @main(%t: i1, %f: i1, %n: index, %two: i32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, index, f32, f32, i32, i32, i1) {
      %add = arith.addi %t, %t : i1
      %sub = arith.subi %f, %t : i1
      %mul = arith.muli %t, %t : i1
      %max = arith.maxsi %t, %f : i1
      %min = arith.minsi %t, %f : i1
      %slt = arith.cmpi slt, %t, %f : i1
      %ult = arith.cmpi ult, %t, %f : i1
      %tr2 = arith.trunci %two : i32 to i1
      %ic = arith.index_cast %n : index to i1
      %ci = arith.index_cast %t : i1 to index
      %sf = arith.sitofp %t : i1 to f32
      %uf = arith.uitofp %t : i1 to f32
      %es = arith.extsi %t : i1 to i32
      %eu = arith.extui %t : i1 to i32
      %maxu = arith.maxui %t, %f : i1
      func.return %add, %sub, %mul, %max, %min, %slt, %ult, %tr2, %ic, %ci, %sf, %uf, %es, %eu, %maxu : i1, i1, i1, i1, i1, i1, i1, i1, i1, index, f32, f32, i32, i32, i1
    }
"""


def test_i1_is_a_one_bit_twos_complement_integer_as_in_mlir(run: Run):
    # What MLIR's own folder (canonicalize) makes of these ops on constants:
    # true is -1 read as signed, 1 as unsigned; wrapping keeps the low bit.
    # Arithmetic (true + true), signed order and signed casts used to read
    # true as 1, and trunci / index_cast to i1 took any nonzero for true.
    assert run(I1_OPS, True, False, 6, 2).results == (
        False,  # addi true, true
        True,  # subi false, true
        True,  # muli true, true
        False,  # maxsi true, false
        True,  # minsi true, false
        True,  # cmpi slt true, false
        False,  # cmpi ult true, false
        False,  # trunci 2 : i32 to i1
        False,  # index_cast 6 : index to i1
        -1,  # index_cast true : i1 to index
        -1.0,  # sitofp true
        1.0,  # uitofp true
        -1,  # extsi true
        1,  # extui true
        True,  # maxui true, false
    )


I1_FOLDS = """
func.func @main(%x: memref<4x3xi1>, %a: memref<3xi1>, %b: memref<3xi1>, %max: memref<3xi1>, %min: memref<3xi1>, %sum: memref<3xi1>, %smax: memref<3xi1>, %smin: memref<3xi1>, %gsum: memref<3xi1>, %gmax: memref<3xi1>) {
  linalg.max ins(%a, %b : memref<3xi1>, memref<3xi1>) outs(%max : memref<3xi1>)
  linalg.min ins(%a, %b : memref<3xi1>, memref<3xi1>) outs(%min : memref<3xi1>)
  linalg.reduce { arith.addi } ins(%x : memref<4x3xi1>) outs(%sum : memref<3xi1>) dimensions = [0]
  linalg.reduce { arith.maxsi } ins(%x : memref<4x3xi1>) outs(%smax : memref<3xi1>) dimensions = [0]
  linalg.reduce { arith.minsi } ins(%x : memref<4x3xi1>) outs(%smin : memref<3xi1>) dimensions = [0]
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<4x3xi1>) outs(%gsum, %gmax : memref<3xi1>, memref<3xi1>) {
  ^bb0(%in: i1, %s: i1, %m: i1):
    %t = arith.addi %s, %in : i1
    %u = arith.maxsi %m, %in : i1
    linalg.yield %t, %u : i1, i1
  }
  func.return
}
"""


@pytest.mark.parametrize("sequential_sums", [False, True])
def test_i1_extrema_and_sums_of_linalg_ops_read_true_as_minus_one(
    sequential_sums: bool,
):
    """As the scalar ops above: the signed maximum of true (-1) and false
    is false, the minimum true, a sum is an xor.  linalg.max and min, and
    reductions by addi, maxsi and minsi, folded with numpy's bool maximum,
    minimum and add (or, and, or) and gave the opposite."""
    x = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 0], [1, 0, 1]], bool)
    a, b = np.array([1, 1, 0], bool), np.array([1, 0, 0], bool)
    outs = [np.array([1, 0, 1], bool) for _ in range(7)]
    run_function(
        parse(I1_FOLDS), "main", (x, a, b, *outs), sequential_sums=sequential_sums
    )
    maximum, minimum, total, smax, smin, gsum, gmax = (o.tolist() for o in outs)
    assert maximum == [True, False, False]
    assert minimum == [True, True, False]
    # the xor of each column and the init [1, 0, 1]
    assert total == gsum == [True, False, False]
    # init true (-1) wins a signed max only against all true
    assert smax == gmax == [True, False, False]
    assert smin == [True, True, True]

"""`linalg.pack` and `linalg.unpack` on memrefs give what MLIR's loops over
the dest give (written out here element by element)."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run, parse

from memplan.interpreter import run_function
from memplan.interpreter.errors import InterpretationError

RNG = np.random.default_rng(5)


def _source_index(
    outer: tuple[int, ...],
    inner: tuple[int, ...],
    tiles: list[int],
    positions: list[int],
    perm: list[int],
) -> tuple[int, ...]:
    """The unpacked index of packed element (outer, inner)."""
    index = []
    for d in range(len(outer)):
        o = outer[perm.index(d)] if perm else outer[d]
        if d in positions:
            j = positions.index(d)
            index.append(o * tiles[j] + inner[j])
        else:
            index.append(o)
    return tuple(index)


def _pack_loops(
    source: np.ndarray,
    dest_shape: tuple[int, ...],
    tiles: list[int],
    positions: list[int],
    perm: list[int],
    padding: float,
) -> np.ndarray:
    rank = source.ndim
    dest = np.empty(dest_shape, source.dtype)
    for index in np.ndindex(*dest_shape):
        at = _source_index(index[:rank], index[rank:], tiles, positions, perm)
        inside = all(i < n for i, n in zip(at, source.shape, strict=True))
        dest[index] = source[at] if inside else padding
    return dest


def _unpack_loops(
    source: np.ndarray,
    dest_shape: tuple[int, ...],
    tiles: list[int],
    positions: list[int],
    perm: list[int],
) -> np.ndarray:
    rank = len(dest_shape)
    dest = np.empty(dest_shape, source.dtype)
    for index in np.ndindex(*dest_shape):
        outer = [
            index[d] // tiles[positions.index(d)] if d in positions else index[d]
            for d in range(rank)
        ]
        inner = [index[d] % tile for d, tile in zip(positions, tiles, strict=True)]
        packed_outer = [outer[d] for d in perm] if perm else outer
        dest[index] = source[(*packed_outer, *inner)]
    return dest


def test_pack_tiles_both_dimensions(run: Run):
    program = """
    func.func @main(%a: memref<8x6xf32>, %b: memref<2x3x4x2xf32>) {
      linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %b : memref<8x6xf32> -> memref<2x3x4x2xf32>
      func.return
    }
    """
    a = RNG.standard_normal((8, 6)).astype(np.float32)
    b = np.zeros((2, 3, 4, 2), np.float32)
    run(program, a, b)
    np.testing.assert_array_equal(b, _pack_loops(a, b.shape, [4, 2], [0, 1], [], 0))
    np.testing.assert_array_equal(b[1, 2], a[4:8, 4:6])


def test_pack_with_permutation_padding_and_a_dynamic_tile(run: Run):
    """7x6 tiled [1, 0] by [3, %t = 4], the outer dimensions swapped: the
    last row tile is padded with the padding value."""
    program = """
    func.func @main(%a: memref<7x6xi32>, %b: memref<2x2x3x?xi32>, %t: index) {
      %p = arith.constant -1 : i32
      linalg.pack %a padding_value(%p : i32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [3, %t] into %b : memref<7x6xi32> -> memref<2x2x3x?xi32>
      func.return
    }
    """
    a = np.arange(42, dtype=np.int32).reshape(7, 6)
    b = np.zeros((2, 2, 3, 4), np.int32)
    run(program, a, b, 4)
    expected = _pack_loops(a, b.shape, [3, 4], [1, 0], [1, 0], -1)
    np.testing.assert_array_equal(b, expected)
    np.testing.assert_array_equal(b[0, 1, :, 3], [-1, -1, -1])


def test_unpack_undoes_pack_and_cuts_the_partial_tile(run: Run):
    program = """
    func.func @main(%a: memref<2x3x4x3xf64>, %b: memref<10x5xf64>) {
      linalg.unpack %a outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 3] into %b : memref<2x3x4x3xf64> -> memref<10x5xf64>
      func.return
    }
    """
    packed = RNG.standard_normal((2, 3, 4, 3))
    b = np.zeros((10, 5))
    run(program, packed, b)
    np.testing.assert_array_equal(
        b, _unpack_loops(packed, (10, 5), [4, 3], [0, 1], [1, 0])
    )
    repacked = _pack_loops(b, (2, 3, 4, 3), [4, 3], [0, 1], [1, 0], 0.0)
    inside = _pack_loops(np.ones((10, 5)), (2, 3, 4, 3), [4, 3], [0, 1], [1, 0], 0)
    np.testing.assert_array_equal(repacked[inside == 1], packed[inside == 1])


def test_pack_then_unpack_gives_the_source_back(run: Run):
    program = """
    func.func @main(%a: memref<6x4x6xi8>, %b: memref<2x3x4x3x2xi8>, %c: memref<6x4x6xi8>) {
      linalg.pack %a outer_dims_perm = [2, 0, 1] inner_dims_pos = [2, 0] inner_tiles = [3, 2] into %b : memref<6x4x6xi8> -> memref<2x3x4x3x2xi8>
      linalg.unpack %b outer_dims_perm = [2, 0, 1] inner_dims_pos = [2, 0] inner_tiles = [3, 2] into %c : memref<2x3x4x3x2xi8> -> memref<6x4x6xi8>
      func.return
    }
    """
    a = RNG.integers(-128, 128, (6, 4, 6), dtype=np.int8)
    b = np.zeros((2, 3, 4, 3, 2), np.int8)
    c = np.zeros_like(a)
    run(program, a, b, c)
    np.testing.assert_array_equal(
        b, _pack_loops(a, b.shape, [3, 2], [2, 0], [2, 0, 1], 0)
    )
    np.testing.assert_array_equal(c, a)


def test_pack_past_the_source_without_padding_is_an_error(run: Run):
    program = """
    func.func @main(%a: memref<?x6xf32>, %b: memref<2x3x4x2xf32>) {
      linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %b : memref<?x6xf32> -> memref<2x3x4x2xf32>
      func.return
    }
    """
    with pytest.raises(InterpretationError, match="has no padding_value"):
        run(program, np.zeros((7, 6), np.float32), np.zeros((2, 3, 4, 2), np.float32))


def test_a_dynamic_tile_other_than_its_dimension_is_an_error(run: Run):
    program = """
    func.func @main(%a: memref<8x6xf32>, %b: memref<2x3x?x2xf32>, %t: index) {
      linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [%t, 2] into %b : memref<8x6xf32> -> memref<2x3x?x2xf32>
      func.return
    }
    """
    with pytest.raises(InterpretationError, match=r"tiles \[2, 2\] are not"):
        run(
            program, np.zeros((8, 6), np.float32), np.zeros((2, 3, 4, 2), np.float32), 2
        )


def test_pack_between_element_types_is_refused(run: Run):
    program = """
    func.func @main(%a: memref<8x6xf32>, %b: memref<2x3x4x2xf64>) {
      linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %b : memref<8x6xf32> -> memref<2x3x4x2xf64>
      func.return
    }
    """
    with pytest.raises(InterpretationError, match="from float32 to float64"):
        run(program, np.zeros((8, 6), np.float32), np.zeros((2, 3, 4, 2)))


def test_pack_into_a_fresh_buffer_passes_the_uninitialized_check():
    """pack writes all of its dest and reads only its source."""
    program = """
    func.func @main(%a: memref<7x6xf32>, %c: memref<7x6xf32>, %t: index) {
      %p = arith.constant 0.0 : f32
      %b = memref.alloc() : memref<2x3x4x2xf32>
      linalg.pack %a padding_value(%p : f32) inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %b : memref<7x6xf32> -> memref<2x3x4x2xf32>
      %d = memref.cast %b : memref<2x3x4x2xf32> to memref<2x3x4x?xf32>
      linalg.unpack %d inner_dims_pos = [0, 1] inner_tiles = [4, %t] into %c : memref<2x3x4x?xf32> -> memref<7x6xf32>
      memref.dealloc %b : memref<2x3x4x2xf32>
      func.return
    }
    """
    a = RNG.standard_normal((7, 6)).astype(np.float32)
    c = np.zeros_like(a)
    run_function(parse(program), "main", (a, c, 2), check_uninitialized=True)
    np.testing.assert_array_equal(c, a)

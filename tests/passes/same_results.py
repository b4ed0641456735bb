"""What the property tests of the passes mean by "the same results": one
check shared by every test that runs a random program before and after a
pipeline."""

import numpy as np

from memplan.interpreter import RunResult

NAN_RESULT = """
func.func @main() -> memref<8xf32> {
  %m = memref.alloc() : memref<8xf32>
  %big = arith.constant 3.0e38 : f32
  linalg.fill ins(%big : f32) outs(%m : memref<8xf32>)
  linalg.mul ins(%m, %m : memref<8xf32>, memref<8xf32>) outs(%m : memref<8xf32>)
  linalg.sub ins(%m, %m : memref<8xf32>, memref<8xf32>) outs(%m : memref<8xf32>)
  func.return %m : memref<8xf32>
}
"""
"""A program whose result is all NaN (inf - inf after an overflow), as
random programs can make."""


def assert_same_results(expected: RunResult, actual: RunResult, what: str) -> None:
    """Equal arrays of one type and shape; NaN where the expected result has
    NaN counts as equal (random programs overflow and make NaN, and
    NaN != NaN)."""
    assert len(actual.results) == len(expected.results), what
    for want, got in zip(expected.results, actual.results, strict=True):
        assert isinstance(want, np.ndarray) and isinstance(got, np.ndarray), what
        assert (got.dtype, got.shape) == (want.dtype, want.shape), what
        assert np.array_equal(got, want, equal_nan=True), f"{what} changed a result"

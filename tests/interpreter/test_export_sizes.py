"""A function whose arguments carry `memplan.sizes` (the sizes a dynamic
torch export allows, `examples/torch/export_model.py`) runs only at sizes
within them, with equal sizes wherever one symbol appears."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_helpers import Run

from memplan.interpreter import InterpretationError

BATCH = '{dim = 0 : i64, symbol = "s77", min = 1 : i64, max = 16 : i64, name = "batch"}'
# The batch of both arguments, and a width without an upper bound.
TWO_INPUTS = f"""
func.func @main(
    %x: memref<?x3xf32> {{memplan.sizes = [{BATCH}]}},
    %y: memref<?x?xf32> {{memplan.sizes = [{BATCH},
        {{dim = 1 : i64, symbol = "s9", min = 4 : i64}}]}}) -> index {{
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  func.return %n : index
}}
"""


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, np.float32)


def test_a_size_outside_the_exports_range_is_refused(run: Run):
    assert run(TWO_INPUTS, _zeros(16, 3), _zeros(16, 4)).results == (16,)
    assert run(TWO_INPUTS, _zeros(1, 3), _zeros(1, 1000)).results == (1,)
    with pytest.raises(InterpretationError) as error:
        run(TWO_INPUTS, _zeros(20, 3), _zeros(20, 4))
    assert str(error.value) == (
        "@main argument 0: dimension 0 is 20, outside 1..16 that the export "
        "allows for s77 (Dim batch)"
    )
    with pytest.raises(InterpretationError) as error:
        run(TWO_INPUTS, _zeros(0, 3), _zeros(0, 4))
    assert str(error.value) == (
        "@main argument 0: dimension 0 is 0, outside 1..16 that the export "
        "allows for s77 (Dim batch)"
    )
    with pytest.raises(InterpretationError) as error:
        run(TWO_INPUTS, _zeros(2, 3), _zeros(2, 3))
    assert str(error.value) == (
        "@main argument 1: dimension 1 is 3, outside 4.. that the export allows for s9"
    )


def test_unequal_sizes_of_one_symbol_are_refused(run: Run):
    with pytest.raises(InterpretationError) as error:
        run(TWO_INPUTS, _zeros(2, 3), _zeros(3, 4))
    assert str(error.value) == (
        "@main argument 1: dimension 0 is 3, but argument 0's dimension 0 is 2, "
        "and the export makes both s77 (Dim batch)"
    )


def _one_input(sizes: str, type_: str = "memref<?x3xf32>") -> str:
    return f"""
    func.func @main(%x: {type_} {{memplan.sizes = {sizes}}}) {{
      func.return
    }}
    """


ENTRY = (
    '{dim = N : i64, symbol = "s0", min = N : i64[, max = N : i64][, name = "batch"]}'
)
FORM = f"expected {ENTRY}"


@pytest.mark.parametrize(
    ("sizes", "type_", "problem"),
    [
        (BATCH, "memref<?x3xf32>", f"expected an array of {ENTRY}, got {BATCH}"),
        ("[1 : i64]", "memref<?x3xf32>", f"entry 0 is 1 : i64, {FORM}"),
        (
            "[{dim = 0 : i64, min = 1 : i64}]",
            "memref<?x3xf32>",
            f"entry 0 has no symbol, {FORM}",
        ),
        (
            "[{dim = 0 : i64, min = 1 : i64, maximum = 4 : i64}]",
            "memref<?x3xf32>",
            f"entry 0 has no symbol and has unknown maximum, {FORM}",
        ),
        (
            '[{dim = -1 : i64, symbol = "s0", min = 1 : i64}]',
            "memref<?x3xf32>",
            "entry 0 is for dimension -1, which is not a dynamic dimension of "
            "memref<?x3xf32>",
        ),
        (
            '[{dim = 0 : i64, symbol = "s0", min = 1 : i64, maximum = 4 : i64}]',
            "memref<?x3xf32>",
            f"entry 0 has unknown maximum, {FORM}",
        ),
        (
            '[{dim = 1 : i64, symbol = "s0", min = 1 : i64}]',
            "memref<?x3xf32>",
            "entry 0 is for dimension 1, which is not a dynamic dimension of "
            "memref<?x3xf32>",
        ),
        (
            '[{dim = 2 : i64, symbol = "s0", min = 1 : i64}]',
            "memref<?x3xf32>",
            "entry 0 is for dimension 2, which is not a dynamic dimension of "
            "memref<?x3xf32>",
        ),
        (
            "[{dim = 0 : i64, symbol = 7 : i64, min = 1 : i64}]",
            "memref<?x3xf32>",
            "entry 0 has symbol = 7 : i64, expected a string",
        ),
        (
            '[{dim = 0 : i64, symbol = "s0", min = "1"}]',
            "memref<?x3xf32>",
            'entry 0 has min = "1", expected an integer',
        ),
        (
            '[{dim = 0 : i64, symbol = "s0", min = 8 : i64, max = 4 : i64}]',
            "memref<?x3xf32>",
            "entry 0 has min = 8, max = 4: expected a minimum of at least 0 and a "
            "maximum of at least the minimum",
        ),
        (
            f"[{BATCH}, {BATCH}]",
            "memref<?x3xf32>",
            "dimension 0 has two entries",
        ),
        (
            '[{dim = 0 : i64, symbol = "s0", min = 1 : i64}]',
            "f32",
            "the argument is a f32, not a ranked memref or tensor",
        ),
    ],
)
def test_a_malformed_sizes_attribute_is_a_clear_error(
    run: Run, sizes: str, type_: str, problem: str
):
    value = _zeros(2, 3) if type_.startswith("memref") else 1.0
    with pytest.raises(InterpretationError) as error:
        run(_one_input(sizes, type_), value)
    assert str(error.value) == (
        f"@main argument 0: its memplan.sizes attribute is malformed: {problem}"
    )


def test_one_symbol_with_two_ranges_is_a_malformed_sizes_attribute(run: Run):
    program = TWO_INPUTS.replace(
        f"{{memplan.sizes = [{BATCH}]}}",
        '{memplan.sizes = [{dim = 0 : i64, symbol = "s77", min = 2 : i64}]}',
    )
    with pytest.raises(InterpretationError) as error:
        run(program, _zeros(2, 3), _zeros(2, 4))
    assert str(error.value) == (
        "@main argument 1: its memplan.sizes attribute is malformed: s77 is "
        "1..16 for its dimension 0, but 2.. for argument 0's dimension 0"
    )

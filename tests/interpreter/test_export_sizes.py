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
    '{dim = N : i64, symbol = "s0", min = N : i64[, max = N : i64][, name = "batch"]'
    "[, scale = N : i64][, offset = N : i64]}"
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


# A derived Dim: y's batch is 2 * x's batch + 1 (torch.export's `2 * batch + 1`).
DERIVED = (
    '{dim = 0 : i64, symbol = "s77", min = 1 : i64, max = 16 : i64, '
    'name = "batch", scale = 2 : i64, offset = 1 : i64}'
)
X_AND_DERIVED_Y = f"""
func.func @main(
    %x: memref<?x3xf32> {{memplan.sizes = [{BATCH}]}},
    %y: memref<?x3xf32> {{memplan.sizes = [{DERIVED}]}}) {{
  func.return
}}
"""


def test_a_derived_size_runs_where_it_is_its_formula_at_the_symbols_size(run: Run):
    run(X_AND_DERIVED_Y, _zeros(3, 3), _zeros(7, 3))
    run(X_AND_DERIVED_Y, _zeros(16, 3), _zeros(33, 3))


@pytest.mark.parametrize(
    ("x", "y", "problem"),
    [
        (
            3,
            8,
            "argument 1: dimension 0 is 8, but the export makes it 2*s77 + 1, "
            "which is 8 for no integer s77 (Dim batch)",
        ),
        (
            3,
            9,
            "argument 1: dimension 0 is 9 = 2*s77 + 1 at s77 = 4, but argument 0's "
            "dimension 0 is 3 = s77, and the export gives s77 (Dim batch) one value",
        ),
    ],
)
def test_a_derived_size_that_is_not_its_formula_at_the_symbols_size_is_refused(
    run: Run, x: int, y: int, problem: str
):
    with pytest.raises(InterpretationError) as error:
        run(X_AND_DERIVED_Y, _zeros(x, 3), _zeros(y, 3))
    assert str(error.value) == f"@main {problem}"


def test_a_derived_size_checks_the_range_of_its_symbol(run: Run):
    """The range is the symbol's, also where only derived sizes name it."""
    program = _one_input(f"[{DERIVED}]")
    run(program, _zeros(33, 3))
    with pytest.raises(InterpretationError) as error:
        run(program, _zeros(35, 3))
    assert str(error.value) == (
        "@main argument 0: dimension 0 is 35 = 2*s77 + 1 at s77 = 17, outside "
        "1..16 that the export allows for s77 (Dim batch)"
    )


def test_a_symbol_seen_first_in_a_derived_size_is_compared_with_its_own_size(
    run: Run,
):
    program = f"""
    func.func @main(
        %y: memref<?x3xf32> {{memplan.sizes = [{DERIVED}]}},
        %x: memref<?x3xf32> {{memplan.sizes = [{BATCH}]}}) {{
      func.return
    }}
    """
    with pytest.raises(InterpretationError) as error:
        run(program, _zeros(7, 3), _zeros(4, 3))
    assert str(error.value) == (
        "@main argument 1: dimension 0 is 4 = s77, but argument 0's dimension 0 "
        "is 7 = 2*s77 + 1 at s77 = 3, and the export gives s77 (Dim batch) one value"
    )


def test_a_size_one_below_its_symbol_is_printed_as_torch_prints_it(run: Run):
    program = _one_input(
        '[{dim = 0 : i64, symbol = "s0", min = 2 : i64, max = 4 : i64, '
        "offset = -1 : i64}]"
    )
    run(program, _zeros(3, 3))
    with pytest.raises(InterpretationError) as error:
        run(program, _zeros(4, 3))
    assert str(error.value) == (
        "@main argument 0: dimension 0 is 4 = s0 - 1 at s0 = 5, outside 2..4 that "
        "the export allows for s0"
    )


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            '{dim = 0 : i64, symbol = "s0", min = 1 : i64, scale = 0 : i64}',
            "entry 0 has scale = 0: expected a scale of at least 1",
        ),
        (
            '{dim = 0 : i64, symbol = "s0", min = 1 : i64, max = 4 : i64, '
            "scale = 2 : i64, offset = -3 : i64}",
            "entry 0 makes dimension 0 2*s0 - 3, which is below 0 at s0 = 1: "
            "expected sizes of at least 0 over 1..4",
        ),
        (
            '{dim = 0 : i64, symbol = "s0", min = 1 : i64, offset = "1"}',
            'entry 0 has offset = "1", expected an integer',
        ),
    ],
)
def test_a_malformed_derived_size_is_a_clear_error(run: Run, entry: str, problem: str):
    with pytest.raises(InterpretationError) as error:
        run(_one_input(f"[{entry}]"), _zeros(2, 3))
    assert str(error.value) == (
        f"@main argument 0: its memplan.sizes attribute is malformed: {problem}"
    )

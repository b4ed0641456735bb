"""Exported PyTorch models with dynamic sizes run, plan and match PyTorch at
every size their fixture stores, with no torch.

A model file with `DYNAMIC_SHAPES` (examples/torch/models/dynamic_*.py) is
exported once, with `?` sizes, and its `.npz` holds PyTorch's results for
the example inputs (`arg0`, `result0`, ...) and for more input sets at other
sizes (`set1/arg0`, `set1/result0`, ...).  test_torch_fixtures.py checks
every fixture at its example size; here each stored size runs through the
same route, `memplan-run --args NAME.npz --args-set setN`:
- as exported, within float tolerance of PyTorch;
- after `memory-manifest,memory-plan` (the plan test_torch_fixtures.py
  checks with `memory-verify`), bit for bit as before planning, with no byte
  read before it is written, and lowered by `convert-memory-to-memref` bit
  for bit as planned;
- with `memory-plan{dynamic-arenas=true}`, the same (`memory-verify` clean
  before lowering), with fewer storages where tensors share a unit;
- at a size outside the range its `Dim` allows (the `memplan.sizes` the
  exporter records on `@main`), refused, as exported, planned and lowered.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from test_torch_fixtures import FIXTURES, NAMES, lowered, planned, read_arrays, run

from memplan.tools import memplan_run


def _input_sets(name: str) -> list[str]:
    """The fixture's input sets: "" for the example inputs, then set1, ..."""
    with np.load(FIXTURES / f"{name}.npz") as saved:
        sets = {key.partition("/")[0] for key in saved.files if "/" in key}
    # set2 before set10.
    return ["", *sorted(sets, key=lambda s: (len(s), s))]


DYNAMIC = [name for name in NAMES if len(_input_sets(name)) > 1]
CASES = [(name, input_set) for name in DYNAMIC for input_set in _input_sets(name)]


def expected(name: str, input_set: str) -> dict[str, np.ndarray]:
    prefix = f"{input_set}/" if input_set else ""
    return {
        key.removeprefix(prefix): value
        for key, value in read_arrays(FIXTURES / f"{name}.npz").items()
        if key.startswith(f"{prefix}result")
    }


def _sizes(name: str, input_set: str) -> tuple[int, ...]:
    prefix = f"{input_set}/" if input_set else ""
    return read_arrays(FIXTURES / f"{name}.npz")[f"{prefix}arg0"].shape


def test_dynamic_fixtures_have_dynamic_sizes_and_sets_at_other_sizes():
    assert len(DYNAMIC) >= 3
    for name in DYNAMIC:
        text = (FIXTURES / f"{name}.mlir").read_text()
        assert re.search(r"function_type = \(memref<[^>]*\?", text), name
        # memref.alloc with size operands: buffers whose size is only known
        # when the function runs.
        assert re.search(r'"memref\.alloc"\(%', text), name
        sizes = {_sizes(name, input_set) for input_set in _input_sets(name)}
        assert len(sizes) == len(_input_sets(name)) >= 3, name


@pytest.mark.parametrize(("name", "input_set"), CASES)
def test_dynamic_model_matches_pytorch_at_every_stored_size(name: str, input_set: str):
    want = expected(name, input_set)
    got = run(name, "unplanned", input_set).results
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key].shape == value.shape, key
        np.testing.assert_allclose(got[key], value, rtol=1e-4, atol=1e-5, err_msg=key)


@pytest.mark.parametrize(("name", "input_set"), CASES)
def test_planned_dynamic_model_is_bitwise_unplanned_at_every_size(
    name: str, input_set: str
):
    before = run(name, "unplanned", input_set)
    after = run(name, "planned", input_set)
    assert sorted(after.results) == sorted(before.results)
    for key, value in before.results.items():
        assert after.results[key].shape == value.shape, key
        assert after.results[key].tobytes() == value.tobytes(), key
    assert after.stats["peak_bytes"]["global"] <= before.stats["peak_bytes"]["global"]


@pytest.mark.parametrize(("name", "input_set"), CASES)
def test_lowered_dynamic_plan_is_bitwise_planned_at_every_size(
    name: str, input_set: str
):
    """`convert-memory-to-memref` makes a dynamic-size storage a
    `memref.alloc` of `i8` of its run-time byte size, viewed as the tensor."""
    planned = run(name, "planned", input_set).results
    lowered = run(name, "lowered", input_set).results
    assert sorted(lowered) == sorted(planned)
    for key, value in planned.items():
        assert lowered[key].tobytes() == value.tobytes(), key


@pytest.mark.parametrize("name", DYNAMIC)
def test_planning_frees_dynamic_buffers_after_their_last_use(name: str):
    """MLIR's deallocation pipeline frees the buffers of these straight-line
    modules at the end, so the export holds every intermediate at once.
    `memory-plan` packs the static ones into arenas and kills each
    dynamic-size storage after its tensor's last use.  At the largest stored
    size, where the dynamic buffers weigh most, that leaves 24 to 82% of the
    unplanned peak; with the dynamic storages' kills left at the end, 96 to
    99.8% remained."""
    largest = max(_input_sets(name), key=lambda s: np.prod(_sizes(name, s)))
    before = run(name, "unplanned", largest).stats["peak_bytes"]["global"]
    after = run(name, "planned", largest).stats["peak_bytes"]["global"]
    assert after <= 0.9 * before


@pytest.mark.parametrize(("name", "input_set"), CASES)
def test_dynamic_arenas_plan_is_bitwise_unplanned_at_every_size(
    name: str, input_set: str
):
    """Arenas of `H * unit` bytes with tensors at `offset * unit` hold for
    every size: planned and lowered (after `memory-verify`), the results are
    those of the unplanned run, bit for bit, with no byte read unwritten."""
    before = run(name, "unplanned", input_set).results
    for stage in ("dynamic-arenas", "dynamic-arenas-lowered"):
        after = run(name, stage, input_set).results
        assert sorted(after) == sorted(before), stage
        for key, value in before.items():
            assert after[key].tobytes() == value.tobytes(), (stage, key)


# Storages the run makes (any size): planned with early kills only, and with
# dynamic arenas.  dynamic_conv's dynamic buffers have no unit in common.
ALLOCATIONS = {
    "dynamic_batch": (7, 3),
    "dynamic_conv": (7, 7),
    "dynamic_sequence": (24, 14),
}


@pytest.mark.parametrize("name", DYNAMIC)
def test_dynamic_arenas_share_storages_of_one_unit(name: str):
    """Dynamic buffers of one unit (the batch of dynamic_batch, the sequence
    length of dynamic_sequence) move into shared arenas: fewer storages at
    every size.  The peak bytes do not drop: each storage killed after its
    last use already holds only live bytes, while an arena holds its height
    through its whole run (docs/passes.md)."""
    for input_set in _input_sets(name):
        planned = run(name, "planned", input_set).stats
        arenas = run(name, "dynamic-arenas", input_set).stats
        counts = (
            planned["storage_allocations"]["global"],
            arenas["storage_allocations"]["global"],
        )
        assert counts == ALLOCATIONS[name], input_set
        assert (
            arenas["peak_bytes"]["global"]
            <= run(name, "unplanned", input_set).stats["peak_bytes"]["global"]
        )


# A size below each fixture's `Dim` range, and memplan-run's error for it.
TOO_SMALL = {
    "dynamic_batch": (
        (1, 5, 8),
        "dimension 0 is 1, outside 2..64 that the export allows for s77 (Dim batch)",
    ),
    "dynamic_conv": (
        (2, 3, 5, 10),
        "dimension 2 is 5, outside 6..64 that the export allows for s53 (Dim height)",
    ),
    "dynamic_sequence": (
        (2, 1, 8),
        "dimension 1 is 1, outside 2..64 that the export allows for s27 (Dim length)",
    ),
}


@pytest.mark.parametrize("name", DYNAMIC)
def test_dynamic_fixture_refuses_a_size_outside_its_dim_planned_and_lowered(
    name: str, tmp_path: Path
):
    """The export records each `Dim`'s range on `@main`'s argument
    (`memplan.sizes`); planning and lowering keep it, and memplan-run refuses
    a size outside it rather than compute what PyTorch would have refused."""
    shape, message = TOO_SMALL[name]
    inputs = tmp_path / "small.npz"
    np.savez(inputs, arg0=np.ones(shape, np.float32))
    for source in (FIXTURES / f"{name}.mlir", planned(name), lowered(name)):
        errors = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(errors):
            status = memplan_run.main(
                [str(source), "--args", str(inputs), "--no-stats"]
            )
        assert status == 1, source.name
        assert errors.getvalue() == (
            f"memplan-run: error: @main argument 0: {message}\n"
        ), source.name

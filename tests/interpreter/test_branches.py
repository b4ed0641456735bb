"""cf branches, memref selects and metadata: tensors move on, bytes do not."""

from __future__ import annotations

import pytest
from interpreter_helpers import parse, probe_tables

from memplan.interpreter import InterpretationError, run_function
from memplan.interpreter.runner import Runner

V = 'memref<4xi32, "global.vtcm">'
S = '!memory.storage<"global.vtcm">'


def test_a_loop_of_branches_keeps_one_table_of_values():
    """xDSL's region runner nests one more scope per block entered, so every
    lookup walked one more scope per trip (16,000 trips took 51 s); here the
    function's table holds one entry per SSA value, however many trips."""
    runner = Runner(
        parse(
            """
            func.func @main() -> index {
              %c0 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %n = arith.constant 200 : index
              cf.br ^loop(%c0, %c0 : index, index)
            ^loop(%i: index, %acc: index):
              %sum = arith.addi %acc, %i : index
              %next = arith.addi %i, %c1 : index
              %more = arith.cmpi slt, %next, %n : index
              cf.cond_br %more, ^loop(%next, %sum : index, index), ^exit
            ^exit:
              func.return %sum : index
            }
            """
        )
    )
    tables = probe_tables(runner)
    assert runner.run("main", ()).results == (sum(range(200)),)
    assert max(count for count, _ in tables) == 2
    assert max(size for _, size in tables) <= 8


@pytest.mark.parametrize(
    "handover",
    [
        pytest.param(
            [f"cf.br ^next(%t : {V})", f"^next(%u: {V}):"], id="block-argument"
        ),
        pytest.param(
            [
                "%true = arith.constant true",
                f"%u = arith.select %true, %t, %t : {V}",
            ],
            id="select",
        ),
        pytest.param(
            [
                "%base, %offset, %size, %stride = memref.extract_strided_metadata "
                f'%t : {V} -> memref<i32, "global.vtcm">, index, index, index',
                "%u = memref.reinterpret_cast %base to offset: [0], sizes: [4], "
                f'strides: [1] : memref<i32, "global.vtcm"> to {V}',
            ],
            id="strided-metadata",
        ),
    ],
)
def test_handing_a_fresh_tensor_on_writes_none_of_its_bytes(handover: list[str]):
    """Only ops that write count as writes for `check_uninitialized`."""
    text = "\n".join(
        [
            f"func.func @main() -> {V} {{",
            f"  %s = memory.alloc_storage [16] : {S}",
            f"  %t = memory.alloc_tensor %s[0] : {S} to {V}",
            *handover,
            f"  linalg.add ins(%u, %u : {V}, {V}) outs(%u : {V})",
            f"  func.return %u : {V}",
            "}",
        ]
    )
    with pytest.raises(
        InterpretationError,
        match=r"linalg.add \(in @main\): operand 0 reads bytes never written",
    ):
        run_function(parse(text), check_uninitialized=True)

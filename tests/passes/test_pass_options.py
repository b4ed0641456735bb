"""Bad pass options fail with a message naming the pass, the option and what
it expects, through xDSL's own pipeline parsing (as xdsl-opt uses it)."""

from __future__ import annotations

import pytest
from xdsl.utils.arg_spec import parse_pipeline

from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass
from memplan.passes.coalesce import MemoryCoalescePass
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.options import MemplanPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass

PASSES = {
    cls.name: cls
    for cls in (
        MemoryManifestPass,
        MemoryCoalescePass,
        MemoryPlanPass,
        MemoryVerifyPass,
        ConvertMemoryToMemrefPass,
    )
}


def build(pipeline: str) -> MemplanPass:
    (spec,) = parse_pipeline(pipeline)
    return PASSES[spec.name].from_spec(spec)


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("memory-plan{arenas=3}", "memory-plan: option arenas=3: expected a name"),
        (
            "memory-plan{insert-kills=7}",
            "option insert-kills=7: expected true or false",
        ),
        ("memory-plan{time-limit=soon}", "option time-limit=soon: expected a number"),
        (
            "memory-verify{capacity=big}",
            "memory-verify: option capacity=big: expected an integer",
        ),
        ("memory-coalesce{alignment=1,2}", "option alignment=1,2: expected an integer"),
        (
            "memory-manifest{colour=red}",
            "memory-manifest: unknown option 'colour', expected one of: target",
        ),
        ("convert-memory-to-memref{x=1}", "unknown option 'x', it takes no options"),
        (
            "memory-plan{block-size=big}",
            "memory-plan: option block-size=big: expected an integer",
        ),
        (
            "memory-coalesce{alignment=true}",
            "memory-coalesce: option alignment=true: expected an integer",
        ),
        (
            "memory-verify{capacity=false}",
            "memory-verify: option capacity=false: expected an integer",
        ),
        (
            "memory-plan{target=true}",
            "memory-plan: option target=true: expected a name",
        ),
    ],
)
def test_bad_option_names_pass_option_and_expectation(
    pipeline: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        build(pipeline)


def test_good_options_build_the_pass() -> None:
    built = build(
        "memory-plan{algorithm=best time-limit=2 arenas=function capacity=4096}"
    )
    assert built == MemoryPlanPass(
        algorithm="best", time_limit=2, arenas="function", capacity=4096
    )


def test_discontiguous_options_build_the_pass() -> None:
    built = build(
        'memory-plan{discontiguous=auto block-size=1024 table-scope="global.vtcm"}'
    )
    assert built == MemoryPlanPass(
        discontiguous="auto", block_size=1024, table_scope="global.vtcm"
    )

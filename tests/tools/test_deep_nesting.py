"""Every memplan tool follows regions nested far deeper than Python's
recursion limit allows on the main thread (some 100 levels): each runs its
whole `main` on a thread with a large stack (`memplan/deep_stack.py`)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError

import memplan.deep_stack as deep_stack
import memplan.parser as parser
from memplan.context import parse_module
from memplan.deep_stack import call_with_deep_stack
from memplan.tools import memplan_main, memplan_opt, memplan_run

V = '!memory.storage<"global.vtcm">'


def nested(depth: int, *body: str) -> str:
    """`@main` holding `body` in `depth` nested `scf.if`s."""
    return "\n".join(
        [
            "func.func @main(%c: i1) {",
            *["scf.if %c {"] * depth,
            *body,
            *["}"] * depth,
            "func.return",
            "}",
            "",
        ]
    )


def test_a_call_from_the_worker_runs_in_place_on_its_stack():
    def outer() -> tuple[threading.Thread, threading.Thread]:
        return threading.current_thread(), call_with_deep_stack(
            threading.current_thread
        )

    worker, inner = call_with_deep_stack(outer)
    assert inner is worker
    assert worker is not threading.main_thread()


def test_memplan_plot_draws_a_tensor_300_regions_deep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    source = tmp_path / "deep.mlir"
    source.write_text(
        nested(
            300,
            f"%s = memory.alloc_storage [1024] : {V}",
            f'%a = memory.alloc_tensor %s[0] : {V} to memref<256xi32, "global.vtcm">',
            'memory.kill %a : memref<256xi32, "global.vtcm">',
            f"memory.kill %s : {V}",
        )
    )
    image = tmp_path / "plan.svg"
    assert memplan_main.main(["plot", str(source), "-o", str(image)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {image}: deep.mlir: @main")


def test_without_room_for_the_large_stack_deep_regions_are_a_clean_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):
    source = tmp_path / "deep.mlir"
    source.write_text(nested(300))
    monkeypatch.setattr(deep_stack, "STACK_BYTES", 2**62)
    monkeypatch.setattr(sys, "argv", ["memplan-opt", str(source)])
    assert memplan_opt.main() == memplan_opt.EXIT_ERROR
    assert capsys.readouterr().err == (
        f"memplan-opt: error: {source}: brackets or regions nest deeper than "
        "memplan can follow (regions at most 10,000 levels, some 100 when a "
        "memory limit such as ulimit -v leaves memplan no room for its stack)\n"
    )


def test_memplan_run_names_args_nested_deeper_than_it_can_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    source = tmp_path / "deep.mlir"
    source.write_text(nested(1))
    brackets = "[" * 60_000 + "]" * 60_000
    assert memplan_run.main([str(source), "--args", brackets]) == 1
    assert capsys.readouterr().err.startswith(
        "memplan-run: error: --args: brackets or regions nest deeper than memplan "
        "can follow"
    )


@pytest.mark.parametrize(
    "module",
    [
        "{}",
        "builtin.module {{\n{}\n}}",
        "module {{\n{}\n}}",
        '"builtin.module"() ({{\n{}\n}}) : () -> ()',
    ],
)
def test_a_module_body_is_no_level_of_the_region_limit(
    module: str, monkeypatch: pytest.MonkeyPatch
):
    """What a tool prints (in an explicit module) it reads back."""
    monkeypatch.setattr(parser, "MAX_REGION_NESTING", 3)
    parse_module(module.format(nested(2)))
    with pytest.raises(ParseError, match="regions nest deeper than memplan"):
        parse_module(module.format(nested(3)))

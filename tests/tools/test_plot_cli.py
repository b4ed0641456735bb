"""`memplan plot`: draws planned or unplanned traces; a clear exit 2 without matplotlib."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memplan.tools.memplan_main import main

TRACE = "id,lower,upper,size\na,0,3,4\nb,3,9,4\nc,0,9,4\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "trace.csv"
    path.write_text(text)
    return path


def test_missing_matplotlib_names_the_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        sys.modules, "matplotlib", None
    )  # makes `import matplotlib` fail
    code = main(["plot", str(write(tmp_path, TRACE)), "-o", str(tmp_path / "plan.png")])
    assert code == 2
    err = capsys.readouterr().err
    assert "memplan plot: error: matplotlib is not installed" in err
    assert "memplan[plot]" in err


def test_unknown_image_suffix_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["plot", str(write(tmp_path, TRACE)), "-o", str(tmp_path / "plan.txt")])
    assert code == 2
    assert "argument -o/--output" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_plots_an_unplanned_trace_and_says_what_it_wrote(
    tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / f"plan{suffix}"
    assert (
        main(
            ["plot", str(write(tmp_path, TRACE)), "-o", str(output), "--capacity", "8"]
        )
        == 0
    )
    assert output.stat().st_size > 0
    assert capsys.readouterr().out == (
        f"wrote {output}: trace.csv (best), 3 buffers, height 8\n"
    )


def test_help_names_every_format_and_modules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["plot", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for word in ("PNG", "SVG", "PDF", ".mlir", "plan.pdf"):
        assert word in text


def test_plots_offsets_from_a_planned_trace(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    planned = write(
        tmp_path, "id,lower,upper,size,offset\na,0,3,4,0\nb,3,9,4,0\nc,0,9,4,4\n"
    )
    output = tmp_path / "plan.svg"
    assert main(["plot", str(planned), "-o", str(output)]) == 0
    assert "<svg" in output.read_text()


def test_invalid_offsets_in_a_planned_trace_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    planned = write(tmp_path, "id,lower,upper,size,offset\na,0,3,4,0\nc,0,9,4,2\n")
    assert main(["plot", str(planned), "-o", str(tmp_path / "plan.png")]) == 2
    assert "invalid plan: buffers 'a'" in capsys.readouterr().err


PLANNED_TRACE = "id,lower,upper,size,offset\na,0,3,4,0\nb,3,9,4,0\nc,0,9,4,4\n"


@pytest.mark.parametrize(
    ("text", "flags", "message"),
    [
        (TRACE, ["--scope", "global"], "argument --scope: applies to a .mlir module"),
        (TRACE, ["--function", "f"], "argument --function: applies to a .mlir module"),
        (
            PLANNED_TRACE,
            ["--budget", "5"],
            "argument --budget: trace.csv has an offset",
        ),
        (PLANNED_TRACE, ["--algorithm", "best"], "argument --algorithm: trace.csv has"),
        (PLANNED_TRACE, ["--time-limit", "1"], "argument --time-limit: trace.csv has"),
    ],
)
def test_a_flag_that_cannot_apply_to_a_trace_exits_2_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    flags: list[str],
    message: str,
) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "plan.png"
    assert main(["plot", str(write(tmp_path, text)), "-o", str(output), *flags]) == 2
    assert message in capsys.readouterr().err
    assert not output.exists()


def test_alignment_still_checks_the_offsets_of_a_planned_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    planned = write(tmp_path, PLANNED_TRACE)
    assert main(["plot", str(planned), "-o", str(tmp_path / "p.png")]) == 0
    code = main(
        ["plot", str(planned), "-o", str(tmp_path / "p.png"), "--alignment", "8"]
    )
    assert code == 2
    assert "invalid plan" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("suffix", "date"), [(".svg", b"dc:date"), (".pdf", b"CreationDate")]
)
def test_same_input_gives_the_same_image_bytes(
    tmp_path: Path, suffix: str, date: bytes
) -> None:
    """No date of writing and no random SVG clip ids: the image is a pure
    function of the input, as every other memplan output."""
    pytest.importorskip("matplotlib")
    trace = write(tmp_path, TRACE)
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    assert main(["plot", str(trace), "-o", str(first)]) == 0
    assert main(["plot", str(trace), "-o", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert date not in first.read_bytes()


def test_a_long_buffer_id_is_drawn_cut_short(tmp_path: Path) -> None:
    """matplotlib took minutes to draw an id of 100,000 characters on its box;
    the box shows its first 23, then `…` (matplotlib's SVG keeps each text in
    a comment)."""
    pytest.importorskip("matplotlib")
    long_id = "x" * 2000
    output = tmp_path / "plan.svg"
    trace = write(tmp_path, f"id,lower,upper,size\n{long_id},0,3,4\nb,1,5,8\n")
    assert main(["plot", str(trace), "-o", str(output)]) == 0
    drawn = output.read_text()
    assert f"<!-- {'x' * 23}… -->" in drawn
    assert long_id not in drawn

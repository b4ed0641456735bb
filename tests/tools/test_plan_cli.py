"""`memplan plan`: exit codes, messages naming the line or flag, text/JSON/CSV output."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from memplan.tools import plan_cmd
from memplan.tools.internal_error import TRACEBACK_VARIABLE
from memplan.tools.memplan_main import main

GOOD = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n"


def write(tmp_path: Path, text: str, name: str = "trace.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_plan_that_fits_exits_0_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["plan", str(write(tmp_path, GOOD)), "--capacity", "12"], capsys
    )
    assert code == 0, err
    assert "height:         12" in out
    assert "lower bound:    12" in out
    assert "ratio:          1.000" in out
    assert "fits:           yes" in out
    assert "algorithm:      best" in out
    assert "proved optimal: yes" in out
    assert "nodes:" in out
    assert "seconds" not in out  # the output is the same on every run


def test_without_capacity_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        ["plan", str(write(tmp_path, GOOD)), "--algorithm", "token"], capsys
    )
    assert code == 0
    assert "capacity" not in out


def test_not_fitting_exits_1_with_height_and_capacity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        ["plan", str(write(tmp_path, GOOD)), "--capacity", "11"], capsys
    )
    assert code == 1
    assert "fits:           no" in out
    assert err.endswith(
        "trace.csv: does not fit: best height found 12 exceeds capacity 11\n"
    )


def test_json_has_the_documented_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        [
            "plan",
            str(write(tmp_path, GOOD)),
            "--json",
            "--capacity",
            "16",
            "--algorithm",
            "greedy",
        ],
        capsys,
    )
    assert code == 0
    report = json.loads(out)
    assert set(report) == {
        "file",
        "height",
        "lower_bound",
        "fits",
        "algorithm",
        "capacity",
        "ratio",
        "proved_optimal",
        "nodes",
        "time_limited",
        "unsearched",
    }
    assert report["unsearched"] is None
    assert report["height"] == 12
    assert report["lower_bound"] == 12
    assert report["fits"] is True
    assert report["capacity"] == 16
    assert report["algorithm"] == "greedy"


def test_output_writes_input_columns_plus_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, "id,lower,upper,size,alignment\na,0,2,3,1\nb,1,3,5,8\n")
    out_path = tmp_path / "out.csv"
    code, _, _ = run(["plan", str(trace), "--output", str(out_path)], capsys)
    assert code == 0
    rows = list(csv.DictReader(out_path.open()))
    assert list(rows[0]) == ["id", "lower", "upper", "size", "alignment", "offset"]
    assert [r["id"] for r in rows] == ["a", "b"]
    offsets = {r["id"]: int(r["offset"]) for r in rows}
    assert offsets["b"] % 8 == 0
    assert offsets["a"] + 3 <= offsets["b"] or offsets["b"] + 5 <= offsets["a"]


def test_a_plan_only_alignment_keeps_high_is_proved_optimal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Heights past 2**62 are beyond the search; the bound closes the gap instead.
    trace = "id,lower,upper,size,alignment\na,0,2,8,4611686018427387904\nb,0,2,8,4611686018427387904\n"
    code, out, err = run(["plan", str(write(tmp_path, trace))], capsys)
    assert code == 0, err
    assert "height:         4611686018427387912" in out
    assert "lower bound:    4611686018427387912" in out
    assert "ratio:          1.000" in out
    assert "proved optimal: yes" in out


def test_a_plan_too_high_to_search_says_why_it_was_not_searched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Greedy needs 7 units where 6 fit; a unit of 2**60 puts heights past 2**62.
    unit = 2**60
    rows = [(0, 4, 2), (4, 5, 4), (3, 4, 3), (2, 3, 2), (2, 3, 2)]
    trace = "id,lower,upper,size\n" + "".join(
        f"b{k},{lower},{upper},{size * unit}\n"
        for k, (lower, upper, size) in enumerate(rows)
    )
    code, out, err = run(["plan", str(write(tmp_path, trace))], capsys)
    assert code == 0, err
    assert f"height:         {7 * unit}" in out
    assert f"lower bound:    {6 * unit}" in out
    assert "proved optimal: no" in out
    assert "nodes:          0" in out
    assert (
        "not searched:   heights reach 2^62 bytes, beyond the search's int64 "
        "arithmetic" in out
    )


def test_alignment_flag_aligns_every_buffer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "out.csv"
    code, _, _ = run(
        [
            "plan",
            str(write(tmp_path, GOOD)),
            "--alignment",
            "16",
            "--output",
            str(out_path),
        ],
        capsys,
    )
    assert code == 0
    assert all(int(r["offset"]) % 16 == 0 for r in csv.DictReader(out_path.open()))


BAD_FILES = [
    ("id,lower,size\na,0,1\n", "trace.csv:1: missing column 'upper'"),
    ("", "trace.csv:1: empty file"),
    (
        "id,lower,upper,size\na,0,1,4\nb,0,x,4\n",
        "trace.csv:3: upper 'x' is not an integer",
    ),
    ("id,lower,upper,size\na,0,1\n", "trace.csv:2: expected 4 fields, got 3"),
    ("id,lower,upper,size\na,0,1,-4\n", "trace.csv:2: buffer 'a': negative size -4"),
    (
        "id,lower,upper,size\na,5,5,4\n",
        "trace.csv:2: buffer 'a': lower 5 must be below upper 5",
    ),
    (
        "id,lower,upper,size\na,0,1,4\n\na,1,2,4\n",
        "trace.csv:4: duplicate buffer id 'a'",
    ),
    (
        "id,lower,upper,size,alignment\na,0,1,4,6\n",
        "trace.csv:2: buffer 'a': alignment 6 is not a positive power of two",
    ),
    (
        "id,lower,upper,size,alignment\na,0,1,4,0\n",
        "trace.csv:2: buffer 'a': alignment 0 is not a positive power of two",
    ),
    (
        "id,lower,upper,size,alignment\na,0,1,4,-8\n",
        "trace.csv:2: buffer 'a': alignment -8 is not a positive power of two",
    ),
    ("id,lower,upper,size\na,0,1_0,4\n", "trace.csv:2: upper '1_0' is not an integer"),
    (
        "id,lower,upper,size\na,0,\u0661\u0662,4\n",
        "trace.csv:2: upper '\u0661\u0662' is not an integer",
    ),
    (
        "id,lower,upper,size,size\na,0,1,4,4\n",
        "trace.csv:1: column 'size' appears twice (columns 4 and 5)",
    ),
    (
        f"id,lower,upper,size\na,0,{2**63},4\n",
        f"trace.csv:2: upper {2**63} does not fit in 64 bits",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_bad_file_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, _, err = run(["plan", str(write(tmp_path, text))], capsys)
    assert code == 2
    assert err.startswith("memplan plan: error: ")
    assert message in err
    assert "Traceback" not in err


LONG = "x" * 100_000

LONG_TOKENS = [
    (
        f"id,lower,upper,size\n{LONG},0,1,4\n{LONG},0,1,4\n",
        "trace.csv:3: duplicate buffer id 'xxx",
        "...' (100,002 characters)",
    ),
    (
        f"id,lower,upper,size\na,0,1,{LONG}\n",
        "trace.csv:2: size 'xxx",
        "...' (100,002 characters) is not an integer",
    ),
    (
        f"id,lower,upper,size\na,0,1,{'ab ' * 30_000}\n",
        "trace.csv:2: size 'ab ab",
        "...' (90,002 characters) is not an integer",
    ),
    (
        f"id,lower,upper,size\na,0,1,{'9' * 100_000}\n",
        "trace.csv:2: size 999",
        "... (100,000 characters) does not fit in 64 bits",
    ),
]


@pytest.mark.parametrize(
    ("text", "start", "end"),
    LONG_TOKENS,
    ids=["duplicate id", "not an integer", "with spaces", "too many digits"],
)
def test_an_error_quoting_a_long_token_shows_it_cut_with_its_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, start: str, end: str
) -> None:
    code, _, err = run(["plan", str(write(tmp_path, text))], capsys)
    assert code == 2
    assert start in err and end in err, err[:300]
    assert len(err) < 500, err[:300]


def test_a_plan_beyond_64_bit_offsets_exits_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each size fits in 64 bits, their sum does not: the plan's offsets
    would not either (`--output` wrote offsets `--check` then rejected)."""
    rows = "".join(f"b{k},0,10,{2**62}\n" for k in range(3))
    trace = write(tmp_path, "id,lower,upper,size\n" + rows)
    output = tmp_path / "planned.csv"
    code, out, err = run(["plan", str(trace), "--output", str(output)], capsys)
    assert code == 2
    assert err == (
        f"memplan plan: error: {trace}: the plan is {3 * 2**62} bytes high, beyond "
        f"64-bit offsets (at most {2**63 - 1}); its lower bound is {3 * 2**62}\n"
    )
    assert out == "" and not output.exists()


def test_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["plan", str(tmp_path / "absent.csv")], capsys)
    assert code == 2
    assert "absent.csv: cannot read: No such file or directory" in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--capacity", "-1"], "argument --capacity: must be >= 0, got -1"),
        (
            ["--capacity", "9223372036854775808"],
            "argument --capacity: 9223372036854775808 does not fit in 64 bits",
        ),
        (
            ["--time-limit", "-2"],
            "argument --time-limit: must be a finite number of seconds >= 0, got -2.0",
        ),
        (
            ["--time-limit", "nan"],
            "argument --time-limit: must be a finite number of seconds >= 0, got nan",
        ),
        (["--budget", "-1"], "argument --budget: must be >= 0 nodes, got -1"),
        (
            ["--alignment", "3"],
            "argument --alignment: 3 is not a positive power of two",
        ),
        (["--algorithm", "magic"], "argument --algorithm: unknown algorithm 'magic'"),
    ],
)
def test_bad_flag_exits_2_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    code, _, err = run(["plan", str(write(tmp_path, GOOD)), *flags], capsys)
    assert code == 2
    assert f"memplan plan: error: {message}" in err


def test_non_integer_flag_exits_2_through_argparse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["plan", str(write(tmp_path, GOOD)), "--capacity", "lots"])
    assert exit_info.value.code == 2
    assert "argument --capacity: invalid int value: 'lots'" in capsys.readouterr().err


def test_a_byte_order_mark_is_not_part_of_the_first_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    code, out, err = run(["plan", str(path), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["height"] == 12


def test_several_traces_give_one_row_each_and_the_worst_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, GOOD, "good.csv")
    bad = write(tmp_path, "id,lower\n", "bad.csv")
    tight = write(tmp_path, GOOD, "tight.csv")
    code, out, err = run(["plan", str(good), str(bad), str(tight)], capsys)
    assert code == 2  # bad input wins over "does not fit"
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["file", "algorithm", "height"]
    assert [line.split()[0] for line in lines[1:]] == [str(good), str(tight)]
    assert "bad.csv:1: missing column 'upper'" in err
    code, out, err = run(["plan", str(good), str(tight), "--capacity", "11"], capsys)
    assert code == 1
    assert err.count("does not fit") == 2


def test_several_traces_in_json_give_one_object_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write(tmp_path, GOOD, "first.csv")
    second = write(tmp_path, GOOD, "second.csv")
    code, out, _ = run(["plan", str(first), str(second), "--json"], capsys)
    assert code == 0
    assert [json.loads(line)["file"] for line in out.splitlines()] == [
        str(first),
        str(second),
    ]


def test_output_takes_one_trace_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = write(tmp_path, GOOD)
    code, _, err = run(
        ["plan", str(trace), str(trace), "--output", str(tmp_path / "o.csv")], capsys
    )
    assert code == 2
    assert "argument --output: writes one planned trace, got 2 traces" in err


def test_a_time_limit_that_cuts_is_said_on_stderr_and_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Greedy packs these one step above the optimum, so `best` has to search;
    # a zero cap stops it before it starts.
    trace = write(
        tmp_path, "id,lower,upper,size\na,0,2,15\nb,3,4,12\nc,0,4,9\nd,3,4,9\n"
    )
    code, out, err = run(["plan", str(trace), "--time-limit", "0", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["time_limited"] is True
    assert "--time-limit of 0 s cut the search short" in err
    assert "depends on the machine's load" in err
    code, out, err = run(["plan", str(trace), "--json"], capsys)
    assert json.loads(out)["time_limited"] is False
    assert json.loads(out)["height"] == 30
    assert err == ""


def test_an_unexpected_exception_exits_3_with_one_internal_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("an unexpected state")

    monkeypatch.delenv(TRACEBACK_VARIABLE, raising=False)
    monkeypatch.setattr(plan_cmd, "run_planner", broken)
    trace = write(tmp_path, "id,lower,upper,size\na,0,2,4\n")
    assert main(["plan", str(trace)]) == 3
    err = capsys.readouterr().err
    assert err.startswith(
        "memplan plan: internal error: RuntimeError: an unexpected state\n"
    )
    assert "MEMPLAN_TRACEBACK=1" in err


def test_file_that_is_not_utf8_exits_2_naming_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "trace.csv"
    path.write_bytes(GOOD.encode() + b"\xff\n")
    code, _, err = run(["plan", str(path)], capsys)
    assert code == 2
    assert err == (
        f"memplan plan: error: {path}: cannot read: not UTF-8 text (byte 0xff at "
        f"offset {len(GOOD)})\n"
    )

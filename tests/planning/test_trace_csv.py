"""read_trace: MiniMalloc's CSV from a str or a Path; nothing wrong passes silently."""

from pathlib import Path

import pytest

from memplan.planning import TraceError
from memplan.planning.trace_csv import read_trace


def test_a_plain_string_path_is_read(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("id,lower,upper,size\na,0,2,4\n")
    assert read_trace(str(path)).buffers == read_trace(path).buffers
    assert read_trace(str(path)).path == path


def test_the_minimum_alignment_raises_but_never_repairs(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("id,lower,upper,size,alignment\na,0,2,4,2\nb,0,2,4,64\n")
    assert [b.alignment for b in read_trace(path, 16).buffers] == [16, 64]
    path.write_text("id,lower,upper,size,alignment\na,0,2,4,0\n")
    with pytest.raises(TraceError, match="alignment 0 is not a positive power of two"):
        read_trace(path, 16)

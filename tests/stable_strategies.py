"""Strategies whose Hypothesis labels do not depend on the process.

`st.sampled_from` labels itself with `hash()` of its options: strings hash
per PYTHONHASHSEED, and functions, bound methods and None (in Python 3.11)
per memory address. Hypothesis steers generation by these labels, so a
derandomized run would draw other examples in another process. Drawing an
index instead keeps a CI run repeatable on any machine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


def one_of_values(options: Sequence[T]) -> st.SearchStrategy[T]:
    """One of `options`, shrinking towards the first, like `st.sampled_from`."""
    values = tuple(options)
    return st.integers(0, len(values) - 1).map(values.__getitem__)

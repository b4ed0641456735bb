"""Run a benchmark with numpy's BLAS on one thread.

Idle BLAS threads spin, and CPU time counts the spinning as work; one thread
also makes memplan's figures comparable with single-threaded references.
numpy reads the thread count once, at import, so the process starts again.
"""

from __future__ import annotations

import os
import sys

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_MARK = "MEMPLAN_BENCH_ONE_BLAS_THREAD"


def ensure_one_blas_thread() -> None:
    """Re-execute this script with BLAS on one thread, unless the environment
    already sets a thread count (then it is respected)."""
    if any(variable in os.environ for variable in BLAS_THREADS):
        return
    one_thread = dict.fromkeys(BLAS_THREADS, "1") | {_MARK: "1"}
    os.execve(sys.executable, [sys.executable, *sys.argv], os.environ | one_thread)


def original_environment() -> dict[str, str]:
    """The environment before `ensure_one_blas_thread` (for child processes
    that should choose their own thread counts)."""
    if _MARK not in os.environ:
        return dict(os.environ)
    return {
        key: value
        for key, value in os.environ.items()
        if key not in (*BLAS_THREADS, _MARK)
    }

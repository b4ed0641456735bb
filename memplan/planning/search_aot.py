"""The search kernel compiled ahead of time, so a process loads it without numba.

Loading the jit kernel from numba's cache costs a process about 0.7 s of CPU
(importing numba and its typing registries), more than most searches take.
So the first process that needs the kernel compiles `search_kernel.run`
with numba's ahead-of-time compiler (`numba.pycc`: numba and a C compiler,
about 30 s once per machine) into an extension module in the cache
directory, and every later process imports that module in about a
millisecond, numba untouched.  The module's name carries a digest of the
kernel's sources and of the Python build, so an edited kernel is compiled
again.  Where this cannot work (no C compiler, a read-only cache directory,
a numba without pycc) the caller falls back to the jit kernel: same
function, same nodes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from memplan.planning.kernel_state import KernelRun

_HERE = Path(__file__).resolve().parent
# This file too: how the module is compiled (use_nrt, ...) is part of what it is.
_SOURCES = ("kernel_state.py", "search_kernel.py", "search_aot.py")
ARRAY = "int64[::1]"
# The types of `search_kernel.run`'s arguments (KernelSearch passes exactly these).
SIGNATURE = (
    f"int64(UniTuple({ARRAY}, 17), UniTuple({ARRAY}, 15),"
    " int64[:, ::1], int64[:, ::1], int64)"
)


def module_path() -> Path:
    """Where the compiled module lives: numba's cache directory (NUMBA_CACHE_DIR,
    else the package's __pycache__), named after the digest of what it is built from."""
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((_HERE / name).read_bytes())
    digest.update(f"{sys.version} {platform.machine()} {SIGNATURE}".encode())
    cache = os.environ.get("NUMBA_CACHE_DIR") or str(_HERE / "__pycache__")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return Path(cache) / f"memplan_search_{digest.hexdigest()[:16]}{suffix}"


@functools.cache
def built() -> bool:
    """Whether the module exists (asked once per process)."""
    return module_path().exists()


def load() -> KernelRun | None:
    """The compiled `run` if its module exists, else None."""
    path = module_path()
    if not path.exists():
        return None
    name = path.name.split(".")[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError:  # e.g. a module from another machine's build
        return None
    return module.run


def build() -> KernelRun | None:
    """Compile the module (numba needed) and load it; None if that fails."""
    path = module_path()
    name = path.name.split(".")[0]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = tempfile.mkdtemp(prefix="memplan-aot-", dir=path.parent)
    except OSError:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from numba.pycc.cc import CC

            from memplan.planning import search_kernel

            compiler = CC(name)
            compiler.output_dir = scratch
            compiler.verbose = False
            # As for the jit kernel (_nrt=False): it allocates nothing, and
            # with reference counting on, NRT_incref/decref took half its time.
            compiler.use_nrt = False
            compiler.export("run", SIGNATURE)(search_kernel.run.py_func)
            compiler.compile()
        built = Path(scratch) / path.name
        os.replace(built, path)  # atomic: a concurrent build just wins or loses
    # Anything from the compiler or the linker (no C compiler, no pycc in this
    # numba, ...) leaves the jit kernel to do the work.
    except Exception:
        return None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return load()

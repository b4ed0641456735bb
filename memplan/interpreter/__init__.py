"""Execute planned modules on numpy with a VTCM model (`memplan-run`).

from memplan.interpreter import run_function
result = run_function(module, "main", target=get_target("hexagon-v68"))
result.results[0]            # numpy array
result.stats.peak_bytes      # {"global.vtcm": 4096, ...}

The names below load on first use: passes import light modules of this
package (`source`, `cost`, `model`), and importing the runner with them would
load xDSL's interpreters too, about 0.6 s of every `xdsl-opt` run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memplan.interpreter.errors import InterpretationError
    from memplan.interpreter.runner import RunResult, run_function
    from memplan.interpreter.stats import Stats

__all__ = ["InterpretationError", "RunResult", "Stats", "run_function"]

_HOMES = {
    "InterpretationError": "memplan.interpreter.errors",
    "RunResult": "memplan.interpreter.runner",
    "run_function": "memplan.interpreter.runner",
    "Stats": "memplan.interpreter.stats",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)

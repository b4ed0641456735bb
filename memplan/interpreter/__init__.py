"""Execute planned modules on numpy with a VTCM model (`memplan-run`).

from memplan.interpreter import run_function
result = run_function(module, "main", target=get_target("hexagon-v68"))
result.results[0]            # numpy array
result.stats.peak_bytes      # {"global.vtcm": 4096, ...}
"""

from memplan.interpreter.errors import InterpretationError
from memplan.interpreter.runner import RunResult, run_function
from memplan.interpreter.stats import Stats

__all__ = ["InterpretationError", "RunResult", "Stats", "run_function"]

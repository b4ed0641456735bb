"""Hypothesis in CI runs a fixed sequence of examples (`derandomize`, and
strategies drawn through `stable_strategies`), so a CI run repeats in any
process; developers' runs keep exploring new examples."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

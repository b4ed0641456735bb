"""Hypothesis in CI runs a fixed sequence of examples (`derandomize`; `.ci/run`
also fixes PYTHONHASHSEED, on which `program_gen`'s programs depend), so a CI
run is reproducible; developers' runs keep exploring new examples."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

"""A derandomized (CI) run draws the same random programs in every process:
whatever the string hash seed and wherever the functions land in memory."""

import os
import subprocess
import sys
from pathlib import Path

_DRAW = """
import sys
from hypothesis import HealthCheck, Phase, given, settings
from program_gen import programs

texts = []


@settings(
    derandomize=True,
    max_examples=40,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
    deadline=None,
)
@given(
    programs(
        rich=True,
        faults=True,
        flows=True,
        detours=True,
        calls=True,
        jumps=True,
        views=True,
        dynamic=True,
    )
)
def draw(text):
    texts.append(text)


draw()
sys.stdout.write("\\n// -----\\n".join(texts))
"""


def _programs_drawn(hash_seed: str) -> str:
    here = Path(__file__).parent
    path = os.pathsep.join([str(here), str(here.parent)])
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": path}
    return subprocess.run(
        [sys.executable, "-c", _DRAW],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_derandomized_programs_do_not_depend_on_the_process():
    first = _programs_drawn("1")
    assert first.count("func.func @main") == 40
    assert _programs_drawn("2") == first
    assert _programs_drawn("1") == first

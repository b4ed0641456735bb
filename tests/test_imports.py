"""Every module of the memplan package imports when it is the first memplan
module a process imports, so no module depends on another's import order (an
import cycle breaks exactly that).

Importing each module in a fresh interpreter costs about half a second, mostly
for xDSL and numpy, so one interpreter loads the third-party modules memplan
uses, never a memplan one, and forks a child per memplan module (as many at
a time as there are CPUs), which imports that module first."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import memplan

PACKAGE_DIR = Path(memplan.__file__).parent

MODULES = sorted(
    ".".join(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts).removesuffix(
        ".__init__"
    )
    for path in PACKAGE_DIR.rglob("*.py")
)

LIST_THIRD_PARTY_MODULES = """
import importlib, json, sys
for name in json.loads(sys.stdin.read()):
    try:
        importlib.import_module(name)
    except Exception:
        pass
print(json.dumps(sorted(m for m in sys.modules if m.partition(".")[0] != "memplan")))
"""

IMPORT_EACH_FIRST = """
import importlib, json, os, sys, traceback
preload, modules, error_dir = json.loads(sys.stdin.read())
for name in preload:
    try:
        importlib.import_module(name)
    except Exception:
        pass
assert not any(m.partition(".")[0] == "memplan" for m in sys.modules)
running = {}
failed = []
def reap():
    pid, status = os.wait()
    name = running.pop(pid)
    if status != 0:
        failed.append(name)
for name in modules:
    if len(running) >= (os.cpu_count() or 1):
        reap()
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(name)
        except BaseException:
            with open(os.path.join(error_dir, name), "w") as error:
                error.write(traceback.format_exc())
            os._exit(1)
        os._exit(0)
    running[pid] = name
while running:
    reap()
print(json.dumps(sorted(failed)))
"""


def _run(script: str, data: object) -> object:
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def import_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Module name -> the traceback of importing it first, for those that fail."""
    error_dir = tmp_path_factory.mktemp("import_errors")
    third_party = _run(LIST_THIRD_PARTY_MODULES, MODULES)
    failed = _run(IMPORT_EACH_FIRST, [third_party, MODULES, str(error_dir)])
    assert isinstance(failed, list)
    return {
        name: (error_dir / name).read_text()
        if (error_dir / name).exists()
        else "the import killed the process"
        for name in failed
    }


def test_every_module_of_the_package_is_checked():
    assert "memplan" in MODULES
    assert "memplan.dialects.linalg_contract" in MODULES
    assert "memplan.tools.memplan_opt" in MODULES


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first_in_a_fresh_process(
    module: str, import_errors: dict[str, str]
):
    assert module not in import_errors, import_errors[module]


LOAD_EVERY_PASS = """
import json, sys
from memplan.universe import MEMPLAN_UNIVERSE
for factory in MEMPLAN_UNIVERSE.all_passes.values():
    factory()
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("memplan", "xdsl")))))
"""


def test_passes_load_without_the_interpreter_runner():
    """`xdsl-opt -p memory-plan` pays for what the passes need, not for
    memplan-run's engine and xDSL's interpreters (0.6 s of every run)."""
    loaded = subprocess.run(
        [sys.executable, "-c", LOAD_EVERY_PASS],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    modules = json.loads(loaded.splitlines()[-1])
    assert "memplan.passes.plan" in modules
    assert "memplan.interpreter.runner" not in modules
    assert not any(name.startswith("xdsl.interpreters") for name in modules)

"""Entry point through which stock `xdsl-opt` finds memplan's dialect and passes.

Every factory imports lazily, so `xdsl-opt` start-up does not pay for memplan
unless a memplan dialect or pass is used.
"""

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


def _memory_dialect() -> Dialect:
    from memplan.dialects.memory import Memory

    return Memory


def _manifest() -> type[ModulePass]:
    from memplan.passes.manifest import MemoryManifestPass

    return MemoryManifestPass


def _coalesce() -> type[ModulePass]:
    from memplan.passes.coalesce import MemoryCoalescePass

    return MemoryCoalescePass


def _plan() -> type[ModulePass]:
    from memplan.passes.plan import MemoryPlanPass

    return MemoryPlanPass


def _place() -> type[ModulePass]:
    from memplan.passes.place import MemoryPlacePass

    return MemoryPlacePass


def _verify() -> type[ModulePass]:
    from memplan.passes.verify import MemoryVerifyPass

    return MemoryVerifyPass


def _to_memref() -> type[ModulePass]:
    from memplan.lowering.memory_to_memref import ConvertMemoryToMemrefPass

    return ConvertMemoryToMemrefPass


DIALECTS: dict[str, Callable[[], Dialect]] = {"memory": _memory_dialect}

PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "memory-manifest": _manifest,
    "memory-coalesce": _coalesce,
    "memory-place": _place,
    "memory-plan": _plan,
    "memory-verify": _verify,
    "convert-memory-to-memref": _to_memref,
}

MEMPLAN_UNIVERSE = Universe(all_dialects=DIALECTS, all_passes=PASSES)

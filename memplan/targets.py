"""Target descriptions: which memory scopes exist, how big and how fast they are.

A target is plain data shared by the passes (capacities, default alignments),
the interpreter (capacity checks, pointer width) and the cost model (bandwidths
and latencies).  The Hexagon figures follow TVM's runtime: VTCM allocations are
aligned to 2048 bytes, HVX vectors are 128 bytes, pointers are 32-bit.  The
speeds are a model, not a measurement of any chip: VTCM is single-cycle
scratchpad memory, DDR is reached through the cache hierarchy or DMA.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

KIB = 1024
MIB = 1024 * KIB

GLOBAL_SCOPE = "global"
VTCM_SCOPE = "global.vtcm"
MAX_CAPACITY = 2**64 - 1
"""The largest capacity: sizes and addresses are 64-bit in the IR and the run."""


def capacity_problem(size: int) -> str | None:
    """What is wrong with `size` as a capacity in bytes, or None."""
    if size < 0:
        return f"must be >= 0 bytes, got {size}"
    if size > MAX_CAPACITY:
        return (
            f"{size} does not fit in 64 bits (the largest capacity is "
            f"{MAX_CAPACITY} bytes)"
        )
    return None


class UnknownTargetError(ValueError):
    """Raised for a target name that is not built in."""


@dataclass(frozen=True)
class ScopeInfo:
    """One memory scope of a target."""

    name: str
    capacity: int | None
    """Bytes available in the scope; None means unbounded (DDR is modelled as such)."""
    alignment: int
    """Default alignment, in bytes, of a storage allocated in the scope."""
    bytes_per_cycle: float
    """Sustained bandwidth of the scope for compute ops, in bytes per cycle."""
    latency_cycles: int
    """Fixed cost, in cycles, of one op touching the scope (first access)."""


@dataclass(frozen=True)
class Target:
    """A machine model: scopes, pointer width and cost-model parameters."""

    name: str
    scopes: dict[str, ScopeInfo] = field(hash=False)
    pointer_width: int = 4
    """Bytes of one entry of a discontiguous tensor's pointer table."""
    vector_bytes: int = 128
    """HVX vector length; the cost model rounds transfers up to it."""
    copy_bytes_per_cycle: float = 8.0
    """Bandwidth of a copy between two different scopes (DMA), bytes per cycle."""
    copy_setup_cycles: int = 100
    """Fixed cost of starting one copy between two different scopes."""
    op_overhead_cycles: int = 10
    """Fixed cost of dispatching any executed op."""
    allocator_call_cycles: int = 100
    """Cost of one call into the runtime allocator: allocating a storage
    (`memory.alloc_storage`, `memref.alloc`) or freeing one (`memref.dealloc`,
    `memory.kill` of a storage).  Tensors placed in a storage cost no call."""
    macs_per_cycle: float = 64.0
    """Multiply-accumulates per cycle for contraction ops (matmul and friends)."""

    def scope(self, name: str) -> ScopeInfo:
        """The scope called `name`; unknown scopes behave like unbounded DDR."""
        if name in self.scopes:
            return self.scopes[name]
        ddr = self.scopes[GLOBAL_SCOPE]
        return replace(ddr, name=name)

    def capacity(self, scope: str) -> int | None:
        return self.scope(scope).capacity

    def alignment(self, scope: str) -> int:
        return self.scope(scope).alignment

    def with_vtcm_size(self, size: int) -> Target:
        """This target with a VTCM of `size` bytes (chips of one arch vary)."""
        scopes = dict(self.scopes)
        scopes[VTCM_SCOPE] = replace(scopes[VTCM_SCOPE], capacity=size)
        return replace(self, scopes=scopes)


def _hexagon(name: str, vtcm_bytes: int) -> Target:
    return Target(
        name=name,
        scopes={
            GLOBAL_SCOPE: ScopeInfo(
                GLOBAL_SCOPE,
                capacity=None,
                alignment=64,
                bytes_per_cycle=16.0,
                latency_cycles=200,
            ),
            VTCM_SCOPE: ScopeInfo(
                VTCM_SCOPE,
                capacity=vtcm_bytes,
                alignment=2048,
                bytes_per_cycle=256.0,
                latency_cycles=1,
            ),
        },
    )


TARGETS: dict[str, Target] = {
    "hexagon-v65": _hexagon("hexagon-v65", 256 * KIB),
    "hexagon-v66": _hexagon("hexagon-v66", 256 * KIB),
    "hexagon-v68": _hexagon("hexagon-v68", 4 * MIB),
    "hexagon-v69": _hexagon("hexagon-v69", 8 * MIB),
    "hexagon-v73": _hexagon("hexagon-v73", 8 * MIB),
    "hexagon-v75": _hexagon("hexagon-v75", 8 * MIB),
}

DEFAULT_TARGET = "hexagon-v73"


def get_target(name: str = DEFAULT_TARGET) -> Target:
    """The built-in target called `name`."""
    try:
        return TARGETS[name]
    except KeyError:
        known = ", ".join(sorted(TARGETS))
        raise UnknownTargetError(
            f"unknown target '{name}'; expected one of: {known}"
        ) from None

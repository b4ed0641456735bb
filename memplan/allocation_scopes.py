"""Which ops free the `memref.alloca`s made in them, as MLIR says.

MLIR's `AutomaticAllocationScope` trait marks the ops whose region frees
the automatic allocations (`memref.alloca`) made in it each time a run of
it ends: a function's call returns, an iteration of a loop or the block of
a `memref.alloca_scope` ends.  Its canonicalization relies on it: a
`memref.alloca_scope` that is the last op of an `scf.for` body is inlined
there (the loop frees the alloca per iteration anyway), while in an
`scf.while`, `scf.if` or `scf.execute_region` body, which are no scopes, its
allocas are hoisted to the function.  The passes (`ownership.freed_at`) and
`memplan-run` free allocas where these ops say.
"""

from __future__ import annotations

from xdsl.ir import Operation

from memplan.ir_walk import walk

AUTOMATIC_ALLOCATION_SCOPES = frozenset(
    {
        "func.func",
        "scf.for",
        "affine.for",
        "scf.parallel",
        "scf.forall",
        "affine.parallel",
        "memref.alloca_scope",
    }
)
"""The ops of memplan's dialects with MLIR's `AutomaticAllocationScope`
trait, by name (xDSL's ops and memplan's share them)."""


def allocation_scope(alloca: Operation) -> Operation | None:
    """The nearest op around `alloca` that frees it."""
    scope = alloca.parent_op()
    while scope is not None and scope.name not in AUTOMATIC_ALLOCATION_SCOPES:
        scope = scope.parent_op()
    return scope


def makes_scoped_allocas(scope: Operation) -> bool:
    """Whether a `memref.alloca` in `scope`'s regions, outside the scopes
    nested there, is freed when a run of `scope` ends."""
    return any(
        op.name == "memref.alloca" and allocation_scope(op) is scope
        for op in walk(scope)
    )

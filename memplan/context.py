"""The dialects a memplan tool parses with: every installed one, as in
xdsl-opt, with memplan's corrected affine, bufferization, linalg, memref and
scf, tensor with `parallel_insert_slice` added, arith with `remf` added and
MLIR's `trunci`, func with a `func.call` verified in constant time, and a
per-context builtin blob store (see docs/frontend-ops.md)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.universe import Universe

from memplan.parser import MemplanParser


def _affine() -> Dialect:
    from memplan.dialects.affine import AFFINE

    return AFFINE


def _arith() -> Dialect:
    from memplan.dialects.arith import ARITH

    return ARITH


def _bufferization() -> Dialect:
    from memplan.dialects.bufferization import BUFFERIZATION

    return BUFFERIZATION


def _tensor() -> Dialect:
    from memplan.dialects.tensor import TENSOR

    return TENSOR


def _func() -> Dialect:
    from memplan.dialects.func import FUNC

    return FUNC


def _linalg() -> Dialect:
    from memplan.dialects.linalg import LINALG

    return LINALG


def _memref() -> Dialect:
    from memplan.dialects.memref import MEMREF

    return MEMREF


def _scf() -> Dialect:
    from memplan.dialects.scf import SCF

    return SCF


@cache
def _installed_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's and every plugin's dialect factories (looked up once: reading
    the installed entry points takes longer than parsing a small module)."""
    return Universe.get_multiverse().all_dialects


def memplan_dialects() -> dict[str, Callable[[], Dialect]]:
    """Every installed dialect (memplan's included), with affine, arith,
    bufferization, func, linalg, memref, scf and tensor replaced by memplan's
    and a builtin dialect whose blob store belongs to the context it is
    registered in."""
    from memplan.dialects.memref import builtin_dialect

    dialects = dict(_installed_dialects())
    dialects["affine"] = _affine
    dialects["arith"] = _arith
    dialects["bufferization"] = _bufferization
    dialects["func"] = _func
    dialects["linalg"] = _linalg
    dialects["memref"] = _memref
    dialects["scf"] = _scf
    dialects["tensor"] = _tensor
    dialects["builtin"] = builtin_dialect
    return dialects


def memplan_context(*, allow_unregistered: bool = False) -> Context:
    """A context with xDSL's dialects, every plugin's and memplan's corrections."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in memplan_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def run_context(*, allow_unregistered: bool = False) -> Context:
    """The context programs for `memplan-run` are parsed with: the same as
    `memplan_context`, kept as its own name for the interpreter's callers."""
    return memplan_context(allow_unregistered=allow_unregistered)


def parse_module(
    text: str, name: str = "<input>", *, allow_unregistered: bool = False
) -> ModuleOp:
    """Parse `text` with a fresh `memplan_context` and `MemplanParser`,
    keeping its dense_resource blobs with the module (see
    `memplan.dialects.memref.global_blob`)."""
    from memplan.dialects.memref import attach_blobs

    ctx = memplan_context(allow_unregistered=allow_unregistered)
    module = MemplanParser(ctx, text, name).parse_module()
    attach_blobs(module, ctx)
    return module

"""Moving memory to another scope: which values must change type together.

A memref's scope is its memory space, so moving a storage from DDR to VTCM
changes the type of the storage, of its tensors and of every value that
refers to the same memory: views, subviews, reshapes and casts, `scf` and
`affine` results and block arguments that forward it, arguments of
functions it is passed to and results of calls that may return it, and a
memref `bufferization.to_buffer` makes back from a tensor value of it (made
by `bufferization.to_tensor`, maybe handed on through regions and calls).  Verifiers tie these
types together (a call's operand types are its callee's argument types, an
`scf.if` result has the type of both yields), so they form one *scope group*
that moves as a whole.  Tensor values link a group's memrefs but keep
their types (a tensor type has no memory space); since one tensor value may
be either of two memrefs (an `scf.if` yields either), a group may tie
memory of two scopes, and then it keeps them.

A group is *fixed* when one of its values cannot change type: an argument or
result of a public function (its signature is an ABI: callers outside the
module may pass or receive it) or of one nothing in the module calls (an
entry point), a `memref.get_global`, a call to a declaration, memory whose
address `memref.extract_aligned_pointer_as_index` takes (the integer may
reach it later, wherever the memory was), or the result of an op this module
does not know or what a terminator it does not know yields (its verifier
might tie types in ways we cannot see); a tensor argument of a function whose
signature is kept, or a tensor passed to a declaration, too: a
`bufferization.to_buffer` of it there names a memory space for callers the
module does not hold.
`memref.memory_space_cast` is a boundary: its operand and result are in
groups of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.memory import (
    AllocDiscontiguousTensorOp,
    AllocTensorOp,
    StorageType,
    scope_of,
)
from memplan.interpreter.source import op_name
from memplan.ir_walk import walk
from memplan.passes.liveness import (
    REALLOCS,
    VIEW_OPS,
    exits_region,
    forwarded_values,
)
from memplan.targets import GLOBAL_SCOPE

FORWARDING_OPS = frozenset(
    {
        "scf.yield",
        "scf.condition",
        "scf.for",
        "scf.while",
        "scf.if",
        "scf.index_switch",
        "scf.execute_region",
        "memref.alloca_scope",
        "memref.alloca_scope.return",
        "affine.yield",
        "affine.for",
        "affine.if",
        "affine.parallel",
    }
)
"""Ops whose memref results and block arguments carry their operands along
(`liveness.forwarded_values` knows how), by name."""

NEW_MEMORY_OPS = frozenset({"memory.alloc_storage", "memref.alloc", "memref.alloca"})
"""Ops that make new memory of the scope their result type says, which
memory-place may move (by name: a parsing context may define its own class
for an op)."""

ALLOCATING_OPS = NEW_MEMORY_OPS | REALLOCS
"""Ops whose result is new memory its scope holds: also the new buffer of a
`memref.realloc`, which memory-place does not move (it fixes the source and
the result, whose memory spaces must agree)."""


def forwards_memory(op: Operation) -> bool:
    """`op` passes memrefs on unchanged: to its results or block arguments
    (`FORWARDING_OPS`), or, as a branch, to the blocks it jumps to."""
    return op.name in FORWARDING_OPS or bool(op.successors)


def global_name(op: Operation) -> str | None:
    """The symbol a `memref.get_global` reads, None for any other op."""
    if op.name != "memref.get_global":
        return None
    symbol = op.properties.get("name")
    return symbol.string_value() if isinstance(symbol, SymbolRefAttr) else None


CONVERSION_OPS = frozenset({"bufferization.to_tensor", "bufferization.to_buffer"})
"""Ops whose result reaches the memory of their operand across types: the
tensor of a memref, the memref of a tensor (by name)."""


def is_memory(type_: Attribute) -> bool:
    return isinstance(type_, MemRefType | UnrankedMemRefType | StorageType)


def links_memory(type_: Attribute) -> bool:
    """Values of `type_` may tie memory together: memory, and tensor values,
    which may hold a memref's bytes (`bufferization.to_tensor`) that a
    `bufferization.to_buffer` reaches again."""
    return is_memory(type_) or isinstance(type_, TensorType | UnrankedTensorType)


def with_scope(type_: Attribute, scope: str) -> Attribute:
    """`type_` in `scope`; DDR ("global") is spelled without a memory space."""
    if isinstance(type_, StorageType):
        return StorageType(scope)
    space = NoneAttr() if scope == GLOBAL_SCOPE else StringAttr(scope)
    if isinstance(type_, UnrankedMemRefType):
        return UnrankedMemRefType.from_type(type_.element_type, space)
    assert isinstance(type_, MemRefType)
    return MemRefType(type_.element_type, type_.shape, type_.layout, space)


@dataclass(eq=False)
class ScopeGroup:
    """Values that must share a scope, and why they cannot move (if so)."""

    values: list[SSAValue] = field(default_factory=list[SSAValue])
    fixed: str | None = None
    """Why the group keeps its scope, e.g. "it is returned by @main"."""

    @property
    def scope(self) -> str:
        """The group's scope; "" when a memory space is not a scope name, or
        when its memory is in several (`scopes`)."""
        scopes = self.scopes()
        return scopes[0] if len(scopes) == 1 else ""

    def scopes(self) -> list[str]:
        """The scopes of the group's memory; [""] when a memory space is not
        a scope name."""
        found: dict[str, None] = {}
        for value in self.values:
            if is_memory(value.type):
                try:
                    found[scope_of(value.type)] = None
                except VerifyException:
                    return [""]
        return list(found)

    def allocations(self) -> list[Operation]:
        """Ops of the group that make new memory (storages, allocs, reallocs)."""
        return [
            v.owner
            for v in self.values
            if isinstance(v.owner, Operation)
            and v.owner.name in ALLOCATING_OPS
            and v.owner.results[0] is v
        ]


class ScopeGroups:
    """The scope groups of a module (union-find over its memref and storage values)."""

    def __init__(self, module: ModuleOp):
        self._parent: dict[SSAValue, SSAValue] = {}
        self._fixed: dict[SSAValue, str] = {}
        functions = {
            f.sym_name.data: f for f in walk(module) if isinstance(f, func.FuncOp)
        }
        self.callers: dict[str, list[func.CallOp]] = {name: [] for name in functions}
        for op in walk(module):
            if isinstance(op, func.CallOp) and op.callee.string_value() in functions:
                self.callers[op.callee.string_value()].append(op)
        for function in functions.values():
            self._link_function(function, functions)
        roots: dict[SSAValue, ScopeGroup] = {}
        self._groups: dict[SSAValue, ScopeGroup] = {}
        for value in self._parent:
            group = roots.setdefault(self._find(value), ScopeGroup())
            group.values.append(value)
            self._groups[value] = group
        for group in roots.values():
            scopes = group.scopes()
            if len(scopes) > 1:
                group.fixed = (
                    f"tensor values tie it to memory in {' and '.join(scopes)}"
                )
            elif scopes == [""]:
                group.fixed = "its memory space is not a scope name"
        for value, reason in self._fixed.items():
            group = self._groups[value]
            if group.fixed is None:
                group.fixed = reason

    def group_of(self, value: SSAValue) -> ScopeGroup:
        return self._groups[value]

    def __iter__(self) -> Iterator[ScopeGroup]:
        return iter(dict.fromkeys(self._groups.values()))

    def retype(self, values: Sequence[SSAValue], scope: str) -> list[SSAValue]:
        """`retype` that keeps the groups right: retyping makes new values,
        which take the place of the old ones in their groups."""
        changed = retype(values, scope)
        renamed = {
            old: new for old, new in zip(values, changed, strict=True) if old is not new
        }
        touched = dict.fromkeys(self._groups[v] for v in renamed if v in self._groups)
        for group in touched:
            group.values = [renamed.get(v, v) for v in group.values]
        for old, new in renamed.items():
            group = self._groups.pop(old, None)
            if group is not None:
                self._groups[new] = group
        return changed

    def _find(self, value: SSAValue) -> SSAValue:
        parent = self._parent.setdefault(value, value)
        if parent is value:
            return value
        root = self._find(parent)
        self._parent[value] = root
        return root

    def _union(self, a: SSAValue, b: SSAValue) -> None:
        root_a, root_b = self._find(a), self._find(b)
        if root_a is not root_b:
            self._parent[root_b] = root_a

    def _fix(self, value: SSAValue, reason: str) -> None:
        self._find(value)
        self._fixed.setdefault(value, reason)

    def _link_function(
        self, function: func.FuncOp, functions: dict[str, func.FuncOp]
    ) -> None:
        name = function.sym_name.data
        if function.is_declaration:
            return
        kept = kept_signature(function, self.callers[name])
        for arg in function.args:
            if links_memory(arg.type):
                self._find(arg)
                if kept:
                    self._fix(arg, f"it is an argument of @{name}, {kept}")
        for op in walk(function):
            self._link_op(op, name, kept is not None, functions)

    def _link_op(
        self,
        op: Operation,
        function: str,
        kept_signature: bool,
        functions: dict[str, func.FuncOp],
    ) -> None:
        for result in op.results:
            if links_memory(result.type):
                self._find(result)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if links_memory(arg.type):
                        self._find(arg)
        memory_operands = [
            (i, v) for i, v in enumerate(op.operands) if links_memory(v.type)
        ]
        if op.name == "memref.get_global":
            self._fix(op.results[0], f"it is the global @{global_name(op)}")
        elif op.name in CONVERSION_OPS:
            self._union(op.operands[0], op.results[0])
        elif isinstance(op, AllocTensorOp):
            self._union(op.storage, op.results[0])
        elif isinstance(op, AllocDiscontiguousTensorOp):
            # The tensor's memory space is its blocks' scope; its pointer
            # table may be in another.
            self._union(op.data_storage, op.results[0])
        elif op.name in VIEW_OPS and op.name != "memref.memory_space_cast":
            self._union(op.operands[0], op.results[0])
        elif forwards_memory(op):
            for index, value in memory_operands:
                for alias in forwarded_values(op, index):
                    if links_memory(alias.type):
                        self._union(value, alias)
        elif isinstance(op, func.ReturnOp):
            # A returned tensor value names no memory space: the caller's
            # `to_buffer` chooses one.
            if kept_signature:
                for _, value in memory_operands:
                    if is_memory(value.type):
                        self._fix(value, f"it is returned by @{function}")
        elif isinstance(op, func.CallOp):
            self._link_call(op, functions)
        elif op.name == "memref.extract_aligned_pointer_as_index":
            self._fix(op.operands[0], f"{op.name} takes its address")
        elif (
            _makes_memory_views(op) or exits_region(op)
        ) and op.name not in NEW_MEMORY_OPS:
            reason = (
                f"{op_name(op)} uses it "
                "(an op whose types memory-place does not change)"
            )
            for _, value in memory_operands:
                self._fix(value, reason)
            for result in op.results:
                if is_memory(result.type):
                    self._fix(result, reason)

    def _link_call(self, call: func.CallOp, functions: dict[str, func.FuncOp]) -> None:
        callee = functions.get(call.callee.string_value())
        if callee is None or callee.is_declaration:
            reason = f"it is passed to @{call.callee.string_value()}, which has no body"
            for value in [*call.operands, *call.results]:
                if links_memory(value.type):
                    self._fix(value, reason)
            return
        for operand, arg in zip(call.operands, callee.args, strict=True):
            if links_memory(operand.type):
                self._union(operand, arg)
        for block in callee.body.blocks:
            terminator = block.last_op
            if isinstance(terminator, func.ReturnOp):
                for value, result in zip(
                    terminator.operands, call.results, strict=True
                ):
                    if links_memory(result.type):
                        self._union(value, result)


def kept_signature(function: func.FuncOp, calls: list[func.CallOp]) -> str | None:
    """Why `function` keeps its signature, None when it may change: a public
    function may have callers outside the module, whatever this one holds."""
    visibility = function.sym_visibility
    if visibility is None or visibility.data == "public":
        return "which is public"
    if not calls:
        return "which nothing calls"
    return None


def _makes_memory_views(op: Operation) -> bool:
    """The op has memref or tensor results or block arguments (it may alias)."""
    if any(links_memory(r.type) for r in op.results):
        return True
    return any(
        links_memory(arg.type)
        for region in op.regions
        for block in region.blocks
        for arg in block.args
    )


def retype(values: Iterable[SSAValue], scope: str) -> list[SSAValue]:
    """Give `values` (a whole scope group, or the values flowing from one new
    tensor) the scope `scope`; returns the new values in the same order.
    Tensor values keep their type.

    Function signatures follow their entry block arguments and returns."""
    changed: list[SSAValue] = []
    functions: dict[func.FuncOp, None] = {}
    for value in values:
        if not is_memory(value.type):
            changed.append(value)
            continue
        new_type = with_scope(value.type, scope)
        if new_type == value.type:
            changed.append(value)
            continue
        for use in value.uses:
            if isinstance(use.operation, func.ReturnOp):
                functions[_function_of(use.operation)] = None
        if isinstance(value.owner, Block):
            parent = value.owner.parent_op()
            if isinstance(parent, func.FuncOp):
                functions[parent] = None
        changed.append(Rewriter.replace_value_with_new_type(value, new_type))
    for function in functions:
        function.update_function_type()
    return changed


def _function_of(op: Operation) -> func.FuncOp:
    parent = op.parent_op()
    while not isinstance(parent, func.FuncOp):
        assert parent is not None
        parent = parent.parent_op()
    return parent


def forward_closure(value: SSAValue) -> list[SSAValue]:
    """`value` and the values made from it by views, forwarding ops and
    `bufferization` conversions, in the order they were reached (what moves
    with a new tensor)."""
    found = {value: None}
    pending = [value]
    while pending:
        current = pending.pop()
        for use in current.uses:
            op = use.operation
            if op.name in CONVERSION_OPS or (
                op.name in VIEW_OPS and op.name != "memref.memory_space_cast"
            ):
                aliases = [op.results[0]]
            elif forwards_memory(op):
                aliases = forwarded_values(op, use.index)
            else:
                aliases = []
            for alias in aliases:
                if links_memory(alias.type) and alias not in found:
                    found[alias] = None
                    pending.append(alias)
    return list(found)

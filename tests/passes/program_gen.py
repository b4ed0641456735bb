"""Random memref programs for the meaning-preserved property test.

A program is a `@main` without arguments that `memref.alloc`s small tensors
(f32 or i32) in DDR and VTCM, initializes each one at once (linalg.fill,
linalg.generic over linalg.index, linalg.broadcast of a smaller tensor, or a
loop nest of memref.store: uses that only write a fresh tensor, and the
store loops write it a piece at a time), combines them with linalg add/sub/mul/
copy/matmul, nests `scf.if` (constant or computed condition) and `scf.for`
(2 or 3 iterations) regions, deallocates each tensor early (after its last
use), late (at the end of its block) or never, and returns one or two DDR
tensors.  Every tensor is written before it is read, so a plan that reuses
memory can only change the results by being wrong.

`rich=True` adds what random programs found passes getting wrong: tensors
written by hand as a `memory.alloc_storage` plus `memory.alloc_tensor` and
killed through an alias (a `memref.cast` or a subview of the tensor), copies
read through a `memref.reinterpret_cast` window of a tensor, `alignment`
requests (`memref.alloc {alignment = 256}`, `memory.alloc_tensor ... align
256`), and scope "global" spelled out as a memory space.  `faults=True`
(with `rich`) sometimes uses a tensor, or kills it again, right after the
kill made through its alias: a program `memplan-run` must reject, and
`memory-verify` with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

SHAPES: tuple[tuple[int, ...], ...] = ((8,), (2, 4), (4, 4))
ELEMENTS = ("f32", "i32")
ELEMENT_BYTES = 4
SCOPES = ("global", "global.vtcm")
TRIP_COUNTS = (2, 3)
MAX_DEPTH = 2
ALIGNMENTS = (None, None, 64, 256)
"""Alignment requests of rich programs (None: the tensor asks for none)."""

Draw = Callable[[st.SearchStrategy[Any]], Any]


@dataclass(frozen=True)
class Tensor:
    name: str
    shape: tuple[int, ...]
    element: str
    scope: str
    spelled: bool = False
    """Scope "global" written out as a memory space."""
    alignment: int | None = None
    hand_written: bool = False
    """A memory.alloc_storage plus memory.alloc_tensor, killed through an alias."""

    @property
    def space(self) -> str:
        """The memory space part of the memref type, with its comma."""
        if self.scope == "global" and not self.spelled:
            return ""
        return f', "{self.scope}"'

    @property
    def type(self) -> str:
        return _memref(self.shape, self.element, self.space)

    @property
    def elements(self) -> int:
        return math.prod(self.shape)

    @property
    def storage(self) -> str:
        return f"{self.name}s"

    @property
    def storage_type(self) -> str:
        return f'!memory.storage<"{self.scope}">'


def _memref(shape: tuple[int, ...], element: str, space: str, layout: str = "") -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"memref<{dims}{element}{layout}{space}>"


def _row_major_strides(shape: tuple[int, ...]) -> list[int]:
    return [math.prod(shape[k + 1 :]) for k in range(len(shape))]


@dataclass
class Statement:
    """Lines of one statement and the tensors it touches (for dealloc placement)."""

    lines: list[str]
    uses: set[str] = field(default_factory=set)


@dataclass
class Names:
    count: int = 0

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"


def _constant(element: str, value: int) -> str:
    return f"{value}.0 : f32" if element == "f32" else f"{value} : i32"


def _fill(draw: Draw, names: Names, tensor: Tensor) -> list[str]:
    value = names.fresh("v")
    literal = _constant(tensor.element, draw(st.integers(-3, 3)))
    return [
        f"{value} = arith.constant {literal}",
        f"linalg.fill ins({value} : {tensor.element}) outs({tensor.name} : {tensor.type})",
    ]


def _as_element(
    names: Names, index: str, element: str, indent: str, lines: list[str]
) -> str:
    """Append to `lines` the casts of the index `index` to `element`; the value."""
    value = names.fresh("e")
    lines.append(f"{indent}{value} = arith.index_cast {index} : index to i32")
    if element == "f32":
        as_float = names.fresh("f")
        lines.append(f"{indent}{as_float} = arith.sitofp {value} : i32 to f32")
        value = as_float
    return value


def _store_loops(draw: Draw, names: Names, tensor: Tensor) -> list[str]:
    """A loop nest of `memref.store`s, as `convert-linalg-to-loops` writes a
    fill: each store writes one element, only the whole nest all of them.
    out[..., j] = j + c, so a tensor read from the wrong bytes shows."""
    bounds = [names.fresh("n") for _ in tensor.shape]
    lines = [
        f"{bound} = arith.constant {size} : index"
        for bound, size in zip(bounds, tensor.shape, strict=True)
    ]
    ivs: list[str] = []
    for depth, bound in enumerate(bounds):
        iv = names.fresh("j")
        lines.append(f"{'  ' * depth}scf.for {iv} = %c0 to {bound} step %c1 {{")
        ivs.append(iv)
    inner = "  " * len(bounds)
    offset, value = names.fresh("k"), names.fresh("e")
    lines += [
        f"{inner}{offset} = arith.constant {draw(st.integers(-4, 4))} : index",
        f"{inner}{value} = arith.addi {ivs[-1]}, {offset} : index",
    ]
    element = _as_element(names, value, tensor.element, inner, lines)
    lines.append(
        f"{inner}memref.store {element}, {tensor.name}[{', '.join(ivs)}] : {tensor.type}"
    )
    lines += [f"{'  ' * depth}}}" for depth in reversed(range(len(bounds)))]
    return lines


def _broadcast(draw: Draw, names: Names, tensor: Tensor) -> list[str]:
    """`linalg.broadcast` of a new DDR tensor (never deallocated) along the
    first dimension: a use that writes all of `tensor` and reads none of it."""
    source = Tensor(names.fresh("b"), tensor.shape[1:], tensor.element, "global")
    init = draw(st.sampled_from([_fill, _generic_from_index]))
    return [
        *_allocation(source),
        *init(draw, names, source),
        f"linalg.broadcast ins({source.name} : {source.type}) "
        f"outs({tensor.name} : {tensor.type}) dimensions = [0]",
    ]


def _generic_from_index(draw: Draw, names: Names, tensor: Tensor) -> list[str]:
    """out[i, j] = i * a + j * b + c: values that depend on the position, so a
    tensor read from the wrong bytes shows."""
    rank = len(tensor.shape)
    dims = ", ".join(f"d{k}" for k in range(rank))
    parallel = ", ".join('"parallel"' for _ in range(rank))
    a, b, c = draw(st.tuples(st.integers(1, 5), st.integers(-2, 2), st.integers(-4, 4)))
    lines = [
        f"linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>], "
        f"iterator_types = [{parallel}]}} outs({tensor.name} : {tensor.type}) {{",
        f"^bb0(%out: {tensor.element}):",
    ]
    terms: list[str] = []
    for k, factor in enumerate((a, b)[:rank]):
        index, scale, term = names.fresh("i"), names.fresh("k"), names.fresh("t")
        lines += [
            f"  {index} = linalg.index {k} : index",
            f"  {scale} = arith.constant {factor} : index",
            f"  {term} = arith.muli {index}, {scale} : index",
        ]
        terms.append(term)
    running = names.fresh("k")
    lines.append(f"  {running} = arith.constant {c} : index")
    for term in terms:
        total = names.fresh("s")
        lines.append(f"  {total} = arith.addi {running}, {term} : index")
        running = total
    value = _as_element(names, running, tensor.element, "  ", lines)
    lines += [f"  linalg.yield {value} : {tensor.element}", "}"]
    return lines


@dataclass
class BlockWriter:
    """Writes the statements of one block; `outer` are tensors of enclosing blocks."""

    draw: Draw
    names: Names
    outer: list[Tensor]
    depth: int
    branches: bool
    rich: bool = False
    faults: bool = False
    local: list[Tensor] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)

    @property
    def live(self) -> list[Tensor]:
        return self.outer + self.local

    def alloc(self, shape: tuple[int, ...], element: str, scope: str) -> Tensor:
        tensor = Tensor(self.names.fresh("m"), shape, element, scope)
        if self.rich:
            tensor = Tensor(
                tensor.name,
                shape,
                element,
                scope,
                spelled=scope == "global" and self.draw(st.booleans()),
                alignment=self.draw(st.sampled_from(ALIGNMENTS)),
                hand_written=self.draw(st.booleans()),
            )
        init = self.draw(
            st.sampled_from([_fill, _generic_from_index, _broadcast, _store_loops])
        )
        lines = _allocation(tensor) + init(self.draw, self.names, tensor)
        self.statements.append(Statement(lines, {tensor.name}))
        self.local.append(tensor)
        return tensor

    def random_alloc(self) -> Tensor:
        return self.alloc(
            self.draw(st.sampled_from(SHAPES)),
            self.draw(st.sampled_from(ELEMENTS)),
            self.draw(st.sampled_from(SCOPES)),
        )

    def operand(
        self, shape: tuple[int, ...], element: str, exclude: set[str]
    ) -> Tensor:
        """A live tensor of this shape and element type, allocated if needed."""
        candidates = [
            t
            for t in self.live
            if t.shape == shape and t.element == element and t.name not in exclude
        ]
        if candidates and self.draw(st.booleans()):
            return self.draw(st.sampled_from(candidates))
        return self.alloc(shape, element, self.draw(st.sampled_from(SCOPES)))

    def elementwise(self) -> None:
        out = self.draw(st.sampled_from(self.live))
        lhs = self.operand(out.shape, out.element, {out.name})
        rhs = self.operand(out.shape, out.element, {out.name})
        op = self.draw(st.sampled_from(["add", "sub", "mul"]))
        line = (
            f"linalg.{op} ins({lhs.name}, {rhs.name} : {lhs.type}, {rhs.type}) "
            f"outs({out.name} : {out.type})"
        )
        self.statements.append(Statement([line], {out.name, lhs.name, rhs.name}))

    def copy(self) -> None:
        out = self.draw(st.sampled_from(self.live))
        source = self.operand(out.shape, out.element, {out.name})
        line = f"linalg.copy ins({source.name} : {source.type}) outs({out.name} : {out.type})"
        self.statements.append(Statement([line], {out.name, source.name}))

    def reinterpret(self) -> None:
        """Copy a window of a tensor, read through a `memref.reinterpret_cast`
        whose offset counts from the tensor's first element."""
        out = self.draw(st.sampled_from(self.live))
        sources = [
            t
            for t in self.live
            if t.element == out.element
            and t.name != out.name
            and t.elements >= out.elements
        ]
        if sources and self.draw(st.booleans()):
            source = self.draw(st.sampled_from(sources))
        else:
            source = self.alloc((4, 4), out.element, self.draw(st.sampled_from(SCOPES)))
        offset = self.draw(st.integers(0, source.elements - out.elements))
        strides = _row_major_strides(out.shape)
        window_type = _memref(
            out.shape,
            out.element,
            source.space,
            f", strided<[{', '.join(map(str, strides))}], offset: {offset}>",
        )
        window = self.names.fresh("r")
        lines = [
            f"{window} = memref.reinterpret_cast {source.name} to offset: [{offset}], "
            f"sizes: [{', '.join(map(str, out.shape))}], "
            f"strides: [{', '.join(map(str, strides))}] : {source.type} to {window_type}",
            f"linalg.copy ins({window} : {window_type}) outs({out.name} : {out.type})",
        ]
        self.statements.append(Statement(lines, {out.name, source.name}))

    def matmul(self) -> None:
        outs = [t for t in self.live if len(t.shape) == 2]
        if not outs:
            return
        out = self.draw(st.sampled_from(outs))
        rows, cols = out.shape
        lhs = self.operand((rows, 4), out.element, {out.name})
        rhs = self.operand((4, cols), out.element, {out.name, lhs.name})
        line = (
            f"linalg.matmul ins({lhs.name}, {rhs.name} : {lhs.type}, {rhs.type}) "
            f"outs({out.name} : {out.type})"
        )
        self.statements.append(Statement([line], {out.name, lhs.name, rhs.name}))

    def condition(self) -> tuple[list[str], set[str], str]:
        """Lines computing an i1, the tensors they read, and the i1's name."""
        cond = self.names.fresh("cond")
        if self.draw(st.booleans()):
            return (
                [
                    f"{cond} = arith.constant {self.draw(st.sampled_from(['true', 'false']))}"
                ],
                set(),
                cond,
            )
        tensor = self.draw(st.sampled_from(self.live))
        indices = ", ".join("%c0" for _ in tensor.shape)
        value, zero = self.names.fresh("x"), self.names.fresh("z")
        compare = "arith.cmpf ogt" if tensor.element == "f32" else "arith.cmpi sgt"
        lines = [
            f"{value} = memref.load {tensor.name}[{indices}] : {tensor.type}",
            f"{zero} = arith.constant {_constant(tensor.element, 0)}",
            f"{cond} = {compare}, {value}, {zero} : {tensor.element}",
        ]
        return lines, {tensor.name}, cond

    def nested(self) -> BlockWriter:
        return BlockWriter(
            self.draw,
            self.names,
            self.live,
            self.depth + 1,
            self.branches,
            self.rich,
            self.faults,
        )

    def if_region(self) -> None:
        lines, uses, cond = self.condition()
        then_block, else_block = self.nested(), self.nested()
        then_block.fill()
        lines.append(f"scf.if {cond} {{")
        lines += _indent(then_block.finish())
        if self.draw(st.booleans()):
            else_block.fill()
            lines.append("} else {")
            lines += _indent(else_block.finish())
        lines.append("}")
        self.statements.append(
            Statement(lines, uses | then_block.outer_uses() | else_block.outer_uses())
        )

    def for_region(self) -> None:
        body = self.nested()
        body.fill()
        trips = self.draw(st.sampled_from(TRIP_COUNTS))
        iv = self.names.fresh("iv")
        lines = [f"scf.for {iv} = %c0 to %c{trips} step %c1 {{"]
        lines += _indent(body.finish())
        lines.append("}")
        self.statements.append(Statement(lines, body.outer_uses()))

    def fill(self) -> None:
        """Draw a few statements (at least one allocation, so `live` is not empty)."""
        if not self.live:
            self.random_alloc()
        kinds: list[Callable[[], object]] = [
            self.random_alloc,
            self.elementwise,
            self.elementwise,
            self.copy,
            self.matmul,
        ]
        if self.rich:
            kinds += [self.reinterpret, self.reinterpret]
        if self.depth < MAX_DEPTH:
            kinds.append(self.for_region)
            if self.branches:
                kinds.append(self.if_region)
        for _ in range(self.draw(st.integers(1, 5))):
            self.draw(st.sampled_from(kinds))()

    def outer_uses(self) -> set[str]:
        local = {t.name for t in self.local}
        return {name for s in self.statements for name in s.uses} - local

    def finish(self, keep: frozenset[str] = frozenset()) -> list[str]:
        """The block's lines, with the deallocs of local tensors not in `keep`."""
        statements = list(self.statements)
        late: list[str] = []
        for tensor in self.local:
            if tensor.name in keep:
                continue
            free = self._free(tensor)
            policy = self.draw(st.sampled_from(["early", "late", "never"]))
            if policy == "early":
                last = max(i for i, s in enumerate(statements) if tensor.name in s.uses)
                # A fault goes between the tensor's kill and its storage's.
                lines = free[:-1] + self._fault(tensor) + free[-1:]
                statements.insert(last + 1, Statement(lines))
            elif policy == "late":
                late += free
        return [line for s in statements for line in s.lines] + late

    def _free(self, tensor: Tensor) -> list[str]:
        """A dealloc, or for a hand-written tensor a kill through an alias
        (a cast or a subview of its first half) and a kill of its storage."""
        if not tensor.hand_written:
            return [f"memref.dealloc {tensor.name} : {tensor.type}"]
        alias = self.names.fresh("k")
        if self.draw(st.booleans()):
            dynamic = "x".join("?" for _ in tensor.shape)
            alias_type = f"memref<{dynamic}x{tensor.element}{tensor.space}>"
            view = f'{alias} = "memref.cast"({tensor.name}) : ({tensor.type}) -> {alias_type}'
        else:
            half = (tensor.shape[0] // 2, *tensor.shape[1:])
            strides = ", ".join(map(str, _row_major_strides(tensor.shape)))
            alias_type = _memref(
                half, tensor.element, tensor.space, f", strided<[{strides}]>"
            )
            zeros = ", ".join("0" for _ in tensor.shape)
            ones = ", ".join("1" for _ in tensor.shape)
            view = (
                f"{alias} = memref.subview {tensor.name}[{zeros}] "
                f"[{', '.join(map(str, half))}] [{ones}] : {tensor.type} to {alias_type}"
            )
        return [
            view,
            f"memory.kill {alias} : {alias_type}",
            f"memory.kill {tensor.storage} : {tensor.storage_type}",
        ]

    def _fault(self, tensor: Tensor) -> list[str]:
        """With `faults`, sometimes a use or a second kill of a hand-written
        tensor right after its kill (its storage is still allocated)."""
        if not (self.faults and tensor.hand_written) or self.draw(st.booleans()):
            return []
        if self.draw(st.booleans()):
            return [f"memory.kill {tensor.name} : {tensor.type}"]
        indices = ", ".join("%c0" for _ in tensor.shape)
        value = self.names.fresh("x")
        return [f"{value} = memref.load {tensor.name}[{indices}] : {tensor.type}"]


def _allocation(tensor: Tensor) -> list[str]:
    """Lines allocating `tensor`: a memref.alloc, or by hand a storage holding
    it at offset 0 (aligned as the tensor asks, as memory-manifest does)."""
    if not tensor.hand_written:
        attribute = (
            ""
            if tensor.alignment is None
            else f" {{alignment = {tensor.alignment} : i64}}"
        )
        return [f"{tensor.name} = memref.alloc(){attribute} : {tensor.type}"]
    align = "" if tensor.alignment is None else f" align {tensor.alignment}"
    size = tensor.elements * ELEMENT_BYTES
    return [
        f"{tensor.storage} = memory.alloc_storage [{size}]{align} : {tensor.storage_type}",
        f"{tensor.name} = memory.alloc_tensor {tensor.storage}[0]{align} : "
        f"{tensor.storage_type} to {tensor.type}",
    ]


def _indent(lines: list[str]) -> list[str]:
    return ["  " + line for line in lines]


@st.composite
def programs(
    draw: Draw, branches: bool = True, rich: bool = False, faults: bool = False
) -> str:
    """MLIR text of a random `@main` returning one or two DDR tensors;
    `branches=False` leaves out `scf.if`, so every allocation executes;
    `rich` and `faults` as in the module docstring."""
    names = Names()
    body = BlockWriter(draw, names, [], 0, branches, rich, faults)
    results = [
        body.alloc(
            draw(st.sampled_from(SHAPES)), draw(st.sampled_from(ELEMENTS)), "global"
        )
        for _ in range(draw(st.integers(1, 2)))
    ]
    body.fill()
    lines = body.finish(keep=frozenset(t.name for t in results))
    values = ", ".join(t.name for t in results)
    types = ", ".join(t.type for t in results)
    constants = [f"%c{k} = arith.constant {k} : index" for k in (0, 1, *TRIP_COUNTS)]
    return "\n".join(
        [
            f"func.func @main() -> ({types}) {{",
            *_indent(constants + lines),
            f"  func.return {values} : {types}",
            "}",
        ]
    )

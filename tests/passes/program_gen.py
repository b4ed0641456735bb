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

`flows=True` adds memrefs that flow through region results, where liveness
must follow a tensor past the value that named it: an `scf.if` yielding one
of two tensors (live ones, or fresh ones allocated in the branch) whose
result later statements read and write; loops (`scf.for` or `affine.for`)
carrying tensors through iter_args, each trip either writing a fresh tensor
from the carried one and yielding it (the carried one freed in the body, so
the initial tensor dies on the first trip, or left to leak), or writing the
carried tensor in place, or swapping two carried tensors; and `affine.for`
besides `scf.for` for loop regions and store loop nests.  A value that may be
one of several tensors keeps them all live while it is used.

`detours=True` adds tensors reached by longer ways: `scf.while` loops
carrying tensors as the other loops do, through `scf.condition` (handing
them on swapped or not, after the `before` region may read one) into the
`after` region and out as results, or whose `before` region writes a fresh
tensor from the carried one (freeing it or not) and hands the fresh one on;
after a loop carrying tensors in place, statements that reach them only
through its results; tensor values of `bufferization.to_tensor`, which
still read the tensor's memory, returned by `@main` (the tensor is then
never freed) or made back into a memref by `bufferization.to_buffer` that
later statements read and write; and tensor values handed on through an
`scf.if` result or a loop's iter_args.  A program is valid on every path
`memory-verify` considers, which cannot count an `scf.while`'s trips: a
while loop whose `after` region writes a fresh tensor from the carried one
and frees no carried tensor hands its initial tensor on as its result when
it runs no trip, so that tensor is kept while the result is used (and the
result is never freed, which would free the tensor twice then).  Not
generated: a memref stored into a memref of memrefs and loaded back, which
neither `memplan-run` nor `memory-manifest` handle (an element type must be
an integer, float or index type).

`calls=True` adds `func.call`s of private functions (one per kind and
argument types, so a function is often called more than once, from loops
and branches too): one that writes a tensor from another (maybe through a
scratch tensor of its own, freed or leaked), one that allocates, writes and
returns a fresh tensor (which the caller frees or not; its argument may be
freed right after the call), one that writes its
argument in place and returns it (the result is the argument), and one that
writes a tensor from another and frees that one; one whose body is
drawn as a block is (it reads and writes its arguments, allocates, frees,
leaks and calls in turn), called once or twice; with `jumps` too, one
whose body `cf.cond_br`s one of two tensors to a block that writes and
returns it, and one looping through blocks with a scratch tensor per trip.  A call's result is
its argument only where the callee returns it (liveness knows what callees
return): the argument of a call returning a fresh tensor may be freed
before the result's last use.

`jumps=True` adds unstructured control flow inside `scf.execute_region`:
a `cf.cond_br` handing one of two live tensors to one of two blocks as a
block argument, each of which may write it and `cf.br`s it on to a block
that yields it; and a loop made of blocks (a header `cf.cond_br`s to the
body or out, the body `cf.br`s back) carrying a tensor as a block argument,
written in place each trip or replaced by a fresh tensor written from it.

`views=True` adds views: a `memref.subview` (offsets, sizes and strides)
of a live tensor written in place (a fill, an elementwise op of the window,
a `memref.copy` from a window of another tensor) while the rest keeps its
data, a subview or `memref.transpose` read into a tensor, and
`memref.collapse_shape` / `memref.expand_shape` views later statements read
and write.  `dynamic=True` adds `memref.alloc(%n)` of 8 + n elements, n
computed at run time (from an enclosing loop's induction variable, or an
`arith.muli` of constants), filled, written at a window of 8 elements (at
offset 0 or n) from a tensor and read into one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hypothesis import strategies as st
from stable_strategies import one_of_values

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
    aliases: frozenset[str] = frozenset()
    """The tensors this value may be (a region result or an iter_arg that
    chose or carried one): empty when it is a tensor of its own."""
    layout: str = ""
    """The layout part of the memref type of a view, with its comma."""

    @property
    def owners(self) -> frozenset[str]:
        """The tensors a use of this value uses."""
        return self.aliases or frozenset({self.name})

    @property
    def space(self) -> str:
        """The memory space part of the memref type, with its comma."""
        return _space(self.scope, self.spelled)

    @property
    def type(self) -> str:
        return _memref(self.shape, self.element, self.space, self.layout)

    @property
    def tensor_type(self) -> str:
        """The type of a `bufferization.to_tensor` of this memref."""
        dims = "".join(f"{d}x" for d in self.shape)
        return f"tensor<{dims}{self.element}>"

    @property
    def elements(self) -> int:
        return math.prod(self.shape)

    @property
    def storage(self) -> str:
        return f"{self.name}s"

    @property
    def storage_type(self) -> str:
        return f'!memory.storage<"{self.scope}">'


def _space(scope: str, spelled: bool = False) -> str:
    """The memory space part of a memref type of `scope`, with its comma;
    none for "global" unless `spelled`."""
    if scope == "global" and not spelled:
        return ""
    return f', "{scope}"'


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
    """Fresh value names, and the private functions the program calls."""

    count: int = 0
    functions: dict[tuple[str, ...], str] = field(default_factory=dict)
    """The symbol of each callee, keyed by its kind and argument types."""
    bodies: list[str] = field(default_factory=list)
    """The lines of the callees."""

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


def _store_loops(
    draw: Draw, names: Names, tensor: Tensor, affine: bool = False
) -> list[str]:
    """A loop nest (`scf.for`, or `affine.for` if `affine`) of `memref.store`s,
    as `convert-linalg-to-loops` writes a fill: each store writes one element,
    only the whole nest all of them.  out[..., j] = j + c, so a tensor read
    from the wrong bytes shows."""
    bounds = [str(size) if affine else names.fresh("n") for size in tensor.shape]
    lines = [
        f"{bound} = arith.constant {size} : index"
        for bound, size in zip(bounds, tensor.shape, strict=True)
        if not affine
    ]
    ivs: list[str] = []
    for depth, bound in enumerate(bounds):
        iv = names.fresh("j")
        loop = (
            f"affine.for {iv} = 0 to {bound}"
            if affine
            else f"scf.for {iv} = %c0 to {bound} step %c1"
        )
        lines.append(f"{'  ' * depth}{loop} {{")
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
    init = draw(one_of_values([_fill, _generic_from_index]))
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
    flows: bool = False
    detours: bool = False
    calls: bool = False
    jumps: bool = False
    views: bool = False
    dynamic: bool = False
    ivs: list[str] = field(default_factory=list)
    """Induction variables of the loops around the block."""
    must_free: bool = False
    """Free every local tensor: the block is in a region of several blocks
    (or nested in one), whose tensors `memory-plan` leaves in storages of
    their own, so a leak in a loop there holds more memory on every trip
    (which `memory-verify` rejects when the trip count is not known)."""
    outer_values: list[Tensor] = field(default_factory=list)
    """Tensor values (`bufferization.to_tensor` results) of enclosing blocks."""
    keep: frozenset[str] = frozenset()
    """Local tensors the block must not free (it yields or returns them)."""
    local: list[Tensor] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    freed: set[str] = field(default_factory=set)
    """Local tensors freed by the block's deallocs or by a loop it runs."""
    hidden: set[str] = field(default_factory=set)
    """Tensors later statements use only through a loop's results."""
    values: list[Tensor] = field(default_factory=list)
    """Tensor values made in this block, named by the tensor, owned by the
    tensors their memref may be."""
    returned: list[Tensor] = field(default_factory=list)
    """Tensor values `@main` returns (made in its body only)."""

    @property
    def live(self) -> list[Tensor]:
        return [
            t
            for t in self.outer + self.local
            if not t.owners & self.freed and t.name not in self.hidden
        ]

    @property
    def live_values(self) -> list[Tensor]:
        """Tensor values whose every owner a live tensor may be."""
        owners = _uses(*self.live)
        return [v for v in self.outer_values + self.values if v.owners <= owners]

    def alloc(self, shape: tuple[int, ...], element: str, scope: str) -> Tensor:
        tensor = Tensor(self.names.fresh("m"), shape, element, scope)
        if self.rich:
            tensor = Tensor(
                tensor.name,
                shape,
                element,
                scope,
                spelled=scope == "global" and self.draw(st.booleans()),
                alignment=self.draw(one_of_values(ALIGNMENTS)),
                hand_written=self.draw(st.booleans()),
            )
        return self._initialized(tensor)

    def alloc_like(self, like: Tensor) -> Tensor:
        """A `memref.alloc` of `like`'s type (one a region may yield in its
        place), initialized as `alloc` does."""
        alignment = self.draw(one_of_values(ALIGNMENTS)) if self.rich else None
        return self._initialized(
            replace(_plain(like, self.names.fresh("m")), alignment=alignment, layout="")
        )

    def _initialized(self, tensor: Tensor) -> Tensor:
        inits = [_fill, _generic_from_index, _broadcast, _store_loops]
        if self.flows:
            inits.append(partial(_store_loops, affine=True))
        init = self.draw(one_of_values(inits))
        lines = _allocation(tensor) + init(self.draw, self.names, tensor)
        self.statements.append(Statement(lines, {tensor.name}))
        self.local.append(tensor)
        return tensor

    def _any_live(self) -> Tensor:
        return self.draw(one_of_values(self.live))

    def _any_contiguous(self) -> Tensor:
        """A live tensor that is not a strided view (allocated if needed)."""
        contiguous = [t for t in self.live if not t.layout]
        if not contiguous:
            return self.random_alloc()
        return self.draw(one_of_values(contiguous))

    def random_alloc(self) -> Tensor:
        return self.alloc(
            self.draw(one_of_values(SHAPES)),
            self.draw(one_of_values(ELEMENTS)),
            self.draw(one_of_values(SCOPES)),
        )

    def operand(
        self, shape: tuple[int, ...], element: str, exclude: frozenset[str]
    ) -> Tensor:
        """A live tensor of this shape and element type that may be none of
        the tensors `exclude`, allocated if needed."""
        candidates = [
            t
            for t in self.live
            if t.shape == shape and t.element == element and not t.owners & exclude
        ]
        if candidates and self.draw(st.booleans()):
            return self.draw(one_of_values(candidates))
        return self.alloc(shape, element, self.draw(one_of_values(SCOPES)))

    def elementwise(self, out: Tensor | None = None) -> None:
        if out is None:
            out = self._any_live()
        lhs = self.operand(out.shape, out.element, out.owners)
        rhs = self.operand(out.shape, out.element, out.owners)
        op = self.draw(one_of_values(["add", "sub", "mul"]))
        line = (
            f"linalg.{op} ins({lhs.name}, {rhs.name} : {lhs.type}, {rhs.type}) "
            f"outs({out.name} : {out.type})"
        )
        self.statements.append(Statement([line], _uses(out, lhs, rhs)))

    def copy(self, out: Tensor | None = None) -> None:
        if out is None:
            out = self._any_live()
        source = self.operand(out.shape, out.element, out.owners)
        line = f"linalg.copy ins({source.name} : {source.type}) outs({out.name} : {out.type})"
        self.statements.append(Statement([line], _uses(out, source)))

    def reinterpret(self) -> None:
        """Copy a window of a tensor, read through a `memref.reinterpret_cast`
        whose offset counts from the tensor's first element."""
        out = self.draw(one_of_values(self.live))
        sources = [
            t
            for t in self.live
            if t.element == out.element
            and not t.owners & out.owners
            and t.elements >= out.elements
        ]
        if sources and self.draw(st.booleans()):
            source = self.draw(one_of_values(sources))
        else:
            source = self.alloc((4, 4), out.element, self.draw(one_of_values(SCOPES)))
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
        self.statements.append(Statement(lines, _uses(out, source)))

    def matmul(self) -> None:
        outs = [t for t in self.live if len(t.shape) == 2]
        if not outs:
            return
        out = self.draw(one_of_values(outs))
        rows, cols = out.shape
        lhs = self.operand((rows, 4), out.element, out.owners)
        rhs = self.operand((4, cols), out.element, out.owners | lhs.owners)
        line = (
            f"linalg.matmul ins({lhs.name}, {rhs.name} : {lhs.type}, {rhs.type}) "
            f"outs({out.name} : {out.type})"
        )
        self.statements.append(Statement([line], _uses(out, lhs, rhs)))

    def condition(self) -> tuple[list[str], set[str], str]:
        """Lines computing an i1, the tensors they read, and the i1's name."""
        cond = self.names.fresh("cond")
        if self.draw(st.booleans()):
            return (
                [
                    f"{cond} = arith.constant {self.draw(one_of_values(['true', 'false']))}"
                ],
                set(),
                cond,
            )
        tensor = self.draw(one_of_values(self.live))
        indices = ", ".join("%c0" for _ in tensor.shape)
        value, zero = self.names.fresh("x"), self.names.fresh("z")
        compare = "arith.cmpf ogt" if tensor.element == "f32" else "arith.cmpi sgt"
        lines = [
            f"{value} = memref.load {tensor.name}[{indices}] : {tensor.type}",
            f"{zero} = arith.constant {_constant(tensor.element, 0)}",
            f"{cond} = {compare}, {value}, {zero} : {tensor.element}",
        ]
        return lines, _uses(tensor), cond

    def nested(self) -> BlockWriter:
        return self._inner(self.live, list(self.ivs), self.must_free, self.live_values)

    def _inner(
        self,
        outer: list[Tensor],
        ivs: list[str] | None = None,
        must_free: bool = False,
        outer_values: list[Tensor] | None = None,
    ) -> BlockWriter:
        """A writer one level deeper, drawing with this one's options."""
        return BlockWriter(
            self.draw,
            self.names,
            outer,
            self.depth + 1,
            self.branches,
            self.rich,
            self.faults,
            self.flows,
            self.detours,
            self.calls,
            self.jumps,
            self.views,
            self.dynamic,
            ivs or [],
            must_free,
            outer_values or [],
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
        header = self._loop_header([], [])
        body.ivs.append(header.split()[1])
        body.fill()
        lines = [f"{header} {{", *_indent(body.finish()), "}"]
        self.statements.append(Statement(lines, body.outer_uses()))

    def _loop_header(
        self,
        inits: list[Tensor],
        carried: list[Tensor],
        types: list[str] | None = None,
    ) -> str:
        """`scf.for` or (with `flows`) `affine.for` of 2 or 3 trips, carrying
        `carried` (block arguments) from `inits`, of `types` (by default the
        memref types of `inits`)."""
        trips = self.draw(one_of_values(TRIP_COUNTS))
        iv = self.names.fresh("iv")
        affine = self.flows and self.draw(st.booleans())
        header = (
            f"affine.for {iv} = 0 to {trips}"
            if affine
            else f"scf.for {iv} = %c0 to %c{trips} step %c1"
        )
        if carried:
            pairs = ", ".join(
                f"{arg.name} = {init.name}"
                for arg, init in zip(carried, inits, strict=True)
            )
            types = types or [t.type for t in inits]
            header += f" iter_args({pairs}) -> ({', '.join(types)})"
        return header

    def select(self) -> None:
        """`%r = scf.if %cond -> (T)` yielding a live tensor or a fresh one
        from each branch; later statements read and write `%r`."""
        first = self._any_contiguous()
        lines, uses, cond = self.condition()
        same = [t for t in self.live if t.type == first.type]
        choices = [first, self.draw(one_of_values(same))]
        result = self.names.fresh("r")
        lines.append(f"{result} = scf.if {cond} -> ({first.type}) {{")
        yielded: list[Tensor] = []
        for k, choice in enumerate(choices):
            branch = self.nested()
            if self.draw(st.booleans()):
                choice = branch.alloc_like(first)
                branch.keep = frozenset({choice.name})
            if self.draw(st.booleans()):
                branch.fill()
            lines += _indent(
                [*branch.finish(), f"scf.yield {choice.name} : {choice.type}"]
            )
            lines.append("} else {" if k == 0 else "}")
            uses |= branch.outer_uses()
            if not branch.keep:
                yielded.append(choice)
        owner = _plain(first, result)
        if yielded:
            owner = replace(owner, aliases=frozenset(_uses(*yielded)))
        uses |= owner.owners
        self.statements.append(Statement(lines, uses))
        self.local.append(owner)

    def carry(self) -> None:
        """A loop carrying tensors through iter_args: each trip writes a fresh
        tensor from the carried one and yields it (freeing the carried one or
        not: freeing it frees the initial tensor on the first trip; with
        `detours`, the result of an `scf.while` that does not free it may be
        the initial tensor), or writes the carried tensor in place, or swaps
        it with a second carried one."""
        init = self._any_contiguous()
        body = self.nested()
        if self.draw(st.booleans()):
            inits = [init]
            carried = [_plain(init, self.names.fresh("acc"))]
            freeable = self._freeable(init)
            if freeable:
                # The body may free `init` (as the carried tensor): it uses
                # neither `init` nor what may be it.
                body.outer = [t for t in body.outer if init.name not in t.owners]
            body.local.append(carried[0])
            fresh = body.alloc_like(init)
            body.source(fresh, carried[0])
            body.keep = frozenset(
                {fresh.name} if freeable else {fresh.name, carried[0].name}
            )
            yielded = [fresh]
            results = [_plain(init, self.names.fresh("l"))]
        else:
            inits = [init, *self._second_carried(init)]
            owners = frozenset(_uses(*inits))
            carried = [
                replace(_plain(t, self.names.fresh("acc")), aliases=owners)
                for t in inits
            ]
            if len(carried) == 1:
                self.draw(one_of_values([body.elementwise, body.copy]))(carried[0])
            else:
                body.source(carried[0], carried[1])
            yielded = carried[::-1] if self.draw(st.booleans()) else carried
            results = [
                replace(t, name=self.names.fresh("l"), aliases=owners) for t in inits
            ]
        if self.draw(st.booleans()):
            body.fill()
        if self.detours and self.draw(st.booleans()):
            lines = self._while_loop(
                inits,
                self._handing_on(carried),
                (carried, body.finish(), yielded),
                results,
            )
            if not results[0].aliases and carried[0].name not in body.freed:
                # An `scf.while` that runs no trip hands `init` on as its
                # result (`memory-verify` cannot count trips), and no trip
                # frees it: the result may be `init`, which must outlive it.
                # So it stands for `init`'s tensors and is never freed (that
                # would free `init` twice on that path).
                results = [replace(results[0], aliases=frozenset(init.owners))]
        else:
            header = self._loop_header(inits, carried)
            terminator = "affine.yield" if header.startswith("affine") else "scf.yield"
            lines = [
                f"{', '.join(t.name for t in results)} = {header} {{",
                *_indent(body.finish()),
                f"  {terminator} {', '.join(t.name for t in yielded)} : "
                f"{', '.join(t.type for t in yielded)}",
                "}",
            ]
        uses = _uses(*inits, *results) | body.outer_uses()
        self.statements.append(Statement(lines, uses))
        self.local += results
        if self.detours and results[0].aliases and self.draw(st.booleans()):
            # Later statements reach the carried tensors through the loop's
            # results only, as bufferized code does.
            self.hidden |= {t.name for t in inits}
        if carried[0].name in body.freed:
            self.freed.add(init.name)

    def _while_loop(
        self,
        inits: list[Tensor],
        before: tuple[list[Tensor], list[str], list[Tensor]],
        after: tuple[list[Tensor], list[str], list[Tensor]],
        results: list[Tensor],
    ) -> list[str]:
        """An `scf.while` of 2 or 3 trips carrying `inits` and a trip count.
        `before` is the `before` region's arguments, its lines and what its
        `scf.condition` hands on (to the `after` region and out as
        `results`); `after` is the `after` region's arguments, its lines
        and what it yields."""
        trips = self.draw(one_of_values(TRIP_COUNTS))
        (before_args, before_lines, handed), (after_args, body, yielded) = before, after
        count, after_count, go, next_count = (
            self.names.fresh(prefix) for prefix in ("wc", "wd", "go", "wn")
        )
        types = ", ".join([*(t.type for t in inits), "index"])
        pairs = ", ".join(
            f"{arg.name} = {init.name}"
            for arg, init in zip(before_args, inits, strict=True)
        )
        arguments = ", ".join(f"{t.name}: {t.type}" for t in after_args)
        return [
            f"{', '.join(t.name for t in results)}, {self.names.fresh('wr')} = "
            f"scf.while ({pairs}, {count} = %c0) : ({types}) -> ({types}) {{",
            *_indent(before_lines),
            f"  {go} = arith.cmpi slt, {count}, %c{trips} : index",
            f"  scf.condition({go}) {', '.join(t.name for t in handed)}, {count} : "
            f"{types}",
            "} do {",
            f"^bb0({arguments}, {after_count}: index):",
            *_indent(body),
            f"  {next_count} = arith.addi {after_count}, %c1 : index",
            f"  scf.yield {', '.join(t.name for t in yielded)}, {next_count} : "
            f"{', '.join(t.type for t in yielded)}, index",
            "}",
        ]

    def _handing_on(
        self, carried: list[Tensor]
    ) -> tuple[list[Tensor], list[str], list[Tensor]]:
        """A `before` region that may read the first of its arguments (one per
        carried tensor) and hands them on, swapped or not."""
        arguments = [replace(t, name=self.names.fresh("w")) for t in carried]
        lines: list[str] = []
        if self.draw(st.booleans()):
            indices = ", ".join("%c0" for _ in arguments[0].shape)
            lines.append(
                f"{self.names.fresh('x')} = memref.load "
                f"{arguments[0].name}[{indices}] : {arguments[0].type}"
            )
        handed = arguments[::-1] if self.draw(st.booleans()) else arguments
        return arguments, lines, handed

    def hand_on(self) -> None:
        """An `scf.while` whose `before` region writes a fresh tensor from the
        carried one (freeing the carried one or not, as `carry` does) and
        hands the fresh one through `scf.condition` to the `after` region,
        which writes it in place and yields it, and out as the result."""
        init = self._any_contiguous()
        freeable = self._freeable(init)
        before, after = self.nested(), self.nested()
        if freeable:
            for block in (before, after):
                block.outer = [t for t in block.outer if init.name not in t.owners]
        argument = _plain(init, self.names.fresh("w"))
        before.local.append(argument)
        fresh = before.alloc_like(init)
        before.source(fresh, argument)
        before.keep = frozenset(
            {fresh.name} if freeable else {fresh.name, argument.name}
        )
        if self.draw(st.booleans()):
            before.fill()
        carried = _plain(init, self.names.fresh("acc"))
        after.local.append(carried)
        after.keep = frozenset({carried.name})
        self.draw(one_of_values([after.elementwise, after.copy]))(carried)
        if self.draw(st.booleans()):
            after.fill()
        result = _plain(init, self.names.fresh("l"))
        lines = self._while_loop(
            [init],
            ([argument], before.finish(), [fresh]),
            ([carried], after.finish(), [carried]),
            [result],
        )
        uses = _uses(init, result) | before.outer_uses() | after.outer_uses()
        self.statements.append(Statement(lines, uses))
        self.local.append(result)
        if argument.name in before.freed:
            self.freed.add(init.name)

    def _freeable(self, init: Tensor) -> bool:
        """Whether a loop carrying `init` may free it: a tensor of this block
        made by a `memref.alloc`, that the block does not keep."""
        return init in self.local and not (
            init.aliases or init.hand_written or init.name in self.keep
        )

    def _second_carried(self, init: Tensor) -> list[Tensor]:
        """Sometimes a live tensor of `init`'s type, none of the tensors it may be."""
        others = [
            t for t in self.live if t.type == init.type and not t.owners & init.owners
        ]
        if others and self.draw(st.booleans()):
            return [self.draw(one_of_values(others))]
        return []

    def to_tensor(self) -> None:
        """`bufferization.to_tensor` of a live tensor: a tensor value that
        still reads its memory.  In `@main`'s body it may be returned (its
        tensors are then never freed); elsewhere a later `to_buffer` may
        read and write through it."""
        source = self._any_live()
        value = replace(
            _plain(source, self.names.fresh("t")), aliases=frozenset(source.owners)
        )
        line = (
            f"{value.name} = bufferization.to_tensor {source.name} : "
            f"{source.type} to {value.tensor_type}"
        )
        self.statements.append(Statement([line], _uses(source)))
        if self.depth == 0 and self.draw(st.booleans()):
            self.keep |= value.owners
            self.returned.append(value)
        self.values.append(value)

    def pass_value(self) -> None:
        """Hand a tensor value (made first if there is none) on through a
        region: an `scf.if` yielding it or another of its type, or a loop
        carrying it as an iter_arg (whose body may write through a
        `to_buffer` of it).  The result is a tensor value that may be any of
        them."""
        if not self.live_values:
            self.to_tensor()
        values = self.live_values
        value = self.draw(one_of_values(values))
        result = replace(value, name=self.names.fresh("tr"))
        uses = _uses(value)
        if self.branches and self.draw(st.booleans()):
            lines, cond_uses, cond = self.condition()
            same = [v for v in values if v.tensor_type == value.tensor_type]
            choices = [value, self.draw(one_of_values(same))]
            lines.append(f"{result.name} = scf.if {cond} -> ({value.tensor_type}) {{")
            for k, choice in enumerate(choices):
                branch = self.nested()
                if self.draw(st.booleans()):
                    branch.fill()
                lines += _indent(
                    [
                        *branch.finish(),
                        f"scf.yield {choice.name} : {choice.tensor_type}",
                    ]
                )
                lines.append("} else {" if k == 0 else "}")
                uses |= branch.outer_uses() | _uses(choice)
            uses |= cond_uses
            result = replace(result, aliases=frozenset(_uses(*choices)))
        else:
            body = self.nested()
            carried = replace(value, name=self.names.fresh("ta"))
            body.values.append(carried)
            body.fill()
            header = self._loop_header([value], [carried], [value.tensor_type])
            terminator = "affine.yield" if header.startswith("affine") else "scf.yield"
            lines = [
                f"{result.name} = {header} {{",
                *_indent(body.finish()),
                f"  {terminator} {carried.name} : {carried.tensor_type}",
                "}",
            ]
            uses |= body.outer_uses()
        self.statements.append(Statement(lines, uses))
        if self.depth == 0 and self.draw(st.booleans()):
            self.keep |= result.owners
            self.returned.append(result)
        self.values.append(result)

    def to_buffer(self) -> None:
        """`bufferization.to_buffer` of a tensor value whose tensors are live
        (made first if there is none): a memref later statements read and
        write, which may be any of them."""
        if not self.live_values:
            self.to_tensor()
        value = self.draw(one_of_values(self.live_values))
        buffer = replace(value, name=self.names.fresh("u"))
        line = (
            f"{buffer.name} = bufferization.to_buffer {value.name} : "
            f"{value.tensor_type} to {buffer.type}"
        )
        self.statements.append(Statement([line], _uses(buffer)))
        self.local.append(buffer)

    def source(self, out: Tensor, source: Tensor) -> None:
        """Write all of `out` from `source`: a copy, or an elementwise op of it."""
        op = self.draw(one_of_values(["copy", "add", "sub", "mul"]))
        ins = f"{source.name} : {source.type}"
        if op != "copy":
            ins = f"{source.name}, {source.name} : {source.type}, {source.type}"
        line = f"linalg.{op} ins({ins}) outs({out.name} : {out.type})"
        self.statements.append(Statement([line], _uses(out, source)))

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
            if self.flows:
                kinds += [self.carry, self.carry]
                if self.branches:
                    kinds += [self.select, self.select]
        if self.detours:
            kinds += [self.to_tensor, self.to_buffer, self.to_buffer]
            if self.depth < MAX_DEPTH:
                kinds += [self.carry, self.hand_on, self.pass_value, self.pass_value]
        if self.calls:
            kinds += [self.call, self.call]
        if self.views:
            kinds += [self.view_in_place, self.view_read, self.reshape, self.view]
        if self.dynamic:
            kinds += [self.dynamic_alloc, self.dynamic_alloc]
        if self.jumps and self.depth < MAX_DEPTH:
            kinds += [self.jump_choice, self.jump_loop]
        for _ in range(self.draw(st.integers(1, 5))):
            self.draw(one_of_values(kinds))()

    def call(self) -> None:
        """A `func.call` of a private function (one per kind and argument
        types, so calls of the same kind and types share it): one that
        writes a tensor from another (maybe through a scratch tensor of its
        own), allocates and returns a fresh tensor, writes a tensor in place
        and returns it, or writes a tensor from another and frees that one."""
        kinds = ["write", "fresh", "same", "free"]
        if self.depth < MAX_DEPTH:
            kinds.append("random")
        if self.jumps:
            kinds += ["pick", "loop"]
        kind = self.draw(one_of_values(kinds))
        freeable = [t for t in self.live if self._freeable(t)]
        if kind == "free" and not freeable:
            kind = "write"
        if kind == "random":
            self._call_random()
        elif kind == "pick":
            self._call_picking()
        elif kind == "loop":
            out = self._any_live()
            self._call_looping(out, self.operand(out.shape, out.element, out.owners))
        elif kind == "fresh":
            # Sometimes a tensor freed right after the call: the result is
            # not the argument.
            freed = bool(freeable) and self.draw(st.booleans())
            source = self.draw(one_of_values(freeable)) if freed else self._any_live()
            scope = self.draw(one_of_values(SCOPES))
            result = Tensor(
                self.names.fresh("cr"),
                source.shape,
                source.element,
                scope,
            )
            op = self.draw(one_of_values(["copy", "add", "sub", "mul"]))
            callee = self._callee(
                ("fresh", op, source.type, result.type),
                [
                    f"func.func private @{{}}(%in: {source.type}) -> {result.type} {{",
                    f"  %r = memref.alloc() : {result.type}",
                    f"  {_linalg(op, '%in', source.type, '%r', result.type)}",
                    f"  func.return %r : {result.type}",
                    "}",
                ],
            )
            lines = [
                f"{result.name} = func.call @{callee}({source.name}) : "
                f"({source.type}) -> {result.type}"
            ]
            if freed:
                lines.append(f"memref.dealloc {source.name} : {source.type}")
                self.freed.add(source.name)
            self.statements.append(Statement(lines, _uses(source, result)))
            self.local.append(result)
        elif kind == "same":
            tensor = self._any_live()
            result = replace(
                _plain(tensor, self.names.fresh("cs")), aliases=tensor.owners
            )
            op = self.draw(one_of_values(["add", "sub", "mul"]))
            callee = self._callee(
                ("same", op, tensor.type),
                [
                    f"func.func private @{{}}(%x: {tensor.type}) -> {tensor.type} {{",
                    f"  {_linalg(op, '%x', tensor.type, '%x', tensor.type)}",
                    f"  func.return %x : {tensor.type}",
                    "}",
                ],
            )
            line = (
                f"{result.name} = func.call @{callee}({tensor.name}) : "
                f"({tensor.type}) -> {tensor.type}"
            )
            self.statements.append(Statement([line], _uses(tensor)))
            self.local.append(result)
        else:
            source = self.draw(one_of_values(freeable)) if kind == "free" else None
            if source is None:
                out = self._any_live()
                source = self.operand(out.shape, out.element, out.owners)
            else:
                out = self.operand(source.shape, source.element, source.owners)
            self._call_writing(kind, out, source)

    def _call_random(self) -> None:
        """A call (once or twice) of a function of its own whose body is
        drawn as a block is, with one or two live tensors (none of them the
        other) as its arguments: it reads and writes them, allocates, frees
        and leaks tensors of its own, calls functions in turn."""
        arguments = [self._any_live()]
        others = [t for t in self.live if not t.owners & arguments[0].owners]
        if others and self.draw(st.booleans()):
            arguments.append(self.draw(one_of_values(others)))
        parameters = [_plain(t, self.names.fresh("p")) for t in arguments]
        body = self._inner(parameters)
        body.fill()
        symbol = f"body{len(self.names.functions)}"
        self.names.functions[(symbol,)] = symbol
        signature = ", ".join(f"{t.name}: {t.type}" for t in parameters)
        constants = [
            f"%c{k} = arith.constant {k} : index" for k in (0, 1, *TRIP_COUNTS)
        ]
        self.names.bodies += [
            f"func.func private @{symbol}({signature}) {{",
            *_indent(constants + body.finish()),
            "  func.return",
            "}",
        ]
        types = ", ".join(t.type for t in arguments)
        line = (
            f"func.call @{symbol}({', '.join(t.name for t in arguments)}) : "
            f"({types}) -> ()"
        )
        lines = [line] * self.draw(st.integers(1, 2))
        self.statements.append(Statement(lines, _uses(*arguments)))

    def _call_picking(self) -> None:
        """With `jumps`, a call of a function whose body is two blocks: the
        first `cf.cond_br`s to the second with one of two tensors (chosen by
        an i1 argument), which writes it in place and returns it."""
        first = self._any_live()
        second = self.draw(
            one_of_values([t for t in self.live if t.type == first.type])
        )
        lines, uses, cond = self.condition()
        memref_type = first.type
        callee = self._callee(
            ("pick", memref_type),
            [
                f"func.func private @{{}}(%c: i1, %a: {memref_type}, "
                f"%b: {memref_type}) -> {memref_type} {{",
                f"  cf.cond_br %c, ^bb1(%a : {memref_type}), ^bb1(%b : {memref_type})",
                f"^bb1(%x: {memref_type}):",
                f"  {_linalg('add', '%x', memref_type, '%x', memref_type)}",
                f"  func.return %x : {memref_type}",
                "}",
            ],
        )
        result = replace(
            _plain(first, self.names.fresh("cp")),
            aliases=frozenset(_uses(first, second)),
        )
        lines.append(
            f"{result.name} = func.call @{callee}({cond}, {first.name}, "
            f"{second.name}) : (i1, {memref_type}, {memref_type}) -> {memref_type}"
        )
        self.statements.append(Statement(lines, uses | _uses(first, second)))
        self.local.append(result)

    def _call_looping(self, out: Tensor, source: Tensor) -> None:
        """With `jumps`, a call of a function looping through blocks 2 or 3
        times, each trip adding to `out` what it writes from `source` into
        a VTCM scratch tensor it allocates and frees in the trip."""
        op = self.draw(one_of_values(["copy", "add", "sub", "mul"]))
        trips = self.draw(one_of_values(TRIP_COUNTS))
        scratch = _memref(out.shape, out.element, _space("global.vtcm"))
        callee = self._callee(
            ("loop", op, str(trips), out.type, source.type),
            [
                f"func.func private @{{}}(%out: {out.type}, %in: {source.type}) {{",
                "  %c0 = arith.constant 0 : index",
                "  %c1 = arith.constant 1 : index",
                f"  %n = arith.constant {trips} : index",
                "  cf.br ^bb1(%c0 : index)",
                "^bb1(%i: index):",
                "  %go = arith.cmpi slt, %i, %n : index",
                "  cf.cond_br %go, ^bb2, ^bb3",
                "^bb2:",
                f"  %s = memref.alloc() : {scratch}",
                f"  {_linalg(op, '%in', source.type, '%s', scratch)}",
                f"  linalg.add ins(%s, %out : {scratch}, {out.type}) "
                f"outs(%out : {out.type})",
                f"  memref.dealloc %s : {scratch}",
                "  %j = arith.addi %i, %c1 : index",
                "  cf.br ^bb1(%j : index)",
                "^bb3:",
                "  func.return",
                "}",
            ],
        )
        line = (
            f"func.call @{callee}({out.name}, {source.name}) : "
            f"({out.type}, {source.type}) -> ()"
        )
        self.statements.append(Statement([line], _uses(out, source)))

    def _call_writing(self, kind: str, out: Tensor, source: Tensor) -> None:
        """A call writing `out` from `source`, and freeing `source` if `kind`
        is "free"."""
        op = self.draw(one_of_values(["copy", "add", "sub", "mul"]))
        head = f"func.func private @{{}}(%out: {out.type}, %in: {source.type}) {{"
        body = [f"  {_linalg(op, '%in', source.type, '%out', out.type)}"]
        if kind == "free":
            body.append(f"  memref.dealloc %in : {source.type}")
        elif self.draw(st.booleans()):
            scratch = _memref(out.shape, out.element, _space("global.vtcm"))
            body = [
                f"  %s = memref.alloc() : {scratch}",
                f"  {_linalg(op, '%in', source.type, '%s', scratch)}",
                f"  {_linalg('copy', '%s', scratch, '%out', out.type)}",
            ]
            if self.draw(st.booleans()):
                body.append(f"  memref.dealloc %s : {scratch}")
        key = (kind, op, out.type, source.type, str(len(body)))
        callee = self._callee(key, [head, *body, "  func.return", "}"])
        line = (
            f"func.call @{callee}({out.name}, {source.name}) : "
            f"({out.type}, {source.type}) -> ()"
        )
        self.statements.append(Statement([line], _uses(out, source)))
        if kind == "free":
            self.freed.add(source.name)

    def _callee(self, key: tuple[str, ...], lines: list[str]) -> str:
        """The symbol of the function of `key`, defined by `lines` (whose
        `{}` is the symbol) if it is new."""
        if key not in self.names.functions:
            symbol = f"{key[0]}{len(self.names.functions)}"
            self.names.functions[key] = symbol
            self.names.bodies += [lines[0].replace("@{}", f"@{symbol}"), *lines[1:]]
        return self.names.functions[key]

    def _window(self, tensor: Tensor, sizes: tuple[int, ...]) -> tuple[Tensor, str]:
        """A `memref.subview` of the contiguous `tensor` of `sizes` at drawn
        offsets and strides: the view and its line."""
        offsets: list[int] = []
        strides: list[int] = []
        for dim, size in zip(tensor.shape, sizes, strict=True):
            most = (dim - 1) // (size - 1) if size > 1 else 1
            stride = self.draw(st.integers(1, most))
            offsets.append(self.draw(st.integers(0, dim - 1 - (size - 1) * stride)))
            strides.append(stride)
        row_major = _row_major_strides(tensor.shape)
        offset = sum(o * r for o, r in zip(offsets, row_major, strict=True))
        layout = ", ".join(str(r * s) for r, s in zip(row_major, strides, strict=True))
        view = replace(
            _plain(tensor, self.names.fresh("sv")),
            shape=sizes,
            layout=f", strided<[{layout}], offset: {offset}>",
            aliases=tensor.owners,
        )
        line = (
            f"{view.name} = memref.subview {tensor.name}[{', '.join(map(str, offsets))}] "
            f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : "
            f"{tensor.type} to {view.type}"
        )
        return view, line

    def _transposed(self, tensor: Tensor) -> tuple[Tensor, str]:
        """A `memref.transpose` of the contiguous 2-d `tensor`: the view and
        its line."""
        strides = ", ".join(map(str, _row_major_strides(tensor.shape)[::-1]))
        view = replace(
            _plain(tensor, self.names.fresh("tv")),
            shape=tensor.shape[::-1],
            layout=f", strided<[{strides}]>",
            aliases=tensor.owners,
        )
        line = (
            f"{view.name} = memref.transpose {tensor.name} (i, j) -> (j, i) : "
            f"{tensor.type} to {view.type}"
        )
        return view, line

    def view_in_place(self) -> None:
        """Write part of a live tensor through a subview (its other part
        keeps its data): a fill, an elementwise op of the window, or a
        `memref.copy` from a window of the same sizes of another tensor."""
        target = self._any_contiguous()
        sizes = tuple(self.draw(st.integers(1, d)) for d in target.shape)
        view, line = self._window(target, sizes)
        lines = [line]
        uses = _uses(target)
        op = self.draw(one_of_values(["fill", "add", "copy"]))
        if op == "fill":
            value = self.names.fresh("v")
            literal = _constant(target.element, self.draw(st.integers(-3, 3)))
            lines += [
                f"{value} = arith.constant {literal}",
                f"linalg.fill ins({value} : {target.element}) outs({view.name} : "
                f"{view.type})",
            ]
        elif op == "add":
            lines.append(_linalg("add", view.name, view.type, view.name, view.type))
        else:
            source = self.operand(target.shape, target.element, target.owners)
            if source.layout:
                source = self.alloc(source.shape, source.element, source.scope)
            window, window_line = self._window(source, sizes)
            lines += [
                window_line,
                f"memref.copy {window.name}, {view.name} : {window.type} to {view.type}",
            ]
            uses |= _uses(source)
        self.statements.append(Statement(lines, uses))

    def view_read(self) -> None:
        """Write a live tensor from a view of another: a subview of its
        shape out of a tensor at least as large, or a `memref.transpose`."""
        out = self._any_live()
        candidates = [
            t
            for t in self.live
            if len(t.shape) == len(out.shape)
            and all(d >= o for d, o in zip(t.shape, out.shape, strict=True))
            and t.element == out.element
            and not t.owners & out.owners
            and not t.layout
        ]
        if candidates and self.draw(st.booleans()):
            source = self.draw(one_of_values(candidates))
        else:
            source = self.alloc(
                tuple(4 if d <= 4 else d for d in out.shape),
                out.element,
                self.draw(one_of_values(SCOPES)),
            )
        square = len(out.shape) == 2 and out.shape[0] == out.shape[1]
        if square and source.shape == out.shape and self.draw(st.booleans()):
            view, line = self._transposed(source)
        else:
            view, line = self._window(source, out.shape)
        op = self.draw(one_of_values(["copy", "add", "sub", "mul"]))
        lines = [line, _linalg(op, view.name, view.type, out.name, out.type)]
        self.statements.append(Statement(lines, _uses(out, source)))

    def view(self) -> None:
        """A strided view of a live tensor that later statements read and
        write, pass to calls and hand on through branches and loops: a
        `memref.subview` of one of the program's shapes, or a
        `memref.transpose` of a 2-d tensor."""
        source = self._any_contiguous()
        fits = [
            shape
            for shape in SHAPES
            if len(shape) == len(source.shape)
            and all(s <= d for s, d in zip(shape, source.shape, strict=True))
        ]
        if len(source.shape) == 2 and self.draw(st.booleans()):
            view, line = self._transposed(source)
        else:
            view, line = self._window(source, self.draw(one_of_values(fits)))
        self.statements.append(Statement([line], _uses(source)))
        self.local.append(view)

    def reshape(self) -> None:
        """A `memref.collapse_shape` of a 2-d tensor or `memref.expand_shape`
        of an 8-element one: a view later statements read and write."""
        source = self._any_contiguous()
        name = self.names.fresh("rs")
        if len(source.shape) == 2:
            shape: tuple[int, ...] = (source.elements,)
            op, reassociation, output = "collapse_shape", "[[0, 1]]", ""
        elif source.shape == (8,):
            shape = (2, 4)
            op, reassociation, output = (
                "expand_shape",
                "[[0, 1]]",
                " output_shape [2, 4]",
            )
        else:
            return
        view = replace(_plain(source, name), shape=shape, aliases=source.owners)
        line = (
            f"{name} = memref.{op} {source.name} {reassociation}{output} : "
            f"{source.type} into {view.type}"
        )
        self.statements.append(Statement([line], _uses(source)))
        self.local.append(view)

    def dynamic_alloc(self) -> None:
        """Tensors of one run-time size n + 8 (n from an enclosing loop's
        induction variable, or an `arith.muli` of constants): each a
        `memref.alloc` of that size or of a `memref.dim` of the one before,
        the first filled, each later one written whole from the one before;
        each may take a window of 8 elements (at offset 0 or, dynamically,
        n) from a live tensor, and the last is read into a live tensor
        through such a window.  Each is freed right after its last use, at
        the end, or never."""
        element = self.draw(one_of_values(ELEMENTS))
        out = self.operand((8,), element, frozenset())
        uses = _uses(out)
        base, eight, size = (self.names.fresh(prefix) for prefix in ("q", "k", "n"))
        if self.ivs and self.draw(st.booleans()):
            iv = self.draw(one_of_values(self.ivs))
            lines = [f"{base} = arith.addi {iv}, %c0 : index"]
        else:
            a, b = (self.draw(one_of_values(TRIP_COUNTS)) for _ in range(2))
            lines = [f"{base} = arith.muli %c{a}, %c{b} : index"]
        lines += [
            f"{eight} = arith.constant 8 : index",
            f"{size} = arith.addi {base}, {eight} : index",
        ]
        late: list[str] = []
        last_space = ""
        previous: tuple[str, str, str] | None = None
        for _ in range(self.draw(st.integers(1, 3))):
            tensor = self.names.fresh("dy")
            space = _space(self.draw(one_of_values(SCOPES)))
            dynamic_type = f"memref<?x{element}{space}>"
            extent = size
            if previous is not None and self.draw(st.booleans()):
                extent = self.names.fresh("dd")
                lines.append(
                    f"{extent} = memref.dim {previous[0]}, %c0 : {previous[1]}"
                )
            lines.append(f"{tensor} = memref.alloc({extent}) : {dynamic_type}")
            if previous is None:
                value = self.names.fresh("v")
                literal = _constant(element, self.draw(st.integers(-3, 3)))
                lines += [
                    f"{value} = arith.constant {literal}",
                    f"linalg.fill ins({value} : {element}) outs({tensor} : "
                    f"{dynamic_type})",
                ]
            else:
                op = self.draw(one_of_values(["copy", "add", "sub"]))
                lines.append(
                    _linalg(op, previous[0], previous[1], tensor, dynamic_type)
                )
                lines += [previous[2]] if previous[2] == "early" else []
            if self.draw(st.booleans()):
                source = self.operand((8,), element, frozenset())
                window, window_type, window_lines = self._dynamic_window(
                    tensor, element, space, base
                )
                op = self.draw(one_of_values(["copy", "add"]))
                lines += [
                    *window_lines,
                    _linalg(op, source.name, source.type, window, window_type),
                ]
                uses |= _uses(source)
            free = f"memref.dealloc {tensor} : {dynamic_type}"
            policy = self.draw(one_of_values(self._free_policies()))
            if policy == "late":
                late.append(free)
            previous = (tensor, dynamic_type, free if policy == "early" else "")
            last_space = space
        assert previous is not None
        window, window_type, window_lines = self._dynamic_window(
            previous[0], element, last_space, base
        )
        op = self.draw(one_of_values(["copy", "add", "sub"]))
        lines += [*window_lines, _linalg(op, window, window_type, out.name, out.type)]
        lines += [previous[2]] if previous[2] else []
        self.statements.append(Statement(lines + late, uses))

    def _dynamic_window(
        self, tensor: str, element: str, space: str, base: str
    ) -> tuple[str, str, list[str]]:
        """A subview of 8 elements of `tensor`, a `memref<?x{element}{space}>`
        of `base` + 8 elements, at offset 0 or `base`: its name, type and
        line."""
        dynamic = self.draw(st.booleans())
        offset = base if dynamic else "0"
        layout = f", strided<[1], offset: {'?' if dynamic else 0}>"
        window_type = _memref((8,), element, space, layout)
        window = self.names.fresh("dw")
        line = (
            f"{window} = memref.subview {tensor}[{offset}] [8] [1] : "
            f"memref<?x{element}{space}> to {window_type}"
        )
        return window, window_type, [line]

    def jump_choice(self) -> None:
        """`scf.execute_region` whose first block branches (`cf.cond_br`)
        to one of two blocks with one of two live tensors as block argument;
        each may write it in place and branches on with it to the last
        block, which yields it: later statements read and write the result."""
        first = self._any_live()
        same = [t for t in self.live if t.type == first.type]
        choices = [first, self.draw(one_of_values(same))]
        cond_lines, uses, cond = self.condition()
        labels = [self.names.fresh("bb")[1:] for _ in range(3)]
        joined = self.names.fresh("z")
        result = replace(
            _plain(first, self.names.fresh("r")), aliases=frozenset(_uses(*choices))
        )
        t = first.type
        lines = [
            f"{result.name} = scf.execute_region -> ({t}) {{",
            *_indent(cond_lines),
            f"  cf.cond_br {cond}, ^{labels[0]}({choices[0].name} : {t}), "
            f"^{labels[1]}({choices[1].name} : {t})",
        ]
        for label, choice in zip(labels, choices, strict=False):
            branch = self.nested()
            branch.must_free = True
            argument = replace(
                _plain(first, self.names.fresh("x")), aliases=frozenset(choice.owners)
            )
            branch.local.append(argument)
            if self.draw(st.booleans()):
                self.draw(one_of_values([branch.elementwise, branch.copy]))(argument)
            if self.draw(st.booleans()):
                branch.fill()
            lines += [
                f"^{label}({argument.name}: {t}):",
                *_indent(branch.finish()),
                f"  cf.br ^{labels[2]}({argument.name} : {t})",
            ]
            uses |= branch.outer_uses()
        lines += [f"^{labels[2]}({joined}: {t}):", f"  scf.yield {joined} : {t}", "}"]
        uses |= _uses(*choices)
        self.statements.append(Statement(lines, uses))
        self.local.append(result)

    def jump_loop(self) -> None:
        """`scf.execute_region` looping through blocks (`cf.br` back to a
        header that `cf.cond_br`s to the body or out) 2 or 3 times, carrying
        a tensor as a block argument: each trip writes it in place, or
        writes a fresh tensor from it and carries that one (leaking the
        old); the last block yields it."""
        init = self._any_contiguous()
        trips = self.draw(one_of_values(TRIP_COUNTS))
        head, body_label, exit_label = (self.names.fresh("bb")[1:] for _ in range(3))
        count, go, following = (self.names.fresh(p) for p in ("bi", "bgo", "bn"))
        carried = replace(
            _plain(init, self.names.fresh("acc")), aliases=frozenset(init.owners)
        )
        body = self.nested()
        body.ivs.append(count)
        body.must_free = True
        body.local.append(carried)
        if self.draw(st.booleans()):
            self.draw(one_of_values([body.elementwise, body.copy]))(carried)
            handed = carried
        else:
            handed = body.alloc_like(init)
            body.source(handed, carried)
            body.keep = frozenset({handed.name})
        if self.draw(st.booleans()):
            body.fill()
        t = init.type
        result = replace(
            _plain(init, self.names.fresh("r")), aliases=frozenset(init.owners)
        )
        lines = [
            f"{result.name} = scf.execute_region -> ({t}) {{",
            f"  cf.br ^{head}(%c0, {init.name} : index, {t})",
            f"^{head}({count}: index, {carried.name}: {t}):",
            f"  {go} = arith.cmpi slt, {count}, %c{trips} : index",
            f"  cf.cond_br {go}, ^{body_label}, ^{exit_label}",
            f"^{body_label}:",
            *_indent(body.finish()),
            f"  {following} = arith.addi {count}, %c1 : index",
            f"  cf.br ^{head}({following}, {handed.name} : index, {t})",
            f"^{exit_label}:",
            f"  scf.yield {carried.name} : {t}",
            "}",
        ]
        self.statements.append(Statement(lines, _uses(init) | body.outer_uses()))
        self.local.append(result)

    def _free_policies(self) -> list[str]:
        """When a local tensor is freed: after its last use, at the end of
        its block, or (unless `must_free`) never."""
        return ["early", "late"] if self.must_free else ["early", "late", "never"]

    def outer_uses(self) -> set[str]:
        local = {t.name for t in self.local}
        return {name for s in self.statements for name in s.uses} - local

    def finish(self) -> list[str]:
        """The block's lines, with the deallocs of local tensors (not aliases,
        not kept, not freed by a loop)."""
        statements = list(self.statements)
        late: list[str] = []
        for tensor in self.local:
            if tensor.aliases or tensor.name in self.keep | self.freed:
                continue
            free = self._free(tensor)
            policy = self.draw(one_of_values(self._free_policies()))
            if policy == "early":
                last = max(i for i, s in enumerate(statements) if tensor.name in s.uses)
                # A fault goes between the tensor's kill and its storage's.
                lines = free[:-1] + self._fault(tensor) + free[-1:]
                statements.insert(last + 1, Statement(lines))
            elif policy == "late":
                late += free
            if policy != "never":
                self.freed.add(tensor.name)
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


def _linalg(op: str, source: str, source_type: str, out: str, out_type: str) -> str:
    """A `linalg.copy` of `source` into `out`, or a `linalg.add`, `sub` or
    `mul` of `source` with itself."""
    if op == "copy":
        ins = f"{source} : {source_type}"
    else:
        ins = f"{source}, {source} : {source_type}, {source_type}"
    return f"linalg.{op} ins({ins}) outs({out} : {out_type})"


def _plain(like: Tensor, name: str) -> Tensor:
    """A value named `name` of `like`'s type, a tensor of its own made by a
    `memref.alloc` without alignment."""
    return replace(
        like,
        name=name,
        alignment=None,
        hand_written=False,
        aliases=frozenset(),
    )


def _uses(*tensors: Tensor) -> set[str]:
    return {name for tensor in tensors for name in tensor.owners}


def _indent(lines: list[str]) -> list[str]:
    return ["  " + line for line in lines]


@st.composite
def programs(
    draw: Draw,
    branches: bool = True,
    rich: bool = False,
    faults: bool = False,
    flows: bool = False,
    detours: bool = False,
    calls: bool = False,
    jumps: bool = False,
    views: bool = False,
    dynamic: bool = False,
) -> str:
    """MLIR text of a random `@main` returning one or two DDR tensors (and,
    with `detours`, tensor values), after the private functions it calls;
    `branches=False` leaves out `scf.if`, so every allocation executes;
    `rich`, `faults`, `flows`, `detours`, `calls`, `jumps`, `views` and
    `dynamic` as in the module docstring."""
    names = Names()
    body = BlockWriter(
        draw,
        names,
        [],
        0,
        branches,
        rich,
        faults,
        flows,
        detours,
        calls,
        jumps,
        views,
        dynamic,
    )
    results = [
        body.alloc(draw(one_of_values(SHAPES)), draw(one_of_values(ELEMENTS)), "global")
        for _ in range(draw(st.integers(1, 2)))
    ]
    body.keep = frozenset(t.name for t in results)
    body.fill()
    lines = body.finish()
    values = ", ".join(t.name for t in [*results, *body.returned])
    types = ", ".join(
        [*(t.type for t in results), *(t.tensor_type for t in body.returned)]
    )
    constants = [f"%c{k} = arith.constant {k} : index" for k in (0, 1, *TRIP_COUNTS)]
    return "\n".join(
        [
            *names.bodies,
            f"func.func @main() -> ({types}) {{",
            *_indent(constants + lines),
            f"  func.return {values} : {types}",
            "}",
        ]
    )

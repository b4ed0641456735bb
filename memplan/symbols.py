"""Symbol lookup in constant time: xDSL's `SymbolTable.lookup_symbol` with an
index of each symbol table's symbols.

xDSL scans the symbol table's block for every lookup, so verifying a module
of N functions each called once (which the tools do after parsing and after
every pass) costs N^2.  Here each symbol-table op gets a name -> op index,
built once and kept while the op lives (a weak reference).  Passes change
the module between lookups, so a hit is trusted only if the op found is
still directly in that table's block and still has that name; a miss or a
stale hit rebuilds the index once, and a name still missing is looked up by
xDSL, which then gives its own answer (None, or the error it raises).
Renamed, erased, moved and added symbols are thus found as xDSL finds them.
One difference remains, in a module that fails its own verification anyway:
a symbol op put before the one indexed, of the same name (a redefinition)
or without a name, is what xDSL's scan meets first (and returns, or fails
on), while the index gives the op it holds until it is rebuilt.
"""

from __future__ import annotations

import weakref
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

_Index = dict[str, weakref.ref[Operation]]
"""A table's symbols by name (weak references: an index must not keep its
table alive through the symbols' parents)."""

_INDEXES: WeakKeyDictionary[Operation, _Index] = WeakKeyDictionary()


def _table_block(op: Operation) -> tuple[Operation, Block] | None:
    """The closest symbol table around `op` (itself included, as xDSL looks)
    and its block; None where xDSL's lookup has no such table or the table
    has not exactly one region of one block (xDSL then raises)."""
    table: Operation | None = op
    while table is not None and not table.has_trait(SymbolTable):
        table = table.parent_op()
    if table is None or len(table.regions) != 1:
        return None
    block = table.regions[0].first_block
    if block is None or block is not table.regions[0].last_block:
        return None
    return table, block


def build_index(block: Block) -> _Index:
    """The symbols of `block` by name, the first of each name as xDSL finds
    it.  It stops at a symbol op whose name xDSL's lookup would fail to read
    (a missing `sym_name`): a name after it is then not found here, and
    xDSL's lookup raises its error."""
    index: _Index = {}
    for op in block.ops:
        interface = op.get_trait(SymbolOpInterface)
        if interface is None:
            continue
        try:
            name = interface.get_sym_attr_name(op)
        except VerifyException:
            break
        if name is not None and name.data not in index:
            index[name.data] = weakref.ref(op)
    return index


def _current(index: _Index, name: str, block: Block) -> Operation | None:
    """The op the index gives for `name` if it is still in `block` under that
    name, else None."""
    reference = index.get(name)
    found = None if reference is None else reference()
    if found is None or found.parent is not block:
        return None
    symbol = found.get_attr_or_prop("sym_name")
    if not isinstance(symbol, StringAttr) or symbol.data != name:
        return None
    return found


def lookup_symbol(
    op: Operation, name: str | StringAttr | SymbolRefAttr
) -> Operation | None:
    """What `SymbolTable.lookup_symbol(op, name)` returns (or raises), in
    constant time while the table's index stays current."""
    if isinstance(name, SymbolRefAttr):
        if name.nested_references.data:
            return SymbolTable.lookup_symbol(op, name)
        name = name.root_reference
    key = name.data if isinstance(name, StringAttr) else name
    found_table = _table_block(op)
    if found_table is None:
        return SymbolTable.lookup_symbol(op, key)
    table, block = found_table
    index = _INDEXES.get(table)
    if index is not None:
        found = _current(index, key, block)
        if found is not None:
            return found
    index = _INDEXES[table] = build_index(block)
    found = _current(index, key, block)
    return SymbolTable.lookup_symbol(op, key) if found is None else found

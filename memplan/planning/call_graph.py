"""The functions of a call graph in an order that sees callees first.

Functions that call each other in a cycle (recursion) form one component:
none of them can come before the others.  Tarjan's algorithm finds the
components in one pass over the graph, each after every component it
calls, without recursion (a chain of thousands of calls would overflow
Python's stack).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def callees_first(calls: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The components of `calls` (each function's callees; a callee that is
    not a key has no body and is left out), each after those it calls (in
    the order a depth-first walk from the keys, in order, leaves them); the
    functions of a component in the order of `calls`' keys."""
    order = {name: position for position, name in enumerate(calls)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in calls:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        walks = [(root, iter(calls[root]))]
        while walks:
            name, callees = walks[-1]
            callee = next((c for c in callees if c in order), None)
            if callee is not None:
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    walks.append((callee, iter(calls[callee])))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            walks.pop()
            if walks:
                caller = walks[-1][0]
                low[caller] = min(low[caller], low[name])
            if low[name] == index[name]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.remove(member)
                    component.append(member)
                    if member == name:
                        break
                found.append(sorted(component, key=order.__getitem__))
    return found

"""`callees_first`: the functions of a call graph, each component (functions
calling each other in a cycle) after the components it calls."""

from __future__ import annotations

from memplan.planning.call_graph import callees_first


def test_callees_come_before_their_callers_whatever_the_module_order() -> None:
    calls = {"main": ["a", "b"], "a": ["b"], "b": []}
    assert callees_first(calls) == [["b"], ["a"], ["main"]]


def test_functions_calling_each_other_form_one_component_in_module_order() -> None:
    calls = {"main": ["odd"], "even": ["odd", "leaf"], "odd": ["even"], "leaf": []}
    assert callees_first(calls) == [["leaf"], ["even", "odd"], ["main"]]


def test_a_function_calling_itself_is_its_own_component() -> None:
    assert callees_first({"f": ["f", "g"], "g": []}) == [["g"], ["f"]]


def test_callees_without_a_body_are_left_out() -> None:
    assert callees_first({"main": ["extern", "a"], "a": ["extern"]}) == [
        ["a"],
        ["main"],
    ]


def test_a_long_chain_of_calls_is_ordered_without_recursion() -> None:
    count = 5000
    calls = {f"f{i}": [f"f{i + 1}"] if i + 1 < count else [] for i in range(count)}
    order = callees_first(calls)
    assert order == [[f"f{i}"] for i in reversed(range(count))]

"""What memplan passes share about their options: errors that name the pass
and the option, the `target` / `capacity` options, and the checks of
alignments and counts (budgets, time limits)."""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Any, Self, Union, get_args, get_origin, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.exceptions import PassFailedException

from memplan.planning.buffers import alignment_problem
from memplan.targets import (
    MAX_CAPACITY,
    Target,
    UnknownTargetError,
    capacity_problem,
    get_target,
)

_VALUE_KINDS = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a name",
}


class MemplanPass(ModulePass):
    """A module pass whose option errors say which pass and option is wrong
    and what it expects (xDSL's own say neither)."""

    @classmethod
    def from_spec(cls, spec: ArgSpec) -> Self:
        # xDSL reads `{capacity}` (an option without a value) as the default:
        # an option the user wrote must say something.  It also takes `true`
        # for an integer option (a Python bool is an int): `alignment=true`
        # would be an alignment of 1.
        if not all(spec.parameters.values()) or cls._stray_bool(spec):
            raise ValueError(cls._option_error(spec))
        try:
            return super().from_spec(spec)
        except ValueError as error:
            raise ValueError(
                cls._option_error(spec) or f"{cls.name}: {error}"
            ) from None

    @classmethod
    def _stray_bool(cls, spec: ArgSpec) -> bool:
        """Whether `spec` gives true or false to an option that is no bool."""
        hints = get_type_hints(cls)
        return any(
            _misread_bool(hints.get(option.replace("-", "_")), value)
            for option, value in spec.parameters.items()
        )

    @classmethod
    def _option_error(cls, spec: ArgSpec) -> str | None:
        """The first option of `spec` that is unknown or of the wrong type."""
        hints = get_type_hints(cls)
        for option, value in spec.parameters.items():
            field = option.replace("-", "_")
            if field == "name" or field not in hints:
                known = [name.replace("_", "-") for name in hints if name != "name"]
                expected = (
                    f"expected one of: {', '.join(known)}"
                    if known
                    else "it takes no options"
                )
                return f"{cls.name}: unknown option '{option}', {expected}"
            if not value:
                return (
                    f"{cls.name}: option {option} has no value: expected "
                    f"{option}=<{_describe(hints[field])}>"
                )
            try:
                if _misread_bool(hints[field], value):
                    raise ValueError
                super().from_spec(ArgSpec(spec.name, {option: value}))
            except ValueError:
                given = ",".join(map(_spelling, value))
                return (
                    f"{cls.name}: option {option}={given}: expected "
                    f"{_describe(hints[field])}"
                )
        return None


def _misread_bool(hint: Any, value: Any) -> bool:
    """Whether `value` is a true or false that an option of type `hint`,
    other than a bool, would take as the integer 1 or 0."""
    return (
        hint is not None
        and any(isinstance(item, bool) for item in value)
        and bool not in _alternatives(hint)
    )


def _spelling(value: Any) -> str:
    """An option value as written: `true`, not Python's `True`."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _describe(hint: Any) -> str:
    """`int | float | None` -> "a number"; `bool` -> "true or false"."""
    kinds = [kind for kind in _alternatives(hint) if kind is not NoneType]
    if float in kinds:
        return _VALUE_KINDS[float]
    return " or ".join(_VALUE_KINDS.get(kind, str(kind)) for kind in kinds)


def _alternatives(hint: Any) -> tuple[Any, ...]:
    if get_origin(hint) in (Union, UnionType):
        return get_args(hint)
    return (hint,)


def resolve_target(pass_name: str, name: str, capacity: int | None = None) -> Target:
    """The target called `name`, its VTCM capacity overridden by `capacity`
    bytes when given; an unknown name or a capacity outside [0, 2**64 - 1]
    fails the pass `pass_name`."""
    try:
        target = get_target(name)
    except UnknownTargetError as error:
        raise PassFailedException(f"{pass_name}: {error}") from None
    if capacity is None:
        return target
    problem = capacity_problem(capacity)
    if problem is not None:
        raise PassFailedException(f"{pass_name}: capacity {problem}")
    return target.with_vtcm_size(capacity)


def check_power_of_two(pass_name: str, option: str, value: int | None) -> None:
    """Fail `pass_name` unless `option`, when given, is a positive power of two
    that the 64-bit properties it ends up in can hold."""
    problem = None if value is None else alignment_problem(value)
    if problem is not None:
        raise PassFailedException(f"{pass_name}: {option} {problem}")


def check_count(
    pass_name: str, option: str, value: float | None, unit: str = ""
) -> None:
    """Fail `pass_name` unless `option`, when given, is a number (of `unit`)
    in [0, 2**64 - 1], the range of a capacity: a larger one fits no 64-bit
    field."""
    if value is None:
        return
    units = f" {unit}" if unit else ""
    if not value >= 0:
        raise PassFailedException(
            f"{pass_name}: {option} must be >= 0{units}, got {value}"
        )
    if value > MAX_CAPACITY:
        raise PassFailedException(
            f"{pass_name}: {option} {value} does not fit in 64 bits (the largest "
            f"{option} is {MAX_CAPACITY}{units})"
        )

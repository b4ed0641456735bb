"""The `target` and `capacity` options shared by memplan passes."""

from __future__ import annotations

from xdsl.utils.exceptions import PassFailedException

from memplan.targets import Target, UnknownTargetError, get_target


def resolve_target(pass_name: str, name: str, capacity: int | None = None) -> Target:
    """The target called `name`, its VTCM capacity overridden by `capacity`
    bytes when given; an unknown name or a negative capacity fails the pass
    `pass_name`."""
    try:
        target = get_target(name)
    except UnknownTargetError as error:
        raise PassFailedException(f"{pass_name}: {error}") from None
    if capacity is None:
        return target
    if capacity < 0:
        raise PassFailedException(
            f"{pass_name}: capacity must be >= 0 bytes, got {capacity}"
        )
    return target.with_vtcm_size(capacity)

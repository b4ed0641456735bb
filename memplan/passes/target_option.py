"""The `target` option shared by memplan passes."""

from __future__ import annotations

from xdsl.utils.exceptions import PassFailedException

from memplan.targets import Target, UnknownTargetError, get_target


def resolve_target(name: str) -> Target:
    """The target called `name`; an unknown name fails the pass that asked."""
    try:
        return get_target(name)
    except UnknownTargetError as error:
        raise PassFailedException(str(error)) from None

"""Text files given to memplan's tools: bytes that are not UTF-8 are named by
where they start, since Python's codec message names neither the file nor
the flag that gave it."""

from __future__ import annotations


class NotText(ValueError):
    """The bytes are not UTF-8 text."""


def not_utf8(error: UnicodeDecodeError) -> str:
    """`not UTF-8 text (byte 0xff at offset 0)`: what the caller prefixes with
    the file and the flag or option that named it."""
    return (
        f"not UTF-8 text (byte {error.object[error.start]:#04x} "
        f"at offset {error.start})"
    )


def decode_text(data: bytes) -> str:
    """`data` as UTF-8 text, or `NotText` saying where it is not."""
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        raise NotText(not_utf8(error)) from None


def only_comments(text: str) -> bool:
    """Nothing but blank lines and `//` comments: an MLIR input without ops."""
    return all(
        not line.strip() or line.lstrip().startswith("//") for line in text.splitlines()
    )

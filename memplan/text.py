"""Text files given to memplan's tools, and the messages they print about them.

Bytes that are not UTF-8 are named by where they start, since Python's codec
message names neither the file nor the flag that gave it.  A message quoting
a token of its input (a name, a string, a number) shows at most
`TOKEN_HEAD` characters of a token longer than `MAX_TOKEN`, and how long it
is (`cut_tokens`): an input may hold a 100,000-character identifier, and the
source line an error shows is already cut (`memplan.parser.span_context`).
"""

from __future__ import annotations

import re

MAX_TOKEN = 200
"""Characters of the longest token a message shows whole: more than any run
without a space of a source line `memplan.parser.span_context` shows (160
characters and a `...` on each side)."""

TOKEN_HEAD = 80
"""Characters of a longer token a message shows, before saying how long it is."""

_LONG_TOKEN = re.compile(
    rf"\"[^\"\n]{{{MAX_TOKEN - 1},}}\"|'[^'\n]{{{MAX_TOKEN - 1},}}'|\S{{{MAX_TOKEN + 1},}}"
)
"""A token longer than `MAX_TOKEN`: a quoted string (which may hold spaces), or
a run of characters other than spaces."""


def _cut(token: re.Match[str]) -> str:
    """The first `TOKEN_HEAD` characters of `token`, its closing quote if it is
    quoted, and how long it is."""
    text = token.group()
    quote = text[0] if text[0] in "'\"" and text[-1] == text[0] else ""
    return f"{text[:TOKEN_HEAD]}...{quote} ({len(text):,} characters)"


def cut_tokens(message: str) -> str:
    """`message`, each token longer than `MAX_TOKEN` characters cut to its first
    `TOKEN_HEAD` and named by its length:
    `'@xxxx...' (100,003 characters)`."""
    return _LONG_TOKEN.sub(_cut, message)


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

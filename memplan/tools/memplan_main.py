"""`memplan`: command-line tools over plain traces; one module per subcommand."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial

from memplan.text import cut_tokens
from memplan.tools import plan_cmd, plot_cmd
from memplan.tools.entry_point import run_command
from memplan.tools.internal_error import report_internal_error


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memplan", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in (plan_cmd, plot_cmd):
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The whole command on a deep stack: reading a .mlir module follows its
    nested regions by recursion."""
    return run_command("memplan", partial(_main, argv))


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except plan_cmd.UsageError as error:
        print(
            f"memplan {args.command}: error: {cut_tokens(str(error))}",
            file=sys.stderr,
        )
        return plan_cmd.EXIT_BAD_INPUT
    except Exception as error:
        report_internal_error(f"memplan {args.command}", error)
        return plan_cmd.EXIT_INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())

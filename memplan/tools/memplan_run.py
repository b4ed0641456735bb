"""`memplan-run`: `xdsl-run` on the memory model, with a target and statistics.

Results are printed on stdout (`result: ...`, as xdsl-run prints them); a
one-line statistics summary goes to stderr (`--no-stats` hides it, `--verbose`
prints the full JSON instead).  Errors print `memplan-run: error: ...` on
stderr and exit with status 1.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import IO, Any

import numpy as np
from xdsl.parser import Parser
from xdsl.tools.xdsl_run import xDSLRunMain
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.interpreter import InterpretationError
from memplan.interpreter.cost import with_cost_overrides
from memplan.interpreter.linalg_extra import run_dialects
from memplan.interpreter.runner import Runner
from memplan.targets import DEFAULT_TARGET, TARGETS, get_target

_SIZE_SUFFIXES = {
    "": 1,
    "b": 1,
    "k": 1024,
    "kb": 1000,
    "kib": 1024,
    "m": 1024**2,
    "mb": 1000**2,
    "mib": 1024**2,
}


def parse_byte_size(text: str) -> int:
    """`4194304`, `4MiB`, `256KiB`, `2M` -> bytes (K/M/KiB/MiB are powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-zA-Z]*)\s*", text)
    if match is None or match.group(2).lower() not in _SIZE_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"invalid byte size '{text}': expected an integer, optionally with "
            "a suffix KiB, MiB, KB, MB, K or M"
        )
    return int(match.group(1)) * _SIZE_SUFFIXES[match.group(2).lower()]


def _format_result(value: object) -> str:
    return repr(value) if isinstance(value, np.ndarray) else str(value)


def _open_for(flag: str, path: str, mode: str) -> IO[Any]:
    """`path` opened for `flag`; failing names the flag and the reason."""
    try:
        return open(path, mode)
    except OSError as error:
        verb = "read" if mode.startswith("r") else "write"
        raise InterpretationError(
            f"{flag}: cannot {verb} {path}: {error.strerror}"
        ) from None


def _report(message: str) -> int:
    print(f"memplan-run: error: {message.strip()}", file=sys.stderr)
    return 1


class MemplanRunMain(xDSLRunMain):
    """xDSL's runner, executing on memplan's memory model."""

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(
            description="Run a function on memplan's memory model", args=args
        )

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--target",
            default=DEFAULT_TARGET,
            choices=sorted(TARGETS),
            help=f"machine model: scopes, capacities, costs (default {DEFAULT_TARGET})",
        )
        arg_parser.add_argument(
            "--vtcm-size",
            type=parse_byte_size,
            help="VTCM capacity in bytes, overriding the target's (e.g. 2MiB)",
        )
        arg_parser.add_argument(
            "--cost-model",
            metavar="JSON",
            help="JSON file overriding cost parameters (see docs/cost-model.md)",
        )
        arg_parser.add_argument(
            "--stats-json", metavar="PATH", help="write the run statistics as JSON"
        )
        arg_parser.add_argument(
            "--output",
            metavar="PATH.npz",
            help="save the results as result0, result1, ...",
        )
        arg_parser.add_argument(
            "--no-stats",
            action="store_true",
            help="do not print the statistics summary",
        )

    def register_all_dialects(self):
        for name, factory in run_dialects().items():
            self.ctx.register_dialect(name, factory)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":
            return sys.stdin.buffer, "mlir"
        try:
            return super().get_input_stream()
        except OSError as error:
            raise InterpretationError(
                f"cannot read {self.args.input_file}: {error.strerror}"
            ) from None

    def execute(self) -> int:
        """Run and report; the exit status (0, or 1 after printing an error)."""
        try:
            self._run()
        except (InterpretationError, ParseError, VerifyException, OSError) as error:
            return _report(str(error))
        except Exception as error:
            return _report(f"{type(error).__name__}: {error}")
        return 0

    def _run(self) -> None:
        target = get_target(self.args.target)
        if self.args.vtcm_size is not None:
            target = target.with_vtcm_size(self.args.vtcm_size)
        if self.args.cost_model:
            with _open_for("--cost-model", self.args.cost_model, "r") as file:
                try:
                    target = with_cost_overrides(target, json.load(file))
                except ValueError as error:
                    raise InterpretationError(
                        f"--cost-model {self.args.cost_model}: {error}"
                    ) from None
        stream, extension = self.get_input_stream()
        try:
            module = self.parse_chunk(stream, extension)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        if module is None:
            raise InterpretationError("the input holds no module")
        if not self.args.disable_verify:
            module.verify()
        runner = Runner(module, target, self.args.index_bitwidth)
        result = runner.run(self.args.symbol, self._arguments(runner))
        if self.args.output:
            with _open_for("--output", self.args.output, "wb") as file:
                np.savez(
                    file,
                    allow_pickle=False,
                    **{
                        f"result{i}": np.asarray(r)
                        for i, r in enumerate(result.results)
                    },
                )
        stats = result.stats.to_json()
        if self.args.stats_json:
            with _open_for("--stats-json", self.args.stats_json, "w") as file:
                json.dump(stats, file, indent=2)
                file.write("\n")
        self._print_results(result.results)
        sys.stdout.flush()
        if self.args.verbose:
            print(json.dumps(stats, indent=2), file=sys.stderr)
        elif not self.args.no_stats:
            print(f"memplan-run: {result.stats.summary()}", file=sys.stderr)

    def _arguments(self, runner: Runner) -> list[object]:
        parser = Parser(self.ctx, self.args.args, "args")
        attributes = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_attribute, parser.parse_attribute
            )
            or []
        )
        if parser.pos < len(self.args.args):
            raise InterpretationError(
                f"--args: cannot read {self.args.args!r} as comma-separated "
                f"attributes (e.g. dense<1.0> : tensor<4xf32>, 3 : i32)"
            )
        types = runner.argument_types(self.args.symbol)
        if len(attributes) != len(types):
            raise InterpretationError(
                f"@{self.args.symbol} takes {len(types)} argument(s), --args gave "
                f"{len(attributes)}"
            )
        return [
            runner.interpreter.value_for_attribute(attribute, type_)
            for attribute, type_ in zip(attributes, types, strict=True)
        ]

    @staticmethod
    def _print_results(results: tuple[object, ...]) -> None:
        if len(results) == 1:
            print(f"result: {_format_result(results[0])}")
        elif results:
            print("result: (")
            print(",\n".join(f"    {_format_result(r)}" for r in results))
            print(")")
        else:
            print("result: ()")


def main(args: Sequence[str] | None = None) -> int:
    return MemplanRunMain(args).execute()


if __name__ == "__main__":
    sys.exit(main())

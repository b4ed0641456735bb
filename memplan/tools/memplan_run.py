"""`memplan-run`: `xdsl-run` on the memory model, with a target and statistics.

Results are printed on stdout (`result: ...`, as xdsl-run prints them),
followed by the memref arguments the call changed (`arg3: ...`); a one-line
statistics summary goes to stderr (`--no-stats` hides it, `--verbose` prints
the full JSON instead).  Errors print `memplan-run: error: ...` on stderr and
exit with status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import IO, Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.tools.command_line_tool import CommandLineTool
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import run_context
from memplan.interpreter import InterpretationError
from memplan.interpreter.arguments import argument_from_attribute, arguments_from_npz
from memplan.interpreter.cost import CostModelError, program_scopes, with_cost_file
from memplan.interpreter.errors import ModelError, plain_message
from memplan.interpreter.runner import Runner
from memplan.interpreter.source import locate, parse_with_locations
from memplan.ir_walk import walk
from memplan.parser import (
    MemplanParser,
    at_op_being_parsed,
    out_of_memory,
    parse_error_text,
    too_deep,
)
from memplan.targets import (
    DEFAULT_TARGET,
    TARGETS,
    Target,
    capacity_problem,
    get_target,
)
from memplan.text import NotText, cut_tokens, decode_text, only_comments
from memplan.tools.entry_point import run_command
from memplan.tools.progress import Ticker

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
    size = int(match.group(1)) * _SIZE_SUFFIXES[match.group(2).lower()]
    problem = capacity_problem(size)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"invalid byte size '{text}': {problem}")
    return size


def _format_value(value: object) -> str:
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
    print(f"memplan-run: error: {cut_tokens(message.strip())}", file=sys.stderr)
    return 1


def _verified(module: ModuleOp) -> None:
    """Verify `module`; a failure names the op that does not verify."""
    try:
        module.verify()
    except RecursionError:
        raise
    except Exception as error:
        for op in walk(module):
            try:
                op.verify(verify_nested_ops=False)
            except Exception as op_error:
                raise InterpretationError(
                    f"{locate(op)}: {plain_message(op_error)}"
                ) from None
        raise InterpretationError(plain_message(error)) from None


class MemplanRunMain(CommandLineTool):
    """xDSL's command-line tool, running a function on memplan's memory model."""

    input_name = "the input"
    """The module's file, once known."""

    def __init__(self, args: Sequence[str] | None = None):
        self.available_frontends = {}
        self.ctx = run_context()
        self.register_all_frontends()
        arg_parser = argparse.ArgumentParser(
            prog="memplan-run",
            description="Run a function on memplan's memory model",
        )
        self.register_all_arguments(arg_parser)
        self.args = arg_parser.parse_args(args=args)
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--symbol", default="main", help="function to run (default main)"
        )
        arg_parser.add_argument(
            "--args",
            default="",
            help="the function's arguments: comma-separated attributes "
            "(3 : i32, 1.5 : f32, dense<[1, 2]> : tensor<2xi32> for a memref or a "
            "tensor), or a path ending in .npz whose arrays arg0, arg1, ... are "
            "the arguments",
        )
        arg_parser.add_argument(
            "--args-set",
            default="",
            metavar="NAME",
            help="with an .npz --args, read the arrays NAME/arg0, NAME/arg1, ... "
            "instead of arg0, ...: an input set at another size that "
            "examples/torch/export_model.py stores for a dynamic model (set1, set2, ...)",
        )
        arg_parser.add_argument(
            "--index-bitwidth",
            choices=(32, 64),
            default=Interpreter.DEFAULT_BITWIDTH,
            type=int,
            help="bits of the index type (default 64)",
        )
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
            "--check-uninitialized",
            action="store_true",
            help="fail on reads of bytes no op wrote since their tensor was "
            "allocated (their value is undefined and plan-dependent)",
        )
        arg_parser.add_argument(
            "--sequential-sums",
            action="store_true",
            help="fold float sums and products of linalg ops (matmuls, "
            "convolutions, reductions) one step at a time in MLIR's loop order, "
            "bit for bit what its lowered loops compute, instead of "
            "reassociating them (BLAS; faster)",
        )
        arg_parser.add_argument(
            "--libm-math",
            action="store_true",
            help="compute math functions (exp, tanh, erf, ...) as MLIR's compiled "
            "code does: by calling the C library's (expf on f32, exp on f64; "
            "f16 and bf16 through the f32 one) element by element, and the "
            "ops MLIR's lowering expands (expm1, log1p, fpowi) as it expands them; "
            "slower (default: numpy in f64, rounded, up to 2 ulp off)",
        )
        arg_parser.add_argument(
            "--stats-json", metavar="PATH", help="write the run statistics as JSON"
        )
        arg_parser.add_argument(
            "--output",
            metavar="PATH.npz",
            help="save the results as result0, result1, ... and the memref "
            "arguments the call changed as arg0, arg1, ... (by position)",
        )
        quiet_or_verbose = arg_parser.add_mutually_exclusive_group()
        quiet_or_verbose.add_argument(
            "--no-stats",
            action="store_true",
            help="do not print the statistics summary",
        )
        quiet_or_verbose.add_argument(
            "--verbose",
            action="store_true",
            help="print the full statistics as JSON on stderr instead of the "
            "one-line summary",
        )

    def execute(self) -> int:
        """Run and report; the exit status (0, or 1 after printing an error)."""
        try:
            self._run()
        except BrokenPipeError:
            # The reader of stdout stopped (`memplan-run ... | head`): stop quietly.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        except InterpretationError as error:
            return _report(str(error))
        except ParseError as error:
            return _report(parse_error_text(error))
        except RecursionError:
            # The run reports its own (InterpretationError): this is the module's.
            return _report(too_deep(self.input_name))
        except MemoryError:
            # The run reports its own (a storage too large): this is the module's.
            return _report(out_of_memory(self.input_name))
        except Exception as error:
            return _report(plain_message(error))
        return 0

    def _target(self, module: ModuleOp) -> Target:
        target = get_target(self.args.target)
        if self.args.vtcm_size is not None:
            target = target.with_vtcm_size(self.args.vtcm_size)
        if self.args.cost_model:
            path = self.args.cost_model
            with _open_for("--cost-model", path, "rb") as file:
                data = file.read()
            try:
                target = with_cost_file(target, data, program_scopes(module))
            except CostModelError as error:
                raise InterpretationError(f"--cost-model {path}: {error}") from None
        return target

    def _from_stdin(self) -> bool:
        return self.args.input_file in (None, "-")

    def _input(self) -> str:
        """The input's name in messages and the status line."""
        return "<stdin>" if self._from_stdin() else self.args.input_file

    def _module(self) -> ModuleOp:
        name = self._input()
        try:
            if self._from_stdin():
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as file:
                    data = file.read()
            text = decode_text(data)
        except OSError as error:
            raise InterpretationError(f"cannot read {name}: {error.strerror}") from None
        except NotText as error:
            raise InterpretationError(f"cannot read {name}: {error}") from None
        self.input_name = name
        if not text.strip():
            raise InterpretationError(f"{name} is empty: there is no function to run")
        if only_comments(text):
            raise InterpretationError(
                f"{name} holds only comments: there is no function to run"
            )
        try:
            module = parse_with_locations(
                self.ctx, text, name, implicit_module=not self.args.no_implicit_module
            )
        except (ParseError, RecursionError, MemoryError):
            raise
        except Exception as error:
            # An op's own parser or type checks: named where it was written.
            message = at_op_being_parsed(error, plain_message(error))
            raise InterpretationError(message) from None
        if not self.args.disable_verify:
            _verified(module)
        return module

    def _run(self) -> None:
        name = self._input()
        with Ticker("memplan-run", lambda: f"reading {name}") as ticker:
            module = self._module()
            target = self._target(module)
            runner = Runner(
                module,
                target,
                self.args.index_bitwidth,
                check_uninitialized=self.args.check_uninitialized,
                sequential_sums=self.args.sequential_sums,
                libm_math=self.args.libm_math,
            )
            arguments = self._arguments(runner)
            before = [
                a.tobytes() if isinstance(a, np.ndarray) else None for a in arguments
            ]
            counts, symbol = runner.stats, self.args.symbol
            ticker.doing = lambda: (
                f"running @{symbol}: {counts.ops_executed:,} ops executed"
            )
            result = runner.run(symbol, arguments)
        changed = {
            position: np.array(value)
            for position, (value, old) in enumerate(zip(arguments, before, strict=True))
            if isinstance(value, np.ndarray) and value.tobytes() != old
        }
        if self.args.output:
            with _open_for("--output", self.args.output, "wb") as file:
                np.savez(
                    file,
                    allow_pickle=False,
                    **{
                        f"result{i}": np.asarray(r)
                        for i, r in enumerate(result.results)
                    },
                    **{f"arg{i}": a for i, a in changed.items()},
                )
        stats = result.stats.to_json()
        if self.args.stats_json:
            with _open_for("--stats-json", self.args.stats_json, "w") as file:
                json.dump(stats, file, indent=2)
                file.write("\n")
        self._print(result.results, changed)
        sys.stdout.flush()
        if self.args.verbose:
            print(json.dumps(stats, indent=2), file=sys.stderr)
        elif not self.args.no_stats:
            print(f"memplan-run: {result.stats.summary()}", file=sys.stderr)

    def _arguments(self, runner: Runner) -> list[object]:
        types = runner.argument_types(self.args.symbol)
        bits = self.args.index_bitwidth
        text: str = self.args.args
        if text.strip().endswith(".npz"):
            path = text.strip()
            try:
                return arguments_from_npz(path, types, bits, self.args.args_set)
            except ModelError as error:
                raise InterpretationError(f"--args {path}: {error}") from None
        if self.args.args_set:
            raise InterpretationError(
                f"--args-set {self.args.args_set}: names an input set of an .npz "
                "archive, but --args is not an .npz path"
            )
        parser = MemplanParser(self.ctx, text, "args")
        try:
            attributes = (
                parser.parse_optional_undelimited_comma_separated_list(
                    parser.parse_optional_attribute, parser.parse_attribute
                )
                or []
            )
        except ParseError as error:
            raise InterpretationError(f"--args: {parse_error_text(error)}") from None
        except VerifyException as error:
            # A literal out of its type's range (`300 : i8`).
            raise InterpretationError(f"--args: {error}") from None
        except RecursionError:
            raise InterpretationError(too_deep("--args")) from None
        if parser.pos < len(text):
            raise InterpretationError(
                f"--args: cannot read {text!r} as comma-separated attributes "
                f"(e.g. dense<1.0> : tensor<4xf32>, 3 : i32) or as an .npz path"
            )
        if len(attributes) != len(types):
            raise InterpretationError(
                f"@{self.args.symbol} takes {len(types)} argument(s), --args gave "
                f"{len(attributes)}"
            )
        try:
            return [
                argument_from_attribute(attribute, type_, bits, position)
                for position, (attribute, type_) in enumerate(
                    zip(attributes, types, strict=True)
                )
            ]
        except ModelError as error:
            raise InterpretationError(f"--args: {error}") from None

    @staticmethod
    def _print(results: tuple[object, ...], changed: dict[int, np.ndarray]) -> None:
        if len(results) == 1:
            print(f"result: {_format_value(results[0])}")
        elif results:
            print("result: (")
            print(",\n".join(f"    {_format_value(r)}" for r in results))
            print(")")
        for position, value in changed.items():
            print(f"arg{position}: {_format_value(value)}")


def main(args: Sequence[str] | None = None) -> int:
    """The whole run (arguments, parsing, the call) on a deep stack: xDSL
    and the interpreter follow nested regions and calls by recursion."""
    return run_command("memplan-run", lambda: MemplanRunMain(args).execute())


if __name__ == "__main__":
    sys.exit(main())

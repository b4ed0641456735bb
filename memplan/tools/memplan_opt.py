"""`memplan-opt`: stock `xdsl-opt` with memplan's corrected dialects, and bad
input reported as one clean line.

It parses with `memplan.context.memplan_dialects()`: every installed dialect,
with memplan's affine, arith, bufferization, func, linalg, memref and scf
(ops xDSL 0.74 gets wrong, lacks or verifies slowly, see docs/frontend-ops.md) and a `dense_resource` blob store
per input, and with
`memplan.parser.MemplanParser`, which reads hex float elements of `dense`
literals (`dense<0xFF800000>`, -inf) as MLIR does.  Stock `xdsl-opt` cannot
load those replacements: an `xdsl.universe` plugin may not redefine a dialect
name, and it has no hook for the parser.  The passes are `xdsl-opt`'s, memplan's
included.  What `xdsl-opt` raises as a Python traceback (a malformed file, an
op that does not verify, a pass that fails, an unknown pass or option, a
missing file) becomes `memplan-opt: error: ...` on stderr with exit status 1,
an op that fails its verifier named by where its text starts in the input;
anything else is a bug, reported as one `internal error` line (exit 1).
`-o FILE` is written once the whole run succeeds, so a failure leaves FILE
as it was.  With `--verify-diagnostics` it behaves as `xdsl-opt`.
The whole run takes place on a thread with a large stack
(`memplan.deep_stack`): regions nested `MAX_REGION_NESTING` deep (10,000)
are parsed, verified, transformed and printed, and input nested deeper
is an error, not a crash.
"""

from __future__ import annotations

import ast
import difflib
import itertools
import re
import sys
import warnings
from dataclasses import replace
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Span
from xdsl.xdsl_opt_main import xDSLOptMain

from memplan.context import memplan_dialects
from memplan.dialects.memref import blob_store
from memplan.ir_walk import walk
from memplan.parser import (
    MemplanParser,
    at_op_being_parsed,
    out_of_memory,
    parse_error_text,
    span_context,
    too_deep,
)
from memplan.text import cut_tokens, not_utf8, only_comments
from memplan.tools.entry_point import run_command
from memplan.tools.internal_error import report_internal_error
from memplan.tools.progress import Ticker

EXIT_ERROR = 1


class HeldOutput(StringIO):
    """Output held in memory; its text outlives the close `xdsl-opt` does
    at the end of every run."""

    text = ""

    def close(self) -> None:
        if not self.closed:
            self.text = self.getvalue()
        super().close()


class MemplanOptMain(xDSLOptMain):
    """xdsl-opt parsing with memplan's dialects."""

    op_spans: dict[Operation, Span]
    """Where each op of the chunk being processed was written."""
    line_offset = 0
    """Lines of the input before that chunk (`--split-input-file`)."""
    held_output: HeldOutput
    """What `-o` gets once the run succeeds."""
    running = "the passes"
    """The pass running now, for the status line."""

    def location_of(self, op: Operation) -> str | None:
        """`file:line:column` of a parsed op; None for an op a pass built."""
        span = self.op_spans.get(op)
        if span is None:
            return None
        file, line, column = replace(span, line_offset=self.line_offset).get_location()
        return f"{file}:{line}:{column}"

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """`-` is standard input, as for `mlir-opt`."""
        if self.args.input_file == "-":
            return sys.stdin.buffer, "mlir"
        return super().get_input_stream()

    def prepare_output(self) -> IO[str]:
        """With `-o`, the output is held until the whole run succeeds, as
        `mlir-opt` does: a failing run leaves the file as it was (or absent),
        and the output file may be the input file."""
        if self.args.output_file is None:
            return sys.stdout
        self.held_output = HeldOutput()
        return self.held_output

    def run(self) -> None:
        super().run()
        if self.args.output_file is not None:
            with open(self.args.output_file, "w") as output:
                output.write(self.held_output.text)

    def get_input_name(self) -> str:
        return "stdin" if self.args.input_file in (None, "-") else self.args.input_file

    def register_all_dialects(self):
        for name, factory in memplan_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_frontends(self):
        super().register_all_frontends()
        self.op_spans = {}

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read().decode()
            if only_comments(text):
                # mlir-opt reads an input without ops as an empty module.
                return ModuleOp([])
            parser = MemplanParser(self.ctx, text, self.get_input_name())
            self.op_spans = parser.op_spans
            return parser.parse_module(not self.args.no_implicit_module)

        self.available_frontends["mlir"] = parse_mlir

    def setup_pipeline(self):
        """xDSL's pipeline, also naming each pass as it starts for the status line."""
        super().setup_pipeline()
        between_passes = self.pipeline.callback

        def callback(
            previous: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
        ) -> None:
            if previous is not None:
                self.running = f"verifying after {previous.name}"
            if between_passes is not None:
                between_passes(previous, module, next_pass)
            if next_pass is not None:
                self.running = next_pass.name

        self.pipeline = replace(self.pipeline, callback=callback)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        with Ticker("memplan-opt", lambda: "printing"):
            return super().output_resulting_program(prog)

    def apply_passes(self, prog: ModuleOp):
        """The passes; when a verifier fails other than with a verify error
        (xDSL verifies nested ops first, and the verifier of a `func.return`
        reads its `func.func`'s properties before they are checked), the op
        whose own checks fail, outer ops first."""
        try:
            with Ticker("memplan-opt", lambda: self.running):
                super().apply_passes(prog)
        except DiagnosticException:
            raise
        except Exception as error:
            if _failing_op(error) is None:
                raise
            for op in walk(prog):
                try:
                    op.verify(verify_nested_ops=False)
                except DiagnosticException:
                    raise
                except Exception as op_error:
                    # Some of xDSL's verifiers (scf.while's block arguments)
                    # raise a plain Exception: still the op's verify error.
                    where = self.location_of(op)
                    at = f"{where}: " if where is not None else ""
                    raise VerifyException(f"{at}{op.name}: {op_error}") from None
            raise

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        """Each `--split-input-file` chunk is an input of its own: it does not
        see the blobs of the chunks before it."""
        blob_store(self.ctx).clear()
        self.line_offset = start_offset
        name = self.get_input_name()
        with Ticker("memplan-opt", lambda: f"parsing {name}"):
            return super().parse_chunk(chunk, file_extension, start_offset)


def main() -> int:
    """The whole run (arguments, parsing, passes, printing) on a deep stack:
    xDSL and the passes follow nested regions by recursion."""
    return run_command("memplan-opt", _main)


def _main() -> int:
    warnings.filterwarnings("default", category=DeprecationWarning)
    opt: MemplanOptMain | None = None
    try:
        opt = MemplanOptMain()
        opt.run()
    except (ParseError, DiagnosticException, ValueError, OSError) as error:
        message = cut_tokens(_one_message(error, opt))
        print(f"memplan-opt: error: {message}", file=sys.stderr)
        return EXIT_ERROR
    except ArgSpecParseError as error:
        # xDSL derives this one from BaseException, not Exception.
        where = str(error).removeprefix("Error parsing pass pipeline specification:")
        print(
            "memplan-opt: error: bad pass pipeline given to -p: "
            f"{cut_tokens(where.strip())}",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except RecursionError:
        name = "the input" if opt is None else opt.get_input_name()
        print(f"memplan-opt: error: {too_deep(name)}", file=sys.stderr)
        return EXIT_ERROR
    except MemoryError:
        name = "the input" if opt is None else opt.get_input_name()
        print(f"memplan-opt: error: {out_of_memory(name)}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as error:
        report_internal_error("memplan-opt", error)
        return EXIT_ERROR
    return 0


def _one_message(error: Exception, opt: MemplanOptMain | None) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        if opt is not None and error.filename == opt.args.output_file:
            return f"-o: cannot write {error.filename}: {error.strerror}"
        return f"cannot open {error.filename}: {error.strerror}"
    if isinstance(error, UnicodeDecodeError):
        return f"the input is {not_utf8(error)}: expected an MLIR file"
    message = str(error).strip()
    if message.startswith("Unrecognized file extension"):
        return f"{message} of the input: expected a .mlir file, or -f mlir"
    if message.startswith("Unrecognized passes:"):
        return _unknown_passes(message)
    op_text = _failing_op_text(error)
    if op_text is None:
        # xDSL raises its structural checks (terminators, successors) without
        # showing the op: name it by where it was written.
        op = _failing_op(error)
        where = None if op is None or opt is None else opt.location_of(op)
        if where is not None and not isinstance(error, ParseError):
            return f"{where}: {message}"
        return _with_parse_location(error, message)
    name = re.search(r'"([\w.]+)"', op_text)
    prefix = f"{name.group(1)}: " if name and name.group(1) not in message else ""
    op = _failing_op(error)
    where = None if op is None or opt is None else opt.location_of(op)
    if where is not None:
        prefix = f"{where}: {prefix}"
    return f"{prefix}{message}\n  in: {op_text.strip()}"


def _unknown_passes(message: str) -> str:
    """xDSL's "Unrecognized passes: ['nope']" as a sentence, with the
    closest registered names for each."""
    known = list(Universe.get_multiverse().all_passes)
    unknown = ast.literal_eval(message.removeprefix("Unrecognized passes:").strip())
    found: list[str] = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        found.append(f"unknown pass '{name}'{hint}")
    return f"-p: {'; '.join(found)}: `memplan-opt --help` lists the passes"


def _failing_op(error: Exception) -> Operation | None:
    """The innermost op whose verifier raised `error`."""
    failing = None
    trace = error.__traceback__
    while trace is not None:
        candidate = trace.tb_frame.f_locals.get("self")
        if (
            isinstance(candidate, Operation)
            and "verify" in trace.tb_frame.f_code.co_name
        ):
            failing = candidate
        trace = trace.tb_next
    return failing


def _with_parse_location(error: Exception, message: str) -> str:
    """`message` shown at the op being parsed when `error` came from checking
    its types during parsing (xDSL raises those without a location)."""
    if isinstance(error, ParseError):
        return _parse_error_message(error)
    return at_op_being_parsed(error, message)


def _parse_error_message(error: ParseError) -> str:
    """`file:line:column: message` on the error line, then the source line
    and a caret under the place, as MLIR prints a parse error (xDSL puts the
    message last)."""
    file, line, column = error.span.get_location()
    shown = span_context(error.span, error.msg).splitlines()
    context = [f"  {text}" for text in shown[1:3]]
    rest = parse_error_text(error).splitlines()[len(shown) :]
    return "\n".join([f"{file}:{line}:{column}: {error.msg}", *context, *rest])


_UNDERLINE = re.compile(r"\s*\^+-*\s*")
"""xDSL's underline of the failing op: carets, then dashes up to the message
width.  A block label (`^bb0(%x: i32):`) also starts with a caret."""


def _failing_op_text(error: Exception) -> str | None:
    """The op xDSL underlined (`^^^`) in the module it attached to a verify error."""
    for note in getattr(error, "__notes__", ()):
        lines = str(note).splitlines()
        for above, line in itertools.pairwise(lines):
            if _UNDERLINE.fullmatch(line):
                return above
    return None


if __name__ == "__main__":
    sys.exit(main())

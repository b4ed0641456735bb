"""VTCM that is there before a run (a global, an argument) takes window bytes."""

from __future__ import annotations

import numpy as np
from interpreter_helpers import parse

from memplan.interpreter.runner import Runner
from memplan.targets import get_target

PROGRAM = """
memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<2.0>

func.func @main(%x: memref<2048xf32, "global.vtcm">) -> f32 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @lut : memref<2048xf32, "global.vtcm">
  %v = memref.load %g[%c0] : memref<2048xf32, "global.vtcm">
  memref.store %v, %x[%c0] : memref<2048xf32, "global.vtcm">
  func.return %v : f32
}
"""


def test_held_vtcm_is_taken_once_per_runner_and_the_argument_given_back():
    # The window holds exactly @lut and the argument: a second run fits only
    # if the first one gave the argument's bytes back and @lut is held once.
    runner = Runner(parse(PROGRAM), get_target().with_vtcm_size(16384))
    for _ in range(2):
        x = np.ones(2048, np.float32)
        result = runner.run("main", (x,))
        assert result.results == (2.0,)
        assert x[0] == 2.0 and x[1] == 1.0  # written in VTCM, copied back
        assert result.stats.peak_bytes["global.vtcm"] == 16384

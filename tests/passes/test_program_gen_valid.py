"""Random programs are valid on every path `memory-verify` considers, not
only on the one they run: the meaning-preserved tests ask `memory-verify` to
accept them once planned (`memory-manifest,memory-plan`), and it cannot
count an `scf.while`'s trips."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from program_gen import TRIP_COUNTS, BlockWriter, Names
from xdsl.parser import Parser

from memplan.context import memplan_context
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass


@settings(
    derandomize=True,
    max_examples=100,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_loop_result_that_may_be_its_init_keeps_the_init_alive(
    data: st.DataObject,
) -> None:
    """Loops carrying a tensor (`carry`), each followed by a write of its
    result.  When the loop is an `scf.while` whose body writes a fresh
    tensor from the carried one, the result is the init if the loop runs no
    trip (as `memory-verify` must assume), so the init may not be freed
    before the write, though the run (two or three trips) never reads it
    there.  Before the fix 21 of 200 random examples freed the init
    before the write; derandomized, so every run checks the same examples."""
    names = Names()
    writer = BlockWriter(
        data.draw, names, [], 0, False, rich=True, flows=True, detours=True
    )
    writer.random_alloc()
    for _ in range(4):
        writer.carry()
        writer.copy(writer.local[-1])
    constants = [f"%c{k} = arith.constant {k} : index" for k in (0, 1, *TRIP_COUNTS)]
    body = "\n".join(f"  {line}" for line in [*constants, *writer.finish()])
    text = f"func.func @main() {{\n{body}\n  func.return\n}}"
    context = memplan_context()
    module = Parser(context, text).parse_module()
    for module_pass in (MemoryManifestPass(), MemoryPlanPass(), MemoryVerifyPass()):
        module_pass.apply(context, module)

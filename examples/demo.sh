#!/usr/bin/env bash
# `make demo`: plan the seed program of TVM's storage-offset RFC with stock
# xdsl-opt, run it before and after in memplan-run's VTCM model, and show what
# planning saved. Every figure printed here is measured by this run.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

peak() { python -c 'import json,sys; print(json.load(open(sys.argv[1]))["peak_bytes"].get("global.vtcm", 0))' "$1"; }

echo "== 1. The naive program: five 4x64xi32 VTCM tensors, each its own memref.alloc =="
grep -n 'memref.alloc()' examples/seed_naive.mlir | grep vtcm
memplan-run examples/seed_naive.mlir --no-stats --stats-json "$out/before.json" --output "$out/before.npz" > /dev/null

echo
echo "== 2. xdsl-opt -p memory-manifest,memory-plan: one VTCM arena, offsets from the packer =="
xdsl-opt -p memory-manifest,memory-plan examples/seed_naive.mlir > "$out/planned.mlir"
xdsl-opt -p memory-verify "$out/planned.mlir" > /dev/null
sed -n '/func.func @seed/,/func.return/p' "$out/planned.mlir"
echo "(memory-verify: no live tensors overlap, every offset in bounds and aligned)"

echo
echo "== 3. The planned program, run by memplan-run on hexagon-v73 =="
memplan-run "$out/planned.mlir" --stats-json "$out/after.json" --output "$out/after.npz" 2>&1
memplan-run examples/seed_vtcm_offsets.mlir --no-stats --stats-json "$out/hand.json" > /dev/null
python - "$out" <<'PY'
import sys
import numpy as np
out = sys.argv[1]
before, after = np.load(f"{out}/before.npz"), np.load(f"{out}/after.npz")
same = np.array_equal(before["result0"], after["result0"])
print(f"results identical before and after planning: {same}")
sys.exit(0 if same else 1)
PY
echo "VTCM peak: $(peak "$out/before.json") bytes before planning, $(peak "$out/after.json") after; the seed's hand plan (examples/seed_vtcm_offsets.mlir) peaks at $(peak "$out/hand.json")"

echo
echo "== 4. Three 3 MiB VTCM tensors on an 8 MiB VTCM =="
if memplan-run examples/three_big_vtcm.mlir --no-stats > /dev/null 2> "$out/err.txt"; then
  echo "unexpected: the unplanned program fit"; exit 1
fi
echo "before planning: $(cat "$out/err.txt")"
xdsl-opt -p memory-manifest,memory-plan examples/three_big_vtcm.mlir \
  | memplan-run - --no-stats --stats-json "$out/big.json" > /dev/null
echo "after planning: runs, VTCM peak $(peak "$out/big.json") bytes"

echo
echo "== 5. memory-place: a PyTorch CNN (all DDR, as torch-mlir bufferizes it) on a 64 KiB VTCM =="
echo "memory-manifest,memory-place{target=hexagon-v66 capacity=65536},memory-plan{target=hexagon-v66 capacity=65536}"
python - <<'PY'
import numpy as np
from memplan.context import memplan_context, parse_module
from memplan.interpreter import run_function
from memplan.passes.manifest import MemoryManifestPass
from memplan.passes.place import MemoryPlacePass
from memplan.passes.plan import MemoryPlanPass
from memplan.passes.verify import MemoryVerifyPass
from memplan.targets import get_target

NAME, CAPACITY = "tests/fixtures/torch/cnn", 64 * 1024
ctx = memplan_context()
with np.load(f"{NAME}.npz") as saved:
    args = [saved[k] for k in sorted(saved) if k.startswith("arg")]
    expected = saved["result0"]
target = get_target("hexagon-v66").with_vtcm_size(CAPACITY)


def run(passes):
    module = parse_module(open(f"{NAME}.mlir").read())
    for p in passes:
        p.apply(ctx, module)
    return module, run_function(module, "main", [a.copy() for a in args], target)


_, before = run([MemoryManifestPass(), MemoryPlanPass(target="hexagon-v66", capacity=CAPACITY)])
placed, after = run([
    MemoryManifestPass(),
    MemoryPlacePass(target="hexagon-v66", capacity=CAPACITY),
    MemoryPlanPass(target="hexagon-v66", capacity=CAPACITY),
])
MemoryVerifyPass(target="hexagon-v66", capacity=CAPACITY).apply(ctx, placed)
copies = sum(op.name == "memory.copy" for op in placed.walk())
same = all(np.array_equal(a, b) for a, b in zip(before.results, after.results))
close = np.allclose(after.results[0], expected, rtol=1e-4, atol=1e-5)
for label, result in (("all in DDR", before), ("memory-place", after)):
    s = result.stats
    print(f"{label:>13}: {s.modeled_cycles:>7} modeled cycles, VTCM peak {s.peak_bytes.get('global.vtcm', 0):>6} bytes (high-water {s.peak_extent.get('global.vtcm', 0)})")
print(f"memory.copy ops inserted: {copies}; results identical: {same}; matches PyTorch: {close}")
raise SystemExit(0 if same and close else 1)
PY

echo
echo "== 6. Fragmentation on a 12 KiB VTCM: first fit and contiguous plans fail, blocks fit =="
if memplan-run examples/fragmentation.mlir --vtcm-size 12288 --no-stats > /dev/null 2> "$out/err.txt"; then
  echo "unexpected: first fit held the unplanned program"; exit 1
fi
echo "unplanned, first fit: $(cat "$out/err.txt")"
if memplan-opt -p 'memory-manifest,memory-plan{capacity=12288}' examples/fragmentation.mlir > /dev/null 2> "$out/err.txt"; then
  echo "unexpected: a contiguous plan fit"; exit 1
fi
echo "contiguous plan: $(cat "$out/err.txt")"
memplan-opt -p 'memory-manifest,memory-plan{discontiguous=auto capacity=12288},memory-verify{capacity=12288}' \
  examples/fragmentation.mlir > "$out/blocks.mlir"
echo "discontiguous=auto: $(grep -c alloc_discontiguous_tensor "$out/blocks.mlir") tensors cut into 2 KiB blocks"
memplan-run "$out/blocks.mlir" --vtcm-size 12288 --stats-json "$out/blocks.json" --output "$out/blocks.npz" > /dev/null
memplan-run examples/fragmentation.mlir --no-stats --output "$out/frag.npz" > /dev/null
python - "$out" <<'PY'
import json, sys
import numpy as np
out = sys.argv[1]
same = np.array_equal(np.load(f"{out}/frag.npz")["result0"], np.load(f"{out}/blocks.npz")["result0"])
stats = json.load(open(f"{out}/blocks.json"))
print(f"runs in the 12288-byte window: VTCM peak {stats['peak_bytes']['global.vtcm']} bytes, "
      f"high-water {stats['peak_extent']['global.vtcm']}; results identical to the unplanned run: {same}")
sys.exit(0 if same else 1)
PY

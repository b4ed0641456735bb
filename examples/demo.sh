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

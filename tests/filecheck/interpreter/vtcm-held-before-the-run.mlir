// RUN: not memplan-run %s --vtcm-size 12KiB 2>&1 | filecheck %s --check-prefix=GLOBAL
// RUN: memplan-run %s --vtcm-size 16KiB --no-stats | filecheck %s --check-prefix=FITS
// RUN: not memplan-run %s --vtcm-size 4KiB 2>&1 | filecheck %s --check-prefix=TOOBIG
// RUN: not memplan-run %s --symbol=arg --args 'dense<1.0> : tensor<2048xf32>' --vtcm-size 8KiB 2>&1 | filecheck %s --check-prefix=ARG
// RUN: memplan-run %s --symbol=arg --args 'dense<1.0> : tensor<2048xf32>' --vtcm-size 16KiB 2>&1 | filecheck %s --check-prefix=ARGFITS

// A global in VTCM and an argument in VTCM are there before the function
// runs: they take their bytes from the VTCM window, as on the device, so the
// run's own VTCM allocations compete with them.

memref.global "private" @lut : memref<2048xf32, "global.vtcm"> = dense<2.0>

func.func @main() -> f32 {
  %c0 = arith.constant 0 : index
  %s = memory.alloc_storage [8192] : !memory.storage<"global.vtcm">
  %g = memref.get_global @lut : memref<2048xf32, "global.vtcm">
  %v = memref.load %g[%c0] : memref<2048xf32, "global.vtcm">
  func.return %v : f32
}

// 8 KiB of the 12 KiB window hold @lut; 16 KiB hold both.
// GLOBAL: memplan-run: error: {{.*}}vtcm-held-before-the-run.mlir:15:3: memory.alloc_storage %s (in @main): cannot allocate 8192 bytes in "global.vtcm": no free range of its 12288-byte window holds them at a 2048-byte aligned address (4096 bytes free in total, the largest free range has 4096 bytes)
// FITS: result: 2.0
// @lut alone does not fit a 4 KiB window: the run does not start.
// TOOBIG: memplan-run: error: before @main: memref.global @lut: cannot allocate 8192 bytes in "global.vtcm": no free range of its 4096-byte window holds them at a 2048-byte aligned address (4096 bytes free in total, the largest free range has 4096 bytes)

func.func @arg(%x: memref<2048xf32, "global.vtcm">) {
  %c0 = arith.constant 0 : index
  %three = arith.constant 3.0 : f32
  memref.store %three, %x[%c0] : memref<2048xf32, "global.vtcm">
  func.return
}

// @lut (8 KiB) and the argument (8 KiB) do not both fit in 8 KiB; in 16 KiB
// they do, the argument is written in place and the peak counts both.
// ARG: memplan-run: error: @arg argument 0: cannot allocate 8192 bytes in "global.vtcm": no free range of its 8192-byte window holds them at a 2048-byte aligned address (0 bytes free in total, the largest free range has 0 bytes)
// ARGFITS: arg0: array([3., 1., 1., ..., 1., 1., 1.], shape=(2048,), dtype=float32)
// ARGFITS: peak bytes global.vtcm=16384;

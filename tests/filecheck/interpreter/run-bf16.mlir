// memplan-run runs bf16 (as ml_dtypes.bfloat16): a dense_resource weight, a
// hex mask, a bf16 argument, a matmul and casts; planned and lowered too,
// and with the matmul's sum folded in loop order (--sequential-sums).

// RUN: memplan-run %s --args "dense<[[1.25, 2.0], [3.0, 0x4080]]> : tensor<2x2xbf16>" 2>&1 | filecheck %s
// RUN: memplan-run %s --sequential-sums --args "dense<[[1.25, 2.0], [3.0, 0x4080]]> : tensor<2x2xbf16>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan %s | memplan-run - --args "dense<[[1.25, 2.0], [3.0, 0x4080]]> : tensor<2x2xbf16>" 2>&1 | filecheck %s
// RUN: memplan-opt -p memory-manifest,memory-plan,convert-memory-to-memref %s | memplan-run - --args "dense<[[1.25, 2.0], [3.0, 0x4080]]> : tensor<2x2xbf16>" 2>&1 | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
memref.global "private" constant @w : memref<2x2xbf16> = dense_resource<w>
memref.global "private" constant @mask : memref<2x2xbf16> = dense<[[0x0000, 0xFF80], [0x3F80, 0x0000]]>
func.func @main(%x: memref<2x2xbf16>) -> (memref<2x2xbf16>, memref<2x2xf32>) {
  %w = memref.get_global @w : memref<2x2xbf16>
  %mask = memref.get_global @mask : memref<2x2xbf16>
  %zero = arith.constant 0.0 : bf16
  %prod = memref.alloc() : memref<2x2xbf16>
  linalg.fill ins(%zero : bf16) outs(%prod : memref<2x2xbf16>)
  linalg.matmul ins(%x, %w : memref<2x2xbf16>, memref<2x2xbf16>) outs(%prod : memref<2x2xbf16>)
  %out = memref.alloc() : memref<2x2xbf16>
  linalg.add ins(%prod, %mask : memref<2x2xbf16>, memref<2x2xbf16>) outs(%out : memref<2x2xbf16>)
  %cast = memref.alloc() : memref<2x2xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%prod : memref<2x2xbf16>) outs(%cast : memref<2x2xf32>) {
  ^bb0(%in: bf16, %o: f32):
    %h = arith.extf %in : bf16 to f16
    %k = arith.fptosi %h : f16 to i32
    %b = arith.sitofp %k : i32 to bf16
    %third = arith.constant 0.333333333 : bf16
    %m = arith.mulf %b, %third : bf16
    %f = arith.extf %m : bf16 to f32
    linalg.yield %f : f32
  }
  func.return %out, %cast : memref<2x2xbf16>, memref<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x02000000803F00404040C0C0"
    }
  }
#-}

// x = [[1.25, 2], [3, 4]] (0x4080 is 4.0), w = [[1, 2], [3, -6]]:
// x @ w = [[7.25, -9.5], [15, -18]]; + mask [[0, -inf], [1, 0]].
// The casts truncate 7.25 and -9.5 to 7 and -9, then multiply by 1/3 in bf16
// (0.333984375): 7 * 0.333984375 = 2.337890625 rounds to 2.34375 and
// -3.005859375 to -3 (bf16 steps are 2**-6 there).

// CHECK:      result: (
// CHECK-NEXT:     array({{\[\[}}7.25, -inf],
// CHECK-NEXT:        [16, -18]], dtype=bfloat16),
// CHECK-NEXT:     array({{\[\[}} 2.34375, -3.     ],
// CHECK-NEXT:        [ 5.     , -6.     ]], dtype=float32)
// CHECK-NEXT: )
// CHECK-NEXT: memplan-run: {{.*}}peak bytes

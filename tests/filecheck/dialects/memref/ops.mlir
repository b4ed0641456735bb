// RUN: memplan-opt %s | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | memplan-opt | filecheck %s
// RUN: memplan-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref.global, load, store and copy in MLIR's custom syntax.

memref.global "private" constant @weights : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]> {alignment = 64 : i64}
memref.global "private" @splat : memref<3xi8> = dense<7>
memref.global @scratch : memref<4xf32> = uninitialized
memref.global "public" @declared : memref<f32>
memref.global "nested" @tagged : memref<1xindex> = dense<5> {alignment = 16 : i64, origin = "test"}

// CHECK:      memref.global "private" constant @weights : memref<2x2xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" @splat : memref<3xi8> = dense<7>
// CHECK-NEXT: memref.global @scratch : memref<4xf32> = uninitialized
// CHECK-NEXT: memref.global "public" @declared : memref<f32>
// CHECK-NEXT: memref.global "nested" @tagged : memref<1xindex> = dense<5> {origin = "test", alignment = 16 : i64}

// GENERIC:      "memref.global"() <{sym_name = "weights", sym_visibility = "private", type = memref<2x2xf32>, initial_value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>, constant, alignment = 64 : i64}> : () -> ()
// GENERIC-NEXT: "memref.global"() <{sym_name = "splat", sym_visibility = "private", type = memref<3xi8>, initial_value = dense<7> : tensor<3xi8>}> : () -> ()
// GENERIC-NEXT: "memref.global"() <{sym_name = "scratch", type = memref<4xf32>, initial_value}> : () -> ()
// GENERIC-NEXT: "memref.global"() <{sym_name = "declared", sym_visibility = "public", type = memref<f32>}> : () -> ()

func.func @access(%m: memref<4xf32>, %i: index) -> f32 {
  %a = memref.load %m[%i] : memref<4xf32>
  %b = memref.load %m[%i] {nontemporal = true, alignment = 16 : i64} : memref<4xf32>
  %c = memref.load %m[%i] {invariant = true} : memref<4xf32>
  memref.store %a, %m[%i] {nontemporal = true} : memref<4xf32>
  memref.store %b, %m[%i] {alignment = 8 : i64} : memref<4xf32>
  %copy = memref.alloc() : memref<4xf32>
  memref.copy %m, %copy : memref<4xf32> to memref<4xf32>
  %g = memref.get_global @scratch : memref<4xf32>
  func.return %c : f32
}

// CHECK-LABEL: func.func @access
// CHECK-NEXT:    %a = memref.load %m[%i] : memref<4xf32>
// CHECK-NEXT:    %b = memref.load %m[%i] {nontemporal = true, alignment = 16 : i64} : memref<4xf32>
// CHECK-NEXT:    %c = memref.load %m[%i] {invariant = true} : memref<4xf32>
// CHECK-NEXT:    memref.store %a, %m[%i] {nontemporal = true} : memref<4xf32>
// CHECK-NEXT:    memref.store %b, %m[%i] {alignment = 8 : i64} : memref<4xf32>
// CHECK-NEXT:    %copy = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %m, %copy : memref<4xf32> to memref<4xf32>

// GENERIC: "memref.load"(%m, %i) <{invariant = true}> : (memref<4xf32>, index) -> f32
// GENERIC: "memref.copy"(%m, %copy) : (memref<4xf32>, memref<4xf32>) -> ()

// RUN: memplan-opt %s --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | memplan-opt --split-input-file | filecheck %s
// RUN: memplan-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// dense_resource globals, as torch-mlir writes weights, print back with
// their blobs (generic and custom form both read them).

"memref.global"() <{alignment = 64 : i64, constant, initial_value = dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>, sym_name = "w", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
memref.global "private" constant @b : memref<2xi8> = dense_resource<bias_i8>
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F00000040",
      bias_i8: "0x010000000102"
    }
  }
#-}

// CHECK:      memref.global "private" constant @w : memref<2xf32> = dense_resource<torch_tensor_2_torch.float32> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @b : memref<2xi8> = dense_resource<bias_i8>
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       bias_i8: "0x010000000102",torch_tensor_2_torch.float32: "0x040000000000803F00000040"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

// GENERIC: "memref.global"() <{{.*}}initial_value = dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>{{.*}}sym_name = "w"
// GENERIC: torch_tensor_2_torch.float32: "0x040000000000803F00000040"

// -----

// Each chunk is an input of its own: the same key names its own blob, and a
// chunk without a blob section has no blobs (the key prints without data,
// as MLIR prints a resource it has no data for).

memref.global "private" constant @w : memref<1xf32> = dense_resource<torch_tensor_2_torch.float32>
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000C03F"
    }
  }
#-}

// CHECK: memref.global "private" constant @w : memref<1xf32> = dense_resource<torch_tensor_2_torch.float32>
// CHECK: torch_tensor_2_torch.float32: "0x040000000000C03F"

// -----

memref.global "private" constant @missing : memref<1xf32> = dense_resource<torch_tensor_2_torch.float32>

// CHECK:     memref.global "private" constant @missing : memref<1xf32> = dense_resource<torch_tensor_2_torch.float32>
// CHECK-NOT: dialect_resources

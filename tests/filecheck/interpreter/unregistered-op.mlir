// RUN: not memplan-run %s --allow-unregistered-dialect 2>&1 | filecheck %s

// xDSL parses an op of an unknown dialect as `builtin.unregistered`, keeping
// its name in an attribute: the error names the op as written.
func.func @main() -> i32 {
  %c = arith.constant 1 : i32
  "foo.bar"() : () -> ()
  func.return %c : i32
}

// CHECK: memplan-run: error: {{.*}}unregistered-op.mlir:7:3: foo.bar (in @main): Could not find interpretation function for op foo.bar (its dialect is not registered: --allow-unregistered-dialect lets it parse, not run){{$}}

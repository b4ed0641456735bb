// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func @if_condition_not_a_set(%i: index) {
  affine.if affine_map<(d0) -> (d0)>(%i) {
  }
  func.return
}

// CHECK: expected an integer set (affine_set<...>), got affine_map<(d0) -> (d0)>

// -----

func.func @if_without_dimension_list(%i: index) {
  affine.if affine_set<(d0) : (d0 >= 0)> {
  }
  func.return
}

// CHECK: '(' expected

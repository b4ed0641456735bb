// A function without a body is a declaration; MLIR rejects a public one
// ("symbol declaration cannot have public visibility") where xDSL 0.74 reads
// it. memplan-opt parses with memplan.parser.MemplanParser, which rejects it
// too, in custom and generic form; private and nested declarations stay.

// RUN: memplan-opt %s --split-input-file --parsing-diagnostics | filecheck %s

func.func private @decl(i32)
func.func nested @nested_decl(i32) -> f32
"func.func"() ({}) {sym_name = "generic_decl", function_type = () -> (), sym_visibility = "private"} : () -> ()

// CHECK:      func.func private @decl(i32) -> ()
// CHECK-NEXT: func.func nested @nested_decl(i32) -> f32
// CHECK-NEXT: func.func private @generic_decl() -> ()

// -----

func.func @public_decl(i32)

// CHECK: func-declarations.mlir:[[# @LINE - 2]]:1
// CHECK: func.func @public_decl: a declaration (a function without a body) cannot be public: expected `func.func private @public_decl`, or a body

// -----

func.func public @marked_public(i32)

// CHECK: func.func @marked_public: a declaration (a function without a body) cannot be public

// -----

"func.func"() ({}) {sym_name = "generic_public", function_type = () -> ()} : () -> ()

// CHECK: func.func @generic_public: a declaration (a function without a body) cannot be public

// -----

// A symbol's visibility is public, private or nested, as MLIR requires; xDSL
// reads any string, and memplan took an unknown one for "not public".
"func.func"() <{sym_name = "odd_visibility", function_type = () -> (), sym_visibility = "generic_decl"}> ({
}) : () -> ()

// CHECK: func.func: visibility expected to be one of ["public", "private", "nested"], but got "generic_decl"

// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s

// A storage type names its scope as a string; anything else is a parse error
// at the parameter, not a message about Python's zip().

%s = "test.op"() : () -> !memory.storage

// CHECK: Expected '<' before the memory scope, as in !memory.storage<"global.vtcm">

// -----

%s = "test.op"() : () -> !memory.storage<global>

// CHECK: string literal expected as the memory scope of !memory.storage, such as "global.vtcm"

// -----

%s = "test.op"() : () -> !memory.storage<1>

// CHECK: string literal expected as the memory scope of !memory.storage, such as "global.vtcm"

// -----

%s = "test.op"() : () -> !memory.storage<"global", "global.vtcm">

// CHECK: Expected '>' after the memory scope of !memory.storage

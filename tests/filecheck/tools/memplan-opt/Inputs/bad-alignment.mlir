%s = memory.alloc_storage [64] align 3 : !memory.storage<"global">

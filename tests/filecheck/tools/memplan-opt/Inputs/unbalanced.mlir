%s = memory.alloc_storage [64 : !memory.storage<"global">

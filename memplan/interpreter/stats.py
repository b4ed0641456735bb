"""What one run cost: memory footprint per scope and device, copies, modeled
cycles."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Stats:
    """Statistics of one run; `to_json` is the `--stats-json` file's content."""

    target: str
    capacity: dict[str, int | None]
    """Scope -> its capacity; a device other than 0 that the run uses gets an
    entry too, named as `window_name` names its window."""
    peak_bytes: dict[str, int] = field(default_factory=dict[str, int])
    """Window (`window_name`) -> the most bytes of storages live at once in it."""
    peak_extent: dict[str, int] = field(default_factory=dict[str, int])
    """Window -> the address high-water mark: the end of the highest byte any
    storage reached, counted from the window's base.  Above `peak_bytes` by the
    alignment padding and the holes first fit left between storages."""
    storage_allocations: dict[str, int] = field(default_factory=dict[str, int])
    """Window -> how many storages (memory.alloc_storage, memref.alloc) were made."""
    bytes_copied: dict[str, int] = field(default_factory=dict[str, int])
    """"src->dst" scope pair -> bytes moved by copy ops, whatever the devices."""
    modeled_cycles: int = 0
    ops_executed: int = 0

    def record_allocation(
        self, scope: str, device: int, bytes_in_use: int, extent: int
    ) -> None:
        window = window_name(scope, device)
        if device:
            self.capacity.setdefault(window, self.capacity.get(scope))
        self.storage_allocations[window] = self.storage_allocations.get(window, 0) + 1
        self.peak_bytes[window] = max(self.peak_bytes.get(window, 0), bytes_in_use)
        self.peak_extent[window] = max(self.peak_extent.get(window, 0), extent)

    def record_copy(self, source_scope: str, target_scope: str, nbytes: int) -> None:
        key = f"{source_scope}->{target_scope}"
        self.bytes_copied[key] = self.bytes_copied.get(key, 0) + nbytes

    def to_json(self) -> dict[str, Any]:
        scopes = sorted(set(self.capacity) | set(self.peak_bytes))
        return {
            "target": self.target,
            "capacity": {s: self.capacity.get(s) for s in scopes},
            "peak_bytes": dict(sorted(self.peak_bytes.items())),
            "peak_extent": dict(sorted(self.peak_extent.items())),
            "storage_allocations": dict(sorted(self.storage_allocations.items())),
            "bytes_copied": dict(sorted(self.bytes_copied.items())),
            "modeled_cycles": self.modeled_cycles,
            "ops_executed": self.ops_executed,
        }

    def summary(self) -> str:
        """One short human-readable paragraph (the CLI prints it on stderr)."""

        def pairs(values: dict[str, int]) -> str:
            return ", ".join(f"{k}={v}" for k, v in sorted(values.items())) or "none"

        return (
            f"target {self.target}: peak bytes {pairs(self.peak_bytes)}; "
            f"peak extent {pairs(self.peak_extent)}; "
            f"storages {pairs(self.storage_allocations)}; "
            f"bytes copied {pairs(self.bytes_copied)}; "
            f"{self.modeled_cycles} modeled cycles; {self.ops_executed} ops executed"
        )


def window_name(scope: str, device: int) -> str:
    """How the statistics name the window of `scope` on `device`: the scope
    itself on device 0 (so a single-device run reads as before),
    "global.vtcm of device 1" on another device."""
    return f"{scope} of device {device}" if device else scope

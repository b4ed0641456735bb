"""lowering of memplan."""

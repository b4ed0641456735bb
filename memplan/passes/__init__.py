"""passes of memplan."""

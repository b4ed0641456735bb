"""interpreter of memplan."""

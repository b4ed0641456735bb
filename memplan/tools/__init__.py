"""tools of memplan."""

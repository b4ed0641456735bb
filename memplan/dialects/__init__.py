"""dialects of memplan."""

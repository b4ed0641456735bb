"""planning of memplan."""

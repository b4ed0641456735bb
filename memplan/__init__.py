"""memplan: an xDSL memory layer for software-managed memories."""

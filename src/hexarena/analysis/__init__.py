"""Analysis tools: solving small boards exactly (hexarena solve)."""

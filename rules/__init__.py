"""riichi-lens rules engine: pure Python, importable on its own (no vision or web imports)."""

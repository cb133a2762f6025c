"""Synthetic training data for the tile reader: physical-looking tiles, table scenes with known structure, writers.

Modules: `classes` (names), `glyphs` (glyph drawings: CC0 art, CJK fonts, procedural pins/bamboo),
`tiles` (a set's style, tile faces, 3D tile drawing), `scenes` (table layouts, cameras, photo effects),
`generate` (YOLO / OBB dataset writer), `crops` (single-tile classification crops).
"""

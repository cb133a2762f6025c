"""Photo -> table -> rules readout: the one call the CLI, the web app and the benches make.

A mirrored photo (a selfie camera, a screen recording flipped for display) would read every glyph backwards
and swap left and right, so the caller says so and the image is flipped back before reading; the polygons in
the result are then mapped onto the photo as given, so an overlay still lands on each tile.
"""
from __future__ import annotations

import cv2

from .image import load_image
from .table import read_table, score_table
from .tiles import TileFinder


def read_photo(finder: TileFinder, source, ctx=None, seat: str = "self", mirrored: bool = False,
               conf: float = 0.35, profile: str | None = None) -> dict:
    """The table JSON (``table.score_table``) of one photo, with its size; ``profile``: a calibration profile."""
    image = load_image(source)
    h, w = image.shape[:2]
    if mirrored:
        image = cv2.flip(image, 1)
    return table_json(read_table(finder.find(image, conf=conf, profile=profile)), ctx, seat, w, h, mirrored)


def table_json(table, ctx, seat: str, width: int, height: int, mirrored: bool) -> dict:
    """The scored table with the photo's size; a mirrored photo's polygons mapped back onto it as given."""
    out = score_table(table, ctx, seat)
    if mirrored:
        for t in out["tiles"]:
            t["polygon"] = [[round(width - x, 1), y] for x, y in t["polygon"]]
    return {"width": width, "height": height, "mirrored": mirrored, **out}

"""Photo -> table -> rules readout: the one call the CLI, the web app and the benches make.

A mirrored photo (a selfie camera, a screen recording flipped for display) would read every glyph backwards
and swap left and right, so the caller says so and the image is flipped back before reading; the polygons in
the result are then mapped onto the photo as given, so an overlay still lands on each tile.
"""
from __future__ import annotations

import cv2

from .image import load_image
from .table import Problem, read_table, score_table
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
    cut = cut_by_the_frame(table, seat, width, height)
    if out["readout"] is None and cut is not None:
        out["problems"].append(cut.to_dict())
    if mirrored:
        for t in out["tiles"]:
            t["polygon"] = [[round(width - x, 1), y] for x, y in t["polygon"]]
    return {"width": width, "height": height, "mirrored": mirrored, **out}


EDGE_REACH = 0.5  # a tile this many of its widths or nearer to the photo's edge reaches it


def cut_by_the_frame(table, seat: str, width: int, height: int) -> Problem | None:
    """A hand short of 13 tiles that reaches the photo's edge has likely lost a tile to it (a tile cut by the frame
    shows too little to read): the problem says so, naming the tiles at the edge, so the user takes the photo again
    rather than looking for a misread tile."""
    s = table.seats[seat]
    shown = len(s.concealed) + 3 * len(s.melds)
    if not s.concealed or shown >= 13:
        return None
    at_edge = []
    for i in s.concealed + [i for m in s.melds for i in m.tile_indices]:
        c, reach = table.tiles[i].corners, EDGE_REACH * min(table.tiles[i].size)
        if (c.min(0) < reach).any() or c[:, 0].max() > width - reach or c[:, 1].max() > height - reach:
            at_edge.append(i)
    if not at_edge:
        return None
    return Problem(f"the hand shows {shown} tiles and runs to the photo's edge: a tile may be cut off; take the "
                   "photo again with the whole hand in it", at_edge)

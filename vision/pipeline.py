"""Photo -> table -> rules readout: the one call the CLI, the web app and the benches make.

A mirrored photo (a selfie camera, a screen recording flipped for display) would read every glyph backwards
and swap left and right, so the caller says so and the image is flipped back before reading; the polygons in
the result are then mapped onto the photo as given, so an overlay still lands on each tile.
"""
from __future__ import annotations

import cv2
import numpy as np

from .image import load_image
from .table import Problem, read_table, score_table
from .tiles import TileFinder


def read_photo(finder: TileFinder, source, ctx=None, seat: str = "self", mirrored: bool = False,
               conf: float = 0.35, profile: str | None = None, draw_declared=None) -> dict:
    """The table JSON (``table.score_table``) of one photo, with its size; ``profile``: a calibration profile;
    ``draw_declared``: what seats declared at an exhaustive draw (``table.draw_at``)."""
    image = load_image(source)
    h, w = image.shape[:2]
    if mirrored:
        image = cv2.flip(image, 1)
    ruleset = ctx.ruleset if ctx is not None else None  # three players: no one across, norths set aside
    out = table_json(read_table(finder.find(image, conf=conf, profile=profile), ruleset), ctx, seat, w, h, mirrored,
                     draw_declared)
    if colourless(image) and any(t["kind"] in ("5z", "back") for t in out["tiles"]):  # what it would be said of
        out["notes"].append("the photo has no colour: a face-down tile is told from a haku by its back's colour, "
                            "so face-down tiles may read as haku here; send the photo in colour")
    return out


def colourless(image: np.ndarray) -> bool:
    """A grey photo saved as colour (a scan, a filter): its three channels alike everywhere (sampled)."""
    sample = image[::7, ::7].astype(np.int16)
    return int(np.abs(sample - sample[:, :, :1]).max()) <= 2


def table_json(table, ctx, seat: str, width: int, height: int, mirrored: bool, draw_declared=None) -> dict:
    """The scored table with the photo's size; a mirrored photo's polygons mapped back onto it as given."""
    out = score_table(table, ctx, seat, draw_declared)
    if out["readout"] is None and (cut := cut_by_the_frame(table, seat, width, height)) is not None:
        out["problems"].append(cut.to_dict())
    if mirrored:
        for t in out["tiles"]:
            t["polygon"] = [[round(width - x, 1), y] for x, y in t["polygon"]]
    return {"width": width, "height": height, "mirrored": mirrored, **out}


EDGE_REACH = 0.5  # a row's end tile this many of its widths or nearer to the photo's edge, along the row, reaches it


def cut_by_the_frame(table, seat: str, width: int, height: int) -> Problem | None:
    """A hand short of 13 tiles whose row runs on to the photo's edge has likely lost a tile to it (a tile cut
    by the frame shows too little to read): the problem says so, naming the end tile there, so the user takes the
    photo again rather than looking for a misread tile. A row lying along an edge does not count: its ends do."""
    s = table.seats[seat]
    row = s.concealed + [i for m in s.melds for i in m.tile_indices]
    if len(row) < 2 or s.shown >= 13:
        return None
    tiles = table.tiles
    along = tiles[row[-1]].center - tiles[row[0]].center
    along = along / max(float(np.linalg.norm(along)), 1e-9)
    at_edge = []
    for i, way in ((row[0], -along), (row[-1], along)):
        t = tiles[i]
        reach = float(((t.corners - t.center) @ way).max()) + EDGE_REACH * min(t.size)
        x, y = t.center + reach * way
        if not (0 <= x <= width and 0 <= y <= height):
            at_edge.append(i)
    if not at_edge:
        return None
    return Problem(f"the hand shows {s.shown} tiles and runs to the photo's edge: a tile may be cut off; take the "
                   "photo again with the whole hand in it", at_edge, seat)

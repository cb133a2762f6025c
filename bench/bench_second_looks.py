"""The second looks' gates swept on generated scenes: which tiles the cut, small and hard readers read again, and
how much their reading weighs (``vision.tiles``: ``CUT_READ_BELOW``, ``CUT_READER_WEIGHT``, ``SMALL_PX``,
``SMALL_READ_BELOW``, ``SMALL_READER_WEIGHT``, ``HARD_READ_BELOW``, ``HARD_READER_WEIGHT``).

    python bench/bench_second_looks.py data/dev18-corner data/dev20-table ...

Why: the gates were chosen beside one first reader (v6); a new first reader is surer or less sure of other tiles,
so they are measured again beside it. Every labelled tile is cut from its true polygon as the run time cuts a
detection that fits it (``datasets.evaluate.read_true_boxes``), read by the shipped pair once and by each second
look's reader once; the gates are then replayed on those readings, one gate at a time around the shipped values
(the rest as shipped), so a sweep costs one read of each tile. Counted as ``bench_scenes.py --true-boxes`` counts
(tiles from 20 px wide, a white back read as a blank haku right): the shipped gates' row equals its figure "as the
run time reads them". Tiles only: a gate that gains tiles still has to gain hands end to end
(``bench_tables.py --pixels``) before it is shipped.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.evaluate import FLOOR_PX  # noqa: E402
from datasets.generate import default_shared, scene_style  # noqa: E402
from datasets.scene_crops import detection_corners  # noqa: E402
from vision import tiles as T  # noqa: E402
from vision.reader import Light, Reading, averaged  # noqa: E402

SMALL_PX_MOST = 35  # the small reader reads every whole face narrower than this, so SMALL_PX can be swept up to it


@dataclass(frozen=True)
class Gates:
    cut_below: float = T.CUT_READ_BELOW
    cut_weight: float = T.CUT_READER_WEIGHT
    small_px: float = T.SMALL_PX
    small_below: float = T.SMALL_READ_BELOW
    small_weight: float = T.SMALL_READER_WEIGHT
    hard_below: float = T.HARD_READ_BELOW
    hard_weight: float = T.HARD_READER_WEIGHT


SWEEP = {  # the values tried for each gate, the shipped one among them
    "cut_below": (0.7, 0.8, 0.9, 0.95, 1.01),
    "cut_weight": (0.5, 0.6, 0.7, 0.8),
    "small_px": (20, 25, 30, 35),
    "small_below": (0.7, 0.8, 0.9, 0.95, 1.01),
    "small_weight": (0.5, 0.6, 0.7, 0.8),
    "hard_below": (0.5, 0.6, 0.7, 0.8, 0.9),
    "hard_weight": (0.3, 0.4, 0.5, 0.6, 0.7),
}


@dataclass
class Looked:
    """One tile: the pair's reading (after the stretched look at a face cut by the frame, which has no gate) and
    each second look's reader's reading of it (None where that reader never reads such a tile)."""

    first: Reading
    cut: Reading | None
    small: Reading | None
    hard: Reading | None
    width: float
    counted: bool  # from 20 px wide
    right: frozenset  # the kinds counted right


def look(finder: T.TileFinder, data: Path, shared: Path) -> list[Looked]:
    out = []
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        labelled = [t for t in table["tiles"] if t["labelled"]]
        if not labelled:
            continue
        white_backs = scene_style(table, shared).blank_back
        corners = [detection_corners(np.array(t["polygon"]), image.shape) for t in labelled]
        crops = [T.straighten(image, c) for c in corners]
        light = Light(crops)
        readings = finder.reader.read(crops, light=light)
        reached = T.edges_reached(corners, image.shape)
        finder.read_stretched(image, corners, readings, None, reached, light)
        at_edge = reached.any(axis=1)
        widths = [T.face_width(c) for c in corners]
        by = {}
        for name, reader, which in (
                ("cut", finder.cut_reader, np.flatnonzero(at_edge)),
                ("small", finder.small_reader, [i for i in range(len(corners))
                                                if not at_edge[i] and widths[i] < SMALL_PX_MOST]),
                ("hard", finder.hard_reader, np.flatnonzero(~at_edge))):
            read = reader.read([crops[i] for i in which], light=light) if len(which) else []
            by[name] = dict(zip((int(i) for i in which), read))
        for i, t in enumerate(labelled):
            right = {t["cls"]} | ({"5z"} if t["cls"] == "back" and white_backs else set())
            out.append(Looked(readings[i], by["cut"].get(i), by["small"].get(i), by["hard"].get(i), widths[i],
                              T.face_width(t["polygon"]) >= FLOOR_PX, frozenset(right)))
    return out


def replay(tiles: list[Looked], g: Gates) -> int:
    """Tiles from 20 px read right with these gates, as ``TileFinder.read_again`` reads them."""
    right = 0
    for t in tiles:
        r = t.first
        if t.cut is not None and r.confidence < g.cut_below:
            r = averaged(r, t.cut, g.cut_weight)
        if t.small is not None and r.confidence < g.small_below and t.width < g.small_px:
            r = averaged(r, t.small, g.small_weight)
        if t.hard is not None and r.confidence < g.hard_below:
            r = averaged(r, t.hard, g.hard_weight)
        right += t.counted and r.kind in t.right
    return right


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, nargs="+", help="generated scene folders (datasets.generate --format obb)")
    ap.add_argument("--shared", type=Path, default=None)
    args = ap.parse_args()
    shared = args.shared or default_shared()
    finder = T.TileFinder()
    print(f"command: python bench/bench_second_looks.py {' '.join(map(str, args.data))}   "
          f"({finder.reader.path.name})")
    looked = {}
    for d in args.data:
        looked[d.name] = look(finder, d, shared)
        print(f"  {d.name}: {len(looked[d.name])} tiles read, {sum(t.counted for t in looked[d.name])} from "
              f"{FLOOR_PX} px", flush=True)
    shipped = Gates()

    def row(label: str, g: Gates) -> None:
        counts = [replay(tiles, g) for tiles in looked.values()]
        print(f"  {label:<22} " + " ".join(f"{c:>7}" for c in counts) + f"  = {sum(counts):>7}", flush=True)

    print("tiles from 20 px read right, by folder: " + " ".join(looked))
    row("shipped gates", shipped)
    for name, values in SWEEP.items():
        for v in values:
            if v != getattr(shipped, name):
                row(f"{name} {v}", replace(shipped, **{name: v}))


if __name__ == "__main__":
    main()

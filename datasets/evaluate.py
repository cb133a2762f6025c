"""Score photo -> tiles against generated scenes, whose tables hold every tile's true kind, face polygon and lie.

A detection matches a labelled tile when their face polygons overlap with IoU >= 0.5 (greedy, most confident
first). Counted: labelled tiles found; of those, read correctly (kind, red fives apart) and with the right lie
(for kinds that look the same both ways up, only sideways or not); detections that overlap no tile in view at all
(IoU < 0.3 with every tile, labelled or not). Used by ``bench/bench_scenes.py`` and the tests.
``read_true_boxes`` measures the reader alone, as if the detector were perfect.
"""
from __future__ import annotations

import collections
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision.classes import SYMMETRIC


def iou(a, b) -> float:
    a, b = np.float32(a), np.float32(b)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = abs(cv2.contourArea(a)) + abs(cv2.contourArea(b)) - inter
    return inter / union if union > 0 else 0.0


def best_overlap(polygon, truth: list) -> tuple[float, int]:
    """The IoU of a polygon with the true polygon it overlaps most, and that one's index ((0.0, -1): none)."""
    return max(((iou(polygon, t), i) for i, t in enumerate(truth)), default=(0.0, -1))


def pair_by_overlap(found: list, truth: list, min_iou: float = 0.5) -> list[int | None]:
    """For each found polygon, in the order given (surest first), the index of the true polygon it overlaps most
    when that overlap is at least ``min_iou`` and the true one is not yet taken, else None."""
    out: list[int | None] = []
    taken: set[int] = set()
    for polygon in found:
        best, i = best_overlap(polygon, truth)
        if best >= min_iou and i not in taken:
            taken.add(i)
            out.append(i)
        else:
            out.append(None)
    return out


def same_lie(truth: str, read: str, kind: str) -> bool:
    if kind in SYMMETRIC:
        return (truth == "sideways") == (read == "sideways")
    return truth == read


def evaluate(finder, data: Path) -> dict:
    totals = collections.Counter()
    confusions = collections.Counter()
    times = []
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        t0 = time.perf_counter()
        tiles = finder.find(image)
        times.append(1000 * (time.perf_counter() - t0))
        truth = table["tiles"]
        labelled = [i for i, t in enumerate(truth) if t["labelled"]]
        totals["labelled"] += len(labelled)
        taken = set()
        polygons = [t["polygon"] for t in truth]
        for tile in sorted(tiles, key=lambda t: -t.confidence):
            best, i = best_overlap(tile.corners, polygons)
            if best < 0.3:
                totals["extra"] += 1
                continue
            if best < 0.5 or i in taken or not truth[i]["labelled"]:
                continue
            taken.add(i)
            totals["found"] += 1
            kind = truth[i]["cls"]
            if tile.kind == kind:
                totals["read"] += 1
            else:
                confusions[(kind, tile.kind)] += 1
            totals["lie"] += same_lie(truth[i]["lie"], tile.lie, kind)
    totals["scenes"] = len(times)
    return dict(totals=totals, confusions=confusions, median_ms=statistics.median(times) if times else 0.0)


WIDTH_BINS = (12, 16, 20, 30, 50)  # px: the issue asks for tiles from about 20 px wide upward


def width_bin(polygon) -> str:
    """A tile's width as the run time sees it (its face's shorter side, in image pixels), binned."""
    c = np.asarray(polygon, dtype=float)
    sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    width = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    low = max((b for b in WIDTH_BINS if b <= width), default=0)
    high = min((b for b in WIDTH_BINS if b > width), default=None)
    return f"{low}-{high} px wide" if high else f"{low}+ px wide"


WHITE_BACKS = "all, a white back read as a blank haku counted right"


def read_true_boxes(reader, data: Path, shared: Path | None = None) -> tuple[collections.Counter, collections.Counter]:
    """Every labelled tile cut as the run time cuts a detection that fits its face exactly, read by ``reader``:
    tiles read right and tiles seen, overall (``all``; and ``WHITE_BACKS``, counting right a face-down tile of a
    set with white backs read as a blank haku, as the reader is made to: ``datasets.crops``), by how they lie and
    by their width (``width_bin``)."""
    from .generate import default_shared, scene_style
    from .scene_crops import detection_cut

    shared = shared or default_shared()

    right, total = collections.Counter(), collections.Counter()
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        tiles = [t for t in table["tiles"] if t["labelled"]]
        white_backs = scene_style(table, shared).blank_back
        crops = [detection_cut(image, np.array(t["polygon"]))[0] for t in tiles]
        for t, r in zip(tiles, reader.read(crops)):
            for key in ("all", t["lie"], width_bin(t["polygon"])):
                right[key] += r.kind == t["cls"]
                total[key] += 1
            # a white back reads as a blank haku by design: the crop alone cannot tell them apart (the table does)
            right[WHITE_BACKS] += r.kind == t["cls"] or (t["cls"] == "back" and r.kind == "5z" and white_backs)
            total[WHITE_BACKS] += 1
    return right, total

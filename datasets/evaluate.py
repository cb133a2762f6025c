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
        for tile in sorted(tiles, key=lambda t: -t.confidence):
            overlaps = [(iou(tile.corners, truth[i]["polygon"]), i) for i in range(len(truth))]
            best, i = max(overlaps, default=(0.0, -1))
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


def read_true_boxes(reader, data: Path) -> tuple[collections.Counter, collections.Counter]:
    """Every labelled tile cut as the run time cuts a detection that fits its face exactly, read by ``reader``:
    tiles read right and tiles seen, overall (``all``) and by how they lie."""
    from .scene_crops import detection_cut

    right, total = collections.Counter(), collections.Counter()
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        tiles = [t for t in table["tiles"] if t["labelled"]]
        crops = [detection_cut(image, np.array(t["polygon"]))[0] for t in tiles]
        for t, r in zip(tiles, reader.read(crops)):
            for key in ("all", t["lie"]):
                right[key] += r.kind == t["cls"]
                total[key] += 1
    return right, total

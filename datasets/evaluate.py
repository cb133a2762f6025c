"""Score photo -> tiles against generated scenes, whose tables hold every tile's true kind, face polygon and lie.

A detection matches a labelled tile when its face polygon overlaps the tile's face inside the photo
(``in_frame``) with IoU >= 0.5 (greedy, most confident first). Counted: labelled tiles found; of those, read
correctly (kind, red fives apart) and with the right lie (for kinds that look the same both ways up, only sideways
or not); detections that overlap no tile in view at all (IoU < 0.3 with every tile, labelled or not). Used by
``bench/bench_scenes.py`` and the tests. ``read_true_boxes`` measures the reader alone, as if the detector were
perfect.
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
from vision.detector import run_time_boxes, square_up
from vision.reader import Light
from vision.tiles import edges_reached, face_width, straighten


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


def evaluate(finder, data: Path, scale: float = 1.0) -> dict:
    """Tiles found, read and lying right in a generate folder's scenes, each photo (and its true polygons) resized
    ``scale`` times first: a smaller photo than any generated."""
    totals = collections.Counter()
    confusions = collections.Counter()
    times = []
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        t0 = time.perf_counter()
        tiles = finder.find(image)
        times.append(1000 * (time.perf_counter() - t0))
        truth = table["tiles"]
        labelled = [i for i, t in enumerate(truth) if t["labelled"]]
        totals["labelled"] += len(labelled)
        taken = set()
        polygons = [in_frame(np.asarray(t["polygon"]) * scale, image.shape) for t in truth]
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


FLOOR_PX = 20  # px: the issue asks for tiles read from about this wide upward
WIDTH_BINS = (12, 16, FLOOR_PX, 30, 50)


def width_bin(polygon) -> str:
    """``face_width``, binned."""
    width = face_width(polygon)
    low = max((b for b in WIDTH_BINS if b <= width), default=0)
    high = min((b for b in WIDTH_BINS if b > width), default=None)
    return f"{low}-{high} px wide" if high else f"{low}+ px wide"


# How much of a face shows (the generator's ``visible``: neither hidden by a neighbour nor cut by the photo's edge)
VISIBLE_BANDS = (("wholly", 0.9), ("mostly", 0.6), ("partly", 0.0))


def visible_band(visible: float) -> tuple[str, float]:
    """The band of ``VISIBLE_BANDS`` a face of which ``visible`` shows lies in: its name and least share."""
    return next((name, least) for name, least in VISIBLE_BANDS if visible >= least)


def shown_key(visible: float) -> str:
    """``SHOWN`` for a face of which ``visible`` shows, by its band in ``VISIBLE_BANDS``."""
    name, least = visible_band(visible)
    return SHOWN.format(name, f"at least {least:.0%}" if least else "less")


WHITE_BACKS = "all, a white back read as a blank haku counted right"
FROM_20_PX = "all from 20 px wide (the issue's floor), a white back read as a blank haku counted right"
AT_EDGE = "at the photo's edge, from 20 px wide, a white back read as a blank haku counted right"
SHOWN = "from 20 px wide, the face {} shown ({}), a white back read as a blank haku counted right"


def read_true_boxes(reader, data: Path, shared: Path | None = None,
                    finder=None) -> tuple[collections.Counter, collections.Counter]:
    """Every labelled tile cut as the run time cuts a detection that fits its face exactly, read by ``reader``
    (and with a ``vision.tiles.TileFinder``, the tiles at the photo's edge and the small ones read again as its
    ``read_again`` does): tiles read right and tiles seen, overall (``all``; and
    ``WHITE_BACKS``, counting right a face-down tile of a set with white backs read as a blank haku, as the reader
    is made to: ``datasets.crops``; ``FROM_20_PX``, the same of the tiles from 20 px wide, the issue's floor;
    ``AT_EDGE``, those of them whose box reaches the photo's edge, ``vision.tiles.edges_reached``; ``SHOWN``, those
    of them by how much of their face shows, ``VISIBLE_BANDS``: a face over half hidden is labelled, as a detector
    should find it, but its glyph may not show at all), by how they lie and by their width (``width_bin``)."""
    from .generate import default_shared, scene_style
    from .scene_crops import detection_corners

    shared = shared or default_shared()

    right, total = collections.Counter(), collections.Counter()
    for path in sorted(data.glob("tables/*/*.json")):
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        tiles = [t for t in table["tiles"] if t["labelled"]]
        white_backs = scene_style(table, shared).blank_back
        corners = [detection_corners(np.array(t["polygon"]), image.shape) for t in tiles]
        crops = [straighten(image, c) for c in corners]
        light = Light(crops)
        readings = reader.read(crops, light=light)
        if finder is not None:
            finder.read_again(image, corners, readings, light=light)
        at_edge = edges_reached(corners, image.shape).any(axis=1) if corners else []
        for t, r, edge in zip(tiles, readings, at_edge):
            for key in ("all", t["lie"], width_bin(t["polygon"])):
                right[key] += r.kind == t["cls"]
                total[key] += 1
            # a white back reads as a blank haku by design: the crop alone cannot tell them apart (the table does)
            read = r.kind == t["cls"] or (t["cls"] == "back" and r.kind == "5z" and white_backs)
            wide = face_width(t["polygon"]) >= FLOOR_PX
            for key in (WHITE_BACKS,) + ((FROM_20_PX, shown_key(t["visible"])) if wide else ()) + \
                    ((AT_EDGE,) if wide and edge else ()):
                right[key] += read
                total[key] += 1
    return right, total


AP_IOUS = tuple(np.round(np.arange(0.5, 0.96, 0.05), 2))  # COCO's thresholds: mAP50 is the first, mAP50-95 all


def average_precision(sureness: list[float], correct: list[bool], positives: int) -> float:
    """COCO's interpolated average precision: the precision at each of 101 recall levels 0, 0.01 .. 1 is the best
    precision at that recall or more (0 where none reaches it), and AP is their mean. ``correct`` says which
    detections found a tile, ``positives`` how many tiles there are to find."""
    if positives == 0:
        return float("nan")
    order = np.argsort(-np.asarray(sureness, dtype=float), kind="stable")
    hits = np.asarray(correct, dtype=bool)[order]
    tp = np.cumsum(hits)
    recall = tp / positives
    precision = tp / np.arange(1, len(hits) + 1)
    best_from = np.maximum.accumulate(precision[::-1])[::-1] if len(hits) else precision
    levels = np.linspace(0, 1, 101)
    at = np.searchsorted(recall, levels, side="left")
    return float(np.mean([best_from[k] if k < len(hits) else 0.0 for k in at]))


def overlaps(boxes: list, truth: list, counted: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """(boxes, tiles): each box's IoU with each true box, and for the tiles not ``counted`` the share of the box
    that lies on it (``match_boxes``). Pairs whose bounds do not meet are 0 without a look."""
    n, m = len(boxes), len(truth)
    ious, inside = np.zeros((n, m)), np.zeros((n, m))
    if not n or not m:
        return ious, inside
    b, t = np.float32(boxes).reshape(n, 4, 2), np.float32(truth).reshape(m, 4, 2)
    b_area, t_area = [np.array([abs(cv2.contourArea(q)) for q in qs]) for qs in (b, t)]
    meet = ((b.min(1)[:, None] < t.max(1)[None]) & (t.min(1)[None] < b.max(1)[:, None])).all(2)
    for i, j in zip(*np.nonzero(meet)):
        inter = cv2.intersectConvexConvex(b[i], t[j])[0]
        union = b_area[i] + t_area[j] - inter
        ious[i, j] = inter / union if union > 0 else 0.0  # as ``iou``, the intersection found once
        if not counted[j] and b_area[i] > 0:
            inside[i, j] = inter / b_area[i]
    return ious, inside


def match_boxes(overlap: tuple[np.ndarray, np.ndarray], sureness: list[float], counted: list[bool],
                min_iou: float, taken: np.ndarray | None = None) -> list[bool | None]:
    """Each box, surest first as COCO matches them, given its ``overlaps``: True when it overlaps a counted true
    box not yet taken by at least ``min_iou`` (the one it overlaps most); None when at least ``min_iou`` of it lies
    on a tile not counted (one too small or too hidden to be asked for, where a box may find only the part that
    shows: neither right nor wrong, as COCO's crowd regions); False otherwise (no tile, or one already found).
    ``taken``, if given (a bool per true box, all False), is set where a true box was found."""
    ious, inside = overlap
    n, m = ious.shape
    counted = np.asarray(counted, dtype=bool)
    out: list[bool | None] = [False] * n
    taken = np.zeros(m, dtype=bool) if taken is None else taken
    for k in np.argsort(-np.asarray(sureness, dtype=float), kind="stable"):
        free = np.where(counted & ~taken & (ious[k] >= min_iou), ious[k], -1.0)
        if m and free.max() >= 0:
            taken[int(free.argmax())] = True
            out[k] = True
        elif m and (inside[k] >= min_iou).any():
            out[k] = None
    return out


def in_frame(polygon, shape: tuple[int, ...]) -> np.ndarray:
    """The part of a face inside the photo (the whole face where it lies wholly inside): what can be found of a
    tile cut by the photo's edge, as the detector's labels clip it (``datasets.generate``). A found tile is paired
    with this part: against the whole face, a tile less than half inside could never overlap it by half."""
    h, w = shape[:2]
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    _, inside = cv2.intersectConvexConvex(np.float32(polygon), frame)
    return np.float32(polygon) if inside is None or len(inside) < 3 else inside.reshape(-1, 2)


def true_box(polygon, shape: tuple[int, ...]) -> np.ndarray:
    """The box a detector should find for a tile's face: the smallest rectangle of its part inside the photo."""
    return cv2.boxPoints(cv2.minAreaRect(in_frame(polygon, shape)))




def detection_ap(detector, data: Path, min_width: float = 0.0, floor: float = 0.01) -> dict:
    """mAP50 and mAP50-95 of the run-time detector (``TileDetector.detect``, every box at least ``floor`` sure at
    the scale it chooses) on whole generated scenes, one class (a tile). A true box is ``true_box``, as the
    detector was trained to find it; a tile narrower than ``min_width`` px (``vision.tiles.face_width``) or not labelled
    (mostly hidden, or seen edge on) is not asked for, and a box on it counts neither way, as COCO treats its
    crowd regions and VOC its difficult objects. Also, for the boxes the run time keeps (``detect`` at its own
    threshold): ``found``, the tiles asked for that one of them overlaps by IoU 0.5, and ``on_no_tile``, the boxes
    overlapping every tile, asked for or not, by less than 0.3 (as ``evaluate``'s extra detections)."""
    per_iou = {t: ([], []) for t in AP_IOUS}
    positives = scenes = found = on_no_tile = 0
    by_visible = {name: [0, 0] for name, _ in VISIBLE_BANDS}  # found, asked for
    for path in sorted(data.glob("tables/*/*.json")):
        scenes += 1
        table = json.loads(path.read_text())
        image = cv2.imread(str(data / table["image"]))
        every = detector.candidates(image, floor=floor)
        dets = square_up(every)  # as ``detect(image, floor=floor)`` gives them
        boxes = [d.corners for d in dets]
        sureness = [d.confidence for d in dets]
        truth = [true_box(t["polygon"], image.shape) for t in table["tiles"]]
        counted = [bool(t["labelled"]) and face_width(t["polygon"]) >= min_width for t in table["tiles"]]
        positives += sum(counted)
        kept = run_time_boxes(every)  # as ``detect(image)`` gives them, from the same pass
        kept_overlap = overlaps([d.corners for d in kept], truth, counted)
        taken = np.zeros(len(truth), dtype=bool)
        found += sum(m is True for m in match_boxes(kept_overlap, [d.confidence for d in kept], counted, 0.5, taken))
        for t, was_counted, was_found in zip(table["tiles"], counted, taken):
            if was_counted:
                shown, _ = visible_band(t["visible"])
                by_visible[shown][0] += int(was_found)
                by_visible[shown][1] += 1
        on_no_tile += int((kept_overlap[0].max(axis=1, initial=0.0) < 0.3).sum())
        overlap = overlaps(boxes, truth, counted)
        for t, (sure, right) in per_iou.items():
            for s, m in zip(sureness, match_boxes(overlap, sureness, counted, t)):
                if m is not None:
                    sure.append(s)
                    right.append(m)
    ap = {t: average_precision(sure, right, positives) for t, (sure, right) in per_iou.items()}
    return dict(map50=ap[0.5], map50_95=float(np.mean(list(ap.values()))), positives=positives, scenes=scenes,
                found=found, on_no_tile=on_no_tile, by_visible=by_visible)

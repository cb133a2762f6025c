"""The tile detector at run time: an oriented-box YOLO (one class, `tile`) on onnxruntime, no torch.

It finds every tile, face up or down, as a rotated rectangle; the reader then says what each one is. The network
was trained on tiles about 19-150 px wide, so the photo is resized to put its tiles in that range: first so that
its long side is ``BASE_SIZE`` px (the size of the windows it was trained on: enough for a phone snapshot of a
hand), and when the tiles found there are small (a whole table from above), or few or none are found (small tiles
in a large scene), again at a larger scale, up to the photo's own resolution. 416 rather than 640: as accurate on
generated corner and table scenes (seeds 9 and 10), fewer false tiles, and faster (``models/README.md``).
A box less sure than the threshold is kept only among sure tiles of its size (``keep_beside``): hysteresis, as an
edge detector keeps a weak edge that continues a strong one.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .geometry import like_sized_near, mean_angle
from .models import cpu_session

BASE_SIZE = 416  # long side of the first pass, px
MIN_TILE_PX = 22  # tiles narrower than this (in the network's input) trigger a second, larger pass
GOOD_TILE_PX = 34  # the second pass aims for tiles about this wide
MAX_SIZE = 1600  # never run the network on more than this long side
# A photo under SMALL_PHOTO_PX on its long side whose tiles look too small or too few may be read enlarged up to
# SMALL_PHOTO_ENLARGED times (a larger photo, never beyond its own size): a small photo of one tile on a cluttered
# desk lost its tile, 31 px wide, in the real single-tile photos made 480 px wide, and 16 px wide at 240 px
# (``bench/bench_real_conditions.py --single``: 99 -> 106 and 18 -> 86 of 111 read, false tiles 56 -> 37 and 17 ->
# 48; the whole-set photos at 480 and 240 px, 333 of 333 both ways; session 65). Dev scenes made 594 px (``python
# bench/bench_scenes.py --data DIR --scale 0.58``): snapshots of seed 18 read right 22,875 -> 23,097 of 25,148 tiles,
# boxes on no tile 188 -> 152; whole tables of seed 20 17,914 -> 18,058 of 18,798, 141 -> 99; a third more time
# (171 -> 267 and 212 -> 284 ms). Made 800 px, seed 18's snapshots would gain little from a higher line (1024: 23,398
# -> 23,467 read right, 222 -> 293 ms). The generated scenes as made (1024 px and more) are never so small
SMALL_PHOTO_PX = 640
SMALL_PHOTO_ENLARGED = 2
# a table shows dozens of tiles and a hand 13 or more: fewer found than this may be small tiles in a larger scene
# (one tile on a cluttered desk, whose wallpaper gave big false boxes), so the photo is read again as much larger
# as leaves the boxes found at most MAX_TILE_PX wide (the widest tiles the network learnt: a close-up of a few
# tiles stays about as it was)
FEW_TILES = 6
# A photo read at its own size whose tiles are still narrower than SMALL_TILE_PX there (a far hand in a 1024 px
# snapshot, 10-18 px wide; the network learnt tiles from about 19 px) has the region around them, SMALL_REGION_MARGIN
# of their long sides wider each way, read again enlarged SMALL_PASS_SCALE times; the boxes under SMALL_TILE_PX
# found there and those of the first pass under SMALL_KEPT_PX are suppressed together, the surest first
# (``TileDetector._small_tiles_enlarged``). Chosen on dev seeds 18, 95 (snapshots) and 20, 96 (whole tables) end to
# end, session 50: hands 219, 166, 228, 184 -> 225, 169, 229, 184 of 286, 216, 251, 208 (a region's boxes taking the
# place of those they cover instead: 222, 168, 229, 184; the whole photo enlarged: 225, 167, 229, 184, for about
# half as much time again; enlarged 2 times: 221, 167, 227, 184; small from 21 px: 218, 173, 228, 185). Seed 18's
# tiles found by the run time's boxes 24,485 -> 24,584 of 25,148, from 20 px wide 19,478 -> 19,499 of 19,860 (mAP50
# the same, 0.9791). A photo larger than the detector's largest pass (a phone's) is never read at its own size
SMALL_TILE_PX = 18
SMALL_PASS_SCALE = 1.5
SMALL_REGION_MARGIN = 3.0
SMALL_KEPT_PX = 1.5 * SMALL_TILE_PX
MAX_TILE_PX = 150
# Two boxes on one tile overlap with an IoU of 0.35-0.5 about twice a photo (one slightly turned, or one taking in
# the tile's side): at 0.5 both were kept and the extra one broke its row. Tiles side by side overlap far less,
# and standing tiles seen aslant that overlap more than this are rare (chosen on generated scenes of seeds 9, 10).
NMS_IOU = 0.3
# A box less sure than the threshold but at least BESIDE_SHARE of it is kept when at least BESIDE_SURE sure boxes of
# about its size lie around it (centres within BESIDE_REACH of its long side, sizes within BESIDE_RATIO): a tile in
# a row or pond the network saw less clearly, where an unsure box on a desk's clutter is dropped (``keep_beside``).
# Chosen on dev seeds 9, 10, 16, 17 and the real single-tile photos (session 21): with 1, 2, 3, 4 sure neighbours
# the snapshots' hands gained alike (+3 of seed 9's 135, +1 of seed 17's 132, the tables the same) while the
# single-tile photos' false tiles rose 288 -> 373, 335, 307, 294
BESIDE_SHARE = 0.6
BESIDE_REACH = 1.6
BESIDE_RATIO = 1.6
BESIDE_SURE = 4
STRIDE = 32
LINEAR_FROM = 0.9  # ``letterbox``: the scale from which it resizes linearly


@dataclass(frozen=True)
class Detection:
    """A rotated rectangle in image pixels: centre, (width, height), angle in degrees (OpenCV's RotatedRect)."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float
    confidence: float

    @property
    def corners(self) -> np.ndarray:
        return cv2.boxPoints((self.center, self.size, self.angle))


def letterbox(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """Resize so the long side is ``long_side`` and pad right/bottom to a multiple of the stride.
    Returns the network input (1, 3, H, W) float32 RGB in [0, 1] and the scale from image to input."""
    h, w = image.shape[:2]
    whole = int(max(h, w) / long_side)
    if whole >= 2:  # shrink by a whole factor first: OpenCV's area resize is fast only at one (1280x720 to 416
        # px: 2.9 -> 1.5 ms; a 4032 x 3024 phone photo to 1600 px: 25 -> 14 ms). The right and bottom edges lose
        # under ``whole`` pixels, the scale stays exact (a strip thinner than ``whole`` keeps one row or column)
        h, w = max(1, h // whole), max(1, w // whole)
        image = cv2.resize(image[:h * whole, :w * whole], (w, h), interpolation=cv2.INTER_AREA)
    scale = long_side / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    # what is left to shrink after the whole factor is less than 2 times. Under LINEAR_FROM, an area resize
    # (the linear one read the single-tile photos' clutter as 9 more false tiles); from it, where an output pixel
    # spans at most 1.1 input pixels and both give about the same pixels, a linear one, 6 times as fast (1280 x
    # 720 at 416 px: 426 x 240 to 416 x 234, 1.3 -> 0.2 ms); enlarging, linear too
    interp = cv2.INTER_AREA if scale < LINEAR_FROM else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp) if (nh, nw) != (h, w) else image
    scale /= max(whole, 1)
    ph, pw = -(-nh // STRIDE) * STRIDE, -(-nw // STRIDE) * STRIDE
    canvas = np.full((ph, pw, 3), 114, np.uint8)
    canvas[:nh, :nw] = resized
    blob = np.empty((1, 3, ph, pw), np.float32)
    for k in range(3):  # RGB planes from BGR, one at a time: 4x faster than a transposed copy (1600 px: 23 -> 5 ms)
        np.multiply(canvas[:, :, 2 - k], np.float32(1 / 255), out=blob[0, k], casting="unsafe")
    return blob, scale


class TileDetector:
    def __init__(self, model_path: str | Path, threads: int = 2):
        self.session = cpu_session(model_path, threads)
        self.input_name = self.session.get_inputs()[0].name

    def detect(self, image: np.ndarray, conf: float = 0.35, iou: float = NMS_IOU,
               floor: float | None = None, small_pass: bool = True) -> list[Detection]:
        """Tiles in a BGR image, most confident first, at the scale that suits their size (judged on the boxes
        at least ``conf`` sure); less sure boxes among sure ones kept (``keep_beside``); near-square boxes turned
        to their neighbours' angle (``square_up``). With ``floor``, every box at least that sure at the scale
        chosen instead, as a precision-recall curve needs (``datasets.evaluate.detection_ap``); the surer boxes
        are found the same, since suppression keeps the surest first. ``small_pass=False`` skips the second look
        at small tiles (``_small_tiles_enlarged``), as live mode does on every other frame."""
        every = self.candidates(image, conf, iou, floor, small_pass)
        return square_up(every) if floor is not None else run_time_boxes(every, conf)

    def candidates(self, image: np.ndarray, conf: float = 0.35, iou: float = NMS_IOU,
                   floor: float | None = None, small_pass: bool = True) -> list[Detection]:
        """``detect``'s boxes before it keeps and squares them: every box at least ``floor`` sure (without it,
        ``conf * BESIDE_SHARE``) at the scale chosen. One pass then gives both a curve's boxes and the run time's
        (``run_time_boxes``), since suppression keeps the surest first."""
        long = max(image.shape[:2])
        size = min(BASE_SIZE, _round_up(long))
        low = conf * BESIDE_SHARE if floor is None else min(floor, conf * BESIDE_SHARE)
        every = self.detect_at(image, size, low, iou)
        # none found, or narrow ones, may mean tiles too small to see at this size: read the photo again larger.
        # Boxes on tiles too small to see misjudge their size, so judge once more from the larger pass
        for _ in range(2):
            found = [d for d in every if d.confidence >= conf]
            px = np.median([min(d.size) for d in found]) * size / long if found else 0.0  # tile width in the input
            few = len(found) < FEW_TILES
            if px >= MIN_TILE_PX and not few:
                break
            # few found: as large as the boxes found allow, in case they are false and the tiles small
            aim = _round_up(size * (MAX_TILE_PX if few else GOOD_TILE_PX) / px) if px else MAX_SIZE
            bigger = min(MAX_SIZE, _round_up(long * (SMALL_PHOTO_ENLARGED if long < SMALL_PHOTO_PX else 1)), aim)
            if bigger <= size:
                break
            larger = self.detect_at(image, bigger, low, iou)
            if any(d.confidence >= conf for d in larger):
                every = larger
            size = bigger
        if small_pass and _round_up(long) <= size < MAX_SIZE:  # read at its own size already, and may be enlarged
            every = self._small_tiles_enlarged(image, every, conf, low, iou)
        return every

    def _small_tiles_enlarged(self, image: np.ndarray, every: list[Detection], conf: float, low: float,
                              iou: float) -> list[Detection]:
        """The boxes, those on tiles under SMALL_TILE_PX wide (a far hand in a 1024 px snapshot) found again on
        the region around them enlarged SMALL_PASS_SCALE times: the boxes under SMALL_TILE_PX found there (but
        not on a larger tile, nor where the region cuts the photo) and the first pass's small ones go through one
        suppression, the surest first, so that the boxes above any floor do not depend on it (``detect``'s
        ``floor``)."""
        small = [d for d in every if d.confidence >= conf and min(d.size) < SMALL_TILE_PX]
        if not small:
            return every
        h, w = image.shape[:2]
        corners = np.concatenate([d.corners for d in small])
        margin = SMALL_REGION_MARGIN * max(max(d.size) for d in small)
        x0, y0 = np.maximum(corners.min(0) - margin, 0).astype(int)
        x1, y1 = np.minimum(corners.max(0) + margin, [w, h]).astype(int)
        if x1 - x0 < SMALL_TILE_PX or y1 - y0 < SMALL_TILE_PX:  # boxes in the padding beyond the photo
            return every
        region = image[y0:y1, x0:x1]
        long = max(region.shape[:2])
        found = self.detect_at(region, min(MAX_SIZE, _round_up(long * SMALL_PASS_SCALE)), low, iou)
        # a box within a small tile's width of where the region cuts the photo may be a tile cut by it
        lo = [x0 + SMALL_TILE_PX if x0 > 0 else -np.inf, y0 + SMALL_TILE_PX if y0 > 0 else -np.inf]
        hi = [x1 - SMALL_TILE_PX if x1 < w else np.inf, y1 - SMALL_TILE_PX if y1 < h else np.inf]
        taken = []
        for d in found:
            centre = (d.center[0] + x0, d.center[1] + y0)
            if min(d.size) < SMALL_TILE_PX and lo[0] < centre[0] < hi[0] and lo[1] < centre[1] < hi[1]:
                taken.append(Detection(centre, d.size, d.angle, d.confidence))
        big = [d for d in every if min(d.size) >= SMALL_KEPT_PX]
        big_boxes = [b.corners.astype(np.float32) for b in big]
        taken = [t for t in taken if not any(_centre_in(t, box) for box in big_boxes)]
        pool = [d for d in every if min(d.size) < SMALL_KEPT_PX] + taken
        rects = [(d.center, d.size, d.angle) for d in pool]
        idx = np.asarray(cv2.dnn.NMSBoxesRotated(rects, [d.confidence for d in pool], 0.0, iou), dtype=int).ravel()
        return sorted(big + [pool[i] for i in idx], key=lambda d: -d.confidence)

    def detect_at(self, image: np.ndarray, long_side: int, conf: float = 0.35,
                  iou: float = NMS_IOU) -> list[Detection]:
        """Tiles found with the photo resized to ``long_side`` px."""
        blob, scale = letterbox(image, long_side)
        out = self.session.run(None, {self.input_name: blob})[0][0]  # (4 + classes + 1, anchors)
        scores = out[4:-1].max(0)
        keep = scores >= conf
        if not keep.any():
            return []
        cx, cy, w, h = out[:4, keep] / scale
        angle = np.degrees(out[-1, keep])
        scores = scores[keep]
        rects = [((float(x), float(y)), (float(a), float(b)), float(t)) for x, y, a, b, t in zip(cx, cy, w, h, angle)]
        idx = cv2.dnn.NMSBoxesRotated(rects, scores.tolist(), conf, iou)
        idx = np.asarray(idx, dtype=int).ravel()
        idx = idx[np.argsort(-scores[idx])]
        return [Detection(rects[i][0], rects[i][1], rects[i][2], float(scores[i])) for i in idx]


def run_time_boxes(candidates: list[Detection], conf: float = 0.35) -> list[Detection]:
    """The boxes ``detect`` keeps of its ``candidates`` (those at least ``conf * BESIDE_SHARE`` sure, whatever
    floor they were found at)."""
    low = conf * BESIDE_SHARE
    return square_up(keep_beside([d for d in candidates if d.confidence >= low], conf))


def keep_beside(detections: list[Detection], conf: float) -> list[Detection]:
    """The sure detections (at least ``conf``) and the less sure ones with ``BESIDE_SURE`` sure ones of about
    their size around them; the order (most confident first) is kept."""
    sure = [d for d in detections if d.confidence >= conf]
    if len(sure) == len(detections) or not sure:
        return sure
    centres = np.array([d.center for d in sure])
    longs = np.array([max(d.size) for d in sure])
    return [d for d in detections if d.confidence >= conf
            or like_sized_near(centres, longs, d.center, max(d.size), BESIDE_REACH, BESIDE_RATIO).sum() >= BESIDE_SURE]


SQUARE_ASPECT = 1.3  # a box less elongated than this has no clear long side: its angle is a guess
NEIGHBOUR_REACH = 1.6  # neighbours' centres within this many of the box's long sides


def square_up(detections: list[Detection]) -> list[Detection]:
    """Boxes about as wide as tall take their angle, modulo a quarter turn, from their neighbours'.

    Seen from above at a steep angle a standing tile's face is nearly square, and so is a lying tile seen low:
    the detector's angle for such a box is a guess, up to 45 degrees off its row (a row of square faces came back
    with one box turned on its corner). Tiles side by side share their angle modulo 90 degrees (a sideways tile
    too), so a near-square box is turned the least way that agrees with the weighted mean angle of the boxes
    around it, when those agree among themselves; elongated neighbours, whose angle is sure, weigh most."""
    if len(detections) < 2:
        return detections
    centres = np.array([d.center for d in detections])
    sizes = np.array([d.size for d in detections])
    long, short = sizes.max(1), np.maximum(sizes.min(1), 1e-6)
    angles = np.radians([d.angle for d in detections])
    weight = np.clip(long / short - 1, 0.05, 1.0)
    out = list(detections)
    for i, d in enumerate(detections):
        if long[i] / short[i] >= SQUARE_ASPECT:
            continue
        near = np.linalg.norm(centres - centres[i], axis=1) < NEIGHBOUR_REACH * long[i]
        near[i] = False
        if not near.any():
            continue
        mean = mean_angle(angles[near], weight[near], np.pi / 2, 0.7)  # modulo a quarter turn
        if mean is None:  # the neighbours disagree: leave it
            continue
        turn = (np.degrees(mean) - d.angle + 45) % 90 - 45  # the least turn that agrees
        out[i] = Detection(d.center, d.size, d.angle + turn, d.confidence)
    return out


def _centre_in(a: Detection, box: np.ndarray) -> bool:
    """Whether box a's centre lies in a box given by its corners (float32)."""
    return cv2.pointPolygonTest(box, (float(a.center[0]), float(a.center[1])), False) >= 0


def _round_up(n: float) -> int:
    return int(-(-n // STRIDE) * STRIDE)

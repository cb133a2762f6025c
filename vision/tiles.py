"""Photo -> tiles: the detector finds each tile as a rotated rectangle, the reader reads its straightened crop.

A standing tile seen aslant shows a sheared face, whose rectangle hugs only its sides; there the face is cut as the
parallelogram in the rectangle whose top edge runs along the tile's row (``face_corners``).

Each tile comes back as a ``layout.Tile``: kind in the rules notation (``0m`` a red five, ``back`` face down),
confidence, and its face polygon with corners (top-left, top-right, bottom-right, bottom-left) *as the glyph
reads*, so the polygon itself says how the tile lies. The reader's turn head decides which side of the rectangle
is the glyph's top; where several fit (tiles that look the same both ways up, ``classes.SYMMETRIC``: 2s, 8p, a
back...; or a quarter turned, ``QUARTER_SYMMETRIC``: 5p, haku...) the one nearest the photo's top is taken, so
such a tile is never reported upside down, and the row it lies in has the last word (``layout``).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from .classes import BLANK_FACES
from .detector import Detection, TileDetector
from .geometry import like_sized_near, mean_angle
from .image import load_image
from .layout import MIN_FACE_AREA, Tile
from .models import (CUT_READER, DETECTOR, HARD_READER, SMALL_READER, model_file, shipped_reader, shipped_refiner,
                     shipped_specialist)
from .reader import Light, TileReader, averaged, middle_value

CROP_MARGIN = 0.03  # each side, as a fraction of the tile's size: the reader learned slightly loose crops
MAX_CROP_H = 96  # larger crops are warped straight to this height: the reader needs 64 px; smaller warps are faster
# A reading less sure than RECUT_BELOW, of a tile at least RECUT_MIN_PX wide, is tried again at other angles and
# changed when another cut reads surer by RECUT_MARGIN (``TileFinder._read_unsure_again``). Chosen on generated
# scenes of seeds 9, 10, 11 and 16: taking any surer cut turned right readings wrong (4s as 6s). A tile under 30 px
# shows too few edge pixels for ``edge_angle`` (the floor made no difference on those seeds).
RECUT_BELOW = 0.9
RECUT_MARGIN = 0.1
RECUT_MIN_PX = 30
RECUT_MIN_TURN = 10  # degrees: another angle nearer the box's own than this cuts nearly the same crop
EDGE_PATCH_PX = 48
# A box whose two directions are both at least SHEAR_FROM degrees off its row's is a sheared face, cut as the
# parallelogram in it (``face_corners``) when the face's sides are then at least SHEAR_SIDE of the box's length.
# Chosen on generated scenes of seeds 9, 10, 16, 17 end to end (session 24): dev hands 557 as rectangles, 560, 566,
# 564, 565 cut so from 5, 10, 15, 20 degrees on; SHEAR_SIDE 0.15, 0.3, 0.5 gave 565, 566, 566. Session 51 took 0.5:
# a face sheared so far that the detector's box falls short of it (its top and sides 40-50 degrees apart, at the
# near end of a low snapshot's row) was cut as a parallelogram of short sides that overlapped it less than the box
# (IoU 0.64 -> 0.44); on dev seeds 18, 19, 20, 95, 96 (`bench_tables.py --pixels`, the tiles saved and matched to
# their labels) tiles matched and read right +68, +22, +11, +44, +9, boxes on no tile -63, -17, -7, -45, -3, hands
# the same 1,012 of 1,187 (225, 205 -> 204, 229, 169 -> 170, 184); 0.4 gave 1,011 (225, 204, 229, 169, 184), 0.7
# lost hands (seeds 18, 19, 20: 222, 199, 229).
SHEAR_FROM = 10
SHEAR_SIDE = 0.5
ROW_REACH = 1.6  # a row's neighbours: centres within this many of the tile's long side...
ROW_SIZE_RATIO = 1.6  # ...and no more than this much larger or smaller
# A tile whose face is more than this share covered by surer tiles is a box straddling two of them, dropped
# (``drop_straddling``). Chosen on generated scenes of seeds 9, 10, 16 and 17: 0.6 lost a snapshot, 0.5 dropped
# real tiles that overlap in a steep photo.
STRADDLE_COVER = 0.65
# ...unless the detector found its box at least this sure: a row seen low and aslant shows sheared faces, whose
# rectangles are up to 1.4 times as long as the faces and overlap their neighbours', and a tile read unsurely there
# was covered so by its two neighbours' boxes (a 2z 112 px wide in a 2048 px snapshot, its box 0.89 sure). Straddling
# boxes are less sure than that: on dev seeds 18-20 end to end 592 hands (593 with no such drop, 2 whole-table
# hands fewer), 595 kept from 0.7 sure, 594 from 0.6, 593 from 0.8 (session 28)
STRADDLE_BOX_SURE = 0.7
FRAME_PX = 3  # a box reaching this near the photo's edge is cut by the frame...
CUT_SHORT = 0.5  # ...and dropped when its short side is under this share of the uncut tiles' median...
SLIVER_SURE = 0.5  # ...unless it is read at least this surely (a far hand's tile cut by a snapshot's edge)
# A plain tile (a back, a blank haku) cut by the photo's edge is dropped where no tile showing a face is in its
# group (``drop_plain_at_edge``: tiles linked by centres within PLAIN_NEAR long sides; only tiles above the confidence
# floors count). On the 111 real single-tile photos 129 of the 216 false tiles were plain boxes at the edge (a
# curtain's folds, a desk mat's print); session 38, chosen there and on the dev seeds: false tiles 216 -> 76 at 1.5
# (78 with the unsure tiles vouching too; 88 dropping every plain box at the edge with no face within 2 long sides,
# which lost 2 dev hands: a closed kan's back and a pon of haku at the edge; 151 at 2.0), dev hands 991 of 1,187
PLAIN_NEAR = 1.5
# A face cut by the frame is read again stretched back out (``whole_faces``) to the shape of its uncut neighbours
# (the nearest few, centres within this many of its long side), where that adds more than this share to its cut side
WHOLE_REACH = 3.0
WHOLE_NEIGHBOURS = 3
WHOLE_LEAST = 0.1
WHOLE_MOST = 1.5  # ...and no more than this share: a tile less than 40 % inside (the labels' floor) is a sliver
# The cut reader's share in the reading of a tile at the photo's edge (``TileFinder._read_at_frame``). Chosen on the
# tiles at the edge of dev seeds 18-20, 95 and 96 from 20 px wide, cut from their true polygons as the detector
# boxes them (5,788): the pair as before 4,975 read right, the cut reader alone 5,270, its reading averaged with
# the pair's at 0.5, 0.6, 0.7, 0.8: 5,228, 5,260, 5,273, 5,273; alone it reads 16 fewer of the uncut tiles
# touching the edge, which the pair reads well (session 34, one-off script)
CUT_READER_WEIGHT = 0.7
# ...and it is asked only where the pair's reading is less sure than this: the same 5,273 tiles read right, it
# reads 2,230 of the 5,788 rather than all (from 0.8: 5,261; 0.95, 0.98: 5,273). The real whole-set photos at
# 1280x720 still show it 2-8 tiles each: about 2 ms a photo (session 34; ``bench_detector.py --without-specialists``)
CUT_READ_BELOW = 0.9
# The small reader's share in the reading of a whole face (not at the photo's edge) narrower than SMALL_PX, its
# box's short side, that the pair reads less than SMALL_READ_BELOW sure (``TileFinder._read_small``): a far hand's
# tiles in a 1024 px snapshot, 10-20 px wide, are where its hands are lost. Chosen on the whole faces of dev seeds
# 18, 20, 95, 96 cut from their true polygons as the detector boxes them (one-off script, session 35): of 29,325
# under 25 px the pair read 28,073 right, with these gates 28,258 (snapshots +177; whole tables +8, seed 20 -3);
# under 30 px the snapshots gained about as much and seed 20's tables lost 18; weight 0.5 a few fewer, from 0.8
# sure the same
SMALL_PX = 25
SMALL_READER_WEIGHT = 0.7
SMALL_READ_BELOW = 0.9
# The hard reader's share in the reading of a whole face (not at the photo's edge) that the run time's other looks
# leave less than HARD_READ_BELOW sure (``TileFinder._read_hard``). It learnt only such tiles: those the pair reads
# under 0.9 sure, whatever makes them hard (blur, a neighbour hiding part of the face, a glyph style). Alone it
# reads them worse than the pair; beside it, better. Chosen on dev seeds 18, 95 (snapshots) and 20 (whole tables),
# tiles from 20 px cut from their true polygons, as the run time reads them (one-off script, session 42): net
# tiles read right +21, +27, +23 at (0.7, 0.5); at weight 0.3 +14, +23, +13, at 0.7 +14, +25, +25; below 0.5 or
# 0.9 sure about the same; the tiles at the photo's edge too (after the cut reader): +10, +17, +17
HARD_READER_WEIGHT = 0.5
HARD_READ_BELOW = 0.7
# The cut, small and hard readers' seven gates above were measured again beside reader w1 (session 64, ``python
# bench/bench_second_looks.py`` on dev seeds 18, 20, 95, 96, 19): each moved a step either way changed the 81,307
# tiles from 20 px read right by -32 to +12, so they stay as chosen beside v6.
# The refiner (``TileFinder._read_refined``) moves the box of a tile whose reading is less sure than REFINE_BELOW,
# and the tile is read again there where a corner moves REFINE_MOVED of the face's width or more (mean of the 8
# coordinates). Chosen on dev seed 18 with r1, the shipped refiner's first run (session 37): of its tiles from 20 px
# wide read first under 0.9 sure (3,396), the refined box read surer fixed 76 and broke 15; under 0.7 sure and
# moved 4 % or more, 68 and 13, with a tenth of the second reads (real whole-set photos: 1.2 boxes a photo instead
# of 11, where the boxes move 1.8 % at the median); end to end dev 18's hands 213 -> 218 of 286 at (0.9, 0), 217
# at (0.7, 0.04)
REFINE_BELOW = 0.7
REFINE_MOVED = 0.04
# a box less sure than this, the detector's confidence times the reader's, is dropped: of such boxes in the dev
# scenes' detections (seeds 9, 10, 16-20: 501 of 119,536) 70 % lie on no tile and 94 % are not read right, and they
# end up in hands as one tile too many (dev hands end to end 1,130 -> 1,133 of 1,427; 0.08-0.15 gave 1,132-1,133)
LEAST_SURE = 0.1
# ...and one read as haku, a blank face, at least this sure: a box on a tile's blank side, a white back's edge or
# a scrap of paper reads as one. Of the haku boxes 0.1-0.2 sure in those detections (101), half lie on no tile and
# a fifth on a haku (dev hands end to end 1,136 -> 1,139; 0.16 and 0.2 the same, 0.25 1,137, 0.3 1,133)
LEAST_SURE_BLANK = 0.2
# ...and one read as haku no darker than this fraction of the photo's faces (``Light.brightness``; the middle's
# median HSV value against theirs): a blank face is white, and a box on a dark scrap (a monitor's foot, a shadowed
# cloth) reads as one too, its crop colourless. Of the real single-tile photos' 31 false haku, 7 were under 0.25 of
# the photo's faces; of dev seeds 18, 20, 95, 96's 2,162 blank haku and white backs at least half shown (cut from
# their true polygons), none under 0.53 (0.1st percentile 0.58; session 61)
DARK_BLANK_BELOW = 0.45


def upright_corners(det: Detection) -> np.ndarray:
    """The rectangle's corners TL, TR, BR, BL with its long side vertical and its top toward the photo's top."""
    (cx, cy), (w, h), angle = det.center, det.size, det.angle
    t = np.radians(angle)
    u = np.array([np.cos(t), np.sin(t)])  # OpenCV: the width runs along u, the height along v
    v = np.array([-np.sin(t), np.cos(t)])
    up, across, long, short = (v, u, h, w) if h >= w else (u, v, w, h)
    if up[1] > 1e-6 or (abs(up[1]) <= 1e-6 and up[0] > 0):  # point the top toward the photo's top (or left)
        up = -up
    up = up / np.linalg.norm(up)
    right = np.array([-up[1], up[0]])
    c = np.array([cx, cy])
    return np.array([c + up * long / 2 - right * short / 2, c + up * long / 2 + right * short / 2,
                     c - up * long / 2 + right * short / 2, c - up * long / 2 - right * short / 2])


def faces(detections: list[Detection], smallest: bool = True) -> tuple[list[np.ndarray], list[float | None]]:
    """Each detection's face as the reader cuts it, and its row (``row_angles``): where the boxes are their faces'
    smallest rectangles (``smallest``), a sheared face in its row is cut as ``face_corners``; else every face is
    cut as its box."""
    rows = row_angles(np.array([d.center for d in detections]), np.array([max(d.size) for d in detections]))
    return [face_corners(d, row if smallest else None) for d, row in zip(detections, rows)], rows


def face_corners(det: Detection, row: float | None) -> np.ndarray:
    """The face's corners in ``upright_corners``' order: the detector's rectangle, or where its row (degrees,
    ``row_angles``) runs aslant across both its directions, the parallelogram in it whose top edge runs along the row.

    Why: a standing tile seen aslant shows a sheared face. The detector's rectangle (it learnt the faces'
    smallest rectangles) lies along one of the face's edge pairs, and the other pair, the top edge that runs along
    the row, lies between the rectangle's directions, up to 45 degrees off both. From the rectangle alone, which
    way the tile lies in its row is a coin's toss, the row's tiles do not line up as neighbours, and the reader
    reads a sheared glyph. With one edge pair on two sides of the rectangle (its direction ``b``, length ``L``,
    width ``W``), the other runs along the row at an angle ``t`` to ``b`` and spans the width: it is ``W / sin t``
    long, and the pair on ``b`` is ``L - W cot t``. Of the rectangle's two directions, ``b`` is the one that leaves
    the larger face."""
    c = upright_corners(det)
    if row is None:
        return c
    along = np.array([np.cos(np.radians(row)), np.sin(np.radians(row))])
    axes = [(c[3] - c[0], c[1] - c[0]), (c[1] - c[0], c[3] - c[0])]  # (b, across b) each way
    off = np.degrees(np.arccos(min(1.0, abs(float(along @ axes[0][0]) / np.linalg.norm(axes[0][0])))))
    if min(off, 90 - off) < SHEAR_FROM:
        return c
    best = None
    for b, across in axes:
        length, width = float(np.linalg.norm(b)), float(np.linalg.norm(across))
        cos = abs(float(along @ b)) / length
        top = width / np.sqrt(1 - cos * cos)
        side = length - top * cos
        if side >= SHEAR_SIDE * length and (best is None or side * width > best[0]):
            best = (side * width, b / length * side, along * top)
    if best is None:
        return c
    _, side, top = best
    up, right = (side, top) if np.linalg.norm(side) >= np.linalg.norm(top) else (top, side)  # long side vertical
    if up[1] > 0 or (abs(up[1]) <= 1e-6 and up[0] > 0):  # the top toward the photo's top (or left)
        up = -up
    if float(right @ np.array([-up[1], up[0]])) < 0:
        right = -right
    m = c.mean(axis=0)
    return np.array([m + (up - right) / 2, m + (up + right) / 2, m - (up - right) / 2, m - (up + right) / 2])


def straighten(image: np.ndarray, corners: np.ndarray, margin: float = CROP_MARGIN) -> np.ndarray:
    """The tile cut out and turned so that corners[0] is top-left, with a small margin all round."""
    short = np.linalg.norm(corners[1] - corners[0])
    long = np.linalg.norm(corners[3] - corners[0])
    scale = min(1.0, MAX_CROP_H / max(long, 1.0))
    w, h = max(8, round(short * scale)), max(10, round(long * scale))
    mx, my = margin * w, margin * h
    dst = np.float32([[mx, my], [w - mx, my], [w - mx, h - my], [mx, h - my]])
    M = cv2.getPerspectiveTransform(np.float32(corners), dst)
    return cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _upward(corners: np.ndarray) -> float:
    """How far the glyph's up (from the bottom edge to the top edge) points toward the photo's top, then left."""
    up = corners[0] + corners[1] - corners[2] - corners[3]
    return float(-up[1] - 1e-3 * up[0])


class TileFinder:
    """Both models, loaded once: ``find`` turns an image (path, bytes or BGR array) into tiles."""

    # the detector's boxes are its faces' smallest rectangles (its training labels), which ``face_corners`` needs
    smallest_boxes = True

    def __init__(self, detector: str | Path | None = None, reader: str | Path | None = None):
        self.detector = TileDetector(detector or model_file(DETECTOR))
        self.reader = TileReader(reader) if reader else shipped_reader()
        # reads the tiles the photo's edge cuts or touches, beside the pair (``read_again``); with other
        # weights for the reader, none
        self.cut_reader = None if reader else shipped_specialist(CUT_READER)
        # reads the small whole faces the pair is unsure of (``read_again``); with other weights, none
        self.small_reader = None if reader else shipped_specialist(SMALL_READER)
        # reads the whole faces the other looks leave unsure (``read_again``); with other weights, none
        self.hard_reader = None if reader else shipped_specialist(HARD_READER)
        # moves an unsure tile's box onto its face (``_read_refined``); where the models folder has none, none
        self.refiner = shipped_refiner()
        self._profiles: dict = {}

    def find(self, source, conf: float = 0.35, profile: str | None = None, small_pass: bool = True) -> list[Tile]:
        """``profile``: the name of a calibration profile of the user's set (``vision.calibrate``);
        ``small_pass``: whether the detector looks again at small tiles (``TileDetector.detect``)."""
        image = load_image(source)
        detections = [d for d in self.detector.detect(image, conf=conf, small_pass=small_pass)
                      if d.size[0] * d.size[1] >= MIN_FACE_AREA]  # a point or a line is no tile
        corners, rows = faces(detections, self.smallest_boxes)
        # slivers at the photo's edge are dropped whatever they read (the reading only lowers a box's confidence)
        kept = np.flatnonzero(~slivers(corners, [d.confidence for d in detections], image.shape))
        detections, corners, rows = ([x[k] for k in kept] for x in (detections, corners, rows))
        own_set = self.profile(profile)
        crops = [straighten(image, c) for c in corners]
        light = Light(crops)
        readings = self.reader.read(crops, own_set, light)
        self._read_unsure_again(image, detections, rows, corners, readings, own_set, light)
        self._read_refined(image, corners, readings, own_set, light)
        self.read_again(image, corners, readings, own_set, light)
        tiles = []
        for det, c, r in zip(detections, corners, readings):
            c = max((c[(np.arange(4) + t) % 4] for t in r.turns), key=_upward)  # glyph order: TL TR BR BL
            polygon = tuple((round(float(x), 1), round(float(y), 1)) for x, y in c)
            tiles.append(Tile(r.kind, polygon, round(det.confidence * r.confidence, 4), candidates=r.candidates))
        tiles = drop_straddling(tiles, [d.confidence >= STRADDLE_BOX_SURE for d in detections])
        sure = drop_dark_blanks([t for t in drop_cut_by_frame(tiles, image.shape)
                                 if t.confidence >= (LEAST_SURE_BLANK if t.kind == "5z" else LEAST_SURE)], image, light)
        return drop_plain_at_edge(sure, image.shape)  # only a tile kept shows its group a face

    def _read_unsure_again(self, image: np.ndarray, detections: list[Detection], rows: list[float | None],
                           corners: list[np.ndarray], readings: list, profile, light: Light) -> None:
        """Cut a large tile read unsurely again at two other angles its face may have, and take a cut that
        reads clearly surer (in place: its box angle, corners and reading).

        A standing tile seen aslant shows a sheared face. Its tightest rectangle lies along the longer of the
        face's two edge pairs, so from one tile to the next it flips between the side edges and the top edge,
        and the detector's angle for such a face often lands between the two, up to 45 degrees off: the crop
        shows the glyph turned and the reader misreads it (9p as 9s, 4s as 3s). The other angles: the tile's
        own dominant edges (``edge_angle``) and its row, the line to its nearest like-sized neighbours."""
        unsure = [i for i, r in enumerate(readings)
                  if r.confidence < RECUT_BELOW and min(detections[i].size) >= RECUT_MIN_PX]
        if not unsure:
            return
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        others = []
        for i in unsure:
            d = detections[i]
            angles = [a for a in (edge_angle(gray, d), rows[i])
                      if a is not None and abs((a - d.angle + 45) % 90 - 45) >= RECUT_MIN_TURN]
            others += [(i, Detection(d.center, d.size, a, d.confidence)) for a in angles]
        cuts = [upright_corners(d) for _, d in others]
        for (i, d), c, r in zip(others, cuts, self.reader.read([straighten(image, c) for c in cuts], profile, light)):
            if r.confidence > readings[i].confidence + RECUT_MARGIN:
                detections[i], corners[i], readings[i] = d, c, r

    def _read_refined(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile,
                      light: Light) -> None:
        """Read again, at its box moved onto its face by the refiner (``vision.refiner``), each tile not at the
        photo's edge that the pair reads less than ``REFINE_BELOW`` sure and whose corners the refiner moves by
        ``REFINE_MOVED`` of its width or more; where that reads surer, keep it and its corners (in place)."""
        if self.refiner is None or not corners:
            return
        at_edge = edges_reached(corners, image.shape).any(axis=1)
        unsure = [i for i, r in enumerate(readings) if r.confidence < REFINE_BELOW and not at_edge[i]]
        moved = [(i, c) for i, c in zip(unsure, self.refiner.refine(image, [corners[i] for i in unsure]))
                 if np.abs(c - corners[i]).mean() >= REFINE_MOVED * face_width(corners[i])]
        again = self.reader.read([straighten(image, c) for _, c in moved], profile, light)
        for (i, c), r in zip(moved, again):
            if r.confidence > readings[i].confidence:
                corners[i], readings[i] = c, r

    def read_again(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile=None,
                   light: Light | None = None) -> None:
        """The second looks at the tiles the pair reads worst (in place): those at the photo's edge
        (``_read_at_frame``), then the small whole faces (``_read_small``), then any whole face still unsure
        (``_read_hard``). ``light``: the photo's (``vision.reader.Light``)."""
        at_edge = edges_reached(corners, image.shape) if corners else np.zeros((0, 4), bool)
        self._read_at_frame(image, corners, readings, profile, at_edge, light)
        self._read_small(image, corners, readings, profile, at_edge.any(axis=1), light)
        self._read_hard(image, corners, readings, profile, at_edge.any(axis=1), light)

    def _read_at_frame(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile,
                       reached: np.ndarray, light: Light | None) -> None:
        """Read again each face the photo's edge cuts or touches (``reached``: ``edges_reached``; in place, its
        corners staying the part inside: that is where the tile shows).

        First stretched back out (``whole_faces``), keeping the surer reading. Measured (session 32): of the boxes
        so stretched on dev seeds 18 and 20, tiles cut by the frame read right 539 -> 567 of 667 (the stretched
        reading alone: 552, and uncut tiles touching the edge 172 -> 148 of 182; the surer of the two: 171); end
        to end dev hands 618 -> 619 of 763, held-out 451 -> 454 of 531, none lost; the 9 real whole-set photos
        the same.
        Then, where the models folder has it and no calibration profile is in use, by the cut reader
        (``models.CUT_READER``), trained on such tiles as the run time cuts them, the part inside; its reading
        averaged with the pair's, weighted ``CUT_READER_WEIGHT``, where the pair is less than ``CUT_READ_BELOW`` sure
        (session 34, ``models/README.md``)."""
        self.read_stretched(image, corners, readings, profile, reached, light)
        if self.cut_reader is None or profile is not None or not corners:
            return
        at_frame = [i for i in np.flatnonzero(reached.any(axis=1)) if readings[i].confidence < CUT_READ_BELOW]
        _second_opinion(self.cut_reader, image, corners, readings, at_frame, CUT_READER_WEIGHT, light)

    def read_stretched(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile,
                       reached: np.ndarray, light: Light | None) -> None:
        """Read each face the photo's edge cuts again stretched back out to its neighbours' shape (``whole_faces``),
        keeping the surer reading (in place; the corners stay the part inside)."""
        whole = whole_faces(corners, image.shape, reached)
        cut = [i for i, (c, w) in enumerate(zip(corners, whole)) if c is not w]
        for i, r in zip(cut, self.reader.read([straighten(image, whole[i]) for i in cut], profile, light)):
            if r.confidence > readings[i].confidence:
                readings[i] = r

    def _read_small(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile,
                    at_edge: np.ndarray, light: Light | None) -> None:
        """Read again each whole face (not at the photo's edge: ``at_edge``) narrower than ``SMALL_PX`` that the
        pair reads less than ``SMALL_READ_BELOW`` sure, by the small reader (``models.SMALL_READER``, trained on
        such tiles alone), its reading averaged with the pair's, weighted ``SMALL_READER_WEIGHT`` (in place; where
        the models folder has it and no calibration profile is in use; session 35, ``models/README.md``)."""
        if self.small_reader is None or profile is not None or not corners:
            return
        small = [i for i, (c, r) in enumerate(zip(corners, readings))
                 if not at_edge[i] and r.confidence < SMALL_READ_BELOW and face_width(c) < SMALL_PX]
        _second_opinion(self.small_reader, image, corners, readings, small, SMALL_READER_WEIGHT, light)

    def _read_hard(self, image: np.ndarray, corners: list[np.ndarray], readings: list, profile,
                   at_edge: np.ndarray, light: Light | None) -> None:
        """Read again each whole face (not at the photo's edge: ``at_edge``) still less than ``HARD_READ_BELOW``
        sure, by the hard reader (``models.HARD_READER``, trained on the tiles the pair is unsure of), its reading
        averaged with the one so far, weighted ``HARD_READER_WEIGHT`` (in place; where the models folder has it
        and no calibration profile is in use; session 42, ``models/README.md``)."""
        if self.hard_reader is None or profile is not None or not corners:
            return
        unsure = [i for i, r in enumerate(readings) if not at_edge[i] and r.confidence < HARD_READ_BELOW]
        _second_opinion(self.hard_reader, image, corners, readings, unsure, HARD_READER_WEIGHT, light)

    def profile(self, name: str | None):
        """The calibration profile of that name (None: the shipped reader alone), loaded again when its file
        changes, so a new calibration is used without a restart."""
        from .calibrate import load_profile, profile_path

        if name is None:
            return None
        path = profile_path(name)
        stamp = path.stat().st_mtime_ns if path.is_file() else None
        if self._profiles.get(name, (None,))[0] != stamp or stamp is None:
            self._profiles[name] = (stamp, load_profile(name, self.reader.sha256))
        return self._profiles[name][1]


def _second_opinion(reader, image: np.ndarray, corners: list[np.ndarray], readings: list, which: list[int],
                    weight: float, light: Light | None) -> None:
    """The faces ``which`` read by a reader of such tiles too, each reading averaged with the pair's (in place)."""
    for i, r in zip(which, reader.read([straighten(image, corners[i]) for i in which], light=light)):
        readings[i] = averaged(readings[i], r, weight)


def face_width(corners) -> float | np.ndarray:
    """A face's width in pixels: the mean length of its shorter pair of opposite sides (for the corners the run
    time cuts, long side vertical, its top and bottom edges). The small reader's gate (``SMALL_PX``), the width the
    benches bin tiles by and by which the small reader's training crops were chosen (``datasets.evaluate``,
    ``datasets.scene_crops``) and the slivers' short side (``slivers``): one measure for all. Several faces
    (n, 4, 2) give n widths."""
    return _side_pairs(corners).min(axis=-1)


def face_length(corners) -> float | np.ndarray:
    """A face's length in pixels: the mean length of its longer pair of opposite sides (``face_width``'s
    other pair). Several faces (n, 4, 2) give n lengths."""
    return _side_pairs(corners).max(axis=-1)


def _side_pairs(corners) -> np.ndarray:
    """The mean lengths of a face's two pairs of opposite sides, (..., 2): one float pair per face."""
    c = np.asarray(corners, dtype=float)
    sides = np.linalg.norm(c - np.roll(c, -1, axis=-2), axis=-1)
    return np.stack([sides[..., 0] + sides[..., 2], sides[..., 1] + sides[..., 3]], axis=-1) / 2


def edge_angle(gray: np.ndarray, det: Detection) -> float | None:
    """The dominant edge direction around a box, in degrees modulo a quarter turn: the gradients' angles,
    weighted by their strength and by nearness to the box's centre, averaged four-fold (a tile's edges along and
    across, and its glyph's strokes, all vote for the same angle)."""
    (cx, cy), r = det.center, 0.5 * max(det.size)
    x0, y0 = int(max(cx - r, 0)), int(max(cy - r, 0))
    x1, y1 = int(min(cx + r, gray.shape[1])), int(min(cy + r, gray.shape[0]))
    if min(x1 - x0, y1 - y0) < 4:
        return None
    scale = min(1.0, EDGE_PATCH_PX / (2 * r))  # a large tile's edges show as well at a few dozen pixels
    patch = cv2.resize(gray[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    gx, gy = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    spread = 0.6 * r * scale
    # the nearness weight is a Gaussian, one factor along the rows and one along the columns
    wx = np.exp(-(np.arange(patch.shape[1]) + 0.5 - (cx - x0) * scale) ** 2 / (2 * spread * spread))
    wy = np.exp(-(np.arange(patch.shape[0]) + 0.5 - (cy - y0) * scale) ** 2 / (2 * spread * spread))
    # |g|^2 e^{4i angle} = (g^2)^2 / |g|^2, g^2 = gx^2 - gy^2 + 2i gx gy: each gradient's strength, its angle
    # four-fold (in real arithmetic, twice as fast as complex)
    c, s = gx * gx - gy * gy, 2 * gx * gy
    w = np.outer(wy, wx).astype(np.float32) / (gx * gx + gy * gy + 1e-6)
    return float(np.degrees(np.arctan2((w * 2 * c * s).sum(), (w * (c * c - s * s)).sum())) / 4)


def row_angles(centres: np.ndarray, longs: np.ndarray) -> list[float | None]:
    """Each box's row: the direction (degrees) to its two nearest like-sized neighbours (``like_sized_near``) when
    they agree, or to its one: the line of its row, which a tile's top edge follows however its face is sheared.
    None for a box with none, or whose two lie apart (a row's corner). ``centres`` (n, 2), ``longs`` the boxes'
    long sides."""
    centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    offsets = centres[None] - centres[:, None]  # [i, j]: from box i to box j
    dist = np.linalg.norm(offsets, axis=2)
    near = like_sized_near(centres, longs, centres[:, None], longs[:, None], ROW_REACH, ROW_SIZE_RATIO)
    np.fill_diagonal(near, False)
    nearest = np.argsort(np.where(near, dist, np.inf), axis=1)[:, :2]
    rows = []
    for i, js in enumerate(nearest):
        js = js[near[i, js]]
        mean = mean_angle(np.arctan2(offsets[i, js, 1], offsets[i, js, 0]), np.ones(len(js)), np.pi, 0.9) \
            if len(js) else None
        rows.append(None if mean is None else float(np.degrees(mean)))
    return rows


def whole_faces(corners: list[np.ndarray], shape: tuple[int, ...],
                reached: np.ndarray | None = None) -> list[np.ndarray]:
    """Each face stretched back out across the photo's edge where the edge cuts it (the others as they are, the
    same objects): the detector boxes a cut tile's part inside the photo, and the reader, which learnt whole
    tiles, reads that part stretched to a whole tile's shape. Stretched to the length its uncut neighbours' shape
    gives it (their cut side's length over their other side's, the median of the nearest few, times its own other
    side), the crop shows the part inside at its place and size, the photo's edge pixels repeated beyond it. The
    shape so guessed is rough (perspective, shear), so ``TileFinder`` keeps the surer of the two readings. A sliver
    less than 40 % inside (the labels' floor: too little to read) is left as it is; the real whole-set photos show
    a few such boxes along their edges, and reading them again only cost time. ``reached``: ``edges_reached`` of
    the corners, where the caller has it."""
    if len(corners) < 2:
        return corners
    reached = edges_reached(corners, shape) if reached is None else reached
    if not reached.any():
        return corners
    normals = np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 0.0], [0.0, 1.0]])  # outward: left, top, right, bottom
    c = np.array(corners, dtype=np.float64)
    centres = c.mean(axis=1)
    sides = np.stack([c[:, 1] - c[:, 0], c[:, 3] - c[:, 0]], axis=1)  # (n, the two sides, x y)
    lengths = np.linalg.norm(sides, axis=2)
    longs = face_length(c)
    uncut = ~reached.any(axis=1)
    out = list(corners)
    for i in np.flatnonzero(reached.sum(axis=1) == 1):  # cut by one edge (at a corner of the photo: left as is)
        normal = normals[np.argmax(reached[i])]
        axes = sides[i] / np.maximum(lengths[i][:, None], 1e-9)
        k = int(np.argmax(np.abs(axes @ normal)))  # the side across the photo's edge is the one cut short
        near = like_sized_near(centres, longs, centres[i], float(longs[i]), WHOLE_REACH, ROW_SIZE_RATIO) & uncut
        near[i] = False
        js = np.flatnonzero(near)
        if not len(js):
            continue
        js = js[np.argsort(np.linalg.norm(centres[js] - centres[i], axis=1))[:WHOLE_NEIGHBOURS]]
        # each neighbour's extent along this face's two sides: its shape, whichever way its box lies
        spans = np.abs(np.einsum("jcd,ad->jca", c[js] - centres[js][:, None], axes)).max(axis=1) * 2
        ratio = float(np.median(spans[:, k] / np.maximum(spans[:, 1 - k], 1e-9)))
        extra = ratio * lengths[i, 1 - k] - lengths[i, k]
        if not WHOLE_LEAST * lengths[i, k] < extra <= WHOLE_MOST * lengths[i, k]:
            continue
        way = axes[k] * np.sign(axes[k] @ normal)  # toward the photo's edge
        outward = (c[i] - centres[i]) @ way > 0  # the two corners on that side move
        out[i] = c[i] + np.outer(outward, way * extra)
    return out


def edges_reached(corners: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """Which edges of the photo each polygon reaches (within ``FRAME_PX``): (n, 4) for left, top, right, bottom.
    A box reaching one is cut by the frame."""
    h, w = shape[:2]
    lows, highs = _bounds(corners)
    return np.stack([lows[:, 0] <= FRAME_PX, lows[:, 1] <= FRAME_PX,
                     highs[:, 0] >= w - 1 - FRAME_PX, highs[:, 1] >= h - 1 - FRAME_PX], axis=1)


def _bounds(corners: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon's axis-aligned bounds: (n, 2) lowest and (n, 2) highest x, y (quads: ``Tile.corners``)."""
    c = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    return c.min(axis=1), c.max(axis=1)


def drop_plain_at_edge(tiles: list[Tile], shape: tuple[int, ...]) -> list[Tile]:
    """The tiles less the plain ones (a back, a blank haku) cut by the photo's edge whose group shows no face:
    with the tile's far edges out of the photo, a plain box there is as likely a curtain's fold or a sheet of paper.
    A group: tiles linked by centres within ``PLAIN_NEAR`` of the larger one's length (``face_length``; a pon of
    haku beside the hand stays with it). Order is kept."""
    n = len(tiles)
    if not n:
        return tiles
    blank = np.array([t.kind in BLANK_FACES for t in tiles], dtype=bool)
    corners = np.array([t.corners for t in tiles])
    suspect = blank & edges_reached(list(corners), shape).any(axis=1)
    if not suspect.any():
        return tiles
    centres = corners.mean(axis=1)
    longs = face_length(corners)
    linked = (np.linalg.norm(centres[:, None] - centres[None], axis=2)
              <= PLAIN_NEAR * np.maximum(longs[:, None], longs[None]))
    group = np.arange(n)
    while True:  # each tile takes the least label among its links until none changes: the linked groups
        least = np.where(linked, group[None], n).min(axis=1)
        if (least == group).all():
            break
        group = least
    faced_groups = set(group[~blank].tolist())
    return [t for k, t in enumerate(tiles) if not suspect[k] or group[k] in faced_groups]


def drop_dark_blanks(tiles: list[Tile], image: np.ndarray, light: Light) -> list[Tile]:
    """The tiles but those read as haku whose middle is darker than ``DARK_BLANK_BELOW`` of the photo's faces (a
    dark scrap, not a white face); all of them where no face was read surely."""
    if light.brightness is None:
        return tiles
    return [t for t in tiles
            if t.kind != "5z" or middle_value(straighten(image, t.corners)) >= DARK_BLANK_BELOW * light.brightness]


def drop_cut_by_frame(tiles: list[Tile], shape: tuple[int, ...]) -> list[Tile]:
    """The tiles less slivers cut by the photo's edge (``slivers``). Order is kept."""
    dropped = slivers([t.corners for t in tiles], [t.confidence for t in tiles], shape)
    return [t for k, t in enumerate(tiles) if not dropped[k]]


def slivers(corners: list[np.ndarray], confidences: Sequence[float], shape: tuple[int, ...]) -> np.ndarray:
    """Which faces are slivers cut by the photo's edge: the detector learnt tiles cut by its training windows'
    edges, and finds the strip of a tile's top left at a photo's border, too little of it to read. A face cut by
    the frame but showing at least half the width of the uncut ones (their median), or at least ``SLIVER_SURE``
    sure, is not one. ``TileFinder.find`` asks first with the boxes' own confidence, which the reading can only
    lower: a box that is a sliver then is not read at all (the 9 real whole-set photos at 1280 x 720 show up to
    eight along their edges, read by up to four readers each)."""
    n = len(corners)
    cut = edges_reached(corners, shape).any(axis=1) if n else np.zeros(0, bool)
    if n < 3 or cut.all():
        return np.zeros(n, bool)
    shorts = face_width(np.array(corners))
    unsure = np.asarray(confidences) < SLIVER_SURE
    return cut & unsure & (shorts < CUT_SHORT * np.median(shorts[~cut]))


def drop_straddling(tiles: list[Tile], boxed_surely: Sequence[bool] = ()) -> list[Tile]:
    """The tiles less those whose face is mostly covered by surer tiles: the detector's box straddling two
    standing tiles (half of each) overlaps either too little for its suppression, and was read as one more tile
    of the hand. A tile marked in ``boxed_surely`` (its box found at least ``STRADDLE_BOX_SURE`` sure) stays
    whatever covers it. Order is kept."""
    n = len(tiles)
    if n < 2:
        return tiles
    order = sorted(range(n), key=lambda k: -tiles[k].confidence)
    corners = [t.corners for t in tiles]
    flows, fhighs = _bounds(corners)
    lows, highs = np.floor(flows).astype(int) - 1, np.ceil(fhighs).astype(int) + 1
    # Most faces only touch their neighbours' along an edge: where even the overlaps of their bounding boxes with
    # surer tiles' stay under the share, with room for the fill's edge pixels, the face is kept without a fill.
    rank = np.empty(n, int)
    rank[order] = np.arange(n)
    span = np.clip(np.minimum(highs[:, None], highs[None]) - np.maximum(lows[:, None], lows[None]), 0, None)
    overlap = (span[..., 0] * span[..., 1] * (rank[None, :] < rank[:, None])).sum(axis=1)
    x, y = np.array(corners).transpose(2, 0, 1)
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    perimeter = np.hypot(x - np.roll(x, -1, axis=1), y - np.roll(y, -1, axis=1)).sum(axis=1)
    dropped = set()
    for r, k in enumerate(order):
        if overlap[k] <= STRADDLE_COVER * (area[k] - perimeter[k]) or (k < len(boxed_surely) and boxed_surely[k]):
            continue
        low, high = lows[k], highs[k]
        own = np.zeros((high[1] - low[1], high[0] - low[0]), np.uint8)
        cv2.fillPoly(own, [np.round(corners[k] - low).astype(np.int32)], 1)
        covered = np.zeros_like(own)
        surer = np.array(order[:r], dtype=int)
        near = surer[(fhighs[surer] >= low).all(axis=1) & (flows[surer] <= high).all(axis=1)]
        for j in near:
            if j not in dropped:
                cv2.fillPoly(covered, [np.round(corners[j] - low).astype(np.int32)], 1)
        area_px = int(own.sum())
        if area_px and int((own & covered).sum()) > STRADDLE_COVER * area_px:
            dropped.add(k)
    return [t for k, t in enumerate(tiles) if k not in dropped]


def tiles_json(tiles: list[Tile]) -> dict:
    """The JSON of ``riichi-lens read --json``: kind, confidence, polygon, lie per tile."""
    return {"tiles": [{"kind": t.kind, "confidence": t.confidence, "polygon": [list(p) for p in t.polygon],
                       "lie": t.lie} for t in tiles]}

"""Photo -> tiles: the geometry between detector and reader, and the shipped models on a generated scene."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import BESIDE_SURE, Detection, TileDetector, keep_beside, letterbox, square_up
from vision.image import ImageError
from vision.layout import Tile
from vision.tiles import (drop_cut_by_frame, drop_dark_blanks, drop_straddling, edge_angle, face_corners, face_width,
                          row_angles, straighten, tiles_json, upright_corners)

MODELS = Path(__file__).resolve().parents[1] / "models"


@pytest.mark.parametrize("angle", [0, 17, 45, 90, 120, 180, 260, -30])
@pytest.mark.parametrize("size", [(30, 40), (40, 30)])
def test_upright_corners_put_the_long_side_vertical_and_the_top_up(angle, size):
    det = Detection((200.0, 150.0), size, float(angle), 0.9)
    c = upright_corners(det)
    top, side = np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[3] - c[0])
    assert top == pytest.approx(30, abs=1e-6) and side == pytest.approx(40, abs=1e-6)
    up = (c[0] + c[1]) / 2 - (c[3] + c[2]) / 2
    assert up[1] < 0 or (up[1] == pytest.approx(0, abs=1e-6) and up[0] < 0)  # image y grows downward
    right = c[1] - c[0]
    assert right[0] * up[1] - right[1] * up[0] < 0  # TL -> TR turns clockwise from up, as on paper
    # the same four points as OpenCV's own corners of the rectangle
    ref = cv2.boxPoints(((200.0, 150.0), size, float(angle)))
    assert all(np.linalg.norm(ref - p, axis=1).min() < 1e-3 for p in c)



def _quarter_off(a: float, b: float) -> float:
    """How far apart two box angles are, modulo a quarter turn (degrees)."""
    return abs((a - b + 45) % 90 - 45)


def test_square_up_turns_a_near_square_box_to_its_row_and_leaves_sure_ones_alone():
    row = [Detection((100.0 + 42 * i, 200.0), (40.0, 44.0), 8.0, 0.9) for i in range(5)]  # seen steeply: near square
    row[2] = Detection(row[2].center, (41.0, 43.0), 50.0, 0.9)  # on its corner: 42 degrees off modulo 90
    sure = Detection((500.0, 200.0), (30.0, 45.0), 30.0, 0.9)  # elongated: its angle is not a guess
    alone = Detection((900.0, 600.0), (40.0, 42.0), 37.0, 0.9)  # no neighbour to ask
    out = square_up(row + [sure, alone])
    assert _quarter_off(out[2].angle, 8.0) < 1.0 and out[2].center == row[2].center and out[2].size == row[2].size
    assert [d.angle for d in out[:2] + out[3:5]] == [8.0] * 4
    assert out[5] == sure and out[6] == alone


def test_square_up_leaves_a_box_whose_neighbours_disagree():
    neighbours = [Detection((100.0, 200.0), (30.0, 45.0), 0.0, 0.9), Detection((184.0, 200.0), (30.0, 45.0), 45.0, 0.9)]
    middle = Detection((142.0, 200.0), (40.0, 42.0), 20.0, 0.9)
    assert square_up(neighbours + [middle])[2] == middle


def test_keep_beside_keeps_an_unsure_box_in_a_row_of_sure_tiles_and_drops_a_lone_or_odd_sized_one():
    row = [Detection((100.0 + 32 * i, 200.0), (30.0, 42.0), 0.0, 0.8) for i in range(7)]
    in_row = Detection(row[3].center, (30.0, 42.0), 0.0, 0.25)  # the middle of the row, seen less clearly
    row[3] = in_row
    alone = Detection((700.0, 600.0), (30.0, 42.0), 0.0, 0.3)  # on a desk's clutter, far from any sure tile
    huge = Detection((196.0, 260.0), (90.0, 130.0), 0.0, 0.3)  # beside the row but three times a tile's size
    sure_near = [d for d in row if d is not in_row and abs(d.center[0] - in_row.center[0]) < 1.6 * 42]
    assert len(sure_near) >= BESIDE_SURE
    kept = keep_beside(row + [alone, huge], conf=0.35)
    assert in_row in kept and alone not in kept and huge not in kept
    assert [d for d in kept if d.confidence >= 0.35] == [d for d in row if d.confidence >= 0.35]
    # at the row's end, with fewer sure tiles beside it than BESIDE_SURE, an unsure box is not kept
    end = Detection((100.0 + 32 * 3, 200.0), (30.0, 42.0), 0.0, 0.25)  # two sure tiles within reach
    short_row = row[:3] + [end]
    assert end not in keep_beside(short_row, conf=0.35)
    # nothing sure: nothing kept
    assert keep_beside([in_row, alone], conf=0.35) == []


def test_edge_angle_finds_a_tiles_own_turn_whatever_its_box_says():
    img = np.full((300, 300), 60, np.uint8)
    face = cv2.boxPoints(((150.0, 150.0), (70.0, 95.0), 25.0)).astype(np.int32)
    cv2.fillPoly(img, [face], 235)
    cv2.line(img, (150, 120), (150 + 25, 120 + 12), 20, 4)  # a stroke along the face's top edge (25 degrees)
    for box_angle in (0.0, 25.0, 60.0):
        found = edge_angle(img, Detection((150.0, 150.0), (70.0, 95.0), box_angle, 0.9))
        assert _quarter_off(found, 25.0) < 3.0, (box_angle, found)
    assert edge_angle(img, Detection((1.0, 1.0), (2.0, 2.0), 0.0, 0.9)) is None  # no pixels to look at


def test_row_angle_is_the_line_to_the_nearest_like_sized_neighbours():
    t = np.radians(12.0)
    centres = np.array([[100 + 50 * k * np.cos(t), 300 + 50 * k * np.sin(t)] for k in range(4)] + [[300.0, 100.0]])
    longs = np.array([60.0, 60.0, 62.0, 58.0, 60.0])
    assert abs(row_angles(centres, longs)[1] - 12.0) < 1e-6
    assert row_angles(centres, longs)[4] is None  # no neighbour near enough
    big = longs.copy()
    big[[0, 2]] = 200.0  # its neighbours are five times too large to be tiles of its row
    assert row_angles(centres, big)[1] is None  # and the like-sized one is two places away
    corner = np.array([[100.0, 100.0], [150.0, 100.0], [100.0, 150.0]])  # one neighbour right, one below
    assert row_angles(corner, np.full(3, 60.0))[0] is None
    assert row_angles(np.zeros((0, 2)), np.zeros(0)) == []


def _parallelogram(centre, top_deg: float, top: float, side_deg: float, side: float) -> np.ndarray:
    """A face TL, TR, BR, BL: its top edge ``top`` px along top_deg, its sides ``side`` px along side_deg (down)."""
    a = top * np.array([np.cos(np.radians(top_deg)), np.sin(np.radians(top_deg))])
    b = side * np.array([np.cos(np.radians(side_deg)), np.sin(np.radians(side_deg))])
    m = np.asarray(centre, float)
    return np.array([m - a / 2 - b / 2, m + a / 2 - b / 2, m + a / 2 + b / 2, m - a / 2 + b / 2])


@pytest.mark.parametrize("top_deg, side_deg", [(112.5, 65.0), (-20.0, 35.0), (10.0, 130.0)])
def test_a_sheared_face_is_cut_as_the_parallelogram_whose_top_runs_along_its_row(top_deg, side_deg):
    # a standing tile seen aslant (a far hand in a low snapshot): its face 44 x 60 px, sheared 40-50 degrees; the
    # detector's rectangle is the tightest one, which lies along the face's sides
    face = _parallelogram((300.0, 200.0), top_deg, 44.0, side_deg, 60.0)
    centre, size, angle = cv2.minAreaRect(face.astype(np.float32))
    det = Detection(centre, size, angle, 0.9)
    cut = face_corners(det, top_deg)  # the row runs along the face's top edge
    assert all(np.linalg.norm(face - p, axis=1).min() < 0.5 for p in cut), (cut, face)
    assert np.linalg.norm(cut[3] - cut[0]) > np.linalg.norm(cut[1] - cut[0])  # long side vertical, as a rectangle
    assert face_width(cut) == pytest.approx(44.0, abs=0.5)  # its top edge: the face's shorter side, not the box's
    box = upright_corners(det)
    assert face_width(np.stack([cut, box])) == pytest.approx([face_width(cut), min(size)])  # several at once
    assert np.array_equal(face_corners(det, None), upright_corners(det))  # a tile alone: its rectangle


def test_a_box_along_its_row_or_too_square_to_hold_a_sheared_face_stays_a_rectangle():
    det = Detection((300.0, 200.0), (40.0, 56.0), 30.0, 0.9)
    for row in (30.0, 35.0, 120.0, 128.0):  # along either side, or less than 10 degrees off
        assert np.array_equal(face_corners(det, row), upright_corners(det))
    square = Detection((300.0, 200.0), (40.0, 44.0), 0.0, 0.9)
    # 45 degrees off a near-square box: a face spanning its width along the row leaves its sides too short
    assert np.array_equal(face_corners(square, 45.0), upright_corners(square))
    assert np.array_equal(face_corners(square, -45.0), upright_corners(square))
    # a face sheared so far (top and sides 41 degrees apart) that the detector's box fell short of it (dev seed 95,
    # scene 219): a parallelogram spanning the box's width along the row leaves sides under half the box's length,
    # and overlapped the face less than the box itself did
    short = Detection((300.0, 200.0), (87.0, 41.0), 41.0, 0.9)
    assert np.array_equal(face_corners(short, 2.0), upright_corners(short))


def _detector_giving(boxes):
    """A stand-in for ``TileDetector.detect`` that finds these boxes in any photo."""
    return lambda image, conf=0.35, small_pass=True: list(boxes)


@pytest.mark.parametrize("name, kind", [("south_0", "2z"), ("p_4_0", "4p"), ("m_3_0", "3m")])
def test_a_tile_whose_box_is_turned_off_its_face_is_cut_again_along_its_edges(shared, name, kind, monkeypatch):
    """The detector's box for a sheared face can be 40 degrees off the face; cut along it, these real tiles read
    as another kind or unsurely (v6 read the 4p and the 3m as another kind; w1 with 7-bit weights reads the south
    wind and the 4p right, 0.65 and 0.59 sure). Read unsurely, they are cut again along their own edges and read
    right, and the polygon follows the face. (Until session 78 the case was a chun, which the 7-bit reader reads
    0.84 sure along the box: its cut along the edges does not read surer by ``RECUT_MARGIN``.)"""
    import vision.tiles as tiles

    crop = cv2.imread(str(shared / f"data/real-tiles/crops/{name}.jpg"))
    crop = cv2.resize(crop, None, fx=120 / crop.shape[0], fy=120 / crop.shape[0])
    h, w = crop.shape[:2]
    canvas = np.full((400, 400, 3), (50, 110, 40), np.uint8)
    canvas[200 - h // 2:200 - h // 2 + h, 200 - w // 2:200 - w // 2 + w] = crop
    photo = cv2.warpAffine(canvas, cv2.getRotationMatrix2D((200, 200), -25, 1.0), (400, 400),
                           borderValue=(50, 110, 40))  # the face turned 25 degrees clockwise
    from vision.models import READER, model_file

    finder = tiles.TileFinder(reader=model_file(READER))  # the first reader alone: the second reads this cut right
    box = Detection((200.0, 200.0), (float(w), float(h)), 25.0 + 40.0, 0.9)
    recut_below = tiles.RECUT_BELOW
    monkeypatch.setattr(finder.detector, "detect", _detector_giving([box]))
    monkeypatch.setattr(tiles, "RECUT_BELOW", 0.0)  # never cut again: the box as the detector gave it
    first = finder.find(photo)[0]
    assert first.kind != kind or first.confidence < recut_below  # what makes the run time cut it again
    monkeypatch.undo()
    monkeypatch.setattr(finder.detector, "detect", _detector_giving([box]))
    tile = finder.find(photo)[0]
    top = np.array(tile.polygon[1]) - np.array(tile.polygon[0])
    assert tile.kind == kind
    assert abs(np.degrees(np.arctan2(top[1], top[0])) - 25.0) < 8.0


def test_a_box_hardly_a_tile_and_hardly_read_is_dropped(monkeypatch):
    """A box the detector is unsure of and the reader cannot read (confidence 0.4 x 0.2) lies on no tile more
    often than not, and would join a hand as one tile too many; one read half surely stays."""
    import vision.tiles as tiles
    from vision.reader import Reading

    finder = tiles.TileFinder()
    finder.hard_reader = None  # the stand-in readings alone
    boxes = [Detection((100.0 + 40 * i, 200.0), (30.0, 42.0), 0.0, 0.4) for i in range(3)]
    monkeypatch.setattr(finder.detector, "detect", _detector_giving(boxes))
    sure = {0: 0.2, 1: 0.5, 2: 0.3}
    monkeypatch.setattr(finder.reader, "read", lambda crops, profile=None, light=None: [
        Reading("3m", sure[k], (0,), (("3m", sure[k]),)) for k in range(len(crops))])
    found = finder.find(np.full((400, 400, 3), 128, np.uint8))
    assert sorted(round(t.center[0]) for t in found) == [140, 180]  # 0.4 x 0.5 and 0.4 x 0.3 stay


@pytest.mark.parametrize("flat", [(0.0, 40.0), (30.0, 0.0), (0.0, 0.0)])
def test_a_box_with_no_area_is_no_tile(monkeypatch, flat):
    """A box of no width or height (a point or a line) is dropped: as a tile it stopped the table's reading, whose
    grouping measures each tile by its sides."""
    import vision.tiles as tiles
    from vision.table import read_table

    finder = tiles.TileFinder()
    boxes = [Detection((100.0 + 40 * i, 200.0), (30.0, 42.0), 0.0, 0.9) for i in range(3)]
    boxes.append(Detection((220.0, 200.0), flat, 0.0, 0.9))
    monkeypatch.setattr(finder.detector, "detect", _detector_giving(boxes))
    found = finder.find(np.full((400, 400, 3), 128, np.uint8))
    assert sorted(round(t.center[0]) for t in found) == [100, 140, 180]
    read_table(found)


def test_a_tile_cut_by_the_photos_edge_takes_the_surer_of_its_two_readings_and_keeps_its_box_inside(monkeypatch):
    """Four boxes in a row, the first the 15 px inside the photo of a 30 px tile. The (stand-in) reader reads a
    crop as narrow as that part unsurely as 8m, a whole tile's shape surely as 3m: the cut tile is read a second
    time stretched back out, so it is a 3m, and its polygon is still the part inside. A tile a reader reads surer
    cut than stretched keeps that reading."""
    import vision.tiles as tiles
    from vision.reader import Reading

    finder = tiles.TileFinder()
    finder.cut_reader = None  # the stretched reading alone (the cut reader: the test below)
    boxes = [Detection((7.5, 200.0), (15.0, 40.0), 0.0, 0.9)] + [
        Detection((60.0 + 30 * i, 200.0), (30.0, 40.0), 0.0, 0.9) for i in range(3)]
    monkeypatch.setattr(finder.detector, "detect", _detector_giving(boxes))

    def read(crops, profile=None, light=None):  # by the crop's shape: narrow as the cut part, or a whole tile's
        return [Reading("8m", 0.4, (0,), (("8m", 0.4),)) if c.shape[1] < 0.55 * c.shape[0]
                else Reading(whole_reads, 0.9 if whole_reads == "3m" else 0.3, (0,), ((whole_reads, 0.9),))
                for c in crops]

    monkeypatch.setattr(finder.reader, "read", read)
    photo = np.full((400, 400, 3), 128, np.uint8)
    for whole_reads, first in (("3m", "3m"), ("5m", "8m")):
        found = sorted(finder.find(photo), key=lambda t: t.center[0])
        assert [t.kind for t in found] == [first, whole_reads, whole_reads, whole_reads]
        assert min(x for x, _ in found[0].polygon) >= -0.5  # the box found, inside the photo


def _finder_with_stand_in_pair(monkeypatch, boxes):
    """A finder whose detector finds ``boxes`` and whose (stand-in) pair reads a white crop 8m 0.95 sure and any
    other 8m 0.6 sure (3m 0.3); no specialist reader (a test gives it the one it is about)."""
    from vision.reader import Reading
    from vision.tiles import TileFinder

    finder = TileFinder()
    finder.cut_reader = finder.small_reader = finder.hard_reader = finder.refiner = None
    monkeypatch.setattr(finder.detector, "detect", _detector_giving(boxes))
    monkeypatch.setattr(finder.reader, "read", lambda crops, profile=None, light=None: [
        Reading("8m", 0.95, (0,), (("8m", 0.95),)) if c.mean() > 200 else
        Reading("8m", 0.6, (0,), (("8m", 0.6), ("3m", 0.3))) for c in crops])
    return finder


class _ReadsEvery3m:
    """A stand-in specialist reader: every crop 3m 0.9 sure; the crops it was shown are kept."""

    def __init__(self):
        self.shown = []

    def read(self, crops, light=None):
        from vision.reader import Reading

        self.shown.extend(crops)
        return [Reading("3m", 0.9, (0,), (("3m", 0.9),)) for _ in crops]


def _found_with_stand_in_specialist(monkeypatch, boxes, white, specialist: str):
    """The tiles found, left to right, by ``_finder_with_stand_in_pair`` with a ``_ReadsEvery3m`` as its
    ``specialist`` reader (``"cut_reader"``, ...), in a grey photo with a white patch at ``white`` (rows, columns);
    and the crops that reader was shown."""
    finder = _finder_with_stand_in_pair(monkeypatch, boxes)
    reader = _ReadsEvery3m()
    setattr(finder, specialist, reader)
    photo = np.full((400, 400, 3), 128, np.uint8)
    photo[white] = 255
    return sorted(finder.find(photo), key=lambda t: t.center[0]), reader.shown


def test_the_cut_reader_reads_the_unsure_tiles_at_the_photos_edge_its_reading_averaged_with_the_pairs(monkeypatch):
    """Five boxes in a row: the first the 15 px inside the photo of a 30 px tile, the last whole but touching the
    right edge, on a white patch. The (stand-in) pair reads the white crop 8m 0.95 sure and the others 8m 0.6 sure
    (3m 0.3), the (stand-in) cut reader every crop 3m 0.9 sure. Only the unsure tile at the edge is shown to the cut
    reader (under ``CUT_READ_BELOW``), and the reading averaged with its weight (0.7) makes it 3m (0.3 x 0.3 + 0.7 x
    0.9 = 0.72 against 8m's 0.18); the tiles inside the photo and the sure one at the edge stay 8m."""
    import vision.tiles as tiles

    boxes = [Detection((7.5, 200.0), (15.0, 40.0), 0.0, 0.9)] + [
        Detection((60.0 + 30 * i, 200.0), (30.0, 40.0), 0.0, 0.9) for i in range(3)] + [
        Detection((384.0, 200.0), (30.0, 40.0), 0.0, 0.9)]
    found, shown = _found_with_stand_in_specialist(monkeypatch, boxes, np.s_[170:230, 366:], "cut_reader")
    assert [t.kind for t in found] == ["3m", "8m", "8m", "8m", "8m"] and len(shown) == 1
    assert tiles.CUT_READER_WEIGHT == 0.7 and found[0].candidates[:2] == (("3m", 0.72), ("8m", 0.18))
    assert tiles.CUT_READ_BELOW == 0.9


def test_the_small_reader_reads_the_unsure_small_whole_faces_its_reading_averaged_with_the_pairs(monkeypatch):
    """Four boxes: two 20 px wide inside the photo, the second on a white patch; one 40 px wide; one 20 px wide
    touching the right edge. The (stand-in) pair reads the white crop 8m 0.95 sure and the others 8m 0.6 sure (3m
    0.3), the (stand-in) small reader every crop 3m 0.9 sure. Only the unsure small face inside the photo is shown
    to it (narrower than ``SMALL_PX``, under ``SMALL_READ_BELOW``), and the reading averaged with its weight (0.7)
    makes it 3m (0.3 x 0.3 + 0.7 x 0.9 = 0.72 against 8m's 0.18); the sure one, the wide one and the one at the
    edge (the cut reader's: none here) stay 8m."""
    import vision.tiles as tiles

    boxes = [Detection((100.0, 200.0), (20.0, 34.0), 0.0, 0.9), Detection((140.0, 200.0), (20.0, 34.0), 0.0, 0.9),
             Detection((220.0, 200.0), (40.0, 60.0), 0.0, 0.9), Detection((390.0, 200.0), (20.0, 34.0), 0.0, 0.9)]
    found, shown = _found_with_stand_in_specialist(monkeypatch, boxes, np.s_[165:235, 126:155], "small_reader")
    assert [t.kind for t in found] == ["3m", "8m", "8m", "8m"] and len(shown) == 1
    assert tiles.SMALL_READER_WEIGHT == 0.7 and found[0].candidates[:2] == (("3m", 0.72), ("8m", 0.18))
    assert tiles.SMALL_READ_BELOW == 0.9 and 20 < tiles.SMALL_PX <= 40


class _MovesBoxes:
    """A stand-in box refiner: moves each box by the shift given for its centre's x (else leaves it); the boxes it
    was shown are kept."""

    def __init__(self, shifts: dict):
        self.shifts, self.shown = shifts, []

    def refine(self, image, corners):
        self.shown.extend(corners)
        return [np.float32(c) + self.shifts.get(round(float(np.mean(c[:, 0]))), (0.0, 0.0)) for c in corners]


def test_an_unsure_tile_is_read_again_where_the_refiner_moves_its_box_and_keeps_the_surer_reading(monkeypatch):
    """Five 20 px boxes, all read 8m 0.6 sure by the (stand-in) pair but the one on a white patch (0.95). The
    (stand-in) refiner is shown the unsure boxes inside the photo, not the sure one nor the one touching the right
    edge. It moves the first onto a second white patch, where it reads surer: that tile keeps the new reading and
    box. It moves the second a tenth of a pixel, under ``REFINE_MOVED``: not read again. It moves the third off
    the patch onto grey, where it reads no surer: it stays as it was."""
    import vision.tiles as tiles

    boxes = [Detection((x, 200.0), (20.0, 34.0), 0.0, 0.9) for x in (100.0, 160.0, 220.0, 300.0, 390.0)]
    finder = _finder_with_stand_in_pair(monkeypatch, boxes)
    finder.refiner = refiner = _MovesBoxes({100: (0.0, 100.0), 160: (0.1, 0.0), 220: (5.0, 0.0)})
    photo = np.full((400, 400, 3), 128, np.uint8)
    photo[265:335, 85:115] = 255  # where the first box moves to
    photo[165:235, 285:315] = 255  # the sure tile
    found = {round(t.center[0]): t for t in finder.find(photo)}
    assert sorted(round(float(np.mean(c[:, 0]))) for c in refiner.shown) == [100, 160, 220]
    moved = found[100]
    assert round(moved.center[1]) == 300 and moved.candidates == (("8m", 0.95),)
    assert [found[x].candidates[0] for x in (160, 220, 300, 390)] == [
        ("8m", 0.6), ("8m", 0.6), ("8m", 0.95), ("8m", 0.6)]
    assert round(found[160].center[1]) == round(found[220].center[1]) == 200
    assert 0.6 < tiles.REFINE_BELOW <= 0.95 and 0.1 / 20 < tiles.REFINE_MOVED < 5 / 20


def test_the_hard_reader_reads_the_whole_faces_still_unsure_its_reading_averaged_with_the_one_so_far(monkeypatch):
    """Four boxes: two 30 px wide inside the photo, the second on a white patch; one 20 px wide inside; one touching
    the right edge. The (stand-in) pair reads the white crop 8m 0.95 sure and the others 8m 0.6 sure (3m 0.3), the
    (stand-in) hard reader every crop 3m 0.9 sure. The unsure whole faces, of any width, are shown to it (under
    ``HARD_READ_BELOW``, 0.7), and the reading averaged with its weight (0.5) makes them 3m (0.3 x 0.5 + 0.9 x 0.5
    = 0.6 against 8m's 0.3); the sure one and the one at the edge (the cut reader's: none here) stay 8m."""
    import vision.tiles as tiles

    boxes = [Detection((100.0, 200.0), (30.0, 42.0), 0.0, 0.9), Detection((140.0, 200.0), (30.0, 42.0), 0.0, 0.9),
             Detection((220.0, 200.0), (20.0, 34.0), 0.0, 0.9), Detection((385.0, 200.0), (30.0, 42.0), 0.0, 0.9)]
    found, shown = _found_with_stand_in_specialist(monkeypatch, boxes, np.s_[165:235, 122:158], "hard_reader")
    assert [t.kind for t in found] == ["3m", "8m", "3m", "8m"] and len(shown) == 2
    assert tiles.HARD_READER_WEIGHT == 0.5 and found[0].candidates[:2] == (("3m", 0.6), ("8m", 0.3))
    assert tiles.HARD_READ_BELOW == 0.7


def test_a_blank_face_must_be_read_surer_than_another_to_stay(monkeypatch):
    """A box read as haku 0.4 x 0.4 sure goes (a blank face is what a box on a tile's side sees); a 3m as
    unsure stays, and so does a haku read 0.4 x 0.6."""
    import vision.tiles as tiles
    from vision.reader import Reading

    finder = tiles.TileFinder()
    finder.hard_reader = None  # the stand-in readings alone
    boxes = [Detection((100.0 + 40 * i, 200.0), (30.0, 42.0), 0.0, 0.4) for i in range(3)]
    monkeypatch.setattr(finder.detector, "detect", _detector_giving(boxes))
    read = {0: ("5z", 0.4), 1: ("3m", 0.4), 2: ("5z", 0.6)}
    monkeypatch.setattr(finder.reader, "read", lambda crops, profile=None, light=None: [
        Reading(read[k][0], read[k][1], (0,), (read[k],)) for k in range(len(crops))])
    found = finder.find(np.full((400, 400, 3), 128, np.uint8))
    assert sorted((round(t.center[0]), t.kind) for t in found) == [(140, "3m"), (180, "5z")]


def test_straighten_turns_a_tilted_tile_upright():
    img = np.full((300, 300, 3), 40, np.uint8)
    face = np.full((80, 60, 3), 255, np.uint8)
    face[:20] = (0, 0, 255)  # a red band at the glyph's top
    angle = 35.0
    M = cv2.getRotationMatrix2D((30, 40), angle, 1.0)
    M[:, 2] += (150 - 30, 150 - 40)
    cv2.warpAffine(face, M, (300, 300), img, borderMode=cv2.BORDER_TRANSPARENT)
    corners = np.array([[0, 0], [60, 0], [60, 80], [0, 80]], float)
    corners = np.hstack([corners, np.ones((4, 1))]) @ M.T  # where the face's corners went
    crop = straighten(img, corners, margin=0.0)
    h = crop.shape[0]
    assert crop.shape[0] > crop.shape[1]
    top, bottom = crop[2:h // 5].mean((0, 1)), crop[h // 2:-2].mean((0, 1))
    assert top[2] > 200 and top[1] < 60  # red at the top
    assert bottom.min() > 200  # white below


def test_letterbox_keeps_the_aspect_and_pads_to_the_stride():
    blob, scale = letterbox(np.zeros((720, 1280, 3), np.uint8), 640)
    assert blob.shape == (1, 3, 384, 640) and scale == pytest.approx(0.5)
    assert blob.dtype == np.float32 and 0 <= blob.min() and blob.max() <= 1


@pytest.mark.parametrize("shape, long_side", [((3024, 4032), 416), ((3024, 4032), 1600), ((720, 1280), 416),
                                              ((1537, 2050), 416)])
def test_letterbox_maps_a_place_in_the_photo_to_its_place_in_the_input(shape, long_side):
    """A large photo is shrunk by a whole factor first (fast), its last few rows and columns dropped: the scale
    it returns must still map the photo's pixels onto the input's."""
    image = np.zeros((*shape, 3), np.uint8)
    x0, y0, x1, y1 = (int(shape[1] * 0.6), int(shape[0] * 0.7), int(shape[1] * 0.8), int(shape[0] * 0.9))
    image[y0:y1, x0:x1] = 255
    blob, scale = letterbox(image, long_side)
    ys, xs = np.nonzero(blob[0, 0] > 0.5)
    assert max(blob.shape[2:]) == -(-long_side // 32) * 32
    assert xs.min() == pytest.approx(x0 * scale, abs=1.5) and xs.max() + 1 == pytest.approx(x1 * scale, abs=1.5)
    assert ys.min() == pytest.approx(y0 * scale, abs=1.5) and ys.max() + 1 == pytest.approx(y1 * scale, abs=1.5)


def test_tiles_json_has_the_issue_schema():
    tile = Tile("0m", ((10.0, 0.0), (40.0, 0.0), (40.0, 40.0), (10.0, 40.0)), 0.97)
    sideways = Tile("3s", ((0.0, 40.0), (0.0, 10.0), (40.0, 10.0), (40.0, 40.0)), 0.9)
    out = json.loads(json.dumps(tiles_json([tile, sideways])))
    assert out == {"tiles": [
        {"kind": "0m", "confidence": 0.97, "polygon": [[10.0, 0.0], [40.0, 0.0], [40.0, 40.0], [10.0, 40.0]],
         "lie": "upright"},
        {"kind": "3s", "confidence": 0.9, "polygon": [[0.0, 40.0], [0.0, 10.0], [40.0, 10.0], [40.0, 40.0]],
         "lie": "sideways"}]}


def test_detector_finds_nothing_on_a_blank_image():
    det = TileDetector(MODELS / "tile_detector.onnx")
    assert det.detect(np.full((480, 640, 3), 90, np.uint8)) == []


def test_a_floor_adds_less_sure_boxes_for_a_precision_curve_and_finds_the_sure_ones_the_same(shared):
    photo = cv2.imread(str(shared / "data/real-tiles/photos/group_1.jpg"))
    det = TileDetector(MODELS / "tile_detector.onnx")
    run_time, every = det.detect(photo), det.detect(photo, floor=0.01)
    sure = [d.center for d in every if d.confidence >= 0.35]
    assert sure == [d.center for d in run_time if d.confidence >= 0.35] and len(sure) >= 30
    assert min(d.confidence for d in every) < 0.2 and len(every) > len(run_time)


def test_tiles_too_small_for_the_first_pass_are_found_by_a_larger_one(shared):
    """A real whole-set photo shrunk into a corner of a large plain table: 37 tiles about 45 px wide in a
    2800 px photo, under 7 px at the first pass's size, where the network cannot see them."""
    from vision.detector import BASE_SIZE

    photo = cv2.imread(str(shared / "data/real-tiles/photos/group_1.jpg"))
    small = cv2.resize(photo, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    table = np.full((2800, 2800, 3), (60, 110, 40), np.uint8)
    table[100:100 + small.shape[0], 200:200 + small.shape[1]] = small
    det = TileDetector(MODELS / "tile_detector.onnx")
    assert len(det.detect_at(table, BASE_SIZE)) < 20
    found = det.detect(table)
    assert 35 <= len(found) <= 39
    assert all(200 <= d.center[0] <= 200 + small.shape[1] and 100 <= d.center[1] <= 100 + small.shape[0]
               for d in found)


def test_a_small_tile_in_a_cluttered_photo_is_found_though_big_false_boxes_come_first(shared):
    """A real photo of one 7p standing on white paper on a desk, 1600 px wide: the first pass sees big boxes on
    the wallpaper and none on the tile; so few tiles found send the photo to a larger pass."""
    from vision.detector import BASE_SIZE, FEW_TILES
    from vision.tiles import TileFinder

    photo = cv2.imread(str(shared / "data/real-tiles/photos/p_7_2.jpg"))
    finder = TileFinder()
    first = finder.detector.detect_at(photo, BASE_SIZE)
    assert 0 < len(first) < FEW_TILES
    assert "7p" in [t.kind for t in finder.find(photo)]


@pytest.mark.parametrize("name, kind", [("p_1_1", "1p"), ("p_3_1", "3p")])
def test_a_small_photo_of_one_small_tile_is_read_enlarged(shared, name, kind):
    """A real single-tile photo made 480 px wide, its tile about 31 px: read at its own size, the detector saw
    no sure box on the tile, only false ones on the clutter; a photo under SMALL_PHOTO_PX may be read up to
    twice its size."""
    from vision.detector import SMALL_PHOTO_PX
    from vision.tiles import TileFinder

    photo = cv2.imread(str(shared / f"data/real-tiles/photos/{name}.jpg"))
    small = cv2.resize(photo, (480, round(photo.shape[0] * 480 / photo.shape[1])), interpolation=cv2.INTER_AREA)
    assert max(small.shape[:2]) < SMALL_PHOTO_PX
    finder = TileFinder()
    tile = next(t for t in finder.find(small) if t.kind == kind)
    at_its_size = finder.detector.detect_at(small, 480)
    assert not any(np.hypot(*np.subtract(d.center, tile.center)) < 15 for d in at_its_size if d.confidence >= 0.35)


def test_a_close_up_of_a_few_big_tiles_is_not_read_again_at_a_size_where_they_are_too_big(shared):
    """Three real tiles (the red fives of a whole-set photo) enlarged four times, about 400 px wide: few tiles
    found, but looking larger would only cut them into glyph-sized fragments."""
    from vision.tiles import TileFinder

    photo = cv2.imread(str(shared / "data/real-tiles/photos/group_1.jpg"))
    h, w = photo.shape[:2]
    close_up = cv2.resize(photo[:int(h * 0.27), int(w * 0.1):int(w * 0.32)], None, fx=4, fy=4)
    assert sorted(t.kind for t in TileFinder().find(close_up)) == ["0m", "0p", "0s"]


@pytest.fixture(scope="module")
def scene(shared, tmp_path_factory):
    """Generated scenes of a seed the models never saw (training used seed 0)."""
    from datasets import generate

    out = tmp_path_factory.mktemp("scenes")
    generate.main(["--out", str(out), "--n", "6", "--seed", "4242", "--framing", "corner", "--workers", "1",
                   "--shared", str(shared)])
    return out


def test_shipped_models_find_and_read_the_tiles_of_a_generated_photo(scene):
    from datasets.evaluate import evaluate
    from vision.tiles import TileFinder

    r = evaluate(TileFinder(), scene)
    t = r["totals"]
    assert t["labelled"] > 100
    # Floors a little under what the first detector does on these 6 corner snapshots (found 64 %, read 76 %,
    # lie 68 %), so a regression shows; the issue's targets are far higher (models/README.md).
    assert t["found"] / t["labelled"] >= 0.55, r
    assert t["read"] / t["found"] >= 0.65, r
    assert t["lie"] / t["found"] >= 0.6, r


def test_read_cli_prints_one_json_line_per_photo_and_refuses_a_non_image(scene, tmp_path, capsys):
    from server.cli import main

    photos = sorted(scene.glob("images/*/*.jpg"))[:2]
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    status = main(["read", "--json", str(photos[0]), str(bad), str(photos[1]), "--annotate", str(tmp_path)])
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(lines) == 3
    assert "error" in lines[1] and "not an image" in err
    assert [line["photo"] for line in lines] == [str(photos[0]), str(bad), str(photos[1])]  # each names its photo
    for line in (lines[0], lines[2]):
        assert len(line["tiles"]) > 5
        t = line["tiles"][0]
        assert set(t) == {"kind", "confidence", "polygon", "lie"} and len(t["polygon"]) == 4
        assert t["lie"] in ("upright", "sideways", "upside-down")
    assert (tmp_path / f"{photos[0].stem}.annotated.jpg").is_file()


def test_read_cli_keeps_the_annotated_copies_of_two_photos_named_alike(scene, tmp_path, capsys):
    from server.cli import main

    photos = sorted(scene.glob("images/*/*.jpg"))[:2]
    for folder, photo in zip("ab", photos):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.jpg").write_bytes(photo.read_bytes())
    assert main(["read", str(tmp_path / "a" / "x.jpg"), str(tmp_path / "b" / "x.jpg"), "--annotate",
                 str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    first, second = tmp_path / "out" / "x.annotated.jpg", tmp_path / "out" / "x-2.annotated.jpg"
    assert f"annotated copy: {first}" in out and f"annotated copy: {second}" in out  # the second overwrote the first
    assert first.read_bytes() != second.read_bytes()


@pytest.mark.parametrize("args, words", [
    (["--conf", "-1"], "-1 is not a confidence: give one above 0 and at most 1"),
    (["--conf", "nan"], "nan is not a confidence"),
    (["--conf", "2"], "2 is not a confidence"),
    (["--conf", "x"], "'x' is not a number"),
])
def test_read_cli_refuses_a_threshold_that_is_not_a_confidence(args, words, tmp_path, capsys):
    from server.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["read", str(tmp_path / "photo.jpg"), *args])
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_read_cli_says_a_folder_is_not_a_photo_and_an_annotate_folder_that_is_a_file_before_reading(
        scene, tmp_path, capsys):
    from server.cli import main

    assert main(["read", str(tmp_path)]) == 1
    assert f"{tmp_path} is a folder, not an image file" in capsys.readouterr().err
    photo = sorted(scene.glob("images/*/*.jpg"))[0]
    (tmp_path / "taken").write_text("a file where the folder would go")
    assert main(["read", str(photo), "--annotate", str(tmp_path / "taken")]) == 2
    assert "--annotate " + str(tmp_path / "taken") + ": not a folder that can be written" in capsys.readouterr().err


def test_finder_refuses_what_is_not_an_image():
    from vision.tiles import TileFinder

    with pytest.raises(ImageError, match="not an image"):
        TileFinder().find(b"hello, this is text")


def test_a_mirrored_photo_read_as_mirrored_gives_the_same_table(scene):
    """A selfie camera mirrors the photo: flipped back before reading, the same tiles and hand come out, and the
    polygons land on the tiles of the photo as given."""
    from vision.pipeline import read_photo
    from vision.tiles import TileFinder

    finder = TileFinder()
    photo = cv2.imread(str(sorted(scene.glob("images/*/*.jpg"))[0]))
    plain = read_photo(finder, photo)
    mirrored = read_photo(finder, cv2.flip(photo, 1), mirrored=True)
    assert mirrored["mirrored"] and len(plain["tiles"]) > 10
    assert sorted(t["kind"] for t in mirrored["tiles"]) == sorted(t["kind"] for t in plain["tiles"])
    assert mirrored["hand"] == plain["hand"]
    w = photo.shape[1]
    centres = sorted((round(w - np.mean([p[0] for p in t["polygon"]])), round(np.mean([p[1] for p in t["polygon"]])))
                     for t in mirrored["tiles"])
    expected = sorted((round(np.mean([p[0] for p in t["polygon"]])), round(np.mean([p[1] for p in t["polygon"]])))
                      for t in plain["tiles"])
    assert all(abs(a[0] - b[0]) <= 3 and abs(a[1] - b[1]) <= 3 for a, b in zip(centres, expected))


def test_read_json_of_a_mirrored_photo_puts_the_tiles_where_they_lie_in_it(scene, tmp_path, capsys):
    """Without --score the tiles came out where they lie in the photo flipped back: the overlay of a selfie
    photo fell on the other side."""
    from server.cli import main

    photo = cv2.imread(str(sorted(scene.glob("images/*/*.jpg"))[0]))
    cv2.imwrite(str(tmp_path / "selfie.png"), cv2.flip(photo, 1))
    assert main(["read", "--json", "--mirrored", str(tmp_path / "selfie.png")]) == 0
    found = json.loads(capsys.readouterr().out)["tiles"]
    assert main(["read", "--json", "--score", "--mirrored", str(tmp_path / "selfie.png")]) == 0
    scored = json.loads(capsys.readouterr().out)["tiles"]

    def centres(tiles):
        return sorted((round(np.mean([p[0] for p in t["polygon"]])), round(np.mean([p[1] for p in t["polygon"]])))
                      for t in tiles)

    assert len(found) > 10 and centres(found) == centres(scored)


def test_read_piped_into_a_reader_that_stops_early_ends_quietly(scene):
    """`riichi-lens read *.jpg | head`: the rest of the output had nowhere to go, and a traceback said so."""
    import subprocess
    import sys

    photos = [str(p) for p in sorted(scene.glob("images/*/*.jpg"))[:3]]
    run = subprocess.Popen([sys.executable, "-m", "server.cli", "read", *photos], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    assert run.stdout.readline().decode().startswith(photos[0])
    run.stdout.close()  # as head does after its lines
    err = run.stderr.read().decode()
    # 1 once the pipe is found closed (0 should the last photos' lines have fitted the pipe's buffer first)
    assert run.wait(timeout=120) in (0, 1) and "Traceback" not in err and "BrokenPipe" not in err, err


def test_a_photo_without_colour_is_said_to_hide_face_down_tiles(scene):
    """Face-down tiles are told from haku by their backs' colour: a grey photo's backs read as haku, and a
    readout of "9 copies of 5z" said nothing of why."""
    from vision.pipeline import read_photo
    from vision.tiles import TileFinder

    finder = TileFinder()
    photo = cv2.imread(str(sorted(scene.glob("images/*/*.jpg"))[0]))
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    assert not any("no colour" in n for n in read_photo(finder, photo)["notes"])
    for image in (grey, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        assert any(n.startswith("the photo has no colour: a face-down tile is told from a haku")
                   for n in read_photo(finder, image)["notes"])
    blank = np.full((240, 320, 3), 128, np.uint8)  # no tile to say it of (a blank image said it too)
    assert not any("no colour" in n for n in read_photo(finder, blank)["notes"])


def test_read_score_prints_the_table_and_its_json(scene, capsys):
    from server.cli import main
    from vision.reader import CANDIDATE_FLOOR, CANDIDATES

    photo = str(sorted(scene.glob("images/*/*.jpg"))[1])
    assert main(["read", "--score", photo]) == 0
    text = capsys.readouterr().out
    assert "tiles" in text and ("self" in text or "problem" in text)
    assert "at an exhaustive draw" not in text
    assert main(["read", "--score", "--draw", photo]) == 0
    text = capsys.readouterr().out
    assert "  at an exhaustive draw:" in text and "    self " in text
    assert main(["read", "--score", "--draw", "--declared", "across=noten", "--declared", "left=tenpai", photo]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("    across  noten (declared)") for line in lines), lines
    assert any(line.startswith("    left    tenpai") and "(declared)" in line for line in lines), lines
    with pytest.raises(SystemExit) as refused:
        main(["read", "--score", "--draw", "--declared", "left=maybe", photo])
    assert refused.value.code == 2 and "give SEAT=tenpai or SEAT=noten" in capsys.readouterr().err
    assert main(["read", "--score", "--json", photo]) == 0
    table = json.loads(capsys.readouterr().out)
    assert {"tiles", "seats", "dora_indicators", "problems", "hand", "readout", "draw", "width", "height"} <= set(table)
    assert {t["role"] for t in table["tiles"]} <= {"concealed", "meld", "pond", "dora", "wall", "stray"}
    # each tile keeps the reader's likeliest kinds, best first, for the page's picker to offer
    for t in table["tiles"]:
        p = [q for _, q in t["candidates"]]
        assert 1 <= len(p) <= CANDIDATES and p == sorted(p, reverse=True) and 0 < sum(p) <= 1 + 1e-3, t
        assert all(q >= CANDIDATE_FLOOR for q in p[1:]), t
        assert t["kind"] in {k for k, _ in t["candidates"]} | {"back"}, t  # read as one, or turned face down


def _box(x: float, y: float, w: float = 30, h: float = 40, kind: str = "5m", confidence: float = 0.9) -> Tile:
    return Tile(kind, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), confidence)


def test_a_box_straddling_two_tiles_is_dropped_and_overlapping_neighbours_are_kept():
    row = [_box(0, 0), _box(30, 0), _box(60, 0, kind="7p")]
    straddling = _box(15, 0, kind="6s", confidence=0.5)  # half of each of the first two
    assert drop_straddling(row + [straddling]) == row
    # standing tiles seen aslant overlap their neighbours by a third: all stay, whatever their confidence
    aslant = [_box(20 * k, 0, confidence=0.9 - 0.1 * k) for k in range(5)]
    assert drop_straddling(aslant) == aslant
    # the surer of two boxes on one tile stays, the other goes; order is kept
    assert drop_straddling([_box(0, 0, confidence=0.4), _box(2, 1, confidence=0.8)]) == [_box(2, 1, confidence=0.8)]
    # a tile whose box the detector was sure of stays, however its neighbours' boxes cover it (a row of sheared
    # faces' long rectangles) and however unsurely it was read
    assert drop_straddling(row + [straddling], [False, False, False, True]) == row + [straddling]


def test_a_face_cut_by_the_photos_edge_is_stretched_back_out_to_its_neighbours_shape():
    """Tiles 30 x 40 px in a row; the first lies half beyond the photo's left edge, its box the 15 px inside. Its
    neighbours' shape (30 across for 40 down) stretches it back out to 30 px, across the edge, its right side and
    its height kept; the uncut tiles, a tile in a photo's corner and a sliver under 40 % inside (the labels' floor)
    are given back as they were."""
    from vision.tiles import whole_faces

    def box(x0, x1, y0=100.0, y1=140.0):
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    corners = [box(0.0, 15.0), box(45.0, 75.0), box(75.0, 105.0), box(105.0, 135.0)]
    whole = whole_faces(corners, (200, 300, 3))
    np.testing.assert_allclose(whole[0], box(-15.0, 15.0), atol=1e-6)
    assert all(w is c for w, c in zip(whole[1:], corners[1:]))
    cornered = [box(0.0, 15.0, 0.0, 40.0)] + corners[1:]  # cut by two edges: no side to stretch, left alone
    assert whole_faces(cornered, (200, 300, 3))[0] is cornered[0]
    sliver = [box(0.0, 10.0)] + corners[1:]  # a third of the tile inside: it would be stretched threefold
    assert whole_faces(sliver, (200, 300, 3))[0] is sliver[0]


def test_an_unsure_sliver_cut_by_the_photos_edge_is_dropped_and_a_tile_showing_half_its_width_is_kept():
    shape = (300, 400, 3)
    row = [_box(100 + 30 * k, 150) for k in range(4)]
    top_strip = _box(150, 0, w=30, h=8, kind="4s", confidence=0.3)  # the tops of a row of tiles at the border
    assert drop_cut_by_frame(row + [top_strip], shape) == row
    # read surely, the same strip stays (a far hand's tile cut by a snapshot's edge); so does a tile cut by the
    # right edge that shows two thirds of its width, and an unsure thin box inside the photo
    sure_strip = _box(150, 0, w=30, h=8, kind="4s", confidence=0.8)
    right = _box(380, 150, w=19, h=40, confidence=0.3)
    inside = _box(200, 100, w=30, h=8, confidence=0.3)
    kept = row + [sure_strip, right, inside]
    assert drop_cut_by_frame(kept, shape) == kept
    # the bottom edge counts as the top does
    bottom_strip = _box(150, 292, w=30, h=8, confidence=0.3)
    assert drop_cut_by_frame(row + [bottom_strip], shape) == row


def test_a_haku_far_darker_than_the_photos_faces_is_dropped_but_one_in_shade_stays():
    """A blank face is white: a box read as haku on a dark scrap (a monitor's foot) is no tile, one in a shadow
    (0.7 as bright as the faces) still is; with no face read surely nothing tells how bright faces are."""
    from vision.reader import Light

    photo = np.full((200, 400, 3), 90, np.uint8)
    boxes = {"face": (10, 60), "shaded": (110, 160), "dark": (210, 260), "dim": (310, 360)}
    for (x0, x1), grey in zip(boxes.values(), (235, 165, 40, 110)):
        photo[50:130, x0:x1] = grey
    photo[80:100, 25:45] = (30, 30, 160)  # the face's glyph
    tiles = [Tile(kind, ((x0, 50.0), (x1, 50.0), (x1, 130.0), (x0, 130.0)))
             for kind, (x0, x1) in zip(("1m", "5z", "5z", "5z"), boxes.values())]
    crops = [straighten(photo, np.array(t.polygon, np.float32)) for t in tiles]
    # the dim one is 110 / 235 = 0.47 of the face, just over DARK_BLANK_BELOW (0.45); the dark one 0.17
    kept = drop_dark_blanks(tiles, photo, Light(crops, ["1m", "5z", "5z", "5z"], [0.6, 0.9, 0.9, 0.9]))
    assert [t.polygon[0][0] for t in kept] == [10, 110, 310]
    unsure_face = Light(crops, ["1m", "5z", "5z", "5z"], [0.4, 0.9, 0.9, 0.9])
    assert drop_dark_blanks(tiles, photo, unsure_face) == tiles


def test_false_haku_on_a_dark_monitor_foot_in_a_real_single_tile_photo_are_dropped(shared):
    """The real photo ``m_2_3.jpg``: one 2m on white paper before a black monitor, whose foot gave two boxes read as
    haku (their middles 0.19 and 0.21 as bright as the tile's face)."""
    from vision.tiles import TileFinder

    assert [t.kind for t in TileFinder().find(str(shared / "data/real-tiles/photos/m_2_3.jpg"))] == ["2m"]


def test_plain_tiles_at_the_photos_edge_are_dropped_unless_their_group_shows_a_face():
    """A row of 'backs' along the top edge far from any tile showing a face (a curtain's folds) is dropped; a pon
    of haku cut by the right edge, linked tile by tile to the hand beside it, stays, as does a back inside the
    photo and a back at the edge beside a face (a closed kan's). PLAIN_NEAR: 1.5 long sides (40 px: 60 px)."""
    from vision.tiles import drop_plain_at_edge

    shape = (300, 400, 3)
    hand = [_box(190 + 30 * k, 150) for k in range(4)]  # 190-310
    haku_pon = [_box(310 + 30 * k, 150, kind="5z") for k in range(3)]  # the last one reaches the right edge
    curtain = [_box(30 + 60 * k, 0, w=50, h=40, kind="back", confidence=0.5) for k in range(3)]
    inside_back = _box(40, 200, kind="back")
    kan = [_box(0, 250, kind="back", h=50), _box(30, 250, kind="2m", h=50)]  # the back at the left edge
    tiles = hand + haku_pon + curtain + [inside_back] + kan
    assert drop_plain_at_edge(tiles, shape) == hand + haku_pon + [inside_back] + kan
    # the haku pon alone, its group no face: it goes as the curtain does
    assert drop_plain_at_edge(haku_pon + [inside_back], shape) == haku_pon[:2] + [inside_back]
    assert drop_plain_at_edge([], shape) == []


def test_a_sliver_at_the_photos_edge_whose_box_is_unsure_is_dropped_unread_and_a_sure_one_is_read(monkeypatch):
    """Four 30 x 40 px boxes in a row and two 30 x 8 px strips along the photo's top edge, one boxed 0.4 sure, one
    0.9 sure. The unsure strip is a sliver whatever it reads (its tile's confidence, box times reading, stays under
    ``SLIVER_SURE``): it is not read at all; the sure one is read and kept."""
    import vision.tiles as tiles

    row = [Detection((100.0 + 30 * k, 150.0), (30.0, 40.0), 0.0, 0.9) for k in range(4)]
    unsure_strip = Detection((40.0, 4.0), (30.0, 8.0), 0.0, 0.4)
    sure_strip = Detection((300.0, 4.0), (30.0, 8.0), 0.0, 0.9)
    finder = _finder_with_stand_in_pair(monkeypatch, row + [unsure_strip, sure_strip])
    shown = []
    read = finder.reader.read
    monkeypatch.setattr(finder.reader, "read",
                        lambda crops, profile=None, light=None: shown.extend(crops) or read(crops))
    photo = np.full((300, 400, 3), 255, np.uint8)
    found = finder.find(photo)
    assert tiles.SLIVER_SURE == 0.5 and len(found) == 5 and max(t.center[0] for t in found) == 300.0
    assert len(shown) == 5 and all(min(c.shape[:2]) >= 8 for c in shown)


def test_small_far_tiles_are_found_again_on_their_region_enlarged(monkeypatch):
    """A 1024 px snapshot's far hand, 14 px wide, is boxed poorly at the photo's own size (one box across two
    tiles, one tile missed): the region around it read enlarged gives its boxes, suppressed together with the
    first pass's small ones, the surest first; the near hand's large boxes stay, and a box found where the region
    cuts the photo is not taken."""
    ys, xs = np.mgrid[0:768, 0:1024]
    photo = np.dstack([xs % 256, xs // 256 + 4 * (ys // 256), ys % 256]).astype(np.uint8)  # each pixel says where
    near = [Detection((200.0 + 42 * i, 650.0), (40.0, 56.0), 0.0, 0.9) for i in range(5)]
    far = [Detection((300.0 + 15 * i, 100.0), (14.0, 19.0), 0.0, 0.8) for i in range(8)]
    seen = far[:3] + [Detection((352.5, 100.0), (28.0, 19.0), 0.0, 0.6)] + far[5:7]  # 3 and 4 as one; 7 missed
    regions = []

    def detect_at(image, long_side, conf=0.35, iou=0.3):
        if image.shape == photo.shape:
            return near + seen
        b, g, r = (int(v) for v in image[0, 0])
        x0, y0 = b + 256 * (g % 4), r + 256 * (g // 4)
        regions.append((x0, y0, image.shape, long_side))
        cut = Detection((1.0, 60.0), (14.0, 19.0), 0.0, 0.9)  # at the region's left cut, not the photo's edge
        return [Detection((d.center[0] - x0, d.center[1] - y0), d.size, d.angle, d.confidence) for d in far] + [cut]

    detector = TileDetector(MODELS / "tile_detector.onnx")
    monkeypatch.setattr(detector, "detect_at", detect_at)
    boxes = detector.detect(photo)
    assert len(regions) == 1
    x0, y0, (h, w, _), long_side = regions[0]
    assert 0 < x0 < 290 and 0 < y0 < 90 and x0 + w > 410 and y0 + h > 110  # around the far hand...
    assert w < 1024 and h < 768 and long_side > max(h, w)  # ...not the whole photo, and enlarged
    small = sorted((b for b in boxes if max(b.size) < 25), key=lambda b: b.center[0])
    assert [round(b.center[0]) for b in small] == [round(d.center[0]) for d in far]
    assert sorted(round(b.center[0]) for b in boxes if max(b.size) > 50) == [round(d.center[0]) for d in near]
    regions.clear()
    skipped = detector.detect(photo, small_pass=False)  # as live mode does on every other frame
    assert regions == []
    assert sorted(round(b.center[0]) for b in skipped) == sorted(round(d.center[0]) for d in near + seen)

"""Photo -> tiles: the detector finds each tile as a rotated rectangle, the reader reads its straightened crop.

Each tile comes back as a ``layout.Tile``: kind in the rules notation (``0m`` a red five, ``back`` face down),
confidence, and its face polygon with corners (top-left, top-right, bottom-right, bottom-left) *as the glyph
reads*, so the polygon itself says how the tile lies. The reader's turn head decides which side of the rectangle
is the glyph's top; where several fit (tiles that look the same both ways up, ``classes.SYMMETRIC``: 2s, 8p, a
back...; or a quarter turned, ``QUARTER_SYMMETRIC``: 5p, haku...) the one nearest the photo's top is taken, so
such a tile is never reported upside down, and the row it lies in has the last word (``layout``).
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .detector import Detection, TileDetector
from .image import load_image
from .layout import Tile
from .models import DETECTOR, READER, model_file
from .reader import TileReader

CROP_MARGIN = 0.03  # each side, as a fraction of the tile's size: the reader learned slightly loose crops
MAX_CROP_H = 96  # larger crops are warped straight to this height: the reader needs 64 px; smaller warps are faster


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

    def __init__(self, detector: str | Path | None = None, reader: str | Path | None = None):
        self.detector = TileDetector(detector or model_file(DETECTOR))
        self.reader = TileReader(reader or model_file(READER))
        self._profiles: dict = {}

    def find(self, source, conf: float = 0.35, profile: str | None = None) -> list[Tile]:
        """``profile``: the name of a calibration profile of the user's set (``vision.calibrate``)."""
        image = load_image(source)
        detections = self.detector.detect(image, conf=conf)
        corners = [upright_corners(d) for d in detections]
        readings = self.reader.read([straighten(image, c) for c in corners], self.profile(profile))
        tiles = []
        for det, c, r in zip(detections, corners, readings):
            c = max((np.roll(c, -t, axis=0) for t in r.turns), key=_upward)  # glyph order: TL TR BR BL
            polygon = tuple((round(float(x), 1), round(float(y), 1)) for x, y in c)
            tiles.append(Tile(r.kind, polygon, round(det.confidence * r.confidence, 4)))
        return tiles

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


def tiles_json(tiles: list[Tile]) -> dict:
    """The JSON of ``riichi-lens read --json``: kind, confidence, polygon, lie per tile."""
    return {"tiles": [{"kind": t.kind, "confidence": t.confidence, "polygon": [list(p) for p in t.polygon],
                       "lie": t.lie} for t in tiles]}

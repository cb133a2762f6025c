"""The box refiner at run time: a small ONNX CNN that moves a detected face's four corners onto the face
(onnxruntime only).

Why: the detector's boxes miss the face. On dev snapshots (seed 18, 1024 px, faces from 20 px wide, not at the
photo's edge) a box's corner lies on average 6.9 % of the face's width from the true one, and the reader misreads
more there: 321 of 17,788 tiles at the detector's corners, 214 at the true ones, 218 halfway between the two
(session 37; the pair's first look). The shipped refiner (r2) brings the corners to 2.8 % of the width, where the
pair misreads 262. The refiner sees the box grown by ``FRAME_MARGIN`` of its size on each side, cut straight
(``frame_cut``), and says where in that cut the face's corners are, in the box's corner order
(``datasets.box_samples`` makes its data from the detector's own boxes on generated scenes;
``vision.training.refiner`` trains it; ``models/README.md`` has its figures).
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .models import cpu_session

FRAME_MARGIN = 0.25  # each side, as a share of the box's size: the face's true edges lie well inside
INPUT_H, INPUT_W = 52, 40  # the cut the refiner sees, portrait as the boxes' corners are (long side vertical)
STD_FLOOR = 0.03  # a flat crop (in [0, 1] pixel units) is not stretched into noise by its standardisation


def frame_corners(corners: np.ndarray, margin: float = FRAME_MARGIN) -> np.ndarray:
    """The quadrilateral ``corners`` (TL, TR, BR, BL) grown by ``margin`` of its size on each side."""
    c = np.asarray(corners, dtype=np.float64)
    lo, hi = -margin, 1 + margin
    return np.array([(1 - a) * (1 - b) * c[0] + a * (1 - b) * c[1] + a * b * c[2] + (1 - a) * b * c[3]
                     for a, b in ((lo, lo), (hi, lo), (hi, hi), (lo, hi))], dtype=np.float32)


def frame_cut(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The refiner's input for a box (``INPUT_H`` x ``INPUT_W``, BGR) and the transform from the photo to it."""
    target = np.float32([[0, 0], [INPUT_W, 0], [INPUT_W, INPUT_H], [0, INPUT_H]])
    transform = cv2.getPerspectiveTransform(frame_corners(corners), target)
    cut = cv2.warpPerspective(image, transform, (INPUT_W, INPUT_H), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return cut, transform


def standardise(cuts: np.ndarray) -> np.ndarray:
    """(n, H, W, 3) cuts in [0, 1] -> (n, 3, H, W) float32, each of zero mean and unit spread: the face's
    edges, not the light, place its corners."""
    x = cuts - cuts.mean(axis=(1, 2, 3), keepdims=True)
    x = x / np.maximum(x.std(axis=(1, 2, 3), keepdims=True), STD_FLOOR)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32)


class BoxRefiner:
    """The refiner on onnxruntime: ``refine`` gives each box's face corners in the photo."""

    def __init__(self, model_path: str | Path):
        self.session = cpu_session(model_path)

    def refine(self, image: np.ndarray, corners: list[np.ndarray]) -> list[np.ndarray]:
        """Each box's face corners (float32, in the box's corner order)."""
        if not corners:
            return []
        cuts, transforms = zip(*(frame_cut(image, c) for c in corners))
        x = standardise(np.stack(cuts).astype(np.float32) / 255.0)
        found = self.session.run(None, {"cuts": x})[0].reshape(-1, 4, 2) * np.float32([INPUT_W, INPUT_H])
        return [cv2.perspectiveTransform(q[None].astype(np.float32), np.linalg.inv(t))[0]
                for q, t in zip(found, transforms)]

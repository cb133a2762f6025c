"""Small geometry shared by the detector's and the layout's clean-ups."""
from __future__ import annotations

import numpy as np


def mean_angle(angles: np.ndarray, weights: np.ndarray, period: float, agree: float) -> float | None:
    """The weighted mean of angles (radians) that repeat every ``period`` (a row direction: a half turn; a box's
    angle: a quarter turn), or None when they disagree: their resultant is under ``agree`` of the weights."""
    k = 2 * np.pi / period
    vec = (weights[:, None] * np.column_stack([np.cos(k * angles), np.sin(k * angles)])).sum(0)
    if np.linalg.norm(vec) < agree * weights.sum():
        return None
    return float(np.arctan2(vec[1], vec[0]) / k)


def like_sized_near(centres: np.ndarray, longs: np.ndarray, centre, long: float, reach: float,
                    size_ratio: float) -> np.ndarray:
    """Which boxes (``centres`` (n, 2), ``longs`` their long sides) lie within ``reach`` of ``long`` of ``centre``
    and are no more than ``size_ratio`` times larger or smaller than ``long``: a box's neighbours in its row. Given
    m centres (m, 1, 2) and longs (m, 1), an (m, n) answer, a row for each."""
    ratio = longs / long
    dist = np.linalg.norm(centres - np.asarray(centre), axis=-1)
    return (dist < reach * long) & (ratio > 1 / size_ratio) & (ratio < size_ratio)

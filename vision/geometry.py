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

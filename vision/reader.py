"""The tile reader at run time: a small ONNX CNN that reads tile crops (onnxruntime only).

A crop is the tile turned so that its long side is vertical; the reader says which tile it is and whether it
is upside down. Kinds in ``SYMMETRIC`` look alike both ways up, so their flip is reported as unknown (None).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES, SYMMETRIC

INPUT_H, INPUT_W = 64, 48


def preprocess(crop: np.ndarray) -> np.ndarray:
    """BGR crop of any size -> float32 (3, H, W) in [0, 1]; the network standardises contrast itself."""
    img = cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img.transpose(2, 0, 1), dtype=np.float32) / 255.0


@dataclass(frozen=True)
class Reading:
    kind: str  # rules notation: 1m..7z, 0m/0p/0s red fives, back
    confidence: float
    upside_down: bool | None  # None: the tile looks the same both ways up


class TileReader:
    def __init__(self, model_path: str | Path):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        self.session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])

    def read(self, crops: list[np.ndarray]) -> list[Reading]:
        if not crops:
            return []
        batch = np.stack([preprocess(c) for c in crops])
        kind_logits, flip_logit = self.session.run(None, {"crops": batch})
        probs = np.exp(kind_logits - kind_logits.max(1, keepdims=True))
        probs /= probs.sum(1, keepdims=True)
        out = []
        for p, f in zip(probs, flip_logit):
            kind = CLASSES[int(p.argmax())]
            flipped = None if kind in SYMMETRIC else bool(f > 0)
            out.append(Reading(kind, float(p.max()), flipped))
        return out

"""The box refiner's data: the shipped detector's boxes on generated scenes, each cut as the refiner sees it, with
its tile's true face corners.

    python -m datasets.box_samples --src data/train110-corner --out data/boxes-110 --n 1500 [--jitter 1] [--seed 0]
        [--match-iou 0.5]

For each training scene (``tables/train``), the detector's boxes as the run time makes them
(``vision.tiles.faces``), each paired with the labelled tile it overlaps most (IoU at least ``--match-iou``,
``datasets.scene_crops.MATCH_IOU`` by default; lower takes in the loose boxes too), and ``--jitter`` more copies
of it moved, resized and turned a little (``JITTER_*``: more boxes around the same faces); each cut by
``vision.refiner.frame_cut``, its target the face polygon in that cut, rolled to the box's corner order, as a
share of the cut's width and height. Tiles at the photo's edge are left out: the run time does not refine them
(their part inside is what the detector boxes, and the cut reader reads it). One ``.npz`` per scene (``cuts`` uint8 (n, H, W, 3), ``corners`` float32 (n, 8), ``widths``
the faces' widths in px), so a run stopped part way goes on where it stopped; deterministic for (seed, scene).
"""
from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import cv2
import numpy as np

from vision.detector import Detection
from vision.refiner import INPUT_H, INPUT_W, frame_cut
from vision.tiles import edges_reached, face_width, faces, upright_corners

from .generate import _atomic_write, run_jobs
from .scene_crops import MATCH_IOU, glyph_turn

JITTER_SHIFT = 0.05  # of the box's short side, each way
JITTER_SCALE = 0.05  # of each side
JITTER_TURN = 4.0  # degrees
_detector = None  # the shipped detector, loaded once per worker process


def jittered(det: Detection, rng: np.random.Generator) -> np.ndarray:
    """The corners of a box near ``det``: another box a detector could have given for the same face."""
    (cx, cy), (w, h), angle = det.center, det.size, det.angle
    short = min(w, h)
    moved = Detection((cx + rng.normal(0, JITTER_SHIFT) * short, cy + rng.normal(0, JITTER_SHIFT) * short),
                      (w * (1 + rng.normal(0, JITTER_SCALE)), h * (1 + rng.normal(0, JITTER_SCALE))),
                      angle + rng.normal(0, JITTER_TURN), 1.0)
    return upright_corners(moved)


def samples(image: np.ndarray, table: dict, jitter: int, rng: np.random.Generator,
            match_iou: float = MATCH_IOU) -> dict[str, np.ndarray]:
    """One scene's cuts, their targets and the faces' widths (``datasets.box_samples``)."""
    global _detector
    from vision.detector import TileDetector
    from vision.models import DETECTOR, model_file

    from .evaluate import pair_by_overlap

    if _detector is None:
        _detector = TileDetector(model_file(DETECTOR))
    detections = _detector.detect(image)
    corners, _ = faces(detections)
    polygons = [np.array(t["polygon"], dtype=np.float64) for t in table["tiles"]]
    cuts, targets, widths = [], [], []
    at_edge = edges_reached(corners, image.shape).any(axis=1) if corners else []
    for det, box, k, edge in zip(detections, corners, pair_by_overlap(corners, polygons, match_iou), at_edge):
        if k is None or edge or not table["tiles"][k]["labelled"] or edges_reached([polygons[k]], image.shape).any():
            continue
        for c in [box] + [jittered(det, rng) for _ in range(jitter)]:
            cut, transform = frame_cut(image, c)
            face = np.roll(polygons[k], glyph_turn(c, polygons[k]), axis=0).astype(np.float32)
            target = cv2.perspectiveTransform(face[None], transform)[0] / np.float32([INPUT_W, INPUT_H])
            cuts.append(cut)
            targets.append(target.ravel())
            widths.append(face_width(polygons[k]))
    return {"cuts": np.array(cuts, np.uint8).reshape(-1, INPUT_H, INPUT_W, 3),
            "corners": np.array(targets, np.float32).reshape(-1, 8), "widths": np.array(widths, np.float32)}


def write_scene(job: tuple) -> int:
    src, out, table_path, jitter, seed, match_iou = job
    target = out / f"{table_path.stem}.npz"
    if target.exists():
        return 0
    cv2.setNumThreads(1)
    table = json.loads(table_path.read_text())
    rng = np.random.default_rng([seed, table["index"], 7])
    found = samples(cv2.imread(str(src / table["image"])), table, jitter, rng, match_iou)
    buf = io.BytesIO()
    np.savez_compressed(buf, **found)
    _atomic_write(target, buf.getvalue())
    return len(found["cuts"])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True, help="scenes written by datasets.generate")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=None, help="only the first N training scenes")
    ap.add_argument("--jitter", type=int, default=1, help="jittered copies of each box")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--match-iou", type=float, default=MATCH_IOU,
                    help="least IoU of a box with its tile (lower: loose boxes too)")
    ap.add_argument("--workers", type=int, default=1, help="each loads the detector (2 threads)")
    args = ap.parse_args(argv)
    tables = sorted((args.src / "tables" / "train").glob("*.json"))[:args.n]
    if not tables:
        ap.error(f"no training scenes under {args.src}/tables/train: make them with python -m datasets.generate")
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = [(args.src, args.out, p, args.jitter, args.seed, args.match_iou) for p in tables]
    run_jobs(write_scene, jobs, args.workers, "scenes sampled")


if __name__ == "__main__":
    main()

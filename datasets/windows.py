"""Square windows cut from generated scenes, for training the tile detector at a small input size on 2 cores.

    python -m datasets.windows --src data/synth-obb --out data/win416 --size 416 --per-image 3 [--seed 0]
                               [--classes tile|kinds] [--hidden 0.5]

Why: a detector's cost grows with its input area, but it must see tiles at the size they have in a real photo.
Training on 416-px windows of 1024-px scenes (tiles keep their native 19-150 px) costs about 40 % of training
on whole scenes shrunk to 640 px, where the smallest tiles would fall to 12 px. At run time the detector sees
the whole photo (it is fully convolutional), resized so tiles have about the size they had here.

Labels come from the scene's table JSON (every tile's face polygon). A tile cut by the window's edge is labelled
with its visible part (the minimum-area rectangle of the polygon clipped to the window) when at least half of its
face is inside, and left unlabelled otherwise, as `generate` does at the image edge. Windows are placed around
random labelled tiles, so few are empty; with ``--hidden``, that share of them around tiles partly hidden by a
nearer one (most of the detector's misses: standing concealed tiles seen aslant). Deterministic for (seed, image
index); existing windows are kept.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASS_INDEX
from .generate import _atomic_write, run_jobs, write_data_yaml

MIN_INSIDE = 0.5  # fraction of a face that must be inside the window for the tile to be labelled


def window_labels(tiles: list[dict], x0: int, y0: int, size: int, classes: str) -> list[str]:
    """YOLO-OBB lines (class x1 y1 .. x4 y4, normalized to the window) for the labelled tiles inside it."""
    rect = np.float32([[x0, y0], [x0 + size, y0], [x0 + size, y0 + size], [x0, y0 + size]])
    lines = []
    for t in tiles:
        if not t["labelled"]:
            continue
        quad = np.float32(t["polygon"])
        area = abs(cv2.contourArea(quad))
        if area <= 0:
            continue
        inside, clipped = cv2.intersectConvexConvex(quad, rect)
        if inside < MIN_INSIDE * area:
            continue
        if inside < 0.98 * area:  # cut by the edge: label what shows
            quad = cv2.boxPoints(cv2.minAreaRect(clipped.reshape(-1, 2)))
        q = np.clip((quad - [x0, y0]) / size, 0, 1).ravel()
        c = 0 if classes == "tile" else CLASS_INDEX[t["cls"]]
        lines.append(f"{c} " + " ".join(f"{v:.6f}" for v in q))
    return lines


def place_windows(tiles: list[dict], w: int, h: int, size: int, n: int, rng: np.random.Generator,
                  hidden: float = 0.0):
    """Top-left corners of n windows, each around a random labelled tile (or anywhere when there is none); with
    ``hidden``, that share around a labelled tile partly hidden by a nearer one (``occluded``), where there is one."""
    centres = [np.mean(t["polygon"], axis=0) for t in tiles if t["labelled"]]
    hidden_centres = [np.mean(t["polygon"], axis=0) for t in tiles if t["labelled"] and t["occluded"]]
    out = []
    for _ in range(n):
        if hidden and hidden_centres and rng.random() < hidden:
            around = hidden_centres
        elif centres and rng.random() < 0.9:
            around = centres
        else:
            around = None
        if around:
            cx, cy = around[int(rng.integers(len(around)))] + rng.uniform(-size / 3, size / 3, 2)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        x0 = int(np.clip(cx - size / 2, 0, max(0, w - size)))
        y0 = int(np.clip(cy - size / 2, 0, max(0, h - size)))
        out.append((x0, y0))
    return out


def write_windows(job: tuple) -> int:
    src, out, table_path, size, per_image, seed, classes, hidden = job
    table = json.loads(table_path.read_text())
    split, stem = table_path.parent.name, table_path.stem
    last = out / "images" / split / f"{stem}_{per_image - 1}.jpg"
    if last.exists():
        return 0
    cv2.setNumThreads(1)
    img = cv2.imread(str(src / table["image"]))
    h, w = img.shape[:2]
    if min(h, w) < size:  # pad small scenes with grey so every window is size x size
        img = cv2.copyMakeBorder(img, 0, max(0, size - h), 0, max(0, size - w), cv2.BORDER_CONSTANT,
                                 value=(114, 114, 114))
    rng = np.random.default_rng([seed, int(table["index"]), 4])
    for k, (x0, y0) in enumerate(place_windows(table["tiles"], w, h, size, per_image, rng, hidden)):
        lines = window_labels(table["tiles"], x0, y0, size, classes)
        name = f"{stem}_{k}"
        _atomic_write(out / "labels" / split / f"{name}.txt", ("\n".join(lines) + "\n" if lines else "").encode())
        ok, buf = cv2.imencode(".jpg", img[y0:y0 + size, x0:x0 + size], [cv2.IMWRITE_JPEG_QUALITY, 92])
        _atomic_write(out / "images" / split / f"{name}.jpg", buf.tobytes())
    return per_image


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True, help="a folder written by datasets.generate")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--size", type=int, default=416)
    ap.add_argument("--per-image", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--classes", choices=("tile", "kinds"), default="tile")
    ap.add_argument("--hidden", type=float, default=0.0,
                    help="share of the windows around tiles partly hidden by a nearer one (0 to 1)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    if not 0 <= args.hidden <= 1:
        ap.error(f"--hidden is a share of the windows, 0 to 1, not {args.hidden}")
    tables = sorted(args.src.glob("tables/*/*.json"))
    if not tables:
        ap.error(f"no tables/*/*.json under {args.src}: run python -m datasets.generate first")
    for sub in ("images", "labels"):
        for split in ("train", "val"):
            (args.out / sub / split).mkdir(parents=True, exist_ok=True)
    write_data_yaml(args.out, args.classes)
    jobs = [(args.src, args.out, t, args.size, args.per_image, args.seed, args.classes, args.hidden) for t in tables]
    run_jobs(write_windows, jobs, args.workers, "windows")


if __name__ == "__main__":
    main()

"""A short video of one generated table seen by a slightly moving camera, as Chromium's fake camera plays it.

    python -m datasets.video --out data/live.y4m [--frames 60] [--seed 11] [--framing corner] [--size 640x480]

For the browser tests of live mode (``--use-file-for-fake-video-capture=FILE``) and the live-mode bench: the same
deal and tile set in every frame, the camera drifting a few millimetres and tilting a little as a hand-held phone
does, so a stable readout is expected. Written as YUV4MPEG2 (4:2:0), which Chromium reads; also returns the
scene's true table so a test knows what the readout should be.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from .generate import default_shared
from .scenes import Camera, background, build_table, face_atlas, render, sample_camera, sample_style


def frames(seed: int, shared: Path, n: int, framing: str = "corner", width: int = 640, height: int = 480):
    """The n frames (BGR) and the layout's table structure."""
    rng = np.random.default_rng(seed)
    style = sample_style(rng, shared)
    layout = build_table(rng, style, framing)
    cam = sample_camera(rng, framing, width, height, layout)
    atlas = face_atlas(style, shared, rng, sorted({p.name for p in layout.tiles} | {"back"}))
    out = []
    for k in range(n):
        t = 2 * np.pi * k / max(n, 1)
        shift = np.array([3 * np.sin(t), 2 * np.sin(2 * t), 1.5 * np.cos(t)])  # mm: a hand holding a phone
        a = np.radians(0.6 * np.sin(t))
        turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
        moved = Camera(cam.f, cam.cx, cam.cy, turn @ cam.R, cam.C + shift, width, height)
        base = np.clip(background(np.random.default_rng(seed), moved, abs(layout.table["y_hand"]) + 40), 0, 255)
        img, _ = render(layout.tiles, style, moved, atlas, base.astype(np.uint8), shadow=0.2,
                        rng=np.random.default_rng([seed, k]))
        out.append(cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    return out, layout.table


def write_y4m(path: Path, images: list[np.ndarray], fps: int = 10) -> None:
    h, w = images[0].shape[:2]
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for img in images:
            f.write(b"FRAME\n" + cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420).tobytes())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--framing", choices=("corner", "table"), default="corner")
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--shared", type=Path, default=None)
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    images, _ = frames(args.seed, (args.shared or default_shared()).resolve(), args.frames, args.framing, w, h)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_y4m(args.out, images)
    print(f"wrote {args.out}: {len(images)} frames of {w}x{h}")


if __name__ == "__main__":
    main()

"""Single-tile crops for a crop classifier: DIR/{train,val}/{class}/NAME.jpg.

    python -m datasets.crops --out DIR --n 20000 --seed 0 [--yaw 45] [--workers 2] [--shared PATH]

Each scene is a short row of random tiles (standing or lying, all classes equally likely) photographed roughly
upright; every upright, unoccluded tile is cropped to its face box (or, one time in three, its whole-body box, as
a detector would give) with each side jittered, from a cut inside the face (as a hand-cut crop) to a loose box.
Face-down tiles of a set with white backs are left out: alone they look like a blank haku, so the reader reads a
blank colourless tile as haku and the table decides by count which of them are face down.
With ``--yaw DEG`` a row of standing tiles is photographed from up to DEG degrees to either side (the camera turned
about the table's vertical through the row, the tiles set apart enough that each face shows whole), so a crop of a
tile's whole body shows its side and top beside the face, as a phone held at an angle to a hand does; a tile lying
flat keeps the near-frontal camera, whose glyph a turned camera would turn in the photo. Without it the camera
stays within a few degrees of frontal, as every reader up to session 59 learnt (session 60: the readers trained
apart then read the real set's crops of whole tiles seen aslant worst, ``models/README.md``).
Scene i is seeded from (seed, i, 2), so output does not depend on the worker count; existing files are kept.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES
from .generate import SET_EVERY, VAL_EVERY, _atomic_write, default_shared, run_jobs
from .glyphs import fonts_warning
from .scenes import Photo, apply_photo, background, look_at, render, tile_set, turn_matrix
from .tiles import lying, standing

PER_SCENE = 10


def crop_scene(seed: int, index: int, shared: Path, yaw: float = 0.0):
    """A row of tiles and a near-frontal camera (a row standing: up to ``yaw`` degrees to a side); returns the
    image (RGB) and the annotations of the tiles."""
    rng = np.random.default_rng([seed, index, 2])
    style, atlas = tile_set([seed, index // SET_EVERY, 3], shared)
    names = [CLASSES[k] for k in rng.integers(len(CLASSES), size=PER_SCENE)]
    stand = rng.random() < 0.5
    gap = rng.uniform(0.3, 4)
    # drawn only then, so scenes without a yaw are as before
    turn = np.radians(rng.uniform(-yaw, yaw)) if yaw and stand else 0.0
    gap += style.d * np.tan(abs(turn))  # seen aslant a standing tile hides that much of its neighbour's face
    tiles = []
    for k, n in enumerate(names):
        x = (k - PER_SCENE / 2) * (style.w + gap)
        if stand:
            tiles.append(standing(n, x, 0, rng.normal(0, 4), style))
        else:
            tiles.append(lying(n, x, 0, rng.normal(0, 4), style, face_down=n == "back"))
    for t in tiles:
        if t.name == "back" and stand:  # a standing tile shows its back to a camera behind it only; show it lying
            t.ez, t.ex = np.array([0, 0, -1.0]), -t.ex
            t.ey = np.array([0, 1.0, 0])
            t.centre = np.array([t.centre[0], 0, style.d / 2])
    w, h = 960, 540
    dist = rng.uniform(120, 480)
    pitch = np.radians(rng.uniform(10, 35) if stand else rng.uniform(25, 85))
    T = np.array([rng.normal(0, 20), 0, style.h / 2 if stand else 0])
    offset = np.array([rng.normal(0, 0.1), -np.cos(pitch), np.sin(pitch)])
    offset[:2] = turn_matrix(turn) @ offset[:2]  # about the table's vertical; exact at 0: frontal scenes are as before
    C = T + dist * offset
    f = w / 2 / np.tan(np.radians(rng.uniform(45, 70)) / 2)
    cam = look_at(C, T, rng.normal(0, 6), f, w, h)
    photo = Photo.sample(rng)
    base = np.clip(background(rng, cam, 300), 0, 255).astype(np.uint8)
    img, anns = render(tiles, style, cam, atlas, base, shadow=photo.shadow_strength, light=photo.light_dir, rng=rng)
    img = apply_photo(img.astype(np.float32), photo, rng)
    return img, anns, rng, photo.jpeg_quality, style


def jittered_box(box, rng) -> tuple[int, int, int, int]:
    """A detector's box around the truth: each side moved by a few percent of the tile's size."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    j = rng.normal(0.0, 0.04, 4) + rng.uniform(-0.06, 0.05)  # from inside the face (hand-cut crops) to loose
    return (int(round(x0 - j[0] * bw)), int(round(y0 - j[1] * bh)), int(round(x1 + j[2] * bw)),
            int(round(y1 + j[3] * bh)))


def write_crops(job: tuple) -> int:
    out, seed, index, shared, yaw = job
    split = "val" if index % VAL_EVERY == VAL_EVERY - 1 else "train"
    done = out / ".done" / f"{index:06d}"  # outside the class folders
    if done.exists():
        return index
    cv2.setNumThreads(1)
    img, anns, rng, quality, style = crop_scene(seed, index, shared, yaw)
    H, W = img.shape[:2]
    bgr = cv2.cvtColor(img, cv2.COLOR_RGB2BGR)
    for k, a in enumerate(anns):
        if a is None or a["lie"] != "upright" or a["occluded"] or a["truncated"] or not a["labelled"]:
            continue
        if a["cls"] == "back" and style.blank_back:  # the crop alone cannot tell it from a blank haku
            continue
        q = np.array(a["polygon"])
        box = (*q.min(0), *q.max(0)) if rng.random() < 2 / 3 else a["box"]
        x0, y0, x1, y1 = jittered_box(box, rng)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 - x0 < 12 or y1 - y0 < 16:
            continue
        folder = out / split / a["cls"]
        folder.mkdir(parents=True, exist_ok=True)
        ok, buf = cv2.imencode(".jpg", bgr[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, quality])
        _atomic_write(folder / f"{index:06d}_{k}.jpg", buf.tobytes())
    done.parent.mkdir(parents=True, exist_ok=True)
    done.touch()
    return index


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=20000, help="about how many crops (scenes of %d tiles)" % PER_SCENE)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--yaw", type=float, default=0.0,
                    help="photograph standing rows from up to this many degrees to either side (default: frontal)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shared", type=Path, default=None)
    args = ap.parse_args(argv)
    shared = (args.shared or default_shared()).resolve()
    if not (shared / "data" / "tile-art").is_dir():
        ap.error(f"tile art not found under {shared}/data/tile-art: pass --shared or set RIICHI_LENS_SHARED")
    if warning := fonts_warning():
        print(warning, file=sys.stderr)
    n_scenes = -(-args.n // PER_SCENE)
    jobs = [(args.out, args.seed, i, shared, args.yaw) for i in range(n_scenes)]
    run_jobs(write_crops, jobs, args.workers, "crop scenes")


if __name__ == "__main__":
    main()

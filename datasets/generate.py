"""Write a synthetic detection dataset (ultralytics layout) with the true table structure per image.

    python -m datasets.generate --out DIR --n 2000 --seed 0 [--framing mixed|corner|table|spread] [--imgsz 1024]
                                [--workers 2] [--shared PATH] [--format detect|obb] [--clutter 0.5] [--wins | --draws]
                                [--harsh-light 0.3] [--players 3]

Image i is drawn from numpy's generator seeded with (seed, i) and the tile set from (seed, i // SET_EVERY, 1), so
the output is the same for any worker count and a stopped run resumes where it left off (images already written
are skipped; an image file is written last, after its labels).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASS_INDEX, CLASSES
from .glyphs import fonts_warning
from .scenes import Lamp, render_scene, sample_style

SET_EVERY = 8  # consecutive images that show the same tile set, like one photo session
VAL_EVERY = 10  # every 10th image goes to val
ASPECTS = ((4, 3), (3, 4), (1, 1), (16, 9), (9, 16))
FRAMINGS = ("corner", "table", "spread")  # "mixed" draws one per image with probabilities .5 .3 .2


def default_shared() -> Path:
    repo = Path(__file__).resolve().parents[1]
    return Path(os.environ.get("RIICHI_LENS_SHARED", repo.parent / "shared"))


def split_of(index: int) -> str:
    return "val" if index % VAL_EVERY == VAL_EVERY - 1 else "train"


def image_size(rng: np.random.Generator, imgsz: int) -> tuple[int, int]:
    a, b = ASPECTS[rng.choice(len(ASPECTS), p=[.35, .35, .1, .1, .1])]
    return (imgsz, int(round(imgsz * b / a))) if a >= b else (int(round(imgsz * a / b)), imgsz)


def make_scene(seed: int, index: int, framing: str, imgsz: int, shared: Path, clutter: float = 0.0,
               wins: bool = False, harsh_light: float = 0.0, draws: bool = False, players: int = 4):
    """The scene of image `index`: everything random comes from (seed, index) and the set seed; with probability
    ``clutter``, things that are not tiles about the table, from (seed, index, 4), and with probability
    ``harsh_light``, one strong lamp (``scenes.Lamp``), from (seed, index, 5): the same scene otherwise.
    ``wins``: the first seat's hand is complete; ``draws``: the hands as an exhaustive draw shows them;
    ``players``: 3, a three-player table (``scenes.build_table``)."""
    rng = np.random.default_rng([seed, index])
    fr = framing if framing != "mixed" else str(rng.choice(FRAMINGS, p=[.5, .3, .2]))
    w, h = image_size(rng, imgsz)
    clutter_rng = np.random.default_rng([seed, index, 4])
    light_rng = np.random.default_rng([seed, index, 5])
    lamp = Lamp.sample(light_rng) if light_rng.random() < harsh_light else None
    return render_scene(rng, shared, fr, w, h, style_seed=style_seed(seed, index),
                        clutter_rng=clutter_rng if clutter_rng.random() < clutter else None, win=wins, lamp=lamp,
                        draw=draws, players=players)


def style_seed(seed: int, index: int) -> list[int]:
    """The seed of image `index`'s tile set: SET_EVERY consecutive images share one."""
    return [seed, index // SET_EVERY, 1]


def scene_style(table: dict, shared: Path):
    """The tile set a generated scene was drawn with, from its table JSON (its seed and index)."""
    return sample_style(np.random.default_rng(style_seed(table["seed"], table["index"])), shared)


def face_rect(polygon) -> np.ndarray:
    """A rotated rectangle for a tile's face polygon, at the bisector of its edges: its corners (4, 2), like the
    polygon's TL TR BR BL as the glyph reads. A candidate label for the next detector (not yet used by
    ``yolo_lines``: the shipped detector and reader were made with the smallest rectangle).

    A tile seen aslant shows a sheared face. Its minimum-area rectangle (what ultralytics makes of a 4-point
    label) lies along one of the face's two edge pairs, and which one flips from tile to tile as the shear
    changes, so a detector taught it returned boxes anywhere up to the whole shear off the face's edges (the
    crop then shows the glyph turned, the row a tile lies in is misjudged). This one lies at the bisector of the
    two edge pairs' directions whatever the shear, with the face's mean extents along it: the same centre and
    about the same area, and standing neighbours in a row do not overlap. What a detector taught it would gain:
    ``bench/bench_tables.py --perfect-detector bisector`` (``models/README.md``)."""
    q = np.asarray(polygon, dtype=np.float64)
    top, side = (q[1] - q[0]) + (q[2] - q[3]), (q[3] - q[0]) + (q[2] - q[1])
    a = np.arctan2(top[1], top[0])
    b = np.arctan2(side[1], side[0]) - np.pi / 2  # the sides turned to run as the top does
    t = a + ((b - a + np.pi / 2) % np.pi - np.pi / 2) / 2
    u, v = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    w = 0.5 * (abs((q[1] - q[0]) @ u) + abs((q[2] - q[3]) @ u))
    h = 0.5 * (abs((q[3] - q[0]) @ v) + abs((q[2] - q[1]) @ v))
    c = q.mean(axis=0)
    return np.array([c + sx * w / 2 * u + sy * h / 2 * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))],
                    dtype=np.float32)


def yolo_lines(annotations: list, width: int, height: int, fmt: str, classes: str = "kinds") -> list[str]:
    """YOLO detect (class cx cy w h) or OBB (class x1 y1 .. x4 y4) lines, normalized, for labelled tiles.
    ``classes="tile"`` labels every tile, face up or down, as class 0 (a detector that only finds tiles)."""
    lines = []
    for a in annotations:
        if not a["labelled"]:
            continue
        c = 0 if classes == "tile" else CLASS_INDEX[a["cls"]]
        if fmt == "obb":
            q = np.clip(np.array(a["polygon"]) / [width, height], 0, 1).ravel()
            lines.append(f"{c} " + " ".join(f"{v:.6f}" for v in q))
        else:
            x0, y0, x1, y1 = a["box"]
            if x1 - x0 < 1 or y1 - y0 < 1:
                continue
            lines.append(f"{c} {(x0 + x1) / 2 / width:.6f} {(y0 + y1) / 2 / height:.6f} "
                         f"{(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")
    return lines


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_one(job: tuple) -> int:
    """Render and write image `index` (labels and table first, the image last). Returns the index."""
    out, seed, index, framing, imgsz, shared, fmt, classes, clutter, wins, harsh_light, draws, players = job
    split, name = split_of(index), f"{index:06d}"
    img_path = out / "images" / split / f"{name}.jpg"
    if img_path.exists():
        return index
    cv2.setNumThreads(1)
    scene = make_scene(seed, index, framing, imgsz, shared, clutter, wins, harsh_light, draws, players)
    h, w = scene.image.shape[:2]
    lines = yolo_lines(scene.annotations, w, h, fmt, classes)
    _atomic_write(out / "labels" / split / f"{name}.txt", ("\n".join(lines) + "\n" if lines else "").encode())
    table = dict(image=f"images/{split}/{name}.jpg", width=w, height=h, seed=seed, index=index, **scene.table,
                 tiles=scene.annotations)
    _atomic_write(out / "tables" / split / f"{name}.json", json.dumps(table, separators=(",", ":")).encode())
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    _atomic_write(img_path, buf.tobytes())
    return index


def write_data_yaml(out: Path, classes: str = "kinds") -> None:
    names = "\n".join(f"  {i}: '{n}'" for i, n in enumerate(CLASSES if classes == "kinds" else ("tile",)))
    (out / "data.yaml").write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")


def progress(it, total: int, desc: str):
    try:
        from tqdm import tqdm
        yield from tqdm(it, total=total, desc=desc, unit="img")
    except ImportError:
        for k, x in enumerate(it, 1):
            if k % 50 == 0 or k == total:
                print(f"{desc}: {k}/{total}", file=sys.stderr, flush=True)
            yield x


def run_jobs(fn, jobs: list, workers: int, desc: str) -> None:
    if workers <= 1:
        for _ in progress(map(fn, jobs), len(jobs), desc):
            pass
        return
    with get_context("spawn").Pool(workers) as pool:
        for _ in progress(pool.imap_unordered(fn, jobs, chunksize=SET_EVERY), len(jobs), desc):
            pass


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--framing", choices=("mixed",) + FRAMINGS, default="mixed")
    ap.add_argument("--imgsz", type=int, default=1024, help="long side of each image, px")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shared", type=Path, default=None,
                    help="the shared/ folder (default $RIICHI_LENS_SHARED or ../shared)")
    ap.add_argument("--format", choices=("detect", "obb"), default="detect")
    ap.add_argument("--classes", choices=("kinds", "tile"), default="kinds",
                    help="kinds: the 38 tile classes; tile: one class for every tile (a detector for a crop reader)")
    ap.add_argument("--clutter", type=float, default=0.0,
                    help="the share of scenes with things that are not tiles about the table (paper, cloth, a "
                         "phone, point sticks, a curtain), for training; 0 for the dev and eval sets")
    ap.add_argument("--wins", action="store_true",
                    help="the first seat's hand is a complete 14-tile hand, its winning tile set apart (photos "
                         "taken to score a win); otherwise hands are dealt at random")
    ap.add_argument("--draws", action="store_true",
                    help="the wall's end: every hand 13 tiles, the tenpai laid face up, the noten standing (photos "
                         "taken at an exhaustive draw; with --players 3, scored under a three-player ruleset)")
    ap.add_argument("--harsh-light", type=float, default=0.0,
                    help="the share of scenes under one strong lamp: hard tile-shaped shadows on the table, faces "
                         "lit by which way they turn, a bulb's or an LED's white (scenes.Lamp); for training, and "
                         "for a dev set measured beside the same seed without it")
    ap.add_argument("--players", type=int, choices=(3, 4), default=4,
                    help="3: a three-player table (no seat across, no 2m-8m, norths set aside beside the melds)")
    args = ap.parse_args(argv)
    if args.wins and args.draws:
        ap.error("--wins or --draws: a hand ends in a win or a draw, not both")
    for name in ("clutter", "harsh_light"):
        if not 0 <= getattr(args, name) <= 1:
            ap.error(f"--{name.replace('_', '-')} is a share of the scenes, 0 to 1, not {getattr(args, name)}")
    shared = (args.shared or default_shared()).resolve()
    if not (shared / "data" / "tile-art").is_dir():
        ap.error(f"tile art not found under {shared}/data/tile-art: pass --shared or set RIICHI_LENS_SHARED")
    for sub in ("images", "labels", "tables"):
        for split in ("train", "val"):
            (args.out / sub / split).mkdir(parents=True, exist_ok=True)
    if warning := fonts_warning():
        print(warning, file=sys.stderr)
    write_data_yaml(args.out, args.classes)
    jobs = [(args.out, args.seed, i, args.framing, args.imgsz, shared, args.format, args.classes, args.clutter,
             args.wins, args.harsh_light, args.draws, args.players) for i in range(args.n)]
    run_jobs(write_one, jobs, args.workers, "scenes")


if __name__ == "__main__":
    main()

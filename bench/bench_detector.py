"""Photo -> tiles on real photos, this project's models against the PyPI package `mahjong-detector` (a YOLO11n
with 34 classes, no red fives, axis-aligned boxes), in one process on the same photos.

The photos are ../shared/data/real-tiles/photos/group_1..9.jpg: one physical set (never used for training) laid
face up in four rows — red 5m 5p 5s, E S W N haku hatsu chun / 1p-9p / 1s-9s / 1m-9m — 333 tiles in all. A
reading is scored against that grid: detections are split into four rows at the three widest vertical gaps
between tile centres, each row is ordered left to right and aligned with its true row (edit distance), giving
tiles read correctly, misread, missed and extra. Time: the median of ``--repeats`` calls per photo after each photo
is fitted into 1280 x 720 (the issue's reference size), one warm-up call first; both run on onnxruntime with this
machine's cores, taking turns photo by photo (``time_all``; the peer's session threads spin on after a run, ours
stop at its end).

    pip install -e '.[bench]'
    python bench/bench_detector.py [--shared ../shared] [--no-peer] [--annotate DIR] [--repeats 5]
                                   [--without-specialists]
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.generate import default_shared  # noqa: E402
from vision.models import cpu_kind  # noqa: E402
from vision.tiles import TileFinder  # noqa: E402

GRID = [["0m", "0p", "0s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"],
        [f"{n}p" for n in range(1, 10)], [f"{n}s" for n in range(1, 10)], [f"{n}m" for n in range(1, 10)]]
SWITCH_PAUSE_S = 0.2  # seconds between two models' turns (``time_all``)
PEER_NAMES = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z"}


def rows_of(found: list[tuple[str, float, float]], n_rows: int = 4) -> list[list[str]]:
    """(kind, x, y) -> kinds in rows, split at the widest vertical gaps, each ordered left to right."""
    if not found:
        return [[] for _ in range(n_rows)]
    found = sorted(found, key=lambda f: f[2])
    gaps = np.diff([f[2] for f in found])
    cuts = sorted(np.argsort(gaps)[::-1][:n_rows - 1] + 1) if len(found) >= n_rows else []
    rows = np.split(np.arange(len(found)), cuts)
    rows += [np.array([], int)] * (n_rows - len(rows))
    return [[found[i][0] for i in sorted(r, key=lambda i: found[i][1])] for r in rows]


def align(truth: list[str], read: list[str]) -> dict:
    """Edit-distance alignment: counts of correct, misread (substituted), missed and extra tiles."""
    n, m = len(truth), len(read)
    d = np.zeros((n + 1, m + 1), int)
    d[:, 0], d[0, :] = np.arange(n + 1), np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (truth[i - 1] != read[j - 1]))
    out = dict(correct=0, misread=0, missed=0, extra=0)
    i, j = n, m
    while i or j:
        if i and j and d[i, j] == d[i - 1, j - 1] + (truth[i - 1] != read[j - 1]):
            out["correct" if truth[i - 1] == read[j - 1] else "misread"] += 1
            i, j = i - 1, j - 1
        elif i and d[i, j] == d[i - 1, j] + 1:
            out["missed"] += 1
            i -= 1
        else:
            out["extra"] += 1
            j -= 1
    return out


def plain(kind: str) -> str:
    return "5" + kind[1] if kind[0] == "0" else kind


def score(rows: list[list[str]], red_as_plain: bool = False) -> dict:
    """Totals over the four rows; red_as_plain: a red five read as its plain five counts as correct."""
    total = dict(correct=0, misread=0, missed=0, extra=0)
    for truth, read in zip(GRID, rows):
        if red_as_plain:
            truth, read = [plain(k) for k in truth], [plain(k) for k in read]
        for k, v in align(truth, read).items():
            total[k] += v
    return total


def fit_1280x720(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    s = min(1280 / w, 720 / h)
    return cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)


class Ours:
    name = "riichi-lens (tile_detector + tile_reader)"

    def __init__(self, specialists: bool = True):
        self.finder = TileFinder()
        if not specialists:  # what the cut, small and hard readers cost and gain here (``--without-specialists``)
            self.finder.cut_reader = self.finder.small_reader = self.finder.hard_reader = None
            self.name += ", without the cut, small and hard readers"
        self.last = []  # the tiles of the last call, for the annotated copy

    def __call__(self, image):
        self.last = self.finder.find(image)
        return [(t.kind, *t.center) for t in self.last]


class Peer:
    name = "mahjong-detector 0.0.6 (YOLO11n, 34 classes)"

    def __init__(self):
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
        from PIL import Image

        self.names, self.predict, self.prep, self.Image = CLASS_NAMES, predict, preprocess_image, Image

    def __call__(self, image):
        img, pad = self.prep(self.Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)))
        out = []
        for d in self.predict(img, pad):
            name = self.names[d.class_id]
            out.append((PEER_NAMES.get(name, name), (d.x1 + d.x2) / 2, (d.y1 + d.y2) / 2))
        return out


def read_all(model, photos: list[Path], annotate: Path | None) -> tuple[dict, list[str]]:
    """The model's tiles scored against the grid, photo by photo, at each photo's own size."""
    totals = dict(correct=0, misread=0, missed=0, extra=0, plain=0)
    per_photo = []
    for p in photos:
        image = cv2.imread(str(p))
        rows = rows_of(model(image))
        if annotate is not None and isinstance(model, Ours):
            from vision.cli import annotate as draw

            annotate.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(annotate / f"{p.stem}.jpg"), draw(image, model.last))
        s = score(rows)
        per_photo.append(f"{p.stem}: {s['correct']}/37")
        for k, v in s.items():
            totals[k] += v
        totals["plain"] += score(rows, red_as_plain=True)["correct"]
    return totals, per_photo


def time_all(models: list, photos: list[Path], repeats: int) -> list[list[float]]:
    """Each model's ms per call on each photo fitted into 1280 x 720: the models take turns photo by photo, the
    first of them a different one each photo, so that a shared machine's drifting load weighs on them alike (with
    one model's whole run after the other's, session 53's machine gave the peer 53 ms in one run and 64 in the
    next, ours 62 and 56). Each turn starts with a pause (``SWITCH_PAUSE_S``: no session's threads still spinning from the last turn) and a warm-up call."""
    times: list[list[float]] = [[] for _ in models]
    for k, p in enumerate(photos):
        small = fit_1280x720(cv2.imread(str(p)))
        for m in range(len(models)):
            m = (m + k) % len(models)
            time.sleep(SWITCH_PAUSE_S)
            models[m](small)  # warm-up at this size
            for _ in range(repeats):
                t0 = time.perf_counter()
                models[m](small)
                times[m].append(1000 * (time.perf_counter() - t0))
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--annotate", type=Path, default=None, help="write our annotated photos here")
    ap.add_argument("--repeats", type=int, default=5, help="timed calls per photo")
    ap.add_argument("--without-specialists", action="store_true",
                    help="also ours without the cut, small and hard readers (tiles at the photo's edge, small "
                         "tiles, tiles still unsure), "
                         "in the same run")
    args = ap.parse_args()
    photos = sorted((args.shared / "data/real-tiles/photos").glob("group_*.jpg"))
    if not photos:
        sys.exit(f"no group_*.jpg under {args.shared}/data/real-tiles/photos")
    models = [Ours()] + ([Ours(specialists=False)] if args.without_specialists else [])
    if not args.no_peer:
        try:
            models.append(Peer())
        except ImportError:
            print("mahjong-detector is not installed (pip install -e '.[bench]'): measuring ours alone")
    n = sum(len(r) for r in GRID) * len(photos)
    command = " ".join(["python bench/bench_detector.py", *sys.argv[1:]])
    print(f"command: {command}   machine: {os.cpu_count()} cores, {cpu_kind()}, python {platform.python_version()}")
    print(f"{len(photos)} photos, {n} tiles (../shared/data/real-tiles/photos/group_*.jpg)\n")
    print("| model | read correctly | the same, a red five read as its plain five counted correct | misread | "
          "missed | extra | median ms per photo at 1280x720 |")
    print("|---|---|---|---|---|---|---|")
    times = time_all(models, photos, args.repeats)
    for model, model_times in zip(models, times):
        totals, per_photo = read_all(model, photos, args.annotate)
        print(f"| {model.name} | {totals['correct']}/{n} = {totals['correct'] / n:.1%} | "
              f"{totals['plain']}/{n} | {totals['misread']} | "
              f"{totals['missed']} | {totals['extra']} | {statistics.median(model_times):.0f} |")
        print("|  per photo: " + ", ".join(per_photo) + " ||||||")


if __name__ == "__main__":
    main()

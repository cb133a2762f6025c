"""The real photos read under the conditions a user's camera meets: turned, tilted, small, dim, blurred, noisy,
heavily compressed, under coloured light — each a plain image operation on the nine whole-set photos of
``bench_detector.py`` (one physical set never trained on, 333 tiles), scored against the same grid; with
``--single``, on the 111 single-tile photos of ``bench_single_tiles.py``.

Why: the generated scenes carry such conditions, but the only real set is photographed upright, sharp and well
lit, so `bench_detector.py` alone cannot say whether what the models learnt of them carries over to real tiles.
These are validation figures on one set, not a second set's.

A turned or tilted photo's tile centres are mapped back through the inverse of its transform before the grid
is scored (rows split at the widest vertical gaps, as ``bench_detector.py`` does). The operations are fixed (seed
0 for the noise), so a run is repeatable.

    python bench/bench_real_conditions.py [--shared ../shared] [--single] [--peer] [--only dim,blur] [--annotate DIR]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_detector import GRID, Peer, rows_of, score  # noqa: E402
from bench_reader import REAL_NAMES  # noqa: E402
from datasets.generate import default_shared  # noqa: E402
from vision.models import cpu_kind  # noqa: E402
from vision.tiles import TileFinder  # noqa: E402


def _warped(image: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The image under the 3x3 transform ``m`` onto a canvas of ``size`` filled with the photo's border colour (the
    table's, in the whole-set photos), and ``m`` (to map centres back)."""
    border = np.median(np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]), axis=0)
    out = cv2.warpPerspective(image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                              borderValue=tuple(float(v) for v in border))
    return out, m


def turned(degrees: float):
    """Turned about its centre by ``degrees`` (anticlockwise), the canvas grown to hold it all."""
    def op(image):
        h, w = image.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        c, s = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(round(h * s + w * c)), int(round(h * c + w * s))
        m[0, 2] += nw / 2 - w / 2
        m[1, 2] += nh / 2 - h / 2
        return _warped(image, np.vstack([m, [0, 0, 1]]), (nw, nh))
    return op


def scaled(width: int):
    """Made ``width`` pixels wide (the whole-set photos' tiles about 146 px wide at 1600 px, the single tiles
    about 105)."""
    def op(image):
        s = width / image.shape[1]
        out = cv2.resize(image, (width, round(image.shape[0] * s)), interpolation=cv2.INTER_AREA)
        return out, np.diag([s, s, 1.0])
    return op


def tilted(squeeze: float):
    """Seen from lower down, as a phone held at a shallower angle: the far (top) edge ``squeeze`` times as wide
    as the near one, and the picture a fifth shorter."""
    def op(image):
        h, w = image.shape[:2]
        inset = w * (1 - squeeze) / 2
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = np.float32([[inset, 0], [w - inset, 0], [w, h * 0.8], [0, h * 0.8]])
        return _warped(image, cv2.getPerspectiveTransform(src, dst), (w, int(h * 0.8)))
    return op


def _photometric(fn):
    def op(image):
        return np.clip(fn(image.astype(np.float32)), 0, 255).astype(np.uint8), np.eye(3)
    return op


def dim(gain: float, noise: float):
    """A dim room: the exposure ``gain`` times, gamma 1.3 darker, then sensor noise of ``noise`` grey levels (the
    same noise for every photo of a size, whatever ran before)."""
    return _photometric(lambda f: 255 * (f * gain / 255) ** 1.3 + np.random.default_rng(0).normal(0, noise, f.shape))


def cast(blue: float, green: float, red: float):
    """A coloured light: each channel times its gain (BGR order)."""
    return _photometric(lambda f: f * np.float32([blue, green, red]))


def bright(gain: float):
    """Overexposed: the exposure ``gain`` times, the faces' white clipped."""
    return _photometric(lambda f: f * gain)


def blurred(sigma: float):
    return _photometric(lambda f: cv2.GaussianBlur(f, (0, 0), sigma))


def shaken(length: int):
    """Motion blur: the camera moved ``length`` pixels along a slanted line during the exposure."""
    k = np.zeros((length, length), np.float32)
    cv2.line(k, (0, length - 1), (length - 1, length // 3), 1.0, 1)
    return _photometric(lambda f: cv2.filter2D(f, -1, k / k.sum()))


def jpeg(quality: int):
    def op(image):
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), np.eye(3)
    return op


def both(*ops):
    """Operations one after another, their transforms composed."""
    def op(image):
        total = np.eye(3)
        for o in ops:
            image, m = o(image)
            total = m @ total
        return image, total
    return op


CONDITIONS = {
    "as taken": lambda image: (image, np.eye(3)),
    "turned 90°": turned(90),
    "turned 180°": turned(180),
    "turned 30°": turned(30),
    "turned 135°": turned(135),
    "tilted (far edge 0.7 as wide)": tilted(0.7),
    "tilted more (far edge 0.5 as wide)": tilted(0.5),
    "small (640 px wide)": scaled(640),
    "smaller (480 px wide)": scaled(480),
    "smallest (240 px wide)": scaled(240),
    "dim (exposure 0.35, noise 6)": dim(0.35, 6),
    "darker (exposure 0.2, noise 8)": dim(0.2, 8),
    "warm light (a tungsten bulb)": cast(0.62, 0.9, 1.12),
    "cool light (a cold LED)": cast(1.15, 1.0, 0.8),
    "overexposed (exposure 1.6)": bright(1.6),
    "out of focus (sigma 2.5)": blurred(2.5),
    "shaken (15 px)": shaken(15),
    "JPEG quality 20": jpeg(20),
    "small, turned 30°, dim": both(scaled(800), turned(30), dim(0.35, 6)),
}


def centres_back(found: list[tuple[str, float, float]], m: np.ndarray) -> list[tuple[str, float, float]]:
    """Each (kind, x, y) found, its centre mapped back into the original photo's coordinates."""
    if not found:
        return []
    pts = np.float32([(x, y) for _, x, y in found]).reshape(-1, 1, 2)
    back = cv2.perspectiveTransform(pts, np.linalg.inv(m)).reshape(-1, 2)
    return [(kind, float(x), float(y)) for (kind, _, _), (x, y) in zip(found, back)]


def read_grid(finder: TileFinder, photos: list[Path], conditions: dict, annotate: Path | None,
              peer: Peer | None = None) -> None:
    """The whole-set photos: each condition's tiles read right, misread, missed and extra, against the grid; with
    ``peer``, its tiles read right beside."""
    images = [cv2.imread(str(p)) for p in photos]
    n = sum(len(r) for r in GRID) * len(photos)
    print(f"{len(photos)} photos, {n} tiles (../shared/data/real-tiles/photos/group_*.jpg)\n")
    print("| condition | read correctly | misread | missed | extra | per photo |" + (" the peer |" if peer else ""))
    print("|---|---|---|---|---|---|" + ("---|" if peer else ""))
    for name, op in conditions.items():
        totals = dict(correct=0, misread=0, missed=0, extra=0)
        per_photo = []
        peer_right = 0
        for p, image in zip(photos, images):
            changed, m = op(image)
            tiles = finder.find(changed)
            s = score(rows_of(centres_back([(t.kind, *t.center) for t in tiles], m)))
            per_photo.append(str(s["correct"]))
            for k in totals:
                totals[k] += s[k]
            if peer is not None:
                peer_right += score(rows_of(centres_back(peer(changed), m)))["correct"]
            if annotate is not None:
                from vision.cli import annotate as draw

                folder = annotate / name.split(" ")[0]
                folder.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(folder / f"{p.stem}.jpg"), draw(changed, tiles))
        print(f"| {name} | {totals['correct']}/{n} = {totals['correct'] / n:.1%} | {totals['misread']} | "
              f"{totals['missed']} | {totals['extra']} | {' '.join(per_photo)} |"
              + (f" {peer_right}/{n} |" if peer else ""), flush=True)


def read_single(finder: TileFinder, photos: list[Path], conditions: dict) -> None:
    """The single-tile photos (one small tile on paper on a cluttered desk): each condition's photos whose tile is
    found and read, photos where it is the only tile found, and the other (false) tiles. Turned photos are left
    out: the canvas their corners add meets the clutter in straight edges no photo shows."""
    images = [cv2.imread(str(p)) for p in photos]
    print(f"{len(photos)} photos of one tile each (../shared/data/real-tiles/photos/NAME_K.jpg)\n")
    print("| condition | tile found and read | the only tile found | false tiles | tile not read in |")
    print("|---|---|---|---|---|")
    for name, op in conditions.items():
        if "turned" in name:
            continue
        read = alone = false = 0
        lost = []
        for p, image in zip(photos, images):
            truth = REAL_NAMES[p.stem.rsplit("_", 1)[0]]
            kinds = [t.kind for t in finder.find(op(image)[0])]
            read += truth in kinds
            alone += kinds == [truth]
            false += len(kinds) - (truth in kinds)
            if truth not in kinds:
                lost.append(p.stem)
        n = len(photos)
        print(f"| {name} | {read}/{n} | {alone}/{n} | {false} | {', '.join(lost)} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--only", default="", help="comma-separated words: conditions whose name holds one of them")
    ap.add_argument("--single", action="store_true", help="the 111 single-tile photos instead of the whole-set ones")
    ap.add_argument("--annotate", type=Path, default=None, help="write each condition's annotated photos here")
    ap.add_argument("--peer", action="store_true", help="also the PyPI package mahjong-detector on the whole-set "
                                                        "photos (pip install -e '.[bench]')")
    args = ap.parse_args()
    folder = args.shared / "data/real-tiles/photos"
    photos = sorted(p for p in folder.glob("*.jpg") if p.stem.startswith("group_") != args.single)
    if not photos:
        sys.exit(f"no {'single-tile' if args.single else 'group_*.jpg'} photos under {folder}")
    words = [w for w in args.only.split(",") if w]
    conditions = {k: v for k, v in CONDITIONS.items() if not words or any(w in k for w in words)}
    finder = TileFinder()
    options = (" --single" if args.single else "") + (" --peer" if args.peer else "") + (
        f" --only {args.only}" if words else "")
    print(f"command: python bench/bench_real_conditions.py{options}   machine: {os.cpu_count()} cores, "
          f"{cpu_kind()}, python {platform.python_version()}; reader {finder.reader.sha256[:12]}")
    if args.single:
        read_single(finder, photos, conditions)
    else:
        read_grid(finder, photos, conditions, args.annotate, Peer() if args.peer else None)


if __name__ == "__main__":
    main()

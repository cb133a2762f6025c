"""The live tracker (``vision.tracker.TileTracker.update``): its cost per frame, and with --shake how well it keeps
a table's tiles under a handheld camera. Not a test: figures for the README and HISTORY.

    python bench/bench_tracker.py [--tiles 136 400 1000] [--frames 30] [--seeds 3]
    python bench/bench_tracker.py --shake [--frames 40] [--seeds 5] [--kinds all|one-suit|backs]
    python bench/bench_tracker.py --shake --photos DATA [--scenes 3] [--frames 20]

Cost: ``--tiles`` tiles 30 x 40 px scattered over a 1500 x 1000 frame (seeded), then ``--frames`` frames of
them as a handheld camera gives them: the whole frame shifted up to 20 px, each tile moved up to 3 px more, one
in ten missing, one in five read as another kind, in shuffled order. A table holds at most 136 tiles; a photo's
reading keeps at most 400 (``vision.table.MAX_TILES``).

--shake: a table of 56 tiles 30 x 40 px (four rows of 14 touching, each row sorted as hands are, so alike tiles
lie side by side) in a 1000 x 750 frame, seen in ``--frames`` frames a third of a second apart (live mode's rate on
this CPU) by a camera whose turn, zoom and shift walk at random by up to the level's step each frame (the turn
kept within 30 degrees, the zoom within 0.8-1.25); each frame one tile in ten missing, one in seven read as
another kind. ``--kinds``: the tiles drawn from every kind, from one suit's nine (a chinitsu table, more tiles
alike side by side), or all face down (alike whichever way a row slips). From the sixth frame on, each tile in the photo is shown right, shown as another kind, or not shown
(no stable tile within a third of a tile of where it lies now); a stable tile where no tile lies is a ghost.

--shake --photos DATA: the first ``--scenes`` photos of a generated dataset (``datasets.generate``), each made a
video by turning, zooming and shifting the photo itself as the camera walks (the levels above, the shift kept within
60 px and the zoom within 15 %), every frame read by the shipped models (``vision.tiles.TileFinder``, the small
tiles' second look every other frame, as live mode takes it) and tracked. Each labelled tile whose centre is in the
frame is shown right, as another kind, or not shown, against the tiles read in that frame alone.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.layout import Tile  # noqa: E402
from vision.tracker import TileTracker  # noqa: E402

KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def frames(n: int, count: int, seed: int) -> list[list[Tile]]:
    r = random.Random(seed)
    placed = [(r.uniform(0, 1500), r.uniform(0, 1000), r.choice(KINDS)) for _ in range(n)]
    out = []
    for _ in range(count):
        dx, dy = r.uniform(-20, 20), r.uniform(-20, 20)
        frame = []
        for x, y, kind in placed:
            if r.random() < 0.1:
                continue
            x, y = x + dx + r.uniform(-3, 3), y + dy + r.uniform(-3, 3)
            read = kind if r.random() < 0.8 else r.choice(KINDS)
            sure = r.uniform(0.2, 1.0)
            frame.append(Tile(read, ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)), sure,
                              candidates=((read, sure), (r.choice(KINDS), sure / 3))))
        r.shuffle(frame)
        out.append(frame)
    return out


SHAKES = {  # per frame: degrees turned, zoom, pixels shifted
    "still": (0.0, 0.0, 2.0), "steady hand": (0.5, 0.005, 8.0), "handheld": (1.0, 0.01, 15.0),
    "moving": (2.0, 0.02, 25.0), "swaying": (3.0, 0.03, 40.0),
}


SHAKE_KINDS = {"all": KINDS, "one-suit": [f"{n}m" for n in range(1, 10)], "backs": ["back"]}


def shaken_video(seed: int, count: int, step: tuple[float, float, float],
                 kinds: list[str] = KINDS) -> list[tuple[list, list[Tile]]]:
    """Frames of one table under a walking camera: (every tile's true kind and polygon, the tiles detected)."""
    r = random.Random(seed)
    placed = []
    for row in range(4):
        for k, kind in enumerate(sorted(r.choice(kinds) for _ in range(14))):
            placed.append((250.0 + k * 31, 150.0 + row * 120, kind))
    turn = zoom = dx = dy = 0.0
    out = []
    for _ in range(count):
        turn = max(-30.0, min(30.0, turn + r.uniform(-step[0], step[0])))
        zoom = max(-0.2, min(0.25, zoom + r.uniform(-step[1], step[1])))
        dx, dy = dx + r.uniform(-step[2], step[2]), dy + r.uniform(-step[2], step[2])
        c, s, k = math.cos(math.radians(turn)), math.sin(math.radians(turn)), 1 + zoom

        def seen(x: float, y: float) -> tuple[float, float]:
            x, y = x - 500, y - 375
            return 500 + dx + k * (c * x - s * y), 375 + dy + k * (s * x + c * y)

        truth, frame = [], []
        for x, y, kind in placed:
            polygon = tuple(seen(px, py) for px, py in ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)))
            truth.append((kind, polygon))
            if r.random() < 0.1:
                continue
            read = kind if r.random() < 6 / 7 else r.choice(kinds)
            sure = r.uniform(0.3, 1.0)
            frame.append(Tile(read, polygon, sure, candidates=((read, sure), (r.choice(kinds), sure / 3))))
        r.shuffle(frame)
        out.append((truth, frame))
    return out


def shake(frames: int, seeds: int, kinds: list[str]) -> None:
    import numpy as np

    for name, step in SHAKES.items():
        right = wrong = unseen = ghosts = total = 0
        for seed in range(seeds):
            tracker = TileTracker()
            for i, (truth, frame) in enumerate(shaken_video(seed, frames, step, kinds)):
                stable = tracker.update(frame, i / 3)
                if i < 5:
                    continue
                where = np.array([np.mean(p, axis=0) for _, p in truth])
                taken = set()
                for t in stable:
                    d = np.linalg.norm(where - t.center, axis=1)
                    j = int(d.argmin())
                    if d[j] > 40 / 3 or j in taken:
                        ghosts += 1
                        continue
                    taken.add(j)
                    right += t.kind == truth[j][0]
                    wrong += t.kind != truth[j][0]
                unseen += len(truth) - len(taken)
                total += len(truth)
        print(f"{name:<12} (each frame up to {step[0]} degrees, zoom {step[1]:.1%}, {step[2]:.0f} px): of {total} "
              f"tiles shown right {right / total:.1%}, as another kind {wrong / total:.1%}, not shown "
              f"{unseen / total:.1%}; ghosts {ghosts}", flush=True)


def shake_photos(data: Path, scenes: int, frames: int) -> None:
    import json

    import cv2
    import numpy as np

    from vision.tiles import TileFinder

    finder = TileFinder()
    for name, step in list(SHAKES.items())[::2]:  # still, handheld, swaying... every other level: a frame costs
        alone = right = wrong = unseen = total = 0
        for scene, path in enumerate(sorted(data.glob("tables/*/*.json"))[:scenes]):
            table = json.loads(path.read_text())
            photo = cv2.imread(str(data / table["image"]))
            h, w = photo.shape[:2]
            truth = [(t["cls"], np.array(t["polygon"])) for t in table["tiles"] if t["labelled"]]
            r, tracker = random.Random(scene), TileTracker()
            turn = zoom = dx = dy = 0.0
            for i in range(frames):
                turn += r.uniform(-step[0], step[0])
                zoom = max(-0.15, min(0.15, zoom + r.uniform(-step[1], step[1])))
                dx = max(-60.0, min(60.0, dx + r.uniform(-step[2], step[2])))
                dy = max(-60.0, min(60.0, dy + r.uniform(-step[2], step[2])))
                motion = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1 + zoom)
                motion[:, 2] += (dx, dy)
                frame = cv2.warpAffine(photo, motion, (w, h), borderMode=cv2.BORDER_REPLICATE)
                tiles = finder.find(frame, small_pass=i % 2 == 0)
                stable = tracker.update(tiles, i / 3)
                if i < 5:
                    continue
                moved = [(kind, p @ motion[:, :2].T + motion[:, 2]) for kind, p in truth]
                moved = [(kind, p) for kind, p in moved if 0 <= p.mean(0)[0] < w and 0 <= p.mean(0)[1] < h]
                where = np.array([p.mean(0) for _, p in moved])
                reach = np.array([np.linalg.norm(p[1] - p[0]) / 3 for _, p in moved])

                def kinds_at(shown):
                    """Each true tile's kind as shown, or None."""
                    at = [None] * len(moved)
                    for t in shown:
                        d = np.linalg.norm(where - t.center, axis=1)
                        j = int(d.argmin())
                        if d[j] <= reach[j] and at[j] is None:
                            at[j] = t.kind
                    return at

                alone += sum(k == kind for k, (kind, _) in zip(kinds_at(tiles), moved))
                for k, (kind, _) in zip(kinds_at(stable), moved):
                    right += k == kind
                    wrong += k is not None and k != kind
                    unseen += k is None
                total += len(moved)
        print(f"{name:<12} {data.name}, {scenes} photos x {frames} frames: of {total} tiles read right in the frame "
              f"alone {alone / total:.1%}; tracked: shown right {right / total:.1%}, as another kind "
              f"{wrong / total:.1%}, not shown {unseen / total:.1%}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tiles", type=int, nargs="+", default=[136, 400, 1000])
    ap.add_argument("--frames", type=int, default=None, help="frames a run (30; with --shake 40)")
    ap.add_argument("--seeds", type=int, default=None, help="runs (3; with --shake 5)")
    ap.add_argument("--shake", action="store_true", help="how well the tiles are kept under a handheld camera")
    ap.add_argument("--kinds", choices=SHAKE_KINDS, default="all", help="with --shake: the kinds the table is of")
    ap.add_argument("--photos", type=Path, help="with --shake: videos made of this generated dataset's photos")
    ap.add_argument("--scenes", type=int, default=3, help="with --photos: how many of its photos")
    args = ap.parse_args()
    if args.shake and args.photos:
        return shake_photos(args.photos, args.scenes, args.frames or 20)
    if args.shake:
        return shake(args.frames or 40, args.seeds or 5, SHAKE_KINDS[args.kinds])
    args.frames, args.seeds = args.frames or 30, args.seeds or 3
    for n in args.tiles:
        per_frame = []
        for seed in range(args.seeds):
            tracker, video = TileTracker(), frames(n, args.frames, seed)
            t0 = time.perf_counter()
            for i, frame in enumerate(video):
                tracker.update(frame, i / 10)
            per_frame.append((time.perf_counter() - t0) / len(video) * 1000)
            print(f"  {n} tiles, seed {seed}: {per_frame[-1]:.1f} ms a frame", flush=True)
        print(f"{n} tiles: median {statistics.median(per_frame):.1f} ms a frame ({args.seeds} seeds, "
              f"{args.frames} frames each, this CPU)")


if __name__ == "__main__":
    main()

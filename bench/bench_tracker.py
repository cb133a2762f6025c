"""The live tracker's cost per frame (``vision.tracker.TileTracker.update``): tiles matched to tracks, votes kept.
Not a test: milliseconds per frame for the HISTORY.

    python bench/bench_tracker.py [--tiles 136 400 1000] [--frames 30] [--seeds 3]

Each run: ``--tiles`` tiles 30 x 40 px scattered over a 1500 x 1000 frame (seeded), then ``--frames`` frames of
them as a handheld camera gives them: the whole frame shifted up to 20 px, each tile moved up to 3 px more, one
in ten missing, one in five read as another kind, in shuffled order. A table holds at most 136 tiles; a photo's
reading keeps at most 400 (``vision.table.MAX_TILES``).
"""
from __future__ import annotations

import argparse
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiles", type=int, nargs="+", default=[136, 400, 1000])
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
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

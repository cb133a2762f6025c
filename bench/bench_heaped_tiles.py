"""The table reading's worst case: tiles heaped on one spot, as a script may send them to /api/table (up to its
400). Every pair of them is near, and they make one long line. Not a test: seconds per table for the HISTORY.

    python bench/bench_heaped_tiles.py [--tiles 60 136 400] [--seeds 4]

Each table: ``--tiles`` tiles of kinds in turn, 30 x 40 px, each corner moved by under a pixel (seeded), read by
``vision.table.read_table``. Until session 54 a line's ways to cut melds grew as 2 to the tiles' number: some of
these heaps (60 tiles, seeds 2 and 3) never finished.
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
from vision.table import read_table  # noqa: E402

KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def heap(n: int, seed: int) -> list[Tile]:
    jitter = random.Random(seed)
    tiles = []
    for i in range(n):
        x, y = 100 + jitter.random(), 100 + jitter.random()
        tiles.append(Tile(KINDS[i % len(KINDS)], ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)), 0.9))
    return tiles


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tiles", type=int, nargs="+", default=[60, 136, 400])
    ap.add_argument("--seeds", type=int, default=4)
    args = ap.parse_args()
    for n in args.tiles:
        seconds = []
        for seed in range(args.seeds):
            t0 = time.perf_counter()
            read_table(heap(n, seed))
            seconds.append(time.perf_counter() - t0)
            print(f"  {n} tiles, seed {seed}: {seconds[-1]:.2f} s", flush=True)
        print(f"{n} tiles heaped: median {statistics.median(seconds):.2f} s, at most {max(seconds):.2f} s "
              f"({args.seeds} seeds, this CPU)")


if __name__ == "__main__":
    main()

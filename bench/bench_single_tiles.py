"""Photo -> tiles on the real photos of one tile each: ../shared/data/real-tiles/photos/NAME_K.jpg (111 photos, 3
of each of the set's 37 tiles, never used for training). Each shows one small tile standing on white paper on a
cluttered desk (a monitor, a curtain, papers), 1600 x 739 px: a test of small tiles in a large scene and of what
is not a tile. Counted: photos whose tile is found and read (among the tiles found), photos where it is the only
tile found, and the other tiles found (all false: nothing else there is a tile); the median ms per photo.

    python bench/bench_single_tiles.py [--shared ../shared]
"""
from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_reader import REAL_NAMES  # noqa: E402
from datasets.generate import default_shared  # noqa: E402
from vision.tiles import TileFinder  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=default_shared(), help="default $RIICHI_LENS_SHARED or ../shared")
    args = ap.parse_args()
    photos = [p for p in sorted((args.shared / "data/real-tiles/photos").glob("*.jpg"))
              if not p.stem.startswith("group_")]
    if not photos:
        sys.exit(f"no single-tile photos under {args.shared}/data/real-tiles/photos")
    finder = TileFinder()
    finder.find(cv2.imread(str(photos[0])))  # warm-up
    counts, false_kinds, ms, lost = collections.Counter(), collections.Counter(), [], []
    for p in photos:
        truth = REAL_NAMES[p.stem.rsplit("_", 1)[0]]
        image = cv2.imread(str(p))
        t0 = time.perf_counter()
        kinds = [t.kind for t in finder.find(image)]
        ms.append(1000 * (time.perf_counter() - t0))
        counts["read"] += truth in kinds
        counts["alone"] += kinds == [truth]
        if truth in kinds:
            kinds.remove(truth)
        else:
            lost.append(p.stem)
        false_kinds.update(kinds)
    n = len(photos)
    print(f"command: python bench/bench_single_tiles.py   ({n} photos of one tile each)")
    print(f"tile found and read: {counts['read']}/{n} = {counts['read'] / n:.1%}; the only tile found: "
          f"{counts['alone']}/{n}; other (false) tiles found: {sum(false_kinds.values())} "
          f"({', '.join(f'{k} x{v}' for k, v in false_kinds.most_common(5))}); median {statistics.median(ms):.0f} ms")
    if lost:
        print("tile not read in: " + ", ".join(lost))


if __name__ == "__main__":
    main()

"""Calibration to one physical set: learn it from one whole-set grid photo, then read the rest of its photos.

    python bench/bench_calibration.py [--photo group_1.jpg] [--shared ../shared]

Calibrates on ``../shared/data/real-tiles/photos/group_1.jpg`` (the set laid out in the documented grid), then
reads the 444 real crops and the other eight whole-set photos, with the shipped reader alone and with the profile,
and prints both with the calibration time on this CPU. The profile goes to a temporary folder, not the user's.
"""
from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import tempfile
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_detector import GRID, rows_of, score  # noqa: E402
from bench_reader import real_crops  # noqa: E402

from datasets.generate import default_shared  # noqa: E402
from vision.calibrate import calibrate_photos  # noqa: E402
from vision.tiles import TileFinder  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=default_shared())
    ap.add_argument("--photo", default="group_1.jpg", help="the grid photo to calibrate on")
    args = ap.parse_args()
    folder = args.shared / "data/real-tiles/photos"
    others = [p for p in sorted(folder.glob("group_*.jpg")) if p.name != args.photo]
    crops = real_crops(args.shared)
    images = [cv2.imread(p) for p, _ in crops]
    os.environ["RIICHI_LENS_DATA"] = tempfile.mkdtemp(prefix="riichi-lens-bench-")
    finder = TileFinder()
    print(f"command: python bench/bench_calibration.py --photo {args.photo}   machine: {os.cpu_count()} cores, "
          f"{platform.machine()}, python {platform.python_version()}")
    profile, seconds = calibrate_photos([folder / args.photo], "bench", finder)
    profile.save()
    print(f"calibrated on {args.photo}: {len(profile.kinds)} faces in {seconds:.1f} s\n")
    n = sum(len(r) for r in GRID) * len(others)
    print(f"| reader | {len(crops)} real crops | {len(others)} other whole-set photos ({n} tiles) found and read |")
    print("|---|---|---|")
    confusions = {}
    for name, prof in (("shipped reader", None), ("with the profile", "bench")):
        p = finder.profile(prof)
        read = [r.kind for r in finder.reader.read(images, p)]
        right = sum(k == truth for k, (_, truth) in zip(read, crops))
        confusions[name] = collections.Counter((t, k) for k, (_, t) in zip(read, crops) if k != t)
        correct = sum(score(rows_of([(t.kind, *t.center) for t in finder.find(cv2.imread(str(f)), profile=prof)]))
                      ["correct"] for f in others)
        print(f"| {name} | {right}/{len(crops)} = {right / len(crops):.2%} | {correct}/{n} = {correct / n:.2%} |")
    for name, c in confusions.items():
        print(f"crops misread, {name} (truth -> read): " + ", ".join(f"{a}->{b} x{k}" for (a, b), k in c.most_common()))


if __name__ == "__main__":
    main()

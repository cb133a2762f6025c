"""Tile reader accuracy on the real crops of ../shared/data/real-tiles/crops (444 photos of one physical set,
never used for training), and its speed on this CPU.

    python bench/bench_reader.py [--model ONE_READER.onnx] [--shared ../shared]
"""
from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.generate import default_shared  # noqa: E402
from vision.models import cpu_kind, shipped_reader  # noqa: E402
from vision.reader import TileReader  # noqa: E402

# real-tiles file name stem -> rules notation
REAL_NAMES = {
    **{f"{s}_{n}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
    "m_0": "0m", "p_0": "0p", "s_0": "0s", "red_5_m": "0m", "red_5_p": "0p", "red_5_s": "0s",
    "east": "1z", "south": "2z", "west": "3z", "north": "4z", "haku": "5z", "hatsu": "6z", "chun": "7z",
}


def real_crops(shared: Path) -> list[tuple[str, str]]:
    """(path, true kind) for every crop, from its file name NAME_K.jpg."""
    out = []
    for p in sorted((shared / "data/real-tiles/crops").glob("*.jpg")):
        out.append((str(p), REAL_NAMES[p.stem.rsplit("_", 1)[0]]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=None, help="one reader file alone (default: the shipped reader and its second)")
    ap.add_argument("--shared", default=str(default_shared()))
    args = ap.parse_args()
    crops = real_crops(Path(args.shared))
    images = [cv2.imread(p) for p, _ in crops]
    reader = TileReader(args.model) if args.model else shipped_reader()
    reader.read(images[:8])  # warm-up
    t0 = time.perf_counter()
    readings = reader.read(images)
    elapsed = time.perf_counter() - t0
    wrong = collections.Counter()
    flipped = 0
    for (path, truth), r in zip(crops, readings):
        if r.kind != truth:
            wrong[(truth, r.kind)] += 1
        if r.turns[0] != 0:  # the best turn that fits: a quarter or a half turn from how the crop stands
            flipped += 1
    correct = len(crops) - sum(wrong.values())
    print("command: python bench/bench_reader.py" + (f" --model {args.model}" if args.model else ""))
    print(f"machine: {cpu_kind()}, {os.cpu_count()} cores, python {platform.python_version()}")
    print(f"real crops read correctly: {correct}/{len(crops)} = {correct / len(crops):.2%}")
    print(f"read as turned a quarter or a half round (all are upright): {flipped}")
    print(f"time: {1000 * elapsed / len(crops):.2f} ms per crop (batch of {len(crops)})")
    t0 = time.perf_counter()
    for img in images[:50]:
        reader.read([img])
    print(f"time: {1000 * (time.perf_counter() - t0) / 50:.2f} ms per crop read alone")
    print("most common confusions (truth -> read):", ", ".join(f"{a}->{b} x{n}" for (a, b), n in wrong.most_common(10)))


if __name__ == "__main__":
    main()

"""Every figure a new model must hold before it ships, for the shipped models and a candidate, in one table.

    python bench/judge_models.py CANDIDATE [--baseline models] [--data data] [--skip map,true-boxes] [--log DIR]

CANDIDATE is a folder laid out as ``models/`` (a copy of it with the new weights in place, as the model card's
trials made them): each bench below runs once with ``RIICHI_LENS_MODELS`` set to the baseline and once to the
candidate, in a process of its own, and the table gives both side by side with the difference. Why: a lent GPU's
session has minutes, and every trial in the model card was judged on the same rows, by hand, bench by bench.
The table says where the candidate is worse; whether it ships stays a person's call, made as the model
card's trials made it (the real photos first, then the held-out hands).

The rows, each bench's command printed as it runs:
- the 444 real crops (``bench_reader.py``), the 9 real whole-set photos' 333 tiles (``bench_detector.py``) and the
  111 real photos of one tile on a cluttered desk (``bench_single_tiles.py``: false tiles there judge a detector);
- held-out hands end to end (seeds 7 and 8 at 1024 and 2048 px, 531 hands, ``bench_tables.py --pixels``);
- dev seed 18's 200 snapshots without and under the harsh lamp (136 hands each, and the photographer's own 64);
- held-out tiles from 20 px read from their true polygons (``bench_scenes.py --true-boxes``), and the detector's
  mAP50 on tiles from 20 px (``--map``; about 5 minutes for the four sets, ``--skip map`` leaves it out).

A data folder that is missing is named with the command that makes it, and its rows are left out. On this 2-core
CPU one side takes about 15 minutes.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from datasets.glyphs import fonts_warning  # noqa: E402
HELD_OUT = ("eval-table-2k", "eval-table", "eval-corner-2k", "eval-corner")
DEV = ("dev18-corner-200", "dev18-corner-lamp")
MAKE = {  # how each data folder is made (README, "Reading a whole table"; model card, harsh light)
    "eval-corner": "--n 200 --seed 7 --framing corner",
    "eval-table": "--n 100 --seed 8 --framing table",
    "eval-corner-2k": "--n 200 --seed 7 --framing corner --imgsz 2048",
    "eval-table-2k": "--n 100 --seed 8 --framing table --imgsz 2048",
    "dev18-corner-200": "--n 200 --seed 18 --framing corner",
    "dev18-corner-lamp": "--n 200 --seed 18 --framing corner --harsh-light 1",
}
STEPS = ("real", "hands", "dev", "true-boxes", "map")


def run(argv: list[str], models: Path, log: Path | None, name: str) -> str:
    """A bench's output, run with ``models`` as the models folder; a failed bench stops the judging."""
    env = {**os.environ, "RIICHI_LENS_MODELS": str(models.resolve())}
    print(f"  {models}: python {' '.join(argv)}", file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, *argv], cwd=REPO, env=env, capture_output=True, text=True)
    if log is not None:
        log.mkdir(parents=True, exist_ok=True)
        (log / f"{models.name}-{name}.log").write_text(done.stdout + done.stderr)
    if done.returncode:
        sys.exit(f"python {' '.join(argv)} failed with {models}:\n{done.stderr[-2000:]}")
    return done.stdout


def per_set(out: str, names: tuple[str, ...], after: str = "hands exactly right") -> dict[str, tuple[int, int]]:
    """``a/b`` after ``after`` on each data set's "end to end from pixels" line of bench_tables, by set name."""
    found, current = {}, None
    for text in out.splitlines():
        if Path(text.strip()).name in names:
            current = Path(text.strip()).name
            continue
        m = re.search(re.escape(after) + r" (\d+)/(\d+)", text)
        if current and m and "end to end from pixels" in text:
            found[current] = (int(m[1]), int(m[2]))
    return found


def figures(models: Path, data: Path, skip: set[str], log: Path | None) -> dict[str, str]:
    """Row name -> the figure as printed in the table, for one models folder."""
    rows: dict[str, str] = {}
    held = [d for d in HELD_OUT if (data / d).is_dir()]
    dev = [d for d in DEV if (data / d).is_dir()]
    if "real" not in skip:
        out = run(["bench/bench_reader.py"], models, log, "reader")
        m = re.search(r"real crops read correctly: (\d+)/(\d+)", out)
        rows["real crops read right (444)"] = m[1]
        out = run(["bench/bench_detector.py", "--no-peer", "--repeats", "1"], models, log, "photos")
        cells = [c.strip() for c in next(t for t in out.splitlines() if t.startswith("| riichi-lens")).split("|")]
        rows["real photos' tiles read right (333)"] = cells[2].split("/")[0]
        rows["real photos: misread, missed, extra"] = ", ".join(cells[4:7])
        out = run(["bench/bench_single_tiles.py"], models, log, "single")
        m = re.search(r"tile found and read: (\d+)/\d+.*?the only tile found: (\d+)/\d+; other \(false\) tiles "
                      r"found: (\d+)", out)
        rows["real single-tile photos (111): found and read, the only tile found, false tiles"] = ", ".join(m.groups())
    if "hands" not in skip and held:
        out = run(["bench/bench_tables.py", *[str(data / d) for d in held], "--pixels"], models, log, "hands")
        hands = per_set(out, tuple(held))
        for d in held:
            rows[f"held-out hands end to end, {d} ({hands[d][1]})"] = str(hands[d][0])
        rows[f"held-out hands end to end, all ({sum(b for _, b in hands.values())})"] = str(
            sum(a for a, _ in hands.values()))
    if "dev" not in skip and dev:
        out = run(["bench/bench_tables.py", *[str(data / d) for d in dev], "--pixels"], models, log, "dev")
        hands, own = per_set(out, tuple(dev)), per_set(out, tuple(dev), "the photographer's own hand")
        for d in dev:
            rows[f"dev hands end to end, {d} ({hands[d][1]}); the photographer's own ({own[d][1]})"] = (
                f"{hands[d][0]}; {own[d][0]}")
    for d in held:
        if "true-boxes" not in skip:
            out = run(["bench/bench_scenes.py", "--data", str(data / d), "--true-boxes"], models, log, f"tb-{d}")
            runtime = out.split("as the run time reads them:")[-1]
            m = re.search(r"all from 20 px wide.*?: (\d+)/(\d+) = ([\d.]+)%", runtime)
            rows[f"held-out tiles from 20 px read from true polygons, {d} ({m[2]})"] = f"{m[1]} ({m[3]} %)"
        if "map" not in skip:
            out = run(["bench/bench_scenes.py", "--data", str(data / d), "--map"], models, log, f"map-{d}")
            m = re.search(r"tiles at least 20 px wide.*?mAP50 ([\d.]+)", out)
            rows[f"held-out mAP50, tiles from 20 px, {d}"] = m[1]
    return rows


def difference(a: str, b: str) -> str:
    """The candidate's figures less the baseline's, part by part ("102; 59", "0, 0, 2": each part's first number)."""
    out = []
    for x, y in zip(re.split(r"[;,] ", a), re.split(r"[;,] ", b)):
        x, y = re.match(r"[\d.]+", x)[0], re.match(r"[\d.]+", y)[0]
        d = float(y) - float(x)
        out.append("0" if d == 0 else (f"{d:+.4f}" if "." in x else f"{d:+.0f}"))
    return "; ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("candidate", type=Path, help="a folder laid out as models/, with the candidate's weights")
    ap.add_argument("--baseline", type=Path, default=REPO / "models", help="the models to beat (default: shipped)")
    ap.add_argument("--data", type=Path, default=REPO / "data", help="where the data folders are")
    ap.add_argument("--skip", default="", help=f"comma-separated rows to leave out: {', '.join(STEPS)}")
    ap.add_argument("--log", type=Path, default=None, help="keep each bench's whole output in this folder")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    if skip - set(STEPS):
        sys.exit(f"--skip takes {', '.join(STEPS)}, not {', '.join(sorted(skip - set(STEPS)))}")
    if not args.candidate.is_dir():
        sys.exit(f"no candidate models folder at {args.candidate}")
    missing_fonts = fonts_warning()
    if missing_fonts and not all((args.data / d).is_dir() for d in HELD_OUT + DEV):
        print(missing_fonts, file=sys.stderr)  # the folders would be made otherwise than the figures on record's
    for d in HELD_OUT + DEV:
        if not (args.data / d).is_dir():
            print(f"no {args.data / d}, its rows left out: python -m datasets.generate --out {args.data / d} "
                  f"{MAKE[d]} --format obb --classes tile", file=sys.stderr)
    base = figures(args.baseline, args.data, skip, args.log)
    cand = figures(args.candidate, args.data, skip, args.log)
    print(f"command: python bench/judge_models.py {args.candidate} --baseline {args.baseline} --data {args.data}"
          + (f" --skip {args.skip}" if args.skip else ""))
    print(f"\n| measured on | {args.baseline} | {args.candidate} | candidate less baseline |\n|---|---|---|---|")
    for row, value in base.items():
        print(f"| {row} | {value} | {cand[row]} | {difference(value, cand[row])} |")


if __name__ == "__main__":
    main()

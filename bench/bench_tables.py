"""Table reconstruction on generated scenes with known structure, and time from image to readout.

    python -m datasets.generate --out data/eval-corner --n 200 --seed 7 --framing corner --format obb --classes tile
    python -m datasets.generate --out data/eval-table --n 100 --seed 8 --framing table --format obb --classes tile
    python bench/bench_tables.py data/eval-corner data/eval-table [--pixels] [--limit N]
                                 [--perfect-detector smallest|bisector] [--save-found DIR | --found DIR]

Seeds 7 and 8 are not used for any training data. For each dataset: hands in view (``datasets.table_eval``)
reconstructed exactly, melds, and meld sources, first from the true tile polygons (the reconstruction alone),
then with --pixels end to end from the image (detector + reader + reconstruction), with the median ms from image
to readout on this CPU; with --perfect-detector, the reader and reconstruction on the boxes of every labelled
tile as a flawless detector would give them (``datasets.table_eval.PerfectDetector``).

A change to the table reading alone (``vision/table.py``, ``vision/layout.py``) needs no new detections: --pixels
--save-found DIR keeps the tiles found in each scene (DIR/<dataset>.json), and --found DIR reads the tables from
them again in about a tenth of the time, with the median ms from those tiles to the readout (the table reading's
own share; nothing is detected).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.evaluate import FLOOR_PX  # noqa: E402
from datasets.table_eval import PerfectDetector, evaluate_tables  # noqa: E402
from vision.layout import Tile  # noqa: E402


def pct(a: int, b: int) -> str:
    return f"{a}/{b} = {100 * a / b:.1f} %" if b else "0/0"


def report(name: str, t: dict, read: bool = True) -> None:
    """``read``: the tiles were found and read (not the true ones), so how sure they were read means something."""
    print(f"  {name}: {t['scenes']} scenes, hands exactly right {pct(t.get('hands_right', 0), t.get('hands', 0))}; "
          f"melds {pct(t.get('melds_right', 0), t.get('melds', 0))}; "
          f"sources {pct(t.get('sources_right', 0), t.get('open_melds', 0))}" +
          (f"; the photographer's own hand {pct(t['own_hands_right'], t['own_hands'])}" if t.get("own_hands") else ""))
    if t.get("wide_hands", 0) < t.get("hands", 0):
        print(f"    hands whose every tile is at least {FLOOR_PX} px wide (the issue's floor for reading a tile): "
              f"{pct(t['wide_hands_right'], t['wide_hands'])}")
    if t.get("hands_all_read", 0) < t.get("hands", 0):  # from pixels: where the hands were lost
        print(f"    the hands' tiles: found {pct(t['hand_tiles_found'], t['hand_tiles'])}, read right "
              f"{pct(t['hand_tiles_read'], t['hand_tiles_found'])} of those; hands with every tile found and read "
              f"{pct(t['hands_all_read'], t['hands'])}")
    if read and t.get("hands"):
        sure, right = t.get("hands_sure", 0), t.get("hands_sure_right", 0)
        print(f"    hands read surely (a readout with no tile to check, vision.table.tiles_to_check): "
              f"{pct(sure, t['hands'])}, right {pct(right, sure)}; the others right "
              f"{pct(t.get('hands_right', 0) - right, t['hands'] - sure)}")
    if t.get("draw_hands"):
        print(f"    hands of 13 read tenpai or noten right at an exhaustive draw (vision.table.draw_at): "
              f"{pct(t['draw_right'], t['draw_hands'])}; "
              f"of the tenpai ones {pct(t['draw_tenpai_right'], t['draw_tenpai'])}")
    if t.get("draw_tables"):
        paid, right = t.get("draw_tables_paid", 0), t.get("draw_tables_right", 0)
        print(f"    tables made at an exhaustive draw: payments (noten or nagashi mangan) given for "
              f"{pct(paid, t['draw_tables'])} (every seat's hand in view and read), right {pct(right, paid)}")
    if t.get("reread"):
        print("    tiles the table took as another kind than read (a meld, a fifth copy, white backs, a hand out of "
              f"order): {t['reread']}, right after {t['reread_right']}, before {t['reread_was_right']}")
    if t.get("hands_offered"):
        print(f"    14-tile hands read not complete and offered a reading that completes them: {t['hands_offered']}, "
              f"the true hand among the offers {pct(t['hands_offered_truth'], t['hands_offered'])}")
    lost = {k.split(": ", 1)[1]: v for k, v in t.items() if k.startswith("lost, every tile read: ")}
    if lost:
        print("    hands lost with every tile read right: " + ", ".join(f"{k} {v}" for k, v in sorted(lost.items())))


class TimedFinder:
    """The tile finder, timed from image to readout (the table and its scoring included)."""

    def __init__(self, keep_found: bool = False):
        from vision.tiles import TileFinder

        self.finder = TileFinder()
        self.ms: list[float] = []
        self.found: dict[str, list] | None = {} if keep_found else None  # scene image -> tiles, for --save-found

    def find(self, image, scene: dict | None = None):
        """The tiles found in ``image``; the scene's truth is not looked at (its image name keys the saved tiles)."""
        from rules.context import Context
        from rules.ruleset import TENHOU_SANMA
        from vision.table import read_table, score_table

        ctx = Context(ruleset=TENHOU_SANMA) if scene is not None and scene.get("players") == 3 else Context()
        t0 = time.perf_counter()
        tiles = self.finder.find(image)
        score_table(read_table(list(tiles), ctx.ruleset), ctx)  # as the scene is scored (three players or four)
        self.ms.append(1000 * (time.perf_counter() - t0))
        if self.found is not None and scene is not None:
            self.found[scene["image"]] = [[t.kind, t.polygon, t.confidence, t.candidates] for t in tiles]
        return tiles


class SavedFinder:
    """The tiles an earlier run found in each scene (``--save-found``), given again without detecting."""

    def __init__(self, path: Path):
        if not path.is_file():
            sys.exit(f"no saved tiles at {path}: make them with --pixels --save-found {path.parent}")
        self.found = json.loads(path.read_text())

    def find(self, image, scene: dict) -> list[Tile]:
        return self._tiles(scene["image"])

    def _tiles(self, image: str) -> list[Tile]:
        return [Tile(kind, tuple(map(tuple, polygon)), confidence, candidates=tuple(map(tuple, candidates)))
                for kind, polygon, confidence, candidates in self.found[image]]

    def table_ms(self, limit: int | None = None) -> list[float]:
        """The time from each scene's saved tiles to its readout (``read_table``, ``score_table``), ms: the
        table reading's own share of the time from image to readout."""
        from vision.table import read_table, score_table

        ms = []
        for image in sorted(self.found)[:limit]:
            tiles = self._tiles(image)  # made fresh: a Tile keeps what grouping measured of it
            t0 = time.perf_counter()
            score_table(read_table(tiles))
            ms.append(1000 * (time.perf_counter() - t0))
        return ms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--pixels", action="store_true", help="also end to end from the images")
    ap.add_argument("--limit", type=int, default=None, help="only the first N scenes of each dataset")
    ap.add_argument("--perfect-detector", choices=("smallest", "bisector"), default=None,
                    help="also end to end on the true tiles' boxes (the smallest rectangles, as detectors v1-v4 "
                         "were taught, or at the face edges' bisector), read by the reader: the cost of a box "
                         "convention")
    ap.add_argument("--save-found", type=Path, default=None, metavar="DIR",
                    help="with --pixels: keep the tiles found in each scene in DIR/<dataset>.json")
    ap.add_argument("--found", type=Path, default=None, metavar="DIR",
                    help="end to end from the tiles saved in DIR by --save-found, not detected again")
    args = ap.parse_args()
    for data in args.data:
        print(data)
        report("from the true tiles", evaluate_tables(data, limit=args.limit), read=False)
        if args.found:
            saved = SavedFinder(args.found / f"{data.name}.json")
            report(f"end to end from the tiles found before ({args.found})",
                   evaluate_tables(data, saved, limit=args.limit))
            ms = saved.table_ms(limit=args.limit)
            print(f"    median {statistics.median(ms):.1f} ms from the tiles to the readout (table and scoring, "
                  f"{len(ms)} scenes, this CPU)")
        elif args.pixels:
            finder = TimedFinder(keep_found=args.save_found is not None)
            report("end to end from pixels", evaluate_tables(data, finder, limit=args.limit))
            print(f"    median {statistics.median(finder.ms):.0f} ms from image to readout "
                  f"({len(finder.ms)} images, this CPU)")
            if args.save_found:
                args.save_found.mkdir(parents=True, exist_ok=True)
                (args.save_found / f"{data.name}.json").write_text(json.dumps(finder.found))
        if args.perfect_detector:
            report(f"on a perfect detector's boxes ({args.perfect_detector})",
                   evaluate_tables(data, PerfectDetector(args.perfect_detector), limit=args.limit))


if __name__ == "__main__":
    main()

"""The vision commands of the ``riichi-lens`` CLI: ``read`` (photos -> tiles, or with --score the whole table
and the rules readout of the hand nearest the camera)."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from rules.cli import add_context_args, context_from_args
from rules.tiles import HandError


def add_read_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read", help="find and read the tiles in photos",
                       description="Prints each tile found (kind, confidence, lie). With several photos the models "
                                   "load once; --json prints one JSON object per photo, in order.")
    p.add_argument("photos", nargs="+", type=Path)
    p.add_argument("--json", action="store_true", help='one line per photo: {"photo": PATH, "tiles": [{"kind", '
                                                       '"confidence", "polygon", "lie"}, ...]}')
    p.add_argument("--annotate", type=Path, metavar="DIR",
                   help="also write a copy of each photo with the tiles drawn, as DIR/NAME.annotated.jpg")
    p.add_argument("--conf", type=_confidence, default=0.35,
                   help="detection threshold (default 0.35); a box 0.6 times as sure is kept among sure tiles "
                        "of its size")
    p.add_argument("--score", action="store_true",
                   help="rebuild the table (seats, hands, melds and their sources, ponds, dora indicators) and "
                        "score the read hand; with --json, the table JSON the web app draws")
    p.add_argument("--seat", default="self", choices=("self", "right", "across", "left"),
                   help="with --score: whose hand to score, seen from the hand nearest the camera (self)")
    p.add_argument("--mirrored", action="store_true", help="the photo is mirrored (a selfie camera): flip it back")
    p.add_argument("--draw", action="store_true",
                   help="with --score: also the hand as an exhaustive draw ends it, each seat tenpai or noten and "
                        "the noten payments (the dealer by --seat-wind: the read seat unless told)")
    p.add_argument("--declared", type=_declaration, action="append", default=[], metavar="SEAT=tenpai|noten",
                   help="with --draw: what a seat declared, over what the photo shows (a seat out of view, a "
                        "tenpai player who declared noten); again for another seat")
    p.add_argument("--profile", help="read with the calibration profile of your own set (riichi-lens calibrate)")
    # with --score: the context, as `riichi-lens hand` takes it; riichi, dora indicators, the seat's discards and
    # the tiles in view come from the photo where not given
    context = p.add_argument_group("with --score, the hand's context (as for riichi-lens hand; riichi, dora "
                                   "indicators and discards are read from the photo where not given)")
    add_context_args(context, ("--seat-wind",), "won on the discard of this player (a 14-tile hand with neither: "
                                                "scored as a ron from the left, the note says)")
    # what only --score uses, to refuse it given without (a photo read with --riichi and no --score ignored it)
    score_only = [a for a in p._actions if a.dest in ("seat", "draw")] + context._group_actions
    p.set_defaults(run=run_read, score_only=[(a.option_strings[0], a.dest, a.default) for a in score_only])


def _confidence(text: str) -> float:
    """A detection threshold: a number above 0 and at most 1 (0 or less would keep every box the network
    proposes, above 1 none)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not a confidence: give one above 0 and at most 1, like 0.35")
    return value


def _declaration(text: str) -> tuple[str, bool]:
    """SEAT=tenpai or SEAT=noten, SEAT one of self, right, across, left."""
    seat, _, said = text.partition("=")
    if seat not in ("self", "right", "across", "left") or said not in ("tenpai", "noten"):
        raise argparse.ArgumentTypeError(f"{text!r}: give SEAT=tenpai or SEAT=noten, SEAT one of self, right, "
                                         "across, left (left=noten)")
    return seat, said == "tenpai"


def add_calibrate_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="learn your own tile set from a photo of one of each tile in a grid",
                       description="Lay one of each tile face up in a grid, left to right, top to bottom: row 1 "
                                   "the red fives the set has (0m 0p 0s), then E S W N haku hatsu chun, then "
                                   "optionally one face-down tile; row 2 1p-9p; row 3 1s-9s; row 4 1m-9m. Take "
                                   "one photo (more at other angles or light help). Then read with --profile NAME.")
    p.add_argument("photos", nargs="+", type=Path)
    p.add_argument("--name", required=True, help="the profile's name (letters, digits, '_', '-')")
    p.set_defaults(run=run_calibrate)


def run_calibrate(args: argparse.Namespace) -> int:
    from .calibrate import CalibrationError, calibrate_photos
    from .image import ImageError
    from .tiles import TileFinder

    try:
        profile, seconds = calibrate_photos(args.photos, args.name, TileFinder())
        path = profile.save()
    except (CalibrationError, ImageError) as e:
        print(f"riichi-lens calibrate: {e}", file=sys.stderr)
        return 2
    print(f"profile {profile.name!r}: {len(profile.kinds)} faces learned in {seconds:.0f} s, saved to {path}")
    print(f"read with it: riichi-lens read PHOTO --profile {profile.name}   (the page lists it too)")
    if profile.advice:
        print(f"note: {profile.advice}")
    return 0


def run_read(args: argparse.Namespace) -> int:
    import cv2  # here, not at the top: `riichi-lens hand` starts without loading OpenCV

    from .calibrate import CalibrationError
    from .image import ImageError, load_image
    from .layout import Tile
    from .pipeline import read_photo
    from .table import check_declared, check_seat
    from .tiles import TileFinder, tiles_json

    unused = [flag for flag, dest, default in args.score_only if getattr(args, dest) != default]
    if unused and not args.score:
        print(f"riichi-lens read: {', '.join(unused)} only with --score (the table rebuilt and its hand scored)",
              file=sys.stderr)
        return 2
    if args.declared and not args.draw:
        print("riichi-lens read: --declared only with --draw (what a seat declared at an exhaustive draw)",
              file=sys.stderr)
        return 2
    said: dict[str, list[str]] = {}  # a seat declared twice: the last had been taken without a word
    for seat, tenpai in args.declared:
        said.setdefault(seat, []).append("tenpai" if tenpai else "noten")
    for seat, words in said.items():
        if len(words) > 1:
            print(f"riichi-lens read: --declared {seat} given {'twice' if len(words) == 2 else f'{len(words)} times'}"
                  f" ({', then '.join(words)}): give each seat once", file=sys.stderr)
            return 2
    if args.annotate:  # before any photo is read: a bad folder is known at once
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"riichi-lens read: --annotate {args.annotate}: not a folder that can be written ({e.strerror})",
                  file=sys.stderr)
            return 2
    try:  # the context given is checked before any photo is read
        ctx = context_from_args(args, args.ron) if args.score else None
        if ctx is not None:
            check_seat(args.seat, ctx.ruleset)
            check_declared(dict(args.declared), ctx.ruleset)
    except (HandError, ValueError) as e:
        print(f"riichi-lens read: {e}", file=sys.stderr)
        return 2
    finder = TileFinder()
    status = 0
    written: set[Path] = set()  # annotated copies of this run: two photos named alike keep both
    for path in args.photos:
        try:
            image = load_image(path)
            if args.score:
                table = read_photo(finder, image, ctx, seat=args.seat, mirrored=args.mirrored, conf=args.conf,
                                   profile=args.profile, draw_declared=dict(args.declared))
            else:
                tiles = finder.find(cv2.flip(image, 1) if args.mirrored else image, conf=args.conf,
                                    profile=args.profile)
                if args.mirrored:  # read flipped back; its polygons put onto the photo as given, as with --score
                    w = image.shape[1]
                    tiles = [replace(t, polygon=tuple((w - x, y) for x, y in t.polygon)) for t in tiles]
        except (ImageError, CalibrationError) as e:
            print(f"riichi-lens read: {e}", file=sys.stderr)
            if args.json:
                print(json.dumps({"photo": str(path), "error": str(e)}))
            status = 1
            continue
        if args.score:  # each JSON line names its photo, as an error's line does
            print(json.dumps({"photo": str(path), **table}, ensure_ascii=False) if args.json
                  else f"{path}:\n{format_table(table, draw=args.draw)}")
            tiles = [Tile(t["kind"], tuple(map(tuple, t["polygon"])), t["confidence"]) for t in table["tiles"]]
        elif args.json:
            print(json.dumps({"photo": str(path), **tiles_json(tiles)}))
        else:
            print(f"{path}: {count_of(len(tiles), 'tile')}")
            for t in sorted(tiles, key=lambda t: (t.center[1], t.center[0])):
                x, y = t.center
                print(f"  {t.kind:>4}  {t.confidence:.2f}  {t.lie:<11} at ({x:.0f}, {y:.0f})")
        if args.annotate:
            out = _annotated_name(args.annotate, path.stem, written)
            written.add(out)
            if not cv2.imwrite(str(out), annotate(image, tiles)):
                print(f"riichi-lens read: the annotated copy could not be written to {out}", file=sys.stderr)
                status = 1
            elif not args.json:
                print(f"  annotated copy: {out}")
    return status


def count_of(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _annotated_name(folder: Path, stem: str, taken: set[Path]) -> Path:
    """DIR/NAME.annotated.jpg, or NAME-2, -3... where a photo of this run of the same name took it."""
    out, n = folder / f"{stem}.annotated.jpg", 1
    while out in taken:
        n += 1
        out = folder / f"{stem}-{n}.annotated.jpg"
    return out


def format_table(table: dict, draw: bool = False) -> str:
    """The table JSON as a referee reads it: each seat's hand, melds with their source, pond; then the readout;
    with ``draw``, each seat at an exhaustive draw."""
    from rules.cli import format_readout

    kinds = [t["kind"] for t in table["tiles"]]
    out = [f"  {count_of(len(kinds), 'tile')}"]
    for s in table["seats"]:
        parts = []
        if s["concealed"]:
            parts.append(" ".join(kinds[i] for i in s["concealed"]))
        if s["hidden"]:
            parts.append(f"{s['hidden']} concealed tiles face down")
        parts += [f"{m['kind']} {' '.join(m['tiles'])}" + (f" from {m['source']}" if m["source"] else "")
                  for m in s["melds"]]
        if s.get("kita"):
            parts.append(f"{count_of(len(s['kita']), 'north')} set aside")
        if s["pond"]:
            parts.append("pond " + " ".join(kinds[p["tile"]] + ("(riichi)" if p["riichi"] else "") for p in s["pond"]))
        if parts:
            out.append(f"  {s['seat']:<7} " + " | ".join(parts))
    if table["dora_indicators"]:
        out.append("  dora indicators: " + " ".join(kinds[i] for i in table["dora_indicators"]))
    out += [f"  problem ({p['seat']}): {p['message']}" if p.get("seat") else f"  problem: {p['message']}"
            for p in table["problems"]]
    out += [f"  note: {n}" for n in table.get("notes", [])]
    for x in table.get("suggestions", []):
        out.append(f"  maybe: the {x['read']} at {_at(table, x['tile'])} is a {x['kind']} "
                   f"(the reader gives it {x['probability']:.0%}): then the hand is complete")
    if table.get("readout"):
        check = table["check"]  # score_table gives every readout one
        if check["tiles"]:
            where = ", ".join(f"{kinds[i]} at {_at(table, i)}" for i in check["tiles"])
            out.append(f"  check: {len(check['tiles'])} of the hand's tiles read less surely: {where}")
        else:
            out.append(f"  every tile of the hand read at least {check['below']:.0%} sure")
        out.append("  " + format_readout(table["readout"]).replace("\n", "\n  "))
    if draw:
        out += format_draw(table["draw"])
    return "\n".join(out)


def format_draw(draw: dict) -> list[str]:
    """Each seat at an exhaustive draw: tenpai with its waits, noten, or why it cannot be told; the payments."""
    out = ["  at an exhaustive draw:"]
    for row in draw["seats"]:
        if row["tenpai"] is None:
            said = f"not known: {row['why']}"
        elif row["tenpai"]:
            said = f"tenpai ({' '.join(row['waits'])})" if row["waits"] else "tenpai"
        else:
            said = "noten" + (" (hand face down)" if row["shown"] == "hidden" and row["declared"] is None else "")
        said += " (declared)" if row["declared"] is not None else ""
        said += " nagashi mangan" if row["nagashi"] else ""
        out.append(f"    {row['seat']:<7} {said}" + (f" {row['delta']:+d}" if row["delta"] is not None else ""))
    out += [f"    note: {n}" for n in draw["notes"]]
    if any(row["delta"] is None for row in draw["seats"]):
        out.append("    payments: not until every seat's hand is in view and read, or --declared says what it declared")
    return out


def _at(table: dict, i: int) -> str:
    """Where tile ``i`` is in the photo, as its centre's pixels."""
    cx, cy = (sum(c) / len(c) for c in zip(*table["tiles"][i]["polygon"]))
    return f"({cx:.0f}, {cy:.0f})"


def annotate(image, tiles):
    """A copy of the photo with each tile's outline, its top edge thicker, and its kind."""
    import cv2
    import numpy as np

    from .table import CHECK_BELOW

    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 800))
    for t in tiles:
        c = np.round(t.corners).astype(np.int32)
        colour = (0, 160, 255) if t.kind == "back" else (0, 200, 0) if t.confidence >= CHECK_BELOW else (0, 0, 255)
        cv2.polylines(out, [c], True, colour, thick, cv2.LINE_AA)
        cv2.line(out, tuple(c[0]), tuple(c[1]), colour, 3 * thick, cv2.LINE_AA)
        x, y = np.round(t.center).astype(int)
        scale = 0.5 * thick
        cv2.putText(out, t.kind, (x - 12 * thick, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 3 * thick)
        cv2.putText(out, t.kind, (x - 12 * thick, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (200, 0, 0), thick)
    return out

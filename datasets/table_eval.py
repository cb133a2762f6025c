"""Score table reconstruction against generated scenes, whose tables say every seat's hand, melds and sources.

A *hand in view* is a seat whose concealed tiles all face the camera and whose every hand and meld tile is
labelled in the photo: only those can be read, so only those are counted. A hand is *exactly right* when its
concealed tiles (red fives apart) and its melds (kind, tiles, source) all equal the truth. Predicted seats are
paired with true seats by the tiles they share, so the seat names (relative to the read hand) do not matter.

Two inputs: ``truth_tiles`` (the true face polygons and kinds: reconstruction alone) or tiles found in the
pixels (end to end: each found tile is paired with the labelled tile whose face inside the photo it overlaps,
IoU >= 0.5).
"""
from __future__ import annotations

import collections
import json
from pathlib import Path

from rules.context import Context
from rules.ruleset import TENHOU_SANMA
from vision.layout import Tile
from vision.table import Table, draw_at, read_table, score_seat
from vision.tiles import face_width

from .evaluate import FLOOR_PX, in_frame, pair_by_overlap


def truth_tiles(table: dict) -> tuple[list[Tile], list[int]]:
    """The labelled tiles of a generated scene as detections would give them, and each one's annotation index."""
    tiles, index = [], []
    for i, a in enumerate(table["tiles"]):
        if a["labelled"]:
            tiles.append(Tile(a["cls"], tuple(tuple(p) for p in a["polygon"])))
            index.append(i)
    return tiles, index


def match_found(found: list[Tile], table: dict) -> list[int | None]:
    """For each found tile, the labelled annotation whose face inside the photo (``in_frame``) it overlaps most
    (IoU >= 0.5, each taken once), or None."""
    labelled = [i for i, t in enumerate(table["tiles"]) if t["labelled"]]
    order = sorted(range(len(found)), key=lambda k: -found[k].confidence)
    shape = (table["height"], table["width"])
    pairs = pair_by_overlap([found[k].corners for k in order],
                            [in_frame(table["tiles"][i]["polygon"], shape) for i in labelled])
    out: list[int | None] = [None] * len(found)
    for k, j in zip(order, pairs):
        out[k] = None if j is None else labelled[j]
    return out


def _meld_key(kind: str, tiles: list[str], source: str | None) -> tuple:
    if kind == "ankan":  # a red five face down in a closed kan cannot be seen: fives count as plain there
        tiles = ["5" + t[1] if t[0] == "0" else t for t in tiles]
    return kind, tuple(sorted(tiles)), source


def true_hands(table: dict) -> dict[int, dict]:
    """Hands in view: seat number -> {"concealed": sorted kinds, "melds": sorted keys, "kita": how many norths set
    aside (three players), "tiles": annotation indices}."""
    anns = table["tiles"]
    out = {}
    for s in table["seats"]:
        conc = s["concealed"] + ([] if s["drawn"] is None or s["drawn"] in s["concealed"] else [s["drawn"]])
        items = conc + [t for m in s["melds"] for t in m["tiles"]] + s.get("kita", [])
        if any(it["tile"] is None or not anns[it["tile"]]["labelled"] for it in items):
            continue
        if any(anns[it["tile"]]["cls"] == "back" for it in conc):
            continue
        melds = sorted(_meld_key(m["type"], [t["cls"] for t in m["tiles"]], m["source"]) for m in s["melds"])
        out[s["seat"]] = dict(concealed=sorted(it["cls"] for it in conc), melds=melds, kita=len(s.get("kita", [])),
                              tiles={it["tile"] for it in items})
    return out


def true_tenpai(hand: dict) -> bool | None:
    """Whether a true hand in view (``true_hands``) of 13 tiles, 3 a meld, is tenpai, as an exhaustive draw would
    find it (a wait on a kind it holds all four of is none); None for one of 14, a hand mid-turn."""
    from rules.shanten import waits
    from rules.tiles import kind

    if len(hand["concealed"]) + 3 * len(hand["melds"]) != 13:
        return None
    counts = [0] * 34
    for k in hand["concealed"]:
        counts[kind(k)] += 1
    held = list(counts)
    for _, tiles, _ in hand["melds"]:
        for k in tiles:
            held[kind(k)] += 1
    return bool(waits(counts, len(hand["melds"]), held))


def read_hands(table: Table, to_ann: list[int | None], ctx=None) -> list[dict]:
    """Each predicted seat with a hand, in the same form as ``true_hands`` (annotation indices via to_ann), and
    ``offered``: the concealed tiles as each reading the readout offers would make them (``readings_that_complete``),
    ``sure``: whether its readout has no tile to check (``tiles_to_check``), and ``tenpai``: whether the draw reads
    it tenpai (``draw_at``; None when it cannot be told); ``ctx``: the context scored in (its ruleset's)."""
    draw = {row["seat"]: row["tenpai"] for row in draw_at(table, ctx)["seats"]}
    out = []
    for seat in table.seats.values():
        if not seat.concealed and not seat.melds:
            continue
        indices = seat.concealed + [i for m in seat.melds for i in m.tile_indices] + seat.kita
        melds = sorted(_meld_key(m.kind, m.tiles, m.source) for m in seat.melds)
        kinds = {i: table.tiles[i].kind for i in seat.concealed}
        # the whole readout, not ``readings_that_complete`` alone: a hand the readout refuses (a fifth copy counting
        # the discards) is offered nothing, and the bench counts what the user is offered
        scored = score_seat(table, ctx, seat=seat.name)
        offered = [sorted({**kinds, x.tile: x.kind}.values()) for x in scored.suggestions]
        out.append(dict(seat=seat.name, concealed=sorted(kinds.values()), melds=melds, kita=len(seat.kita),
                        offered=offered,
                        sure=scored.readout is not None and not scored.check,  # the page calls it read surely
                        tenpai=draw.get(seat.name), tiles={to_ann[i] for i in indices if to_ann[i] is not None}))
    return out


def score_scene(table_json: dict, tiles: list[Tile], to_ann: list[int | None], totals: collections.Counter,
                failures: list | None = None) -> None:
    """Add one scene's counts: hands in view and exactly right, melds and sources right, the hands' tiles
    found and read right (every one of them, for a hand to be right), and the labelled tiles the table took as
    another kind than read, right before and after."""
    truth = true_hands(table_json)
    sanma = table_json.get("players") == 3  # read and scored as under a three-player ruleset
    read = read_table(tiles, TENHOU_SANMA if sanma else None)
    ctx = Context(ruleset=TENHOU_SANMA) if sanma else None
    predicted = read_hands(read, to_ann, ctx)
    found = {a: k for k, a in enumerate(to_ann) if a is not None}
    # tiles the table took as another kind than read (a meld, a fifth copy, white backs, a hand out of order)
    for a, k in found.items():
        if read.tiles[k].kind != tiles[k].kind:
            totals["reread"] += 1
            totals["reread_right"] += read.tiles[k].kind == table_json["tiles"][a]["cls"]
            totals["reread_was_right"] += tiles[k].kind == table_json["tiles"][a]["cls"]
    if table_json.get("deal") == "draw":
        score_draw(table_json, read, to_ann, totals, ctx)
    for seat_no, t in truth.items():
        totals["hands"] += 1
        seen = [a for a in t["tiles"] if a in found]  # where a hand is lost: its tiles missed or misread
        read_right = [a for a in seen if tiles[found[a]].kind == table_json["tiles"][a]["cls"]]
        totals["hand_tiles"] += len(t["tiles"])
        totals["hand_tiles_found"] += len(seen)
        totals["hand_tiles_read"] += len(read_right)
        all_read = len(read_right) == len(t["tiles"])
        totals["hands_all_read"] += all_read
        totals["melds"] += len(t["melds"])
        totals["open_melds"] += sum(1 for m in t["melds"] if m[2])
        own = seat_no == 0 and table_json.get("framing") == "corner"  # the photographer's hand, in a snapshot
        totals["own_hands"] += own
        # the hands whose every tile is at least as wide as the floor for reading a tile
        wide = min(face_width(table_json["tiles"][a]["polygon"]) for a in t["tiles"]) >= FLOOR_PX
        totals["wide_hands"] += wide
        p = max(predicted, key=lambda p: len(p["tiles"] & t["tiles"]), default=None)
        if p is None or not p["tiles"] & t["tiles"]:
            totals["lost, every tile read: no hand read"] += all_read
            if failures is not None:
                failures.append((table_json.get("image"), seat_no, "no hand read", t, None))
            continue
        left = list(p["melds"])
        for m in t["melds"]:
            same = [q for q in left if q[:2] == m[:2]]
            if same:
                totals["melds_right"] += 1
                if m[2]:
                    totals["sources_right"] += m in same
                left.remove(m if m in same else same[0])
        exact = p["concealed"] == t["concealed"] and p["melds"] == t["melds"] and p["kita"] == t["kita"]
        if (tenpai := true_tenpai(t)) is not None:  # a hand of 13: read at an exhaustive draw, tenpai or noten
            totals["draw_hands"] += 1
            totals["draw_tenpai"] += tenpai
            totals["draw_right"] += p["tenpai"] == tenpai
            totals["draw_tenpai_right"] += tenpai and p["tenpai"] is True
        totals["hands_right"] += exact
        totals["hands_sure"] += p["sure"]
        totals["hands_sure_right"] += p["sure"] and exact
        if p["offered"]:  # a 14-tile hand read not complete: does taking an offered reading make it right?
            totals["hands_offered"] += 1
            totals["hands_offered_truth"] += p["melds"] == t["melds"] and t["concealed"] in p["offered"]
        totals["own_hands_right"] += own and exact
        totals["wide_hands_right"] += wide and exact
        if not exact and all_read:
            totals[f"lost, every tile read: {_why_lost(t, p)}"] += 1
        if not exact and failures is not None:
            failures.append((table_json.get("image"), seat_no, "wrong", t, p))


def score_draw(table_json: dict, read: Table, to_ann: list[int | None], totals: collections.Counter,
               ctx=None) -> None:
    """A scene made at an exhaustive draw (``generate --draws``): are the payments read (``draw_at``, the read
    seat dealing) those of the true table, every seat's hand and pond as dealt, a standing hand noten? ``ctx``:
    the context scored in (its ruleset's: three players pay noten under ``TENHOU_SANMA``)."""
    from rules.calls import exhaustive_draw
    from rules.context import Discard
    from rules.points import SOURCE_OFFSET
    from rules.tiles import Hand, Meld

    ctx = ctx or Context()
    seats = table_json["seats"]  # in the order of play: seat numbers 0 1 2 3, or 0 1 3 with no one across
    n = len(seats)
    place = {s["seat"]: k for k, s in enumerate(seats)}
    owner = {it["tile"]: place[s["seat"]] for s in seats
             for it in s["concealed"] + [x for m in s["melds"] for x in m["tiles"]] if it["tile"] is not None}
    own = collections.Counter(owner.get(to_ann[i]) for i, name in enumerate(read.seat_of)
                              if name == "self" and to_ann[i] is not None)
    own.pop(None, None)
    totals["draw_tables"] += 1
    if not own:  # no read hand, so no draw read: counted as given no payments
        return
    first = own.most_common(1)[0][0]

    def cls(item):
        return None if item is None else item["cls"]

    hands, ponds = [], []
    for k in range(n):
        here = (first + k) % n
        s = seats[here]
        melds = tuple(Meld(m["type"], tuple(cls(t) for t in m["tiles"]), cls(m["called"]), m["source"], cls(m["added"]))
                      for m in s["melds"])
        hands.append(None if s["standing"] else Hand(tuple(cls(it) for it in s["concealed"]), melds))
        pond = [Discard(it["cls"]) for it in s["pond"]]
        # and the tiles called from it: from the right by the one before it to play, from the left by the next,
        # from across by the one across (``rules.points.SOURCE_OFFSET``: no one across at three)
        pond += [Discard(cls(m["called"]), called=True) for j, o in enumerate(seats) for m in o["melds"]
                 if m["source"] and (j + SOURCE_OFFSET[n][m["source"]]) % n == here]
        ponds.append(pond)
    truth = [d.delta for d in exhaustive_draw(hands, ctx.ruleset, ponds=ponds, dealer=0).seats]
    said = [row["delta"] for row in draw_at(read, ctx)["seats"]]
    totals["draw_tables_paid"] += None not in said  # every seat read: payments given
    totals["draw_tables_right"] += said == truth


def _why_lost(truth: dict, read: dict) -> str:
    """What went wrong with a hand whose every tile was found and read right: the reconstruction's share."""
    if len(read["melds"]) < len(truth["melds"]):
        return "a meld read as concealed tiles"
    if read["tiles"] < truth["tiles"]:
        return "tiles left out of the hand"
    if read["tiles"] > truth["tiles"]:
        return "other tiles in the hand"
    return "melds or sources read wrong"


def evaluate_tables(data: Path, finder=None, limit: int | None = None, failures: list | None = None) -> dict:
    """Reconstruction over a generated dataset: from the true tiles (finder None) or from pixels, by a finder
    whose ``find(image, scene)`` gives the tiles (the scene's table for one that knows the truth,
    ``PerfectDetector``; the run time's ignores it)."""
    import cv2

    totals: collections.Counter = collections.Counter()
    paths = sorted(data.glob("tables/*/*.json"))[:limit]
    for path in paths:
        table_json = json.loads(path.read_text())
        if finder is None:
            tiles, to_ann = truth_tiles(table_json)
            to_ann_opt: list[int | None] = list(to_ann)
        else:
            image = cv2.imread(str(data / table_json["image"]))
            tiles = finder.find(image, table_json)
            to_ann_opt = match_found(tiles, table_json)
        score_scene(table_json, tiles, to_ann_opt, totals, failures)
    totals["scenes"] = len(paths)
    return dict(totals)


class PerfectDetector:
    """The run time (reader, second cuts, table) on the boxes a detector that found every labelled tile exactly
    would give: each tile's rectangle as ultralytics makes of a 4-point label (``"smallest"``, the minimum-area
    rectangle of the face's part inside the photo: the labels of detectors v1-v5) or at the bisector of the face's
    edges (``"bisector"``, ``generate.face_rect``, a candidate label). It says how much a box convention costs,
    apart from the detector's own errors. Bisector boxes are cut as they are: the run time's cut of a sheared face
    (``vision.tiles.face_corners``) needs the smallest rectangle."""

    def __init__(self, boxes: str = "smallest"):
        from vision.tiles import TileFinder

        if boxes not in ("smallest", "bisector"):
            raise ValueError(f"boxes: smallest or bisector, not {boxes!r}")
        self.finder, self.boxes = TileFinder(), boxes
        self.finder.smallest_boxes = boxes == "smallest"

    def find(self, image, table_json: dict) -> list[Tile]:
        import cv2
        import numpy as np

        from vision.detector import Detection

        from .generate import face_rect

        def rect(polygon):
            quad = np.float32(polygon)
            return cv2.minAreaRect(face_rect(quad) if self.boxes == "bisector" else in_frame(quad, image.shape))

        found = [Detection(*rect(t["polygon"]), 1.0) for t in table_json["tiles"] if t["labelled"]]
        self.finder.detector = _Found(found)
        return self.finder.find(image)


class _Found:
    """A detector that returns the given boxes."""

    def __init__(self, found: list):
        self.found = found

    def detect(self, image, conf: float = 0.0, small_pass: bool = True) -> list:
        return list(self.found)

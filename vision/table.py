"""From the tiles of a photo to the table a referee sees: seats, hands with their melds, ponds, dora indicators.

Seats are named from the player whose hand is read (``self``), in the same words a meld's source uses:
``right`` (shimocha, next in turn), ``across`` (toimen) and ``left`` (kamicha). The read hand is the line with
the most face-up tiles standing square to it; every other line belongs to the seat its tiles face, so a phone
snapshot of one's own corner and an overhead photo at any roll read the same way.

Within a seat, lines run from its owner toward the table's centre: the outermost line of seven or more tiles
is the hand (concealed tiles, melds to the right); lines that are mostly face down are the wall, whose face-up
tiles are dora indicators; a short line mixing face-down and face-up tiles is a dora row laid aside; the other
face-up lines are pond rows (the first row is the one nearest the centre, and its sideways tile is the riichi
declaration). A tile another seat called shows in that seat's meld, sideways, pointing at its discarder: it is
given back to the discarder's discards so that furiten sees it.

Nothing is dropped silently: what cannot be a legal table is a ``Problem`` naming the tiles it is about. Where
the rules say a tile as read cannot be (a fifth copy, a meld that is no meld) and the reader's next likeliest kind
for it is at least a tenth as likely (``Tile.candidates``), that kind is taken instead and a note says so. So is
one that breaks the order of a hand sorted otherwise (``sorted_hand``: players keep their hands sorted).

A readout says which of the hand's tiles to check before trusting it (``tiles_to_check``): those read less than
``CHECK_BELOW`` sure, taken as another kind than read, or named by a problem. A hand with none to check is one
the page calls read surely; how often such a hand is right is measured by ``bench/bench_tables.py``.

Every seat is also read as an exhaustive draw would end the hand (``draw_at``): tenpai or noten, a hand kept
face down noten, and the noten payments once every seat is accounted for.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Mapping, Sequence

import numpy as np

from .classes import BLANK_FACES, plain
from .layout import (CLEAR_GAP, MIN_FACE_AREA, OTHER_READING_FLOOR, Line, MeldReading, Tile, is_sideways, lines,
                     read_as, read_line, segments, shaped_as_a_meld)

SEATS = ("self", "right", "across", "left")  # counter-clockwise from the read hand: the order of play
MIN_HAND_TILES = 7  # a hand shows 13 or more tiles; a line this long nearest its owner is taken as one
# A hand tile read less sure than this (the detector's score times the reader's) is one to check. Dev hands whose
# readout had none to check (``tiles_to_check``) were right 721 of 730 times (98.8 %), the others 291 of 457;
# 0.6 gave 653 of 660, 0.7 511 of 515 (dev seeds 18, 19, 20, 95, 96, session 51's saved tiles, ``python
# bench/bench_tables.py ... --found DIR``). The page marks such tiles "unsure" too (``check.below``)
CHECK_BELOW = 0.5
# A set holds 136 tiles (two sets on a table, 272): a photo showing more is a mosaic or a pile, not a table, and its
# reading's cost grows with every tile. The surest are kept, so what a photo gave can always be sent back corrected.
MAX_TILES = 400


@dataclass
class Problem:
    message: str
    tiles: list[int] = field(default_factory=list)
    seat: str | None = None  # whose tiles it is about, where they are one seat's: a referee looks there first

    def to_dict(self) -> dict:
        return {"message": self.message, "tiles": self.tiles, "seat": self.seat}


@dataclass
class Seat:
    name: str
    concealed: list[int] = field(default_factory=list)  # face-up concealed tiles, left to right
    hidden: int = 0  # concealed tiles seen from behind (a standing hand facing away)
    drawn: int | None = None  # a 14th tile set apart at the right of the concealed ones
    melds: list[MeldReading] = field(default_factory=list)
    pond: list[tuple[int, bool]] = field(default_factory=list)  # (tile, sideways = riichi), in discard order
    kita: list[int] = field(default_factory=list)  # norths set aside at the hand's right (three players)

    @property
    def shown(self) -> int:
        """The hand's face-up tiles as a hand counts them: a kan as three (13, or 14 with the tile drawn)."""
        return len(self.concealed) + 3 * len(self.melds)

    def to_dict(self) -> dict:
        return {"seat": self.name, "concealed": self.concealed, "hidden": self.hidden, "drawn": self.drawn,
                "melds": [dict(kind=m.kind, tiles=m.tiles, called=m.called, source=m.source,
                               tile_indices=m.tile_indices, notes=m.notes) for m in self.melds],
                "pond": [{"tile": i, "riichi": r} for i, r in self.pond],
                "riichi": any(r for _, r in self.pond), "kita": self.kita}


@dataclass
class Table:
    tiles: list[Tile]
    seats: dict[str, Seat]
    dora_indicators: list[int]
    roles: list[str]  # per tile: concealed | meld | pond | dora | wall | stray
    seat_of: list[str | None]  # per tile
    problems: list[Problem]
    notes: list[str] = field(default_factory=list)  # tiles taken as another kind than read, and why
    players: int = 4  # three: no one sits across, and the order of play skips that side

    def discarder(self, seat: str, source: str) -> str | None:
        """Who discarded the tile ``seat`` called from its ``source``: None where no one sits there (across, or
        from across, at three players)."""
        from rules.points import SOURCE_OFFSET

        names = [name for name in SEATS if self.players == 4 or name != "across"]
        if seat not in names or source not in SOURCE_OFFSET[self.players]:
            return None
        return names[(names.index(seat) + SOURCE_OFFSET[self.players][source]) % self.players]

    def to_dict(self) -> dict:
        return {
            "tiles": [{"kind": t.kind, "confidence": t.confidence, "polygon": [list(p) for p in t.polygon],
                       "lie": t.lie, "seat": s, "role": r, "fixed": t.fixed,
                       "candidates": [[k, p] for k, p in t.candidates]}
                      for t, s, r in zip(self.tiles, self.seat_of, self.roles)],
            "seats": [s.to_dict() for s in self.seats.values()],
            "dora_indicators": self.dora_indicators,
            "problems": [p.to_dict() for p in self.problems],
            "notes": list(self.notes),
        }


def _angle(up: np.ndarray) -> float:
    """Degrees counter-clockwise on screen from the photo's up to ``up`` (image y points down)."""
    return math.degrees(math.atan2(-up[0], -up[1]))


# Of two hands alike (a whole table seen from overhead: as many faces, as wide) the read hand is the one facing the
# camera, its glyphs up the photo: a live overhead view had flipped between two such hands from frame to frame.
FACING_BONUS = 0.15


def _main_score(tiles: list[Tile], line: Line) -> float:
    """How surely a line is the read hand's: most faces, nearest the camera (widest), and facing it."""
    return _upright_faces(tiles, line) * _width(tiles, line) * (1 + FACING_BONUS * max(0.0, -float(line.up[1])))


def _upright_faces(tiles: list[Tile], line: Line) -> int:
    return sum(1 for i in line.tiles if tiles[i].kind != "back" and not is_sideways(tiles[i], line.up))


def read_table(tiles: list[Tile], ruleset=None) -> Table:
    """Group the tiles into seats, hands, melds, ponds and dora indicators, with every problem found. The
    caller's list is left as it is; ``Table.tiles`` holds the tiles as read (a 5p or haku turned to its row, a meld's
    tiles turned to lie as the meld was read, a tile taken as another of its candidates: ``Table.notes``).
    ``ruleset``: the rules the table is played by (a ``rules.ruleset.Ruleset``; four players by default): where
    norths are set aside (``Ruleset.kita``), the norths laid apart at a hand's right are its seat's ``kita``
    (``layout.read_line``), not tiles of its hand or melds. Three players leave a side of the table empty: a
    player the photo shows across is named for where they sit in the order of play (``_across_beside``)."""
    kita = ruleset is not None and ruleset.kita
    players = ruleset.players if ruleset is not None else 4
    if not tiles:
        return Table([], {name: Seat(name) for name in SEATS}, [], [], [], [Problem("no tiles found in the photo")],
                     players=players)
    faceless = [i for i, t in enumerate(tiles) if not t.area >= MIN_FACE_AREA]
    if faceless:
        t = tiles[faceless[0]]
        more = f" ({len(faceless)} tiles are such)" if len(faceless) > 1 else ""
        raise ValueError(f"tile {faceless[0]} ({t.kind}): its polygon {[list(p) for p in t.polygon]} encloses "
                         f"{t.area:.2g} px², no face (at least {MIN_FACE_AREA:.0f}): give its face's corners in "
                         f"pixels, in order TL, TR, BR, BL around it{more}")
    notes = []
    if len(tiles) > MAX_TILES:
        notes.append(f"{len(tiles)} tiles found, more than a table holds: the {MAX_TILES} surest were read")
        surest = sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence)[:MAX_TILES]
        tiles = [tiles[i] for i in sorted(surest)]  # in the order found
    tiles = _white_backs_face_down(list(tiles))
    melds, sorted_hands = [], []
    if any(n > 4 for n in _face_up_counts(tiles).values()):  # which copies agree with their meld-mates, as read
        # on a copy: reading a hand turns a white-backed kan's haku in place
        first = _read_seats(list(tiles), [], kita, players)
        melds = [m.tile_indices for seat in first.seats.values() for m in seat.melds]
        hands = [_sortable(seat) for seat in first.seats.values()]
        sorted_hands = [hand for hand in hands if hand and sorted_hand([tiles[i].kind for i in hand])]
    settled, fifth_notes = _fifth_copies_read_again(tiles, melds, sorted_hands)
    notes += fifth_notes
    table = _read_seats(list(settled), notes, kita, players)  # on a copy, as above
    retaken = _sorted_hands_read_again(table)
    if not retaken:
        return table
    for change in retaken:
        read, taken = (" and ".join(words) for words in zip(*((settled[i].kind, alt) for i, alt in change)))
        tiles_is = "one tile: its {} is" if len(change) == 1 else "two tiles: its {} are"
        notes.append(f"a hand sorted but for {tiles_is.format(read)} taken as {taken}, also likely to the reader, "
                     "which puts it in order")
        for i, alt in change:
            settled[i] = read_as(settled[i], alt)
    return _read_seats(settled, notes, kita, players)


# A hand is kept sorted: each suit together, numbers rising left to right, alike honours side by side
SORTED_MIN_TILES = 5  # a hand shows this many face-up concealed tiles before its order says anything
OUT_OF_ORDER_FLOOR = 0.05  # a tile out of order is taken as a kind at least this much as likely as the one read


def sorted_hand(kinds: list[str]) -> bool:
    """Whether tiles in a row are as a player sorts a hand: each suit in one block (in any order of suits),
    numbers rising in a suit (a red five as a five), honours in one block with alike ones side by side (players
    order honours differently). A face-down tile says nothing of the order and is passed over."""
    blocks: list[str] = []
    last: tuple[str, int] | None = None
    honours: list[str] = []
    for kind in (plain(k) for k in kinds if k != "back"):
        suit, number = kind[1], int(kind[0])
        if last is None or suit != last[0]:
            if suit in blocks:
                return False
            blocks.append(suit)
        elif suit != "z" and number < last[1]:
            return False
        if suit == "z" and (not honours or honours[-1] != kind):
            if kind in honours:
                return False
            honours.append(kind)
        last = (suit, number)
    return True


def _sortable(seat: Seat) -> list[int]:
    """The concealed face-up tiles whose order says whether a hand is sorted, left to right: none when fewer than
    ``SORTED_MIN_TILES``; the tile drawn last left out (set apart, or the last of 14 shown), as it may stand
    anywhere."""
    faces = [i for i in seat.concealed if i != seat.drawn]
    if seat.shown == 14 and seat.drawn is None:
        faces = faces[:-1]
    return faces if len(faces) >= SORTED_MIN_TILES else []


def _sorted_hands_read_again(table: Table) -> list[list[tuple[int, str]]]:
    """Players keep their hands sorted (``sorted_hand``), so a hand in order but for a tile or two has those
    misread: per seat, the likeliest change of one tile to one of its candidate kinds (at least
    ``OUT_OF_ORDER_FLOOR`` as likely as the kind read) that puts the hand in order, else of two tiles (their
    likelihoods against the kinds read, multiplied, at least that floor), with no fifth copy: a list of (tile,
    kind) per seat changed. The tile drawn last may stand unsorted: set apart, or the last of 14 shown, it is left
    out. A hand out of order otherwise (one a player did not sort) changes nothing. Generated scenes end to end
    (``bench_tables.py --pixels``; 85 % of their hands are sorted): one tile, dev seeds 18-20 597 -> 612 of 763
    hands right, held-out seeds 7 / 8 438 -> 446 of 531, no hand lost; tiles taken as the truth 30 and 13, right
    ones taken wrong 8 and 7 (in hands already wrong for another tile). Two tiles too (session 31): dev 616 -> 618,
    held-out 449 -> 451, none lost."""
    counts = _face_up_counts(table.tiles)
    out = []
    for seat in table.seats.values():
        faces = _sortable(seat)
        kinds = [table.tiles[i].kind for i in faces]
        if not faces or sorted_hand(kinds):
            continue
        options = []  # (likelihood against the kind read, place in the hand, tile, kind)
        for k, i in enumerate(faces):
            t = table.tiles[i]
            if t.fixed or not t.likely_kinds:
                continue
            p_read = t.likely_kinds[0][1]
            options += [(p / p_read, k, i, alt) for alt, p in t.likely_kinds[1:]
                        if alt != "back" and p >= OUT_OF_ORDER_FLOOR * p_read]
        change = _likeliest_sorting_change(kinds, options, counts)
        for _, k, i, alt in change:
            counts[plain(kinds[k])] -= 1
            counts[plain(alt)] += 1
        if change:
            out.append([(i, alt) for _, _, i, alt in change])
    return out


def _likeliest_sorting_change(kinds: list[str], options: list[tuple[float, int, int, str]],
                              counts: Counter) -> tuple:
    """Of ``_sorted_hands_read_again``'s options, the likeliest one that sorts the hand, else the likeliest two
    for different tiles (likelihoods multiplied, at least ``OUT_OF_ORDER_FLOOR``) that do; none shows a kind more
    than four times (``counts``: the table's face-up tiles as read). Empty when none does."""
    ones = sorted(((o,) for o in options), key=lambda change: -change[0][0])
    twos = sorted(((a, b) for a, b in combinations(options, 2)
                   if a[1] != b[1] and a[0] * b[0] >= OUT_OF_ORDER_FLOOR), key=lambda pair: -pair[0][0] * pair[1][0])
    for change in (*ones, *twos):
        new, more = list(kinds), Counter()
        for _, k, _, alt in change:
            new[k] = alt
            more[plain(alt)] += 1
            more[plain(kinds[k])] -= 1
        if all(counts[kind] + n <= 4 for kind, n in more.items() if n > 0) and sorted_hand(new):
            return change
    return ()


def _read_seats(tiles: list[Tile], notes: list[str], kita: bool = False, players: int = 4) -> Table:
    """``read_table`` once the tiles' kinds are settled."""
    roles = ["stray"] * len(tiles)
    seat_of: list[str | None] = [None] * len(tiles)
    problems: list[Problem] = []
    seats = {name: Seat(name) for name in SEATS}
    dora: list[int] = []
    centre = np.mean([t.center for t in tiles], axis=0)
    ls = lines(tiles, centre=centre)
    main = max(ls, key=lambda l: _main_score(tiles, l))
    by_seat: dict[str, list[Line]] = {name: [] for name in SEATS}
    for line, turn in zip(ls, _seat_turns(tiles, ls, main)):
        by_seat[SEATS[turn]].append(line)  # glyphs turned a quarter left face a player on the right, and so on
    for turn, (name, seat_lines) in enumerate(by_seat.items()):
        seat = seats[name]
        a = math.radians(turn * 90)  # the seat's own up: its upright glyphs', else self's turned a quarter a seat
        up = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]) @ main.up
        sure = np.sum([l.up * _upright_faces(tiles, l) for l in seat_lines] or [np.zeros(2)], axis=0)
        if np.linalg.norm(sure) > 1e-6:
            up = sure / np.linalg.norm(sure)

        def depth(line: Line) -> float:  # how far toward the table's centre from the seat's owner
            return float(np.mean([tiles[i].center for i in line.tiles], axis=0) @ up)

        seat_lines.sort(key=depth)
        # the hand: the outermost line that can be one (a stray tile nearer its owner does not hide it)
        hand = next((l for l in seat_lines if _could_be_hand(tiles, l)), None)
        pond_rows = []
        for line in seat_lines:
            members = line.members
            for i in members:
                seat_of[i] = name
            backs = [i for i in members if tiles[i].kind == "back"]
            if line is hand:
                _read_hand(tiles, line, seat, roles, problems, kita)
            elif backs:  # the wall, or indicators laid aside with face-down tiles: the face-up ones are dora
                for i in members:
                    roles[i] = "wall" if tiles[i].kind == "back" else "dora"
                dora += [i for i in line.tiles if tiles[i].kind != "back"]
            elif len(members) == 1 and hand is None:
                seat_of[members[0]] = None  # a lone tile with no hand to belong to stays a stray
            else:
                pond_rows.append(line)
        for line in sorted(pond_rows, key=depth, reverse=True):
            for i in line.members:
                roles[i] = "pond"
                seat.pond.append((i, is_sideways(tiles[i], line.up)))
    if players == 3:
        _across_beside(seats, seat_of)
    problems += _too_many_copies(tiles) + _on_one_another(tiles)
    for p in problems:
        if len(owners := {seat_of[i] for i in p.tiles}) == 1:
            p.seat = owners.pop()
    return Table(tiles, seats, dora, roles, seat_of, problems, notes, players)


def _across_beside(seats: dict[str, Seat], seat_of: list[str | None]) -> None:
    """Three players sit at three sides of the table, so a player the photo shows across from the read hand sits
    next to it in the order of play: after it (its right, in the rules' words) where the photo's right side has no
    player, before it (its left) where the left has none. Seats counter-clockwise: self, right, (across), left. A
    side has a player where it shows a hand, melds or a pond (a wall or dora indicators may lie at the empty side:
    they are named across in turn). Where neither side or both have one, across stays so, no seat of the table
    (``table_seats``). In place."""
    def seated(s: Seat) -> bool:
        return bool(s.concealed or s.hidden or s.melds or s.pond or s.kita)

    empty = [name for name in ("right", "left") if not seated(seats[name])]
    if not seated(seats["across"]) or len(empty) != 1:
        return
    side = empty[0]
    seats[side], seats["across"] = replace(seats["across"], name=side), replace(seats[side], name="across")
    swap = {"across": side, side: "across"}
    seat_of[:] = [swap.get(name, name) for name in seat_of]


def _white_backs_face_down(tiles: list[Tile]) -> list[Tile]:
    """A set whose backs are white shows its face-down tiles as blank white faces, read as haku; a set holds
    four haku, so with more than four read, those in rows mostly of blank tiles (a wall, a hand standing back to
    the camera) are face down: rows of more than four blanks, or blank but for one face (a dora indicator). A
    blank tile among faces stays a haku, four of them too (a hand holding four haku, when a fifth blank elsewhere
    is a misread); one a person fixed stays as fixed. Three or four blanks alone in a row with one lying across
    it (``shaped_as_a_meld``) are a pon or kan of haku laid apart: a wall's tiles lie alike (held-out whole tables
    of seed 8 end to end, 111 -> 112 hands; the same on the dev scenes, where two such pons were read right
    beside a misread hand tile)."""
    if sum(t.kind == "5z" for t in tiles) <= 4:
        return tiles
    out = list(tiles)
    for seg in segments(tiles):
        blank = [i for i in seg if tiles[i].kind in BLANK_FACES]
        faces = len(seg) - len(blank)
        if (len(seg) >= 3 and 2 * len(blank) > len(seg) and (len(blank) > 4 or faces <= 1)
                and not (faces == 0 and shaped_as_a_meld(tiles, seg))):
            for i in blank:
                if tiles[i].kind == "5z" and not tiles[i].fixed:
                    out[i] = replace(tiles[i], kind="back")
    return out


def _a_set(kinds: list[str]) -> bool:
    """Whether a meld's kinds as read are a set: alike (a pon or kan; a closed kan's face-down pair aside) or, of
    three, a run in one suit."""
    from rules.tiles import is_run, kind

    faces = [kind(k) for k in kinds if k != "back"]
    return len(set(faces)) == 1 or (len(kinds) == 3 and is_run(faces))


def _white_backed_closed_kans(tiles: list[Tile], line: Line) -> set[int]:
    """A closed kan of a set with white backs shows its face-down pair as two blank faces, read as haku: four
    upright tiles of a hand line reading [haku, X, X, haku] or [X, haku, haku, X] are such a kan of X, and its
    haku are turned face down (in place; their indices returned). On the dev scenes of seeds 9, 10, 16 and 17
    every such four was one. But a hand's pair beside its haku pair, with its drawn tile (123m 55z 11z + 5z),
    reads so too: the four must touch (no gap of ``CLEAR_GAP``: the drawn tile is set apart), and no other X
    may show in the photo (a kan holds all four). A tile a person fixed stays as fixed."""
    positions = line.tiles
    turned: set[int] = set()
    counts = _face_up_counts(tiles)
    for start in range(len(positions) - 3):
        group = positions[start:start + 4]
        if turned & set(group) or any(is_sideways(tiles[i], line.up) for i in group):
            continue
        blank = [tiles[i].kind == "5z" and not tiles[i].fixed for i in group]
        if blank not in ([True, False, False, True], [False, True, True, False]):
            continue
        if any(_gap(tiles, line, a, b) >= CLEAR_GAP for a, b in zip(group, group[1:])):
            continue
        faces = [tiles[i].kind for i, b in zip(group, blank) if not b]
        if (faces[0] != "back" and faces[0] != "5z" and plain(faces[0]) == plain(faces[1])
                and counts[plain(faces[0])] == 2):
            for i, b in zip(group, blank):
                if b:
                    tiles[i] = replace(tiles[i], kind="back")
                    turned.add(i)
    return turned


def _fifth_copies_read_again(tiles: list[Tile], melds: Sequence[list[int]] = (),
                             sorted_hands: Sequence[list[int]] = ()) -> tuple[list[Tile], list[str]]:
    """A set holds four of each tile, so a fifth face-up copy is misread: while a kind shows more than four
    times, the copy whose next candidate kind loses least against the kind read (at least a tenth as likely, of a
    kind still under four) is taken as that kind, and a note says so. A copy whose change would break the meld it
    is in (``melds``: each meld's tiles, as first read; a pon or kan of its kind, or a chi the other kind is no
    run with) goes last: the other readings of its meld agree with it (the chi too since session 49: dev hands
    end to end 1,000 -> 1,001 of 1,187, none lost); then a copy whose change would put a sorted hand
    (``sorted_hands``, tiles left to right) out of order: its place in the hand agrees with it. Copies with no
    such candidate stay, and ``_too_many_copies`` reports them; a copy in a sorted hand is never taken face down
    (a face-up hand holds no such tile). A tile a person fixed stays as fixed."""
    out = list(tiles)
    notes: list[str] = []
    counts = _face_up_counts(out)
    meld_of = {i: meld for meld in melds for i in meld}
    in_hands = {i for hand in sorted_hands for i in hand}
    while True:
        best = None
        for i, t in enumerate(out):
            k = plain(t.kind)
            if k == "back" or counts[k] <= 4 or not t.likely_kinds:
                continue
            p_read = t.likely_kinds[0][1]
            for alt, p in t.likely_kinds[1:]:
                if alt == "back" and i in in_hands:
                    continue  # a face-up hand's tile is no face-down one
                if (alt == "back" or counts[plain(alt)] < 4) and p >= OTHER_READING_FLOOR * p_read:
                    keeps_order = all(sorted_hand([alt if j == i else out[j].kind for j in hand])
                                      for hand in sorted_hands if i in hand)
                    keeps_meld = i not in meld_of or _a_set([alt if j == i else out[j].kind for j in meld_of[i]])
                    rank = (keeps_meld, keeps_order, p / p_read)
                    if best is None or rank > best[0]:
                        best = (rank, i, alt)
                    break
        if best is None:
            return out, notes
        _, i, alt = best
        counts[plain(out[i].kind)] -= 1
        if alt != "back":
            counts[plain(alt)] += 1
        notes.append(f"a set has four {plain(out[i].kind)}: the least sure fifth one is taken as {alt}, also likely "
                     "to the reader")
        out[i] = read_as(out[i], alt)


def _seat_turns(tiles: list[Tile], ls: list[Line], main: Line) -> list[int]:
    """Each line's seat, as counter-clockwise quarter turns from the read hand's.

    Seen aslant, the four seats' directions are not a quarter turn apart in the photo (a far seat's glyphs can
    look turned by half that), so the seats are not read off each line's angle alone. The lines with three or
    more upright glyphs, whose facing is sure, are grouped by their glyphs' angle (split at the widest gaps,
    four groups at most); the groups take seats in their counter-clockwise order, the group of the read hand
    being self, each as near its quarter turn as that order allows. Other lines join the group nearest their
    angle, or failing one within 45 degrees, the nearest quarter turn.

    The read hand's own rows (``_own_rows``) are self's before any grouping: a standing hand's glyphs point up
    the photo's vertical, its lying pond's point away across the table, and near a photo's edge the two differ
    by as much as the seats do."""
    ref = _angle(_glyph_up(tiles, main))
    rel = [(_angle(_glyph_up(tiles, l)) - ref) % 360 for l in ls]
    faces = [_upright_faces(tiles, l) for l in ls]
    own_rows = _own_rows(tiles, ls, main, faces)
    sure = [k for k, l in enumerate(ls) if (faces[k] >= 3 or l is main) and k not in own_rows]
    of, centres = _angle_groups([rel[k] for k in sure])
    group_of = dict(zip(sure, of))
    own = group_of[next(k for k, l in enumerate(ls) if l is main)]
    seat_of_group = _order_preserving_seats(centres, own)
    turns = []
    for k, a in enumerate(rel):
        if k in own_rows:
            turns.append(0)
            continue
        g = group_of.get(k)
        if g is None:
            near = min(range(len(centres)), key=lambda g: _circular(a, centres[g]))
            g = near if _circular(a, centres[near]) <= 45 else None
        turns.append(seat_of_group[g] if g is not None else round(a / 90) % 4)
    return turns


OWN_ROW_ANGLE = 30.0  # degrees: a row of the read hand's seat runs parallel to the hand, facing the same way


def _own_rows(tiles: list[Tile], ls: list[Line], main: Line, faces: list[int]) -> set[int]:
    """The lines that are surely the read hand's seat's (its pond rows): three or more upright glyphs, the row
    parallel to the hand's and facing the same way (rows stay near parallel in any perspective, where glyphs
    of standing and lying tiles do not), and in front of it, within its span along the row. ``faces``: each
    line's upright face-up tiles."""
    right, centre = main.right, np.mean([tiles[i].center for i in main.tiles], axis=0)
    span = max(abs(float((tiles[i].center - centre) @ right)) for i in main.tiles)
    own = set()
    for k, line in enumerate(ls):
        if line is main or faces[k] < 3 or _circular(_angle(line.up), _angle(main.up)) > OWN_ROW_ANGLE:
            continue
        d = np.mean([tiles[i].center for i in line.tiles], axis=0) - centre
        if float(d @ main.up) > 0 and abs(float(d @ right)) <= span:
            own.add(k)
    return own


def _glyph_up(tiles: list[Tile], line: Line) -> np.ndarray:
    """The mean glyph up of a line's upright face-up tiles, else the line's up. In a photo taken aslant a glyph's
    up is the owner's "away" seen in perspective, nearer the seat's direction than the square to its row is."""
    ups = [tiles[i].up for i in line.tiles if tiles[i].kind != "back" and not is_sideways(tiles[i], line.up)]
    mean = np.sum(ups, axis=0) if ups else line.up
    return mean / np.linalg.norm(mean) if np.linalg.norm(mean) > 1e-6 else line.up


def _circular(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def _angle_groups(angles: list[float], min_gap: float = 25.0) -> tuple[list[int], list[float]]:
    """Angles (degrees) grouped on the circle, cut at the widest gaps of at least ``min_gap``, four groups at
    most: each angle's group, and each group's mean angle."""
    order = sorted(range(len(angles)), key=lambda k: angles[k])
    a = [angles[k] for k in order]
    gaps = [((a[(i + 1) % len(a)] - a[i]) % 360 or (360 if len(a) == 1 else 0), i) for i in range(len(a))]
    cuts = sorted(i for gap, i in sorted(gaps, reverse=True)[:4] if gap >= min_gap)
    of = [0] * len(angles)
    centres = []
    if not cuts:
        cuts = [len(a) - 1]
    for g, (start, end) in enumerate(zip(cuts, cuts[1:] + [cuts[0] + len(a)])):
        members = [order[i % len(a)] for i in range(start + 1, end + 1)]
        for k in members:
            of[k] = g
        vec = np.sum([[math.cos(math.radians(angles[k])), math.sin(math.radians(angles[k]))] for k in members], 0)
        centres.append(math.degrees(math.atan2(vec[1], vec[0])) % 360)
    return of, centres


def _order_preserving_seats(centres: list[float], own: int) -> dict[int, int]:
    """Seats (quarter turns) for groups at these angles: the own group is 0, the others keep their
    counter-clockwise order and each sits as near its quarter turn as that order allows."""
    others = sorted((g for g in range(len(centres)) if g != own), key=lambda g: (centres[g] - centres[own]) % 360)
    rel = [(centres[g] - centres[own]) % 360 for g in others]
    best = min(combinations((1, 2, 3), len(others)),
               key=lambda turns: sum(map(_circular, rel, [90 * t for t in turns])))
    return {own: 0, **dict(zip(others, best))}


def _could_be_hand(tiles: list[Tile], line: Line) -> bool:
    """Long enough, and not a wall: a line mostly face down with face-up tiles in it is a wall with its dora
    indicators, unless a face-up tile lies sideways (a meld beside a hand standing with its back to the camera);
    a line all face down is a hand only up to 14 tiles."""
    members = line.members
    backs = sum(tiles[i].kind == "back" for i in members)
    if len(members) < MIN_HAND_TILES:
        return False
    hidden_hand = backs == len(members) <= 14  # a hand standing back to the camera; a longer row is a wall
    return 2 * backs < len(members) or hidden_hand or any(is_sideways(tiles[i], line.up) for i in members)


def _width(tiles: list[Tile], line: Line) -> float:
    """The median width of a line's tiles along it, in pixels: larger for a line nearer the camera."""
    return float(np.median([2 * tiles[i].extent_along(line.right) for i in line.tiles]))


def _read_hand(tiles: list[Tile], line: Line, seat: Seat, roles: list[str], problems: list[Problem],
               kita: bool = False) -> None:
    blanks = _white_backed_closed_kans(tiles, line)
    reading = read_line(tiles, line, kita)
    seat.melds = reading.melds
    seat.kita = reading.kita
    for i in reading.kita:
        roles[i] = "kita"
    for m in reading.melds:
        if blanks & set(m.tile_indices):
            m.notes.append("two blank tiles read as haku are the face-down tiles of this closed kan (white backs)")
    for m in reading.melds:
        for i in m.tile_indices:
            roles[i] = "meld"
    for i in reading.concealed:
        roles[i] = "concealed"
    problems += [Problem(message, list(where)) for message, where in reading.problems]
    faces = [i for i in reading.concealed if tiles[i].kind != "back"]
    seat.hidden = len(reading.concealed) - len(faces)
    seat.concealed = faces
    if seat.shown == 14 and len(faces) >= 2:
        gaps = [_gap(tiles, line, a, b) for a, b in zip(faces, faces[1:])]
        set_apart = gaps[-1] > 0.2 and gaps[-1] >= max(gaps) - 1e-9 and gaps[-1] > 2 * float(np.median(gaps)) + 0.05
        # or put at the end of a sorted hand without a gap, out of its order: the tile drawn last
        kinds = [tiles[i].kind for i in faces]
        if set_apart or (len(faces) > SORTED_MIN_TILES and sorted_hand(kinds[:-1]) and not sorted_hand(kinds)):
            seat.drawn = faces[-1]


def _gap(tiles: list[Tile], line: Line, a: int, b: int) -> float:
    """Edge-to-edge gap between two tiles along the line, in tile widths."""
    ta, tb = tiles[a], tiles[b]
    d = float((tb.center - ta.center) @ line.right)
    return (d - ta.extent_along(line.right) - tb.extent_along(line.right)) / min(min(ta.size), min(tb.size))


def _face_up_counts(tiles: list[Tile]) -> Counter:
    """How many of each kind lie face up, red fives counted as fives."""
    return Counter(plain(t.kind) for t in tiles if t.kind != "back")


def _too_many_copies(tiles: list[Tile]) -> list[Problem]:
    """Five or more of one tile among the face-up tiles: at least one of them is misread or not of this set."""
    kinds = [plain(t.kind) for t in tiles]
    counts = _face_up_counts(tiles)
    return [Problem(f"{n} copies of {k} are face up: a set has only four, so one is misread",
                    [i for i, p in enumerate(kinds) if p == k]) for k, n in sorted(counts.items()) if n > 4]


ON_ONE_ANOTHER = 0.35  # two faces' centres nearer than this share of the narrower face's width: one tile twice


def _on_one_another(tiles: list[Tile]) -> list[Problem]:
    """Tiles lying on one another, each group a problem: one tile found twice, or added again by hand on a tile
    already there (the detector's suppression keeps two boxes of one tile apart; a hand's corrections do not). A
    stacked tile of an added kan lies beside its called tile, a face's width off, not on it."""
    if len(tiles) < 2:
        return []
    centres = np.array([t.center for t in tiles])
    widths = np.array([min(t.size) for t in tiles])
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) < ON_ONE_ANOTHER * np.minimum(
        widths[:, None], widths[None])
    group = list(range(len(tiles)))  # each tile's group, by the first tile of it
    for i, j in zip(*np.nonzero(np.triu(near, 1))):
        a, b = group[i], group[j]
        group = [a if g == b else g for g in group] if a != b else group
    problems = []
    for first in sorted(set(group)):
        members = [i for i, g in enumerate(group) if g == first]
        if len(members) > 1:
            kinds = " ".join(tiles[i].kind for i in members)
            problems.append(Problem(f"{len(members)} tiles lie on one another ({kinds}): one tile found or added "
                                    "more than once; delete all but one", members))
    return problems


# ---------------------------------------------------------------- the rules readout


def hand_of(table: Table, seat: str = "self"):
    """The rules engine's hand for a seat, and its winning tile (the one set apart) if it shows 14."""
    from rules.tiles import Hand, Meld

    s = table.seats[seat]
    concealed = tuple(table.tiles[i].kind for i in s.concealed)
    melds = tuple(Meld(m.kind, tuple(m.tiles), m.called, m.source,
                       table.tiles[m.tile_indices[-1]].kind if m.kind == "kakan" else None) for m in s.melds)
    return Hand(concealed, melds), (table.tiles[s.drawn].kind if s.drawn is not None else None)


def seat_discards(table: Table, seat: str) -> list:
    """The seat's discards as the photo shows them (``rules.context.Discard``): its pond, riichi tile marked, and
    the tiles other seats called from it, which lie sideways in their melds pointing back at it."""
    from rules.context import Discard

    discards = [Discard(table.tiles[i].kind, riichi=r) for i, r in table.seats[seat].pond]
    for other in table.seats.values():
        for m in other.melds:
            if m.source and other.name != seat and table.discarder(other.name, m.source) == seat:
                discards.append(Discard(m.called, called=True))
    return discards


# The big sets whose last one called makes its discarder liable (pao): the three dragons' and the four winds'.
BIG_SETS = (("dragon", "daisangen", "567"), ("wind", "daisuushii", "1234"))


def liable_for(seat: Seat, ruleset) -> tuple[str, str, str] | None:
    """Who is liable (pao) for the daisangen or daisuushii the seat's melds show, as (source, set name, yakuman):
    the one that fed the last dragon (wind) set, where all three (four) are melds and the ruleset has pao. Melds
    are laid from the right edge inward, so the one nearest the concealed tiles was called last (``read_line``
    gives them in that order); a set still concealed, or a closed kan declared last, makes no one liable."""
    if not ruleset.pao:
        return None
    for name, yakuman, honours in BIG_SETS:
        sets = [m for m in seat.melds if m.kind != "chi" and m.tiles[0][1] == "z" and m.tiles[0][0] in honours]
        if len({m.tiles[0] for m in sets}) == len(honours) and sets[0].kind != "ankan" and sets[0].source:
            # three players sit with no one across: a meld read so is the problem the table reports
            return None if sets[0].source == "across" and ruleset.players == 3 else (sets[0].source, name, yakuman)
    return None


def seen_context(table: Table, ctx=None, seat: str = "self"):
    """The context with what the photo shows: the seat's discards (and tiles called from them), riichi when its
    pond shows a sideways tile and its hand is closed (an open hand cannot have declared riichi: its sideways pond
    tile is one set askew or read so), the dora indicators (unless the caller gave them), the norths it set aside
    (unless the caller gave their count) and every other face-up tile."""
    from rules.context import Context

    ctx = ctx or Context()
    s = table.seats[seat]
    kinds = [t.kind for t in table.tiles]
    discards = seat_discards(table, seat)
    own = set(s.concealed) | {i for m in s.melds for i in m.tile_indices} | {i for i, _ in s.pond} | set(s.kita)
    dora = tuple(kinds[i] for i in table.dora_indicators)
    called_away = [d.tile for d in discards if d.called]
    visible = [kinds[i] for i in range(len(kinds))
               if kinds[i] != "back" and i not in own and i not in table.dora_indicators]
    # shown in another seat's meld already: counted once, as this seat's discard; and the norths the seat set
    # aside (kita) that the photo does not show as such, counted by the rules as its own
    for t in called_away + ["4z"] * max(0, ctx.kita - len(s.kita)):
        if t in visible:
            visible.remove(t)
    return replace(ctx, discards=tuple(ctx.discards) + tuple(discards), kita=ctx.kita or len(s.kita),
                   riichi=ctx.riichi or (any(r for _, r in s.pond) and all(m.kind == "ankan" for m in s.melds)),
                   dora_indicators=ctx.dora_indicators or dora,
                   visible=tuple(ctx.visible) + tuple(visible))


@dataclass(frozen=True)
class Suggestion:
    """A tile of a 14-tile hand that is not complete whose other likely reading would complete it: most photos of
    14 tiles are taken to score a win, and one misread tile is the likeliest reason it does not add up. Offered,
    never applied: the hand as read may be a draw not yet discarded from."""

    tile: int
    read: str
    kind: str
    probability: float  # the reader's, for ``kind``

    def to_dict(self) -> dict:
        return {"tile": self.tile, "read": self.read, "kind": self.kind, "probability": self.probability}


MAX_SUGGESTIONS = 3


def readings_that_complete(table: Table, seat: str, hand) -> list[Suggestion]:
    """For a 14-tile hand that is not complete: each concealed tile's other candidate kinds (the reader's, while
    no person has set the tile) that make the hand complete, likeliest first. A kind that would be a fifth copy
    on the table, or face down, is not offered."""
    from rules.readout import hand_shanten
    from rules.tiles import Hand, HandError

    if hand.size != 14 or hand_shanten(hand) == -1:
        return []
    s = table.seats[seat]
    shown = _face_up_counts(table.tiles)
    out = []
    for j, i in enumerate(s.concealed):
        read = table.tiles[i].kind
        for kind, p in table.tiles[i].likely_kinds[1:]:
            if kind == "back" or shown[plain(kind)] >= 4:
                continue
            try:
                other = Hand(hand.concealed[:j] + (kind,) + hand.concealed[j + 1:], hand.melds)
            except HandError:  # a red five the set does not have twice
                continue
            if hand_shanten(other) == -1:
                out.append(Suggestion(i, read, kind, p))
    return sorted(out, key=lambda x: -x.probability)[:MAX_SUGGESTIONS]


@dataclass
class Scored:
    """A seat's hand as the rules engine takes it, the context the photo adds to, and the readout."""

    hand: object | None = None  # rules.tiles.Hand
    win_tile: str | None = None
    context: object | None = None  # rules.context.Context
    readout: object | None = None  # rules.readout.Readout
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    check: list[int] = field(default_factory=list)  # ``tiles_to_check``


def tiles_to_check(table: Table, seat: str) -> list[int]:
    """The seat's hand tiles a person should look at before trusting its readout: read less than CHECK_BELOW
    sure, taken as another kind than the reader's first (a fifth copy, a meld mended), or named by one of the
    table's problems. A tile a person has looked at is never one: its kind set (sure 1.0, no reader's word left) or
    its lie (``fixed``)."""
    s = table.seats[seat]
    hand = s.concealed + [i for m in s.melds for i in m.tile_indices]
    named = {i for p in table.problems for i in p.tiles}
    out = []
    for i in hand:
        t = table.tiles[i]
        if t.fixed:
            continue
        reread = bool(t.candidates) and t.candidates[0][0] != t.kind
        if t.confidence < CHECK_BELOW or reread or i in named:
            out.append(i)
    return out


def score_seat(table: Table, ctx=None, seat: str = "self") -> Scored:
    """The rules readout of one seat's hand, or the problem that keeps it from being read."""
    from rules.readout import analyse
    from rules.tiles import HandError

    s = table.seats[seat]
    notes = [n for m in s.melds for n in m.notes]
    if s.hidden or not (s.concealed or s.melds):
        return Scored(problems=[Problem(f"no face-up hand in view for seat {seat}", seat=seat)], notes=notes)
    where = s.concealed + [i for m in s.melds for i in m.tile_indices]
    try:
        hand, win_tile = hand_of(table, seat)
        full = seen_context(table, ctx, seat)
        if not full.pao and (liable := liable_for(s, full.ruleset)):  # a player the caller named stands over it
            source, name, yakuman = liable
            full = replace(full, pao=source)
            notes.append(f"pao: {source} fed the last {name} set (the meld nearest the hand, melds being laid from "
                         f"the right edge inward), so {source} is liable for the {yakuman}")
        return Scored(hand, win_tile, full, analyse(hand, full, win_tile), notes=notes,
                      suggestions=readings_that_complete(table, seat, hand), check=tiles_to_check(table, seat))
    except HandError as e:
        return Scored(problems=[Problem(str(e), where, seat)], notes=notes)


NAGASHI_MIN_DISCARDS = 12  # at the wall's end each player has discarded about 17 times (calls skip some turns)


def table_seats(ruleset) -> list[str]:
    """The seats a ruleset's table has, in the order of play: three players have no one across."""
    return [name for name in SEATS if ruleset.players == 4 or name != "across"]


def check_seat(seat: str, ruleset) -> str:
    """The seat whose hand is scored, if the ruleset seats a player there (for a photo, a table, live options)."""
    if seat not in table_seats(ruleset):  # only across, at three
        raise ValueError(f"seat {seat}: in {ruleset.name} three players sit self, right and left")
    return seat


def check_declared(declared, ruleset) -> dict[str, bool]:
    """What seats declared at an exhaustive draw, checked: seat names at this table, each true (tenpai) or false
    (noten); else a ValueError saying what to send."""
    if not isinstance(declared, Mapping):
        raise ValueError('send what seats declared at the draw as an object: {"left": false} (true tenpai, false '
                         'noten)')
    names = table_seats(ruleset)
    for name, said in declared.items():
        if name not in names:
            raise ValueError(f"declared at the draw: no seat {name!r} at this table (its seats: {', '.join(names)})")
        if not isinstance(said, bool):
            raise ValueError(f"declared at the draw: {name} must be true (tenpai) or false (noten), not {said!r}")
    return declared


def draw_at(table: Table, ctx=None, seat: str = "self", declared: Mapping[str, bool] | None = None) -> dict:
    """The exhaustive draw as the photo shows it, seats in the order of play from ``seat`` (the dealer from the
    context's seat wind, which is ``seat``'s): each seat's hand shown and tenpai or not, a hand standing with its
    back to the camera noten (at a draw the tenpai players show theirs), and, once every seat is accounted for,
    the noten payments or nagashi mangan (``rules.calls.exhaustive_draw``); ``delta`` None while a seat's hand
    is not in view or cannot be read (``why`` says which) and no one has said what it declared. ``declared``
    (seat -> True tenpai, False noten: a referee's word, for a seat out of view, misread, or whose player
    declared noten though tenpai) stands over the photo."""
    from rules.calls import exhaustive_draw, is_nagashi
    from rules.context import Context
    from rules.tiles import HandError

    ctx = ctx or Context()
    declared = check_declared(declared or {}, ctx.ruleset)
    n = ctx.ruleset.players
    names = table_seats(ctx.ruleset)
    order = names[names.index(seat):] + names[:names.index(seat)]
    hands, rows = [], []
    for name in order:
        s = table.seats[name]
        row = {"seat": name, "shown": "none", "tenpai": None, "waits": [], "nagashi": False, "delta": None,
               "why": None, "declared": declared.get(name)}
        hand = None
        if s.hidden and not s.concealed:  # kept face down, its melds beside it or not
            row["shown"] = "hidden"
        elif s.concealed or s.melds:
            row["shown"] = "hand"
            try:
                hand, _ = hand_of(table, name)
            except HandError as e:
                row["why"] = str(e)
            else:
                if hand.size != 13:
                    row["why"], hand = f"{hand.size} tiles: a hand at the draw holds 13, counting 3 per meld", None
        else:
            row["why"] = "no hand in view"
        hands.append(hand)
        rows.append(row)
    # nagashi mangan only where the photo shows a whole pond: a few terminals in a short one (a pond cut by the
    # frame or half read) is no claim to a mangan
    ponds, notes = [], []
    discarded = {name: seat_discards(table, name) for name in order}
    for name, discards in discarded.items():
        whole = len(discards) >= NAGASHI_MIN_DISCARDS
        ponds.append(discards if whole else [])
        if not whole and is_nagashi(discards) and ctx.ruleset.nagashi_mangan:
            notes.append(f"{name}: the pond shows only terminals and honours, none called, but {len(discards)} "
                         f"discards: nagashi mangan needs the whole pond in view (at least {NAGASHI_MIN_DISCARDS})")
    try:
        result = exhaustive_draw(hands, ctx.ruleset, ponds=ponds, dealer=-"ESWN".index(ctx.seat_wind) % n,
                                 names=order, declared=[row["declared"] for row in rows])
    except HandError as e:  # the readout of the scored seat stands; the draw says why it has none
        return {"seats": rows, "notes": [str(e)]}
    known = all(row["why"] is None or row["declared"] is not None for row in rows)
    for row, got in zip(rows, result.seats):
        if row["why"] is None or row["declared"] is not None:
            row.update(tenpai=got.tenpai, waits=list(got.waits), nagashi=got.nagashi)
        if known:
            row["delta"] = got.delta
        if row["tenpai"] is False and any(d.riichi for d in discarded[row["seat"]]):
            notes.append(f"{row['seat']}: in riichi (a tile lies sideways in its pond) but noten at the draw: check "
                         "its hand, or the riichi was false (chombo under most rules)")
    return {"seats": rows, "notes": (list(result.notes) if known else []) + notes}


def won_on(table: Table, seat: str, tile: int | None) -> Table:
    """The table with the tile the user says the seat's hand won on (an index into the table's tiles) as its
    winning tile, over the one the photo suggests (set apart, or out of a sorted hand's order; else the reading
    worth most): where a hand of 14 shows it among its concealed tiles. Else a note says why it is not, and the
    photo's stands. The table given is left as it is."""
    if tile is None:
        return table
    if not 0 <= tile < len(table.tiles):
        raise ValueError(f"won on tile {tile}: the table has {len(table.tiles)} tiles, numbered from 0")
    s = table.seats[seat]
    if tile in s.kita and s.shown == 13:  # a north set apart taken as set aside: it is the tile drawn, and won on
        return replace(table, seats={**table.seats, seat: replace(
            s, kita=[i for i in s.kita if i != tile], concealed=s.concealed + [tile], drawn=tile)},
            roles=[("concealed" if i == tile else role) for i, role in enumerate(table.roles)])
    if tile not in s.concealed or s.shown != 14:
        where = "" if tile in s.concealed else ", not one of its concealed tiles"
        return replace(table, notes=table.notes + [
            f"the tile marked as the winning one ({table.tiles[tile].kind}) is not taken: the hand shows {s.shown} "
            f"tiles{where}; a winning tile is one of a 14-tile hand's concealed tiles"])
    return replace(table, seats={**table.seats, seat: replace(s, drawn=tile)})


def without_dora(table: Table) -> Table:
    """The table with none of its tiles taken as dora indicators: where the user says the face-up tile the photo
    took for one is not (a stray tile by the wall, another seat's askew); it stays a tile seen on the table, and
    the context gives the indicators, or none. The table given is left as it is."""
    roles = ["stray" if i in table.dora_indicators else role for i, role in enumerate(table.roles)]
    return replace(table, dora_indicators=[], roles=roles)


def score_table(table: Table, ctx=None, seat: str = "self", draw_declared: Mapping[str, bool] | None = None,
                won: int | None = None) -> dict:
    """The table as JSON with the seat's hand, the context seen in the photo and the rules readout (None, with a
    problem saying why, when the hand cannot be read), and every seat at an exhaustive draw (``draw_at``, with
    what seats declared there); ``won``: the tile the user marked as the winning one (``won_on``)."""
    table = won_on(table, seat, won)
    scored = score_seat(table, ctx, seat)
    out = table.to_dict()
    out["seat"] = seat
    out["problems"] += [p.to_dict() for p in scored.problems]
    out["notes"] = table.notes + scored.notes
    out["hand"] = out["context"] = out["readout"] = None
    out["suggestions"] = [x.to_dict() for x in scored.suggestions]
    out["check"] = {"below": CHECK_BELOW, "tiles": scored.check}
    if scored.hand is not None:
        h = scored.hand
        out["hand"] = {"concealed": list(h.concealed), "melds": [m.to_dict() for m in h.melds],
                       "win_tile": scored.win_tile, "notation": h.notation()}
        c = scored.context
        out["context"] = {"riichi": c.riichi, "dora_indicators": list(c.dora_indicators),
                          "discards": [{"tile": d.tile, "riichi": d.riichi, "called": d.called} for d in c.discards]}
        out["readout"] = scored.readout.to_dict()
    out["draw"] = draw_at(table, ctx, seat, draw_declared)
    return out

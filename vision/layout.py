"""From tile polygons to lines of tiles and the melds in them, whatever the camera angle.

A tile is a polygon whose corners run (top-left, top-right, bottom-right, bottom-left) as its glyph reads, so
each tile knows its own "up". Tiles that touch side by side along a common direction form a *segment*;
collinear segments with small gaps form a *line* (a player's concealed row with its melds to the right, or one
row of a pond). A line has its own frame: ``up`` is where the glyphs of its standing-upright tiles point (away
from the player who owns it), ``right`` is that player's right. In that frame a meld's sideways tile is the
called one and its place says whose discard it was (first = left player, last = right player, between =
across); an added kan is two sideways tiles stacked; a closed kan is four tiles, two of them face down.

Everything here is geometry over plain values, so it is tested with hand-made tiles.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .classes import lie_of

SIDEWAYS_COS = 0.5  # |cos| between a tile's up and its line's up below this: the tile lies sideways


@dataclass(frozen=True)
class Tile:
    """A detected tile: kind in rules notation (``back`` when face down) and its polygon in image pixels."""

    kind: str
    polygon: tuple[tuple[float, float], ...]
    confidence: float = 1.0

    @property
    def corners(self) -> np.ndarray:
        return np.asarray(self.polygon, dtype=np.float64)

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def up(self) -> np.ndarray:
        """Unit vector from the bottom edge to the top edge as the glyph reads."""
        c = self.corners
        v = (c[0] + c[1]) / 2 - (c[3] + c[2]) / 2
        return v / (np.linalg.norm(v) + 1e-9)

    @property
    def lie(self) -> str:
        """upright, sideways or upside-down in the image, from the glyph's up."""
        return lie_of(*self.up)

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) along the tile's own axes."""
        c = self.corners
        w = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        h = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
        return w, h

    def extent_along(self, direction: np.ndarray) -> float:
        """Half the tile's length along a unit direction."""
        proj = self.corners @ direction
        return (proj.max() - proj.min()) / 2


def right_of(up: np.ndarray) -> np.ndarray:
    """The owner's right, in image coordinates (y down), for a line whose glyphs point ``up``."""
    return np.array([-up[1], up[0]])


@dataclass
class Line:
    """Tiles along one direction, in the order the owner sees them (left to right)."""

    tiles: list[int]  # indices into the tile list, ordered along ``right``
    up: np.ndarray
    stacked: dict[int, int] = field(default_factory=dict)  # a kakan's top tile -> the sideways tile under it

    @property
    def right(self) -> np.ndarray:
        return right_of(self.up)


def _axis(tile: Tile) -> np.ndarray:
    """The tile's long axis as a unit vector; a face-down tile has no glyph, so its long side stands in."""
    if tile.kind != "back":
        return tile.up
    c = tile.corners
    w, h = tile.size
    v = (c[1] - c[0]) if w > h else (c[3] - c[0])
    return v / (np.linalg.norm(v) + 1e-9)


def _gap_and_offset(a: Tile, b: Tile, along: np.ndarray) -> tuple[float, float]:
    """Edge-to-edge gap between two tiles along a unit direction, and their centres' offset across it."""
    d = b.center - a.center
    gap = abs(float(d @ along)) - a.extent_along(along) - b.extent_along(along)
    return gap, abs(float(d @ np.array([-along[1], along[0]])))


def _short(tile: Tile) -> float:
    return min(tile.size)


def _crosswise(tiles: list[Tile], axes: list[np.ndarray], radius_tiles: float = 4.0) -> list[bool]:
    """Tiles lying across most of their neighbours: called tiles, added-kan stacks, riichi tiles."""
    centers = np.array([t.center for t in tiles])
    out = []
    for i, t in enumerate(tiles):
        near = np.linalg.norm(centers - centers[i], axis=1) < radius_tiles * max(t.size)
        cos = np.abs(np.array([float(axes[i] @ a) for a in axes]))
        out.append(int(((cos < 0.45) & near).sum()) > int(((cos > 0.9) & near).sum()) - 1)
    return out


def segments(tiles: list[Tile], max_gap: float = 0.35) -> list[list[int]]:
    """Tiles side by side in a row: first tiles standing the same way, touching along their short sides;
    then the tiles lying square across such a row (a called tile, a riichi tile) that continue it."""
    parent = list(range(len(tiles)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    axes = [_axis(t) for t in tiles]
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            if abs(float(axes[i] @ axes[j])) < 0.9:
                continue
            along = right_of(axes[i])
            gap, offset = _gap_and_offset(tiles[i], tiles[j], along)
            short = min(_short(tiles[i]), _short(tiles[j]))
            if gap < max_gap * short and offset < 0.4 * short:
                parent[find(i)] = find(j)
    crosswise = _crosswise(tiles, axes)
    for i in range(len(tiles)):  # a tile lying across its neighbours joins the row it continues
        for j in range(len(tiles)):
            if not crosswise[i] or crosswise[j] or abs(float(axes[i] @ axes[j])) > 0.45:
                continue
            along = right_of(axes[j])
            gap, offset = _gap_and_offset(tiles[i], tiles[j], along)
            if gap < max_gap * min(_short(tiles[i]), _short(tiles[j])) and offset < 0.5 * max(tiles[j].size):
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(tiles)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
def line_up(tiles: list[Tile], members: list[int]) -> np.ndarray:
    """The line's up: the mean glyph direction of its face-up tiles standing square to the line.

    A line's direction is taken from its longest extent; tiles whose up is across that direction stand
    upright in the line, the others lie sideways. Face-down tiles carry no glyph and do not vote.
    """
    centers = np.array([tiles[i].center for i in members])
    if len(members) >= 2:
        _, _, vt = np.linalg.svd(centers - centers.mean(axis=0))
        along = vt[0]
    else:
        along = right_of(tiles[members[0]].up)
    normal = np.array([along[1], -along[0]])
    votes = np.zeros(2)
    for i in members:
        t = tiles[i]
        if t.kind == "back":
            continue
        c = float(t.up @ normal)
        if abs(c) > SIDEWAYS_COS:
            votes += np.sign(c) * normal
    if not votes.any():
        return normal if normal[1] < 0 else -normal  # no face-up tile stands in it: assume it faces the camera
    return votes / np.linalg.norm(votes)


def is_sideways(tile: Tile, up: np.ndarray) -> bool:
    return tile.kind != "back" and abs(float(tile.up @ up)) < SIDEWAYS_COS


def build_line(tiles: list[Tile], members: list[int]) -> Line:
    """Order a segment's tiles left to right in their owner's frame and pair up a kakan's stacked tiles."""
    up = line_up(tiles, members)
    right = right_of(up)
    order = sorted(members, key=lambda i: float(tiles[i].center @ right))
    stacked: dict[int, int] = {}
    sideways = [i for i in order if is_sideways(tiles[i], up)]
    for a in sideways:
        for b in sideways:
            if a == b or a in stacked or b in stacked or a in stacked.values():
                continue
            d = tiles[b].center - tiles[a].center
            short, long = min(tiles[a].size), max(tiles[a].size)
            if abs(d @ right) < 0.35 * long and 0.6 * short < d @ up < 1.4 * short:  # b on a, away from the owner
                stacked[b] = a
    return Line([i for i in order if i not in stacked], up, stacked)


def lines(tiles: list[Tile], max_gap_tiles: float = 2.5) -> list[Line]:
    """Collinear segments facing the same way, a few tiles apart at most (a hand and its melds), as lines."""
    segs = [build_line(tiles, s) for s in segments(tiles)]
    merged = True
    while merged:
        merged = False
        for a in range(len(segs)):
            for b in range(a + 1, len(segs)):
                if _continues(tiles, segs[a], segs[b], max_gap_tiles):
                    members = segs[a].tiles + list(segs[a].stacked) + segs[b].tiles + list(segs[b].stacked)
                    segs[a] = build_line(tiles, members)
                    del segs[b]
                    merged = True
                    break
            if merged:
                break
    return segs


def _continues(tiles: list[Tile], a: Line, b: Line, max_gap_tiles: float) -> bool:
    """Whether line b continues line a: same facing, centres on one line, ends close."""
    if float(a.up @ b.up) < 0.9:
        return False
    short = np.median([_short(tiles[i]) for i in a.tiles + b.tiles])
    ca = np.array([tiles[i].center for i in a.tiles])
    cb = np.array([tiles[i].center for i in b.tiles])
    if abs(float((cb.mean(0) - ca.mean(0)) @ a.up)) > 0.6 * short:
        return False
    pa, pb = ca @ a.right, cb @ a.right
    gap = max(pb.min() - pa.max(), pa.min() - pb.max())
    return gap < max_gap_tiles * short * 1.5


@dataclass
class MeldReading:
    kind: str  # chi | pon | daiminkan | kakan | ankan
    tiles: list[str]
    called: str | None
    source: str | None  # left | across | right (None for a closed kan)
    tile_indices: list[int]
    notes: list[str] = field(default_factory=list)


@dataclass
class LineReading:
    concealed: list[int]  # tile indices, left to right
    melds: list[MeldReading]
    problems: list[tuple[str, list[int]]]  # (what is wrong, the tiles it is about)


def read_line(tiles: list[Tile], line: Line) -> LineReading:
    """Split a line into its concealed tiles (left) and its melds (right), reading each meld's call.

    Melds are taken from the right end while the tiles there hold a sideways tile, a stacked pair or face-down
    tiles; of all ways to cut them, the one with the fewest problems wins, then the one cutting at the widest gaps.
    """
    positions = line.tiles
    best: tuple | None = None

    def search(end: int, melds: list[MeldReading], problems: list, gap_score: float) -> None:
        nonlocal best
        prefix = positions[:end]
        odd = [i for i in prefix if is_sideways(tiles[i], line.up) or tiles[i].kind == "back"]
        p = problems + ([("a sideways or face-down tile among the concealed tiles", odd)] if odd else [])
        key = (len(p), -gap_score, len(melds))
        if best is None or key < best[0]:
            best = (key, prefix, list(melds), p)
        if not odd:
            return
        for size in (3, 4):
            start = end - size
            if start < 0:
                continue
            meld, problem = _read_meld(tiles, line, positions[start:end])
            new_problems = problems + ([problem] if problem else [])
            gap = _gap_before(tiles, line, positions, start)
            search(start, melds + ([meld] if meld else []), new_problems, gap_score + gap)

    search(len(positions), [], [], 0.0)
    _, concealed, melds, problems = best
    return LineReading(list(concealed), list(reversed(melds)), problems)


def _gap_before(tiles: list[Tile], line: Line, positions: list[int], start: int) -> float:
    """The gap (in short sides) between position start-1 and start; 1.0 at the line's start."""
    if start == 0:
        return 1.0
    a, b = tiles[positions[start - 1]], tiles[positions[start]]
    gap, _ = _gap_and_offset(a, b, line.right)
    return gap / min(_short(a), _short(b))


def _read_meld(tiles: list[Tile], line: Line, group: list[int]) -> tuple[MeldReading | None, tuple | None]:
    """One meld from 3 or 4 places, or the problem that keeps it from being one."""
    from rules.tiles import HandError, Meld

    kinds = [tiles[i].kind for i in group]
    side = [k for k, i in enumerate(group) if is_sideways(tiles[i], line.up)]
    backs = [k for k, i in enumerate(group) if tiles[i].kind == "back"]
    stacked = {under: top for top, under in line.stacked.items()}
    indices = list(group)
    try:
        if len(group) == 4 and not side and len(backs) == 2 and backs in ([0, 3], [1, 2]):
            faces = [k for k in kinds if k != "back"]
            plain = _plain(faces[0])
            if _plain(faces[1]) != plain:
                return None, (f"closed kan shows two different tiles {faces[0]} and {faces[1]}", indices)
            notes = []
            hidden = [plain] * 2
            if plain[0] == "5":
                notes.append(f"a red five may be hidden face down in the closed kan of {plain}: counted as plain fives")
            meld = Meld("ankan", tuple(faces + hidden))
            return MeldReading("ankan", list(meld.tiles), None, None, indices, notes), None
        if backs:
            return None, ("face-down tiles in an open meld", indices)
        if len(side) != 1:
            what = "no sideways tile" if not side else f"{len(side)} sideways tiles"
            return None, (f"a meld needs one sideways (called) tile, these {len(group)} have {what}", indices)
        place = side[0]
        source = "left" if place == 0 else "right" if place == len(group) - 1 else "across"
        called = kinds[place]
        under = group[place]
        if under in stacked:
            if len(group) != 3:
                return None, ("an added kan is three places with two tiles stacked sideways", indices)
            added_index = stacked[under]
            meld = Meld("kakan", tuple(kinds + [tiles[added_index].kind]), called, source, tiles[added_index].kind)
            return MeldReading("kakan", list(meld.tiles), called, source, indices + [added_index]), None
        if len(group) == 3 and len({_plain(k) for k in kinds}) == 3:
            meld = Meld("chi", tuple(kinds), called, source)
        else:
            meld = Meld("pon" if len(group) == 3 else "daiminkan", tuple(kinds), called, source)
        return MeldReading(meld.kind, list(meld.tiles), called, source, indices), None
    except HandError as e:
        return None, (str(e), indices)


def _plain(code: str) -> str:
    return "5" + code[1] if code[0] == "0" else code

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

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from .classes import QUARTER_SYMMETRIC, SYMMETRIC, lie_of, plain
from .geometry import mean_angle


# A polygon enclosing less than this (square pixels) is a point or a line, no tile's face: grouping measures each
# tile by its sides and would divide by nothing. ``TileFinder.find`` drops such boxes; ``table.read_table`` refuses
# such polygons from a caller (``/api/table``).
MIN_FACE_AREA = 1.0


@dataclass(frozen=True)
class Tile:
    """A detected tile: kind in rules notation (``back`` when face down) and its polygon in image pixels."""

    kind: str
    polygon: tuple[tuple[float, float], ...]
    confidence: float = 1.0
    fixed: bool = False  # set by a person (a correction on the page): its lie is kept as given
    # the reader's likeliest kinds and their probability, best first: where the rules rule out the kind read (a
    # meld that is no meld, ``_read_meld``; a fifth copy, ``table``) another of them is taken; empty where no
    # reader's word is known (tiles laid by hand or sent back by the page)
    candidates: tuple[tuple[str, float], ...] = ()

    @property
    def likely_kinds(self) -> tuple[tuple[str, float], ...]:
        """The candidates while they are still the reader's word on this tile: empty once a person fixed it or
        its kind was changed from the reader's first (a white back turned face down)."""
        own = self.candidates and self.candidates[0][0] == self.kind and not self.fixed
        return self.candidates if own else ()

    @cached_property
    def corners(self) -> np.ndarray:
        """The polygon as an array, made once (grouping asks for it thousands of times); read-only."""
        c = np.asarray(self.polygon, dtype=np.float64)
        c.setflags(write=False)
        return c

    @cached_property
    def center(self) -> np.ndarray:
        c = self.corners.mean(axis=0)
        c.setflags(write=False)
        return c

    @cached_property
    def reach(self) -> float:
        """The distance from the centre to the farthest corner: no part of the tile lies farther from its centre
        along any direction."""
        return float(np.linalg.norm(self.corners - self.center, axis=1).max())

    @cached_property
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """The mean of the top and bottom edges (left to right as the glyph reads) and of the two sides (top to
        bottom): the two directions of the tile's parallelogram, however sheared; read-only, made once."""
        c = self.corners
        top, side = ((c[1] - c[0]) + (c[2] - c[3])) / 2, ((c[3] - c[0]) + (c[2] - c[1])) / 2
        top.setflags(write=False)
        side.setflags(write=False)
        return top, side

    @property
    def up(self) -> np.ndarray:
        """Unit vector from the bottom edge to the top edge as the glyph reads."""
        side = self.edges[1]
        return -side / (np.linalg.norm(side) + 1e-9)

    @property
    def lie(self) -> str:
        """upright, sideways or upside-down in the image, from the glyph's up."""
        return lie_of(*self.up)

    @cached_property
    def area(self) -> float:
        """The face's area in square pixels, from its diagonals (a corner order that crosses itself gives less)."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.polygon
        return abs((x0 - x2) * (y1 - y3) - (x1 - x3) * (y0 - y2)) / 2

    @cached_property
    def size(self) -> tuple[float, float]:
        """(width, height) along the tile's own axes."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.polygon
        w = (math.hypot(x1 - x0, y1 - y0) + math.hypot(x2 - x3, y2 - y3)) / 2
        h = (math.hypot(x3 - x0, y3 - y0) + math.hypot(x2 - x1, y2 - y1)) / 2
        return w, h

    def extent_along(self, direction: np.ndarray) -> float:
        """Half the tile's length along a unit direction (in plain Python: asked 100,000 times a table)."""
        dx, dy = float(direction[0]), float(direction[1])
        proj = [x * dx + y * dy for x, y in self.polygon]
        return (max(proj) - min(proj)) / 2


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

    @property
    def members(self) -> list[int]:
        """Every tile of the line, a kakan's stacked tiles included."""
        return self.tiles + list(self.stacked)


def _row_direction(tile: Tile) -> np.ndarray:
    """The direction a row of such tiles runs, as a unit vector: along the glyph's top edge (seen aslant, a
    standing tile's face is a sheared parallelogram whose top edge still runs along its row); a face-down tile
    has no glyph, so its short side stands in."""
    if tile.kind != "back":
        v = tile.edges[0]
        return v / (np.linalg.norm(v) + 1e-9)
    return _sides(tile)[0]


def _sides(tile: Tile) -> tuple[np.ndarray, np.ndarray]:
    """The directions of a tile's shorter and its longer side, as unit vectors."""
    c = tile.corners
    w, h = tile.size
    top, side = c[1] - c[0], c[3] - c[0]
    short, long = (top, side) if w <= h else (side, top)
    return short / (np.linalg.norm(short) + 1e-9), long / (np.linalg.norm(long) + 1e-9)


QUARTER_REACH = 2.0  # neighbours within this many of a quarter-turn-alike tile's long sides say its row


def _quarter_alike(tile: Tile) -> bool:
    """A face-up tile whose glyph looks alike a quarter turned: nothing says which way its row runs."""
    return tile.kind in QUARTER_SYMMETRIC and tile.kind != "back" and not tile.fixed


def _row_from_neighbours(tiles: list[Tile], i: int, axes: list[np.ndarray],
                         dist: np.ndarray) -> np.ndarray | None:
    """The row direction of the face-up tiles around tile i whose glyph says how they lie (nearest weighing
    most, directions taken modulo a half turn), or None when there are none or they disagree. ``dist``: tile
    i's distance to each tile."""
    reach = QUARTER_REACH * max(tiles[i].size)
    sure = [int(j) for j in np.flatnonzero(dist < reach) if j != i and tiles[j].kind not in QUARTER_SYMMETRIC]
    if not sure:
        return None
    angle = mean_angle(np.array([np.arctan2(axes[j][1], axes[j][0]) for j in sure]),
                       np.array([1 - dist[j] / reach for j in sure]), np.pi, 0.5)  # modulo a half turn
    return None if angle is None else np.array([np.cos(angle), np.sin(angle)])


def _gap_and_offset(a: Tile, b: Tile, along: np.ndarray) -> tuple[float, float]:
    """Edge-to-edge gap between two tiles along a unit direction, and their centres' offset across it."""
    d = b.center - a.center
    gap = abs(float(d @ along)) - a.extent_along(along) - b.extent_along(along)
    return gap, abs(float(d @ np.array([-along[1], along[0]])))


def _short(tile: Tile) -> float:
    return min(tile.size)


def _side_by_side(polygons: np.ndarray, centers: np.ndarray, pairs: np.ndarray, along: np.ndarray,
                  max_gap: float, max_offset: float) -> np.ndarray:
    """For each pair (a, b) of tile indices, whether b is a's neighbour in a row running along its unit
    direction (one per pair): the gap between them is small against their length along the row, their offset
    small against their depth across it. Measured along and across the row, not by the tiles' own sides, so
    foreshortened tiles (a standing row seen from above, a far row in a low photo) still join. In arrays: a
    table asks it of every pair of tiles near each other (tiles heaped on one spot: every pair)."""
    a, b = pairs[:, 0], pairs[:, 1]
    across = np.stack([-along[:, 1], along[:, 0]], axis=1)

    def extent(i: np.ndarray, direction: np.ndarray) -> np.ndarray:  # Tile.extent_along, pair by pair
        proj = np.einsum("pkc,pc->pk", polygons[i], direction)
        return (proj.max(axis=1) - proj.min(axis=1)) / 2

    d = centers[b] - centers[a]
    ext_a, ext_b = extent(a, along), extent(b, along)
    gap = np.abs(np.einsum("pc,pc->p", d, along)) - ext_a - ext_b
    offset = np.abs(np.einsum("pc,pc->p", d, across))
    length = 2 * np.minimum(ext_a, ext_b)
    depth = np.maximum(2 * np.minimum(extent(a, across), extent(b, across)), 0.25 * length)  # a sliver has depth
    return (gap < max_gap * length) & (offset < max_offset * depth)


def segments(tiles: list[Tile], max_gap: float = 0.35) -> list[list[int]]:
    """Tiles side by side in a row: first tiles standing the same way, touching along their short sides;
    then the tiles lying square across such a row (a called tile, a riichi tile) that continue it."""
    parent = list(range(len(tiles)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    axes = [_row_direction(t) for t in tiles]
    # tiles side by side are never farther apart than this many times the sum of their half-diagonals: only
    # such pairs are measured (a whole table is some 140 tiles)
    centers = np.array([t.center for t in tiles]).reshape(-1, 2)
    dist = np.linalg.norm(centers[:, None] - centers[None], axis=-1)
    radius = np.array([t.reach for t in tiles])
    near = [[int(j) for j in np.flatnonzero(dist[i] < (2 + max_gap) * (radius[i] + radius)) if j != i]
            for i in range(len(tiles))]
    # a face-down tile wider than deep in the photo is seen far and low (a tile is deeper than wide): its shape
    # guesses its row across the true one, and it would meet the tile in front or behind (a closed kan's the wall
    # in front). Where the face-up tiles around it say its row, it does not join across that
    doubtful_backs = {i: row for i, t in enumerate(tiles) if t.kind == "back" and t.size[0] > t.size[1]
                      and (row := _row_from_neighbours(tiles, i, axes, dist[i])) is not None}
    polygons = np.array([t.polygon for t in tiles], dtype=float).reshape(-1, 4, 2)
    pairs = np.array([(i, j) for i in range(len(tiles)) for j in near[i] if j > i], dtype=int).reshape(-1, 2)
    axis = np.array(axes).reshape(-1, 2)
    ends = [axis[pairs[:, 0]], axis[pairs[:, 1]]]
    # a back's row and a quarter-turn-alike face's (haku, 5p...) are both guesses, the one from its shape, the
    # other from the reader's guess at the glyph's turn: where one of each meet, the face's row may be a quarter
    # turned from that guess (a closed kan of haku or of 5p, its faces read turned, had its backs cut from it)
    guess = np.array([_quarter_alike(t) for t in tiles] + [False])[pairs]
    back = np.array([t.kind == "back" for t in tiles] + [False])[pairs]
    for face, other in ((0, 1), (1, 0)):
        turned = np.stack([-ends[face][:, 1], ends[face][:, 0]], axis=1)
        better = guess[:, face] & back[:, other] & (np.abs(np.einsum("pc,pc->p", turned, ends[other]))
                                                    > np.abs(np.einsum("pc,pc->p", ends[face], ends[other])))
        ends[face] = np.where(better[:, None], turned, ends[face])
    cos = np.einsum("pc,pc->p", ends[0], ends[1])
    keep = np.abs(cos) >= 0.8
    pairs, cos, ends = pairs[keep], cos[keep], [e[keep] for e in ends]
    # measured halfway between the two: the box of a sheared face seen aslant leans off its row, up to about 35
    # degrees in low snapshots (cosine 0.9 split such rows)
    along = ends[0] + np.sign(cos)[:, None] * ends[1]
    along /= np.linalg.norm(along, axis=1, keepdims=True)
    joins = _side_by_side(polygons, centers, pairs, along, max_gap, 0.4)
    for k, row in doubtful_backs.items():
        for side in (0, 1):
            joins &= ~((pairs[:, side] == k) & (np.abs(along @ row) < 0.5))
    for i, j in pairs[joins]:
        parent[find(int(i))] = find(int(j))
    # a tile lying across a row (a called tile, a riichi tile; an added kan's stacked pair) joins the row it
    # continues: it is alone in its first-pass group, or one of two alike (the stack). So do a closed kan's two
    # face-down tiles, whose row direction was only a guess from their shape: seen at a grazing angle, a
    # face-down tile is wider than deep in the photo and seems to lie across its own row. Two face-up tiles not
    # alike are the end of a row turning a corner (a chi's last two beside the next seat's row), not a stack
    first = [find(i) for i in range(len(tiles))]
    faces_in: dict[int, set[str]] = {}
    for i, root in enumerate(first):
        faces_in.setdefault(root, set()).update({plain(tiles[i].kind)} - {"back"})
    group_size = Counter(first)
    backs_in = Counter(first[i] for i in range(len(tiles)) if tiles[i].kind == "back")

    def lies_across(i: int) -> bool:
        root = first[i]
        if tiles[i].kind != "back" and group_size[root] - backs_in[root] == 1:
            return True  # the one face-up tile among face-down ones: a called tile that met a wall's end first
        size = group_size[root] - (group_size[root] == 3 and backs_in[root] == 1)  # a stack with a wall tile too
        return size == 1 or (size == 2 and len(faces_in[root]) <= 1)

    across = [lies_across(i) for i in range(len(tiles))]
    for i in range(len(tiles)):
        for j in near[i]:
            if not across[i] or first[i] == first[j]:
                continue
            if tiles[j].kind == "back" and tiles[i].kind != "back":
                continue  # a called tile does not continue a row of face-down tiles (a wall, a closed hand)
            row = axes[j]
            if _quarter_alike(tiles[j]) and tiles[i].kind != "back":
                # j's glyph does not say which way its row runs: take the row that i would lie across (along
                # i's sides: seen aslant, its top edge is sheared off square to its row)
                side = tiles[i].edges[1]
                row = side / (np.linalg.norm(side) + 1e-9)
            crosses = (_sideways_to(tiles[i], row) if tiles[i].kind != "back"
                       else abs(float(axes[i] @ row)) <= 0.75)  # a back's axis is only a guess from its shape
            if not crosses:
                continue
            if _side_by_side(polygons, centers, np.array([[i, j]]), row[None], max_gap, 0.5)[0]:
                parent[find(i)] = find(j)
    # a tile whose glyph looks alike a quarter turned (1p, 4p, 5p, 9p, haku) has no glyph top to go by: where
    # the reader's guess runs across its row and its neighbours are such tiles too, it is still alone. It
    # joins the row that the tiles around it say it is in
    alone = Counter(find(i) for i in range(len(tiles)))
    for i, t in enumerate(tiles):
        if not _quarter_alike(t) or alone[find(i)] > 1:
            continue
        row = _row_from_neighbours(tiles, i, axes, dist[i])
        if row is None:
            continue
        for j in near[i]:
            if find(j) != find(i) and _side_by_side(polygons, centers, np.array([[i, j]]), row[None], max_gap,
                                                     0.4)[0]:
                parent[find(i)] = find(j)
    # a hand standing with its back to the camera: seen from above and behind, each back is longer along its
    # row than across it (foreshortened), so its short side guessed the row across the true one and every back
    # is alone. Face-down tiles still alone join each other along their long sides
    alone = Counter(find(i) for i in range(len(tiles)))
    lone_backs = {i for i, t in enumerate(tiles) if t.kind == "back" and alone[find(i)] == 1}
    long_axis = {i: _sides(tiles[i])[1] for i in lone_backs}
    for i in sorted(lone_backs):
        for j in near[i]:  # each pair once
            if j <= i or j not in lone_backs or find(j) == find(i) or abs(float(long_axis[i] @ long_axis[j])) < 0.8:
                continue
            row = long_axis[i] + np.sign(float(long_axis[i] @ long_axis[j])) * long_axis[j]
            if _side_by_side(polygons, centers, np.array([[i, j]]), (row / np.linalg.norm(row))[None], max_gap,
                             0.4)[0]:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(tiles)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def line_up(tiles: list[Tile], members: list[int]) -> np.ndarray:
    """The line's up: square to the line, on the side its upright face-up tiles' glyphs point to.

    A line's direction is taken from its longest extent (a straight row stays straight in any photo), fitted
    to the centres in its row (``_in_row``); tiles that are not sideways to that direction stand upright in the
    line. Face-down tiles carry no glyph and do not vote.
    """
    centers = np.array([tiles[i].center for i in members])
    if len(members) >= 2:
        centers = centers[_in_row(tiles, members, centers)]
        _, _, vt = np.linalg.svd(centers - centers.mean(axis=0))
        along = vt[0]
    elif tiles[members[0]].kind != "back":  # its top edge: seen aslant, its glyph's up is sheared off square
        along = _row_direction(tiles[members[0]])
    else:
        along = right_of(tiles[members[0]].up)
    normal = np.array([along[1], -along[0]])
    votes = sum(float(np.sign(tiles[i].up @ normal)) for i in members if _votes(tiles[i], along))
    if not votes:
        return normal if normal[1] < 0 else -normal  # no face-up tile stands in it: assume it faces the camera
    return normal * np.sign(votes)


IN_ROW = 0.35  # a centre this many short sides off the line through two others is not in their row


def _in_row(tiles: list[Tile], members: list[int], centers: np.ndarray) -> np.ndarray:
    """Which members' centres make the row: the most that lie on the line through two of them, where that is
    three or more and most of them; else all. An added kan's stacked tile sits a tile off its row, and in a
    line of a few tiles it would turn the fitted direction (a kakan of 4p apart from its hand, seen low)."""
    everything = np.ones(len(members), dtype=bool)
    if len(members) < 4:
        return everything
    band = IN_ROW * float(np.median([_short(tiles[i]) for i in members]))
    a, b = np.triu_indices(len(members), 1)  # every pair's line: its unit normal, then each centre's distance
    d = centers[b] - centers[a]
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-9)
    at = np.einsum("pk,pk->p", normal, centers[a])  # each line's offset from the origin

    def inside(lines: slice) -> np.ndarray:  # which centres lie within the band of each line
        return np.abs(normal[lines] @ centers.T - at[lines, None]) < band

    # pairs times centres, a slice of lines at a time: tiles heaped in one line (hundreds) stay in memory
    counts = np.concatenate([inside(slice(s, s + 4096)).sum(axis=1) for s in range(0, len(a), 4096)])
    k = int(np.argmax(counts))
    best = inside(slice(k, k + 1))[0]
    return best if best.sum() >= 3 and 2 * best.sum() > len(members) else everything


def _votes(tile: Tile, along: np.ndarray) -> bool:
    """Whether a tile's glyph says which way its line faces: face up, standing square in it, and not alike both
    ways up (the reader cannot tell such a tile upside down, so its up is only a guess)."""
    return tile.kind != "back" and (tile.fixed or tile.kind not in SYMMETRIC) and not _sideways_to(tile, along)


def _sideways_to(tile: Tile, along: np.ndarray) -> bool:
    """Whether a tile's glyph runs along a row direction rather than across it. Seen aslant, a tile is a
    sheared parallelogram whose up may be far from square to its row; but of its two edge directions, the one
    nearer the row's is along the row, and its glyph's up is the other for an upright tile."""
    return _sideways_margin(tile, along) > 0


def _sideways_margin(tile: Tile, along: np.ndarray) -> float:
    """How plainly a tile's glyph runs along a row direction: above 0 sideways (``_sideways_to``), near 0 a box
    leaning about 45 degrees, either way."""
    top, side = tile.edges
    return abs(_cos(side, along)) - abs(_cos(top, along))


def is_sideways(tile: Tile, up: np.ndarray) -> bool:
    """Whether a face-up tile lies sideways in a line whose glyphs point ``up``."""
    return tile.kind != "back" and _sideways_to(tile, right_of(up))


def _edges_along(tile: Tile, along: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile's two edge vectors (``Tile.edges``): the one nearer a direction, then the other. Seen aslant,
    the first still runs along the row; the second is the sheared side."""
    top, side = tile.edges
    return (top, side) if abs(_cos(top, along)) >= abs(_cos(side, along)) else (side, top)


SIDEWAYS_LENGTH = 1.18  # a quarter-turn-alike tile this much longer along its row than an upright one is sideways
SIDEWAYS_LENGTH_SHALLOW = 1.08  # ... or this much, when it is also shallower across the row than its meld's
SIDEWAYS_DEPTH = 0.85  # ... by this factor


def _runs(tiles: list[Tile], members: list[int], right: np.ndarray, place: dict, width: float) -> dict[int, int]:
    """Each tile's run: tiles touching along the row (a meld, the hand) share one; a gap of a quarter tile
    width starts the next."""
    order = sorted(members, key=lambda i: place[i])
    run, out = 0, {order[0]: 0}
    for a, b in zip(order, order[1:]):
        run += _gap_and_offset(tiles[a], tiles[b], right)[0] > 0.25 * width
        out[b] = run
    return out


def settle_quarter_turns(tiles: list[Tile], members: list[int], up: np.ndarray) -> None:
    """Tiles whose glyph looks alike a quarter turned (5p, haku...) take their lie from the row: longer along
    it than an upright tile would be there means lying sideways. An upright tile's width there is a line fitted
    to the widths of the row's other upright tiles against their place along it, nearest ones weighing most:
    perspective makes near tiles wider. Those are first the plainly upright tiles, then also the other
    quarter-turn-alike ones (the measure ignores their glyph) not found sideways in that first round. A little
    longer is enough where the tile is also shallower across the row than the three nearest upright tiles of its
    run, two at least (a detector's box on a called tile seen low). Polygons in ``tiles`` are turned to match."""
    right = right_of(up)
    quarter = [i for i in members if _quarter_alike(tiles[i])]
    if not quarter:
        return
    plain = [i for i in members if i not in quarter and (tiles[i].kind == "back" or not is_sideways(tiles[i], up))]
    place = {i: float(tiles[i].center @ right) for i in members}
    # the edge along the row (an upright tile's width, a sideways one's height; unlike the extent along the
    # row it leaves out the shear of a tile seen aslant) and the edge across it
    edges = {i: _edges_along(tiles[i], right) for i in members}
    length = {i: float(np.linalg.norm(edges[i][0])) for i in members}
    width = float(np.median([length[i] for i in plain or quarter]))
    scale = 3 * width
    depth = {i: float(np.linalg.norm(edges[i][1])) for i in members}
    run = _runs(tiles, members, right, place, width)
    sideways: set[int] = set()
    for first in (True, False):
        found = set()
        for i in quarter:
            # not a tile at its place along the row: stacked on it or under it (an added kan), no neighbour
            ref = [j for j in (plain if first and plain else plain + quarter)
                   if j != i and j not in sideways and abs(place[j] - place[i]) > width / 2]
            if not ref:
                continue
            wide = length[i] / _width_at(place[i], [place[j] for j in ref], [length[j] for j in ref], scale)
            # seen low, a lying tile's depth shrinks more than its length: a sideways one is also shallower
            # than the upright tiles of its own meld, its nearest three in its run (a meld may touch the hand,
            # whose standing tiles are deeper: against them a meld's upright tiles looked shallow too)
            nearest = sorted((j for j in ref if run[j] == run[i]), key=lambda j: abs(place[j] - place[i]))[:3]
            same = [depth[j] for j in nearest]  # two at least: one alone may be nearer the camera, so deeper
            shallow = len(same) >= 2 and depth[i] < SIDEWAYS_DEPTH * float(np.median(same))
            if wide > SIDEWAYS_LENGTH or (shallow and wide > SIDEWAYS_LENGTH_SHALLOW):
                found.add(i)
        sideways = found
    for i in quarter:
        tiles[i] = _turned_to_lie(tiles[i], up, i in sideways)


def _turned_to_lie(tile: Tile, up: np.ndarray, sideways: bool) -> Tile:
    """The tile with its corners rolled so that its glyph's up runs along the row toward the owner's left
    (sideways) or across it away from the owner (upright), in a line whose glyphs point ``up``."""
    right = right_of(up)
    along, across = _edges_along(tile, right)
    want = -along * np.sign(along @ right) if sideways else across * np.sign(across @ up)
    turns = [np.roll(tile.corners, -k, axis=0) for k in range(4)]
    best = max(turns, key=lambda c: _cos(c[0] + c[1] - c[2] - c[3], want))  # a sheared edge can be longer
    return replace(tile, polygon=tuple((float(x), float(y)) for x, y in best))


def settle_half_turns(tiles: list[Tile], members: list[int], up: np.ndarray) -> None:
    """Tiles alike both ways up (2s, 8p...) standing in a line face the way the line does: the reader put their
    glyph's up toward the photo's top, a guess. Polygons in ``tiles`` are turned to match."""
    for i in members:
        t = tiles[i]
        if (t.kind in SYMMETRIC and t.kind not in QUARTER_SYMMETRIC and not t.fixed and not is_sideways(t, up)
                and float(t.up @ up) < 0):
            tiles[i] = replace(t, polygon=tuple((float(x), float(y)) for x, y in np.roll(t.corners, -2, axis=0)))


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    """The cosine of the angle between two 2-vectors (``math.hypot``: grouping asks it 100,000 times a table)."""
    return float(a @ b) / (math.hypot(a[0], a[1]) * math.hypot(b[0], b[1]) + 1e-9)


def _width_at(x: float, places: list[float], widths: list[float], scale: float) -> float:
    """A width at place x from widths measured at other places: a line fitted with the nearest weighing most."""
    p, w = np.array(places), np.array(widths)
    weight = np.exp(-(((p - x) / scale) ** 2)) + 1e-6
    if len(p) < 2 or np.ptp(p) < 1e-6:
        return float(np.average(w, weights=weight))
    slope, intercept = np.polyfit(p, w, 1, w=np.sqrt(weight))
    return float(slope * x + intercept)


def build_line(tiles: list[Tile], members: list[int], up: np.ndarray | None = None) -> Line:
    """Order a segment's tiles left to right in their owner's frame and pair up a kakan's stacked tiles."""
    up = line_up(tiles, members) if up is None else up
    settle_quarter_turns(tiles, members, up)
    settle_half_turns(tiles, members, up)
    right = right_of(up)
    order = sorted(members, key=lambda i: float(tiles[i].center @ right))
    stacked: dict[int, int] = {}
    sideways = [i for i in order if is_sideways(tiles[i], up)]
    centers = np.array([tiles[i].center for i in sideways]).reshape(-1, 2)
    for a in sideways:
        if a in stacked or a in stacked.values():
            continue
        along, across = _offset_in_tile_frame(tiles[a], centers - tiles[a].center, right)
        # b on a, about a tile's width away from the owner; from half: the detector's box on the lower tile may
        # take in part of the stacked one (dev seed 20, session 28: 0.58; 0.6 before, no other hand moved)
        on_a = (sideways[k] for k in np.flatnonzero((np.abs(along) < 0.35) & (0.5 < across) & (across < 1.4)))
        b = next((b for b in on_a if b != a and b not in stacked), None)
        if b is not None:
            stacked[b] = a  # one tile stacked on each
    return Line([i for i in order if i not in stacked], up, stacked)


def _offset_in_tile_frame(tile: Tile, d: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image offsets (rows of ``d``) in units of a tile's own edges: along the row (its edge nearer ``right``)
    and across it, positive away from the owner. Seen aslant, "away from the owner" is the tile's sheared side,
    not the image normal to the row."""
    along, across = _edges_along(tile, right)
    if float(across @ np.array([right[1], -right[0]])) < 0:  # make it point away from the owner (up)
        across = -across
    a, b = np.linalg.pinv(np.column_stack([along, across])) @ d.T  # least squares: a degenerate polygon
    return a, b


def lines(tiles: list[Tile], max_gap_tiles: float = 2.5, centre: np.ndarray | None = None) -> list[Line]:
    """Collinear segments facing the same way, a few tiles apart at most (a hand and its melds), as lines.

    A segment with no face-up tile standing square in it has no glyph to say whom it faces; given the table's
    ``centre``, it faces the centre (its owner sits on the far side from it)."""
    segs = dict(enumerate(_facing_centre(tiles, s, centre) for s in segments(tiles)))  # in the order found
    joins = {}  # (a, b) -> how far b is from continuing a, for the pairs that may join
    spans = {k: _span(tiles, line) for k, line in segs.items()}

    def weigh(a: int, b: int) -> None:
        if _too_far_to_join(spans[a], spans[b], max_gap_tiles):
            return
        far = _join_gap(tiles, segs[a], segs[b], max_gap_tiles)
        if far is not None:
            joins[a, b] = far

    for a in segs:
        for b in segs:
            if a < b:
                weigh(a, b)
    def mostly_backs(k: int) -> bool:
        return 2 * sum(tiles[i].kind == "back" for i in segs[k].tiles) > len(segs[k].tiles)

    # the nearest pair first: a drawn tile between a hand and its melds joins before they meet. Pieces mostly
    # face down join last: a wall tile in front of the gap between a far hand and its melds, or a piece of wall
    # with its dora indicator beside them, is nearer to both
    while joins:
        heavy = {k for k in segs if mostly_backs(k)}  # once per join, not per pair weighed
        a, b = min(joins, key=lambda pair: (pair[0] in heavy or pair[1] in heavy, joins[pair], pair))
        segs[a] = _facing_centre(tiles, segs[a].members + segs.pop(b).members, centre)
        spans[a] = _span(tiles, segs[a])
        joins = {pair: far for pair, far in joins.items() if a not in pair and b not in pair}
        for other in segs:
            if other != a:
                weigh(min(a, other), max(a, other))
    segs = list(segs.values())
    parts = [part for line in segs for part in _trailing_backs_apart(tiles, line)]
    for backs in (True, False, True):  # a face-down stray may sit beside a face-up one: once more when it is gone
        parts = [part for line in parts for part in _off_the_row_apart(tiles, line, backs)]
    return parts


def _trailing_backs_apart(tiles: list[Tile], line: Line) -> list[Line]:
    """A line of face-up tiles that ends in face-down ones not closing a closed kan (face-down, two alike face
    up, face-down) has met a wall or another row: those face-down tiles become a line of their own."""
    kinds = [tiles[i].kind for i in line.tiles]
    run = next((k for k, kind in enumerate(reversed(kinds)) if kind != "back"), len(kinds))
    if run == 0 or run == len(kinds):
        return [line]
    end = len(kinds) - run
    if end >= 3 and kinds[end - 3] == "back" and "back" not in kinds[end - 2:end]:
        end += 1  # the first of them closes a closed kan
    if end == len(kinds):
        return [line]
    return [Line(line.tiles[:end], line.up, line.stacked), build_line(tiles, line.tiles[end:], line.up)]


def _off_the_row_apart(tiles: list[Tile], line: Line, backs: bool) -> list[Line]:
    """Tiles between face-up ones of a line but off its row, in front or behind (a wall beside the melds, its
    dora indicator), become lines of their own: a closed kan's face-down tiles and a called tile lie in the row.
    Face-down tiles are taken out first, so that a face-up stray is measured against the row's face-up tiles.
    A tile is measured against its nearest face-up neighbours on each side, when those two agree."""
    face_up = [k for k, i in enumerate(line.tiles) if tiles[i].kind != "back"]
    across = {i: float(tiles[i].center @ line.up) for i in line.tiles}
    strays = []
    for k, i in enumerate(line.tiles):
        before = [f for f in face_up if f < k]
        after = [f for f in face_up if f > k]
        if (tiles[i].kind == "back") != backs or not before or not after:
            continue
        left, right = line.tiles[before[-1]], line.tiles[after[0]]
        depth = tiles[left].extent_along(line.up) + tiles[right].extent_along(line.up)
        row = (across[left] + across[right]) / 2
        if abs(across[left] - across[right]) < 0.5 * depth and abs(across[i] - row) > 0.75 * depth:
            strays.append(i)
    if not strays:
        return [line]
    kept = Line([i for i in line.tiles if i not in strays], line.up, line.stacked)
    return [kept] + [build_line(tiles, [i], line.up) for i in strays]


def _facing_centre(tiles: list[Tile], members: list[int], centre: np.ndarray | None) -> Line:
    line = build_line(tiles, members)
    if centre is None or len(members) < 2 or _faces_known(tiles, line):
        return line
    normal = np.array([-line.right[1], line.right[0]])
    to_centre = centre - np.mean([tiles[i].center for i in members], axis=0)
    if np.linalg.norm(to_centre) < max(tiles[members[0]].size):
        return line
    return build_line(tiles, members, up=normal if normal @ to_centre > 0 else -normal)


# two rows of three tiles or more whose ends' centres lie less than this many tile widths apart along the row lie
# side by side, not end to end (a dead wall before a far hand's end, seed 18's scene 156); a row of one or two may
# still (a far hand of two tiles beyond its melds, which met the dead wall first: seed 13's scene 114)
END_TO_END = 0.5
# a lone tile lying sideways this many tile widths or more before a row's first tile is another seat's (seed 19's
# scene 0): a hand's called tiles lie in the melds at its right end, and a pond's riichi tile touches its row
SIDEWAYS_BEFORE = 1.0
# a hand and its melds lie on one straight line, and a photo keeps a line straight: two rows of more tiles than a
# meld has whose directions differ more than this (cosine; 20 degrees) are two seats' rows that met at a corner
# in a low photo (seed 19's scene 113: 27 degrees). Shorter rows' directions are too rough to ask
BENT = 0.94
BENT_FROM = 5


# A line whose facing rests on this many glyphs at most, beside one that at least OUTVOTED_BY more glyphs face the
# other way, joins it all the same: a far meld's one glyph that is not alike both ways up, read a half turn out,
# cut it from its hand (dev seed 95, scene 264: a chi 5s 3s 4s whose 3s was read upside down became the
# photographer's pond). Dev hands end to end 1,001 -> 1,002 of 1,187 (from 2 glyphs, or outvoted by 1: the same)
OUTVOTED_FACING = 1
OUTVOTED_BY = 2
JOIN_OFFSET = 1.1  # tile widths across the row that the near ends of two joining lines may sit apart


@dataclass(frozen=True)
class _Span:
    """Where a line lies, coarsely: its tiles' centres, their mean and farthest distance from it; the longest
    step between tiles next to each other in it; the largest tile (twice its ``Tile.reach``)."""

    centres: np.ndarray
    mid: tuple[float, float]
    radius: float
    step: float
    tile: float


def _span(tiles: list[Tile], line: Line) -> _Span:
    centres = np.array([tiles[i].center for i in line.tiles])
    mid = centres.mean(axis=0)
    step = float(np.linalg.norm(np.diff(centres, axis=0), axis=1).max()) if len(centres) > 1 else 0.0
    tile = 2 * max(tiles[i].reach for i in line.tiles)
    return _Span(centres, (float(mid[0]), float(mid[1])), float(np.linalg.norm(centres - mid, axis=1).max()),
                 step, tile)


def _too_far_to_join(a: _Span, b: _Span, max_gap_tiles: float) -> bool:
    """Whether two lines lie too far apart for ``_join_gap`` to join them, from their spans alone: a whole table
    holds dozens of rows, most pairs of them seats apart. Never says so of a pair ``_join_gap`` joins: it joins
    ends whose centres lie less than (max_gap_tiles + JOIN_OFFSET) row pitches and each end tile's half length
    along the row (at most its ``Tile.reach``) apart; the pitch is a median step between neighbours along the row,
    at most the longest step between tiles next to each other in either line, or with fewer than two such steps
    twice a tile's half length along the row."""
    pitch = max(a.step, b.step) if len(a.centres) + len(b.centres) >= 4 else max(a.tile, b.tile)
    reach = (max_gap_tiles + JOIN_OFFSET) * pitch + max(a.tile, b.tile)
    if math.hypot(a.mid[0] - b.mid[0], a.mid[1] - b.mid[1]) - a.radius - b.radius > reach:
        return True
    return float(np.min(np.linalg.norm(a.centres[:, None] - b.centres[None], axis=2))) > reach


def _join_gap(tiles: list[Tile], a: Line, b: Line, max_gap_tiles: float) -> float | None:
    """How far line b is from continuing line a, in tile widths (the gap between their near ends plus their
    offset across the row), or None when it does not continue it: same facing, b's near end beside a's near
    end, a few tiles apart at most. The ends may sit up to a tile apart across the row, since a standing tile's
    face stands above the table while the melds beside it lie on it."""
    facing = float(a.up @ b.up)
    # lines facing apart do not join, unless one has no glyph to say which way it faces (it takes the other's),
    # or hardly one against many (OUTVOTED_FACING).
    # A lone tile's own facing is not asked: a quarter-turn-alike one (a drawn 1p set apart) does not say which
    # way its row runs, and a standing tile seen low and aslant has a sheared face whose box may lie 45-60
    # degrees off its row (dev scenes of seeds 9, 10, 16, 17 end to end: 553 -> 559 hands of 664, none lost)
    unknown_facing = facing < -0.8 and _one_facing_unknown(tiles, a, b)
    lone = [line for line in (a, b) if len(line.tiles) == 1]
    if facing < 0.8 and not unknown_facing and len(lone) != 1:
        return None
    if min(len(a.tiles), len(b.tiles)) >= BENT_FROM and abs(facing) < BENT:
        return None  # two long rows' directions differ as much as their facings do
    if lone and lone[0] is a:
        a, b = b, a  # measured along the row of the other
    right = a.right
    pa = [float(tiles[i].center @ right) for i in a.tiles]
    pb = [float(tiles[i].center @ right) for i in b.tiles]
    if min(pb) > max(pa):
        left, right_part, ends_apart = a, b, min(pb) - max(pa)
        end_a, end_b = a.tiles[int(np.argmax(pa))], b.tiles[int(np.argmin(pb))]
    elif min(pa) > max(pb):
        left, right_part, ends_apart = b, a, min(pa) - max(pb)
        end_a, end_b = a.tiles[int(np.argmin(pa))], b.tiles[int(np.argmax(pb))]
    else:
        return None  # overlapping along the row: side by side (pond rows), not one line
    if _leading_backs(tiles, right_part, right) >= 2 and not _all_backs(tiles, left):
        return None  # face-down tiles right of face-up ones: a wall behind the melds, as a closed kan starts with one
    width = _pitch(tiles, [a, b], right)
    gap, offset = _gap_and_offset(tiles[end_a], tiles[end_b], right)
    if min(len(a.tiles), len(b.tiles)) >= 3 and ends_apart < END_TO_END * width:
        return None  # one row's end in front of the other's (a wall before a far hand's end), not beside it
    far = (max(gap, 0.0) + offset) / width  # overlapping ends are no nearer than touching ones off the row
    if (lone and left is b and len(a.tiles) >= 3 and is_sideways(tiles[b.tiles[0]], a.up)
            and far >= SIDEWAYS_BEFORE):
        return None
    return far if gap < max_gap_tiles * width and offset < JOIN_OFFSET * width else None


def _one_facing_unknown(tiles: list[Tile], a: Line, b: Line) -> bool:
    """Whether of two lines one has no glyph to say which way it faces, or hardly one against the other's many
    (``OUTVOTED_FACING``, ``OUTVOTED_BY``): it may take the other's facing."""
    fewer, more = sorted(_facing_votes(tiles, line) for line in (a, b))
    return fewer == 0 or (fewer <= OUTVOTED_FACING and more >= fewer + OUTVOTED_BY)


def _facing_votes(tiles: list[Tile], line: Line) -> int:
    """How many tiles of the line say which way it faces (``_votes``)."""
    return sum(_votes(tiles[i], line.right) for i in line.tiles)


def _faces_known(tiles: list[Tile], line: Line) -> bool:
    """Whether some tile of the line says which way it faces (``_votes``)."""
    return _facing_votes(tiles, line) > 0


def _pitch(tiles: list[Tile], parts: list[Line], right: np.ndarray) -> float:
    """A tile's width along the row: the median spacing of neighbours within the parts (a standing tile seen
    from its side has a box far longer along the row than its place in it), else the boxes' extent."""
    steps = []
    for part in parts:
        places = sorted(float(tiles[i].center @ right) for i in part.tiles)
        steps += [b - a for a, b in zip(places, places[1:])]
    if len(steps) >= 2:
        return float(statistics.median(steps))  # not np.median: 20 times faster on a few numbers
    return float(statistics.median([2 * tiles[i].extent_along(right) for part in parts for i in part.tiles]))


def _all_backs(tiles: list[Tile], line: Line) -> bool:
    return all(tiles[i].kind == "back" for i in line.tiles)


def _leading_backs(tiles: list[Tile], line: Line, right: np.ndarray) -> int:
    """How many face-down tiles a line starts with, counted from its left end along ``right``."""
    return _backs_first(tiles, sorted(line.tiles, key=lambda i: float(tiles[i].center @ right)))


def _backs_first(tiles: list[Tile], ordered: list[int]) -> int:
    """How many face-down tiles come first among tiles in order."""
    return next((k for k, i in enumerate(ordered) if tiles[i].kind != "back"), len(ordered))


@dataclass
class MeldReading:
    kind: str  # chi | pon | daiminkan | kakan | ankan
    tiles: list[str]
    called: str | None
    source: str | None  # left | across | right (None for a closed kan)
    tile_indices: list[int]
    notes: list[str] = field(default_factory=list)
    called_place: int | None = None  # where the called tile lies in tile_indices
    read_as: dict[int, str] = field(default_factory=dict)  # tile index -> the kind taken instead of the one read


@dataclass
class LineReading:
    concealed: list[int]  # tile indices, left to right
    melds: list[MeldReading]
    problems: list[tuple[str, list[int]]]  # (what is wrong, the tiles it is about)
    kita: list[int] = field(default_factory=list)  # norths set aside at the line's right end (three players)


CLEAR_GAP = 0.3  # a gap of this many short sides before a meld is a clear place to cut
MAX_MELDS = 4  # a hand holds at most four melds: no more cuts are tried (each doubles the ways to cut a line)


def read_line(tiles: list[Tile], line: Line, kita: bool = False) -> LineReading:
    """Split a line into its concealed tiles (left) and its melds (right), reading each meld's call; with ``kita``
    (a three-player game that sets norths aside) the norths laid apart at its right end too (``_trailing_norths``).

    Melds are taken from the right end while the tiles there hold a sideways tile, a stacked pair or face-down
    tiles. Face-down tiles at the left end of face-up concealed ones are not the hand's (a hand standing with its
    back to the camera is face down throughout): a wall or another row met at the hand's left; they are left
    out. Of all ways to cut them the one with the fewest problems wins; then the one with more cuts at clear
    gaps (a meld laid apart from the hand, even if it is not a legal one, is a meld); then the one that flags the
    fewest tiles (a meld touching the hand is cut out even when a misread sideways tile stays in the hand, rather
    than leaving both flagged; a hand tile is not swallowed into a wrong meld); then the widest gaps. A tile
    shaped as lying across the row (``LIES_ACROSS``) whose glyph the reader took for upright (a 4p or 8p, alike
    a quarter turned at 20 px) is looked for melds beside too, though among the concealed tiles it is no problem.
    """
    trailing = _trailing_norths(tiles, line) if kita else 0
    if not trailing:
        return _read_line(tiles, line, line.tiles)
    # Norths at the right end are set aside where they follow the hand's melds, or lie apart from its concealed
    # tiles (a north touching the hand is one of its tiles: a sorted hand ends with honours), and where the reading
    # without them has no more problems and a hand of 13 or 14 (counting 3 a meld) whenever the reading with them
    # has: a north set apart beside 13 tiles may be the one drawn, beside 12 it is. The most norths first; each
    # reading is made on a copy of the tiles (one turns its melds' tiles to lie as read), the one taken kept
    def worse(reading: LineReading) -> tuple[int, bool]:
        return len(reading.problems), len(reading.concealed) + 3 * len(reading.melds) not in (13, 14)

    def taken(reading: LineReading, read_on: list[Tile]) -> LineReading:
        tiles[:] = read_on  # the tiles as that reading turned them
        return reading

    whole_on = list(tiles)
    whole = _read_line(whole_on, line, line.tiles)
    for n in range(trailing, 0, -1):
        rest, trial_on = line.tiles[:-n], list(tiles)
        trial = _read_line(trial_on, line, rest)
        laid_apart = trial.melds or _gap_before(tiles, line, line.tiles, len(rest)) > CLEAR_GAP
        if laid_apart and worse(trial) <= worse(whole):
            trial.kita = line.tiles[-n:]
            return taken(trial, trial_on)
    return taken(whole, whole_on)


def _trailing_norths(tiles: list[Tile], line: Line) -> int:
    """How many tiles at the line's right end are norths face up and upright, up to four (a set's norths) and
    never the whole line: those a three-player hand may have set aside (kita). Players lay them at the right of
    their hand and melds, as Tenhou draws them."""
    positions = line.tiles
    n = 0
    while (n < min(4, len(positions) - 1) and tiles[positions[-1 - n]].kind == "4z"
           and not is_sideways(tiles[positions[-1 - n]], line.up)):
        n += 1
    return n


def _read_line(tiles: list[Tile], line: Line, positions: list[int]) -> LineReading:
    """``read_line`` of the line's first ``positions``."""
    best: tuple | None = None
    shape = [_length_for_depth(tiles[i], line.right) for i in positions]
    typical = float(np.median(shape))
    shaped_across = {i for i, s in zip(positions, shape) if s >= LIES_ACROSS * typical and tiles[i].kind != "back"}

    def search(end: int, melds: list[MeldReading], problems: list, gap_score: float, clear_cuts: int,
               cuts: int) -> None:
        nonlocal best
        prefix = positions[:end]
        lead = _backs_first(tiles, prefix)
        faces = lead < len(prefix)  # all face down: a hand standing back to camera
        if faces:
            prefix = prefix[lead:]
        odd = [i for i in prefix if is_sideways(tiles[i], line.up) or (tiles[i].kind == "back" and faces)]
        p = problems + ([("a sideways or face-down tile among the concealed tiles", odd)] if odd else [])
        key = (len(p), -clear_cuts, sum(len(where) for _, where in p), -gap_score, len(melds))
        if best is None or key < best[0]:
            best = (key, prefix, list(melds), p)
        if cuts == MAX_MELDS or not odd and not shaped_across.intersection(prefix):
            return
        for size in (3, 4):
            start = end - size
            if start < 0:
                continue
            meld, problem = _read_meld(tiles, line, positions[start:end])
            if meld is None and size == 4:
                meld = _meld_less_a_box_between(tiles, line, positions[start:end])
                problem = None if meld else problem
            new_problems = problems + ([problem] if problem else [])
            gap = _gap_before(tiles, line, positions, start)
            search(start, melds + ([meld] if meld else []), new_problems, gap_score + gap,
                   clear_cuts + (start > 0 and gap > CLEAR_GAP), cuts + 1)  # not at the line's start: no hand

    search(len(positions), [], [], 0.0, 0, 0)
    _, concealed, melds, problems = best
    concealed = _less_boxes_beyond_a_hand(tiles, line, list(concealed), len(melds))
    for meld in melds:
        for i, kind in meld.read_as.items():
            tiles[i] = read_as(tiles[i], kind)
        _lie_as_read(tiles, line, meld)
    return LineReading(list(concealed), list(reversed(melds)), problems)


# A box read less surely than PHANTOM_SURE that overlaps a neighbour by PHANTOM_OVERLAP of a short side may be left
# out of a meld it spoils (``_meld_less_a_box_between``). Chosen on the dev sets (seeds 9, 10, 16, 17 end to end:
# 553 -> 555 hands; 0.25-0.45 sure and 0.1-0.4 overlap give 553-555; with detector v4 562 -> 563 at 0.35-0.45).
PHANTOM_SURE = 0.35
PHANTOM_OVERLAP = 0.2
# A box read as a blank haku is taken for one below EXTRA_SURE instead: the box on a tile's side, which shows no
# ink, reads so (session 75, `bench/bench_tables.py DIRS --found DIR` over the dev sets' saved tiles: 592 -> 593 of
# 706 hands, the same from 0.4 to 0.8; held-out 481 as before). A true haku's reading is mostly surer (session 74:
# median 0.86 against 0.44 for boxes on no face).


def _meld_less_a_box_between(tiles: list[Tile], line: Line, group: list[int]) -> MeldReading | None:
    """The meld of three that four places make less one unsure box overlapping a neighbour among them: the
    detector's box on the seam between two tiles (or on a shadow), read unsurely as a tile, splits a pon or chi
    that is no meld with it. The box is left out of the hand, and a note says so."""
    for k, i in enumerate(group):
        sure_below = EXTRA_SURE if tiles[i].kind == "5z" else PHANTOM_SURE
        if not _unsure_box_on_a_neighbour(tiles, line, group, k, sure_below):
            continue
        meld, _ = _read_meld(tiles, line, group[:k] + group[k + 1:])
        if meld is not None:
            meld.notes.append(f"an unsure box read as {tiles[i].kind}, overlapping the meld's tiles, is left out")
            return meld
    return None


def _unsure_box_on_a_neighbour(tiles: list[Tile], line: Line, positions: list[int], k: int, sure_below: float) -> bool:
    """Whether the box at place k of ``positions`` is read less surely than ``sure_below`` and overlaps a neighbour
    there by more than PHANTOM_OVERLAP of a short side: the detector's box on a seam, or a second box on one tile.
    A tile a person set, or one face down or lying sideways, is not taken for one."""
    t = tiles[positions[k]]
    if t.confidence >= sure_below or t.fixed or t.kind == "back" or is_sideways(t, line.up):
        return False
    gaps = [_gap_before(tiles, line, positions, j) for j in (k, k + 1) if 0 < j < len(positions)]
    return bool(gaps) and -min(gaps) > PHANTOM_OVERLAP


HAND_TILES = 14  # at most, a drawn tile counted, a kan counted as three
EXTRA_SURE = 0.5  # a box read at least this surely is not taken for a second box on a tile


def _less_boxes_beyond_a_hand(tiles: list[Tile], line: Line, concealed: list[int], melds: int) -> list[int]:
    """The concealed tiles less unsure boxes overlapping a neighbour while there are more than a hand can hold:
    the detector's second box on one tile (or on a seam) read as one more tile. The least sure goes first; it is
    left out of the hand. Dev hands end to end 555 -> 557 / 664 (detector v4's detections: 563 -> 564). Then,
    however sure, a box overlapping a neighbour along the row but lying off the row's line by half a tile's depth
    or more (``_off_the_row``): a box on a standing tile's top, which in a set with white backs reads as a haku."""
    while len(concealed) + 3 * melds > HAND_TILES:
        overlapping = [i for k, i in enumerate(concealed)
                       if _unsure_box_on_a_neighbour(tiles, line, concealed, k, EXTRA_SURE)]
        if not overlapping:
            overlapping = [i for k, i in enumerate(concealed) if _off_the_row(tiles, line, concealed, k)
                           and _unsure_box_on_a_neighbour(tiles, line, concealed, k, math.inf)]
        if not overlapping:
            break
        concealed.remove(min(overlapping, key=lambda i: tiles[i].confidence))
    return concealed


OFF_ROW = 0.5  # of its neighbours' depth across the row: a box this far off the line of its two neighbours


def _off_the_row(tiles: list[Tile], line: Line, positions: list[int], k: int) -> bool:
    """Whether the box at place k of ``positions`` lies off the line of the tiles beside it (the nearest before
    and after, or the two nearest at an end) by ``OFF_ROW`` of their depth across the row or more."""
    if len(positions) < 3:
        return False
    others = [positions[j] for j in (k - 1, k + 1) if 0 <= j < len(positions)]
    if len(others) < 2:
        others = [positions[j] for j in ((1, 2) if k == 0 else (k - 2, k - 1))]
    across = np.array([-line.right[1], line.right[0]])
    a, b = (tiles[i] for i in others)
    offset = abs(float((tiles[positions[k]].center - (a.center + b.center) / 2) @ across))
    return offset >= OFF_ROW * (a.extent_along(across) + b.extent_along(across))


def _gap_before(tiles: list[Tile], line: Line, positions: list[int], start: int) -> float:
    """The gap (in short sides) between position start-1 and start; 1.0 at the line's start."""
    if start == 0:
        return 1.0
    a, b = tiles[positions[start - 1]], tiles[positions[start]]
    gap, _ = _gap_and_offset(a, b, line.right)
    return gap / min(_short(a), _short(b))


def _read_meld(tiles: list[Tile], line: Line, group: list[int]) -> tuple[MeldReading | None, tuple | None]:
    """One meld from 3 or 4 places, or the problem that keeps it from being one.

    Tiles read as kinds that make no meld (a pon of 2m 2m 1m, a chi of 3s 4s 2z) are read again together: the
    likeliest legal meld among the reader's candidate kinds of each (``Tile.candidates``) is taken, and a note
    says which tile was read otherwise. A meld legal as read stays as read, however unsure. A meld mended so must
    show its called tile lying across the row by its shape too (``_shaped_across``): the reader's turn for a
    small face is a guess, and two guesses together made melds of concealed tiles (a far hand's 2z 2z 3z 6z, two
    read sideways, as a daiminkan of 2z).

    A box stacked on a called tile of four places is no tile of the meld (an added kan is three places and the
    tile on its called one): the box on the called tile's side, which reads as a blank haku. The four are read
    without it, and a note says so."""
    stacked = {under: top for top, under in line.stacked.items()}
    meld, problem = _read_meld_stacked(tiles, line, group, stacked)
    on_four = [under for under in group if under in stacked] if len(group) == 4 else []
    if meld is None and on_four:
        meld, _ = _read_meld_stacked(tiles, line, group, {u: t for u, t in stacked.items() if u not in on_four})
        if meld is not None:
            meld.notes += [f"a box read as {tiles[stacked[u]].kind} on the called tile of this {meld.kind} is left "
                           f"out" for u in on_four]
            return meld, None
    return meld, problem


def _read_meld_stacked(tiles: list[Tile], line: Line, group: list[int], stacked: dict[int, int]):
    """``_read_meld`` with these stacked tiles (the tile under -> the tile on it)."""
    places = list(group) + [stacked[i] for i in group if i in stacked]  # an added kan's stacked tile too
    problem = None
    for kinds, _ in _readings(tiles, places):
        meld, why = _meld_of(tiles, line, group, stacked, dict(zip(places, kinds)))
        if why is None:
            changed = [(i, k) for i, k in zip(places, kinds) if k != tiles[i].kind]
            if changed and not _shaped_across(tiles, line, group, meld):
                continue
            meld.read_as = dict(changed)
            meld.notes += [f"a tile read as {tiles[i].kind} is taken as {k}, also likely to the reader, to make "
                           f"the {meld.kind} legal" for i, k in changed]
            return meld, None
        problem = problem or why
    return None, problem


# A tile's length along its row for its depth across it (``_length_for_depth``) is about 1.8 times as much lying
# sideways as upright, from any angle: tiles side by side are foreshortened alike, where the reader's turn for a
# face 12 px deep is a guess. How much more it must be, against what; each chosen on the dev scenes end to end over
# the tiles found (seeds 18-20, 95, 96: 1,187 hands; session 33):
LIES_ACROSS = 1.5  # the line's median: a tile looked for melds beside (+1 from 1.3 to 1.7, none lost; 0 at 2.0)
CALLED_ACROSS = 1.1  # its meld's other tiles' median: a meld mended by another reading (+2 -1 at 1.1 and 1.18, 1.0
# -1, 1.25 +2 -2)
CALLED_SHAPED = 1.3  # the other of two read sideways: the called one (+1 at 1.15 and 1.3, none lost; 0 at 1.5); and
# the two upright ones' mean, for blank tiles alone in a row to be a meld of haku (``shaped_as_a_meld``)


def _shaped_across(tiles: list[Tile], line: Line, group: list[int], meld: MeldReading) -> bool:
    """Whether an open meld's called tile is shaped as lying across its row: longer along it for its depth than
    the meld's other tiles. Tiles side by side are foreshortened alike from any angle, so the ratio holds where the
    reader's turn for a face 12 px deep does not. A closed or an added kan is not asked (its stacked pair)."""
    if meld.called_place is None or meld.kind == "kakan":
        return True
    shape = [_length_for_depth(tiles[i], line.right) for i in group]
    k = meld.called_place
    return shape[k] >= CALLED_ACROSS * float(np.median(shape[:k] + shape[k + 1:]))


def _length_for_depth(tile: Tile, along: np.ndarray) -> float:
    """A tile's length along a row for its depth across it: about 0.75 upright, 1.33 lying sideways."""
    length, depth = (float(np.linalg.norm(e)) for e in _edges_along(tile, along))
    return length / (depth + 1e-9)


def shaped_as_a_meld(tiles: list[Tile], members: list[int]) -> bool:
    """Whether three or four tiles in a row lie as an open meld does: of three, one longer for its depth across the
    row by ``CALLED_SHAPED`` than the two others; of four, two (an added kan's stacked pair) than the other two. A
    wall's tiles lie alike. Of four, one longer alone (a daiminkan) is not asked: a wall's piece of four seen
    aslant showed so (dev seed 18's scene 88), and a daiminkan of haku in a set with white backs is rarer."""
    if not 3 <= len(members) <= 4:
        return False
    right = right_of(line_up(tiles, members))
    shape = np.sort([_length_for_depth(tiles[i], right) for i in members])
    return bool(shape[2] >= CALLED_SHAPED * shape[:2].mean())


MELD_READINGS = 27  # the likeliest readings of a meld's tiles tried, at most
# A tile is taken as another of its candidate kinds only when the rules say the kind read cannot be (a meld that
# is no meld, a fifth copy) and the other reading is at least this likely against the one read (dev scenes of
# seeds 9, 10, 16, 17 end to end: 0.03-0.12 alike; with no floor, three concealed tiles were made a pon)
OTHER_READING_FLOOR = 0.1


def _readings(tiles: list[Tile], places: list[int]):
    """The readings of these tiles, likeliest first (the tiles as read come first): each a list of kinds and its
    probability as the reader gave it. A tile set by a person, or with no candidates, keeps its kind."""
    options = [list(tiles[i].likely_kinds) or [(tiles[i].kind, 1.0)] for i in places]
    readings = [([], 1.0)]
    for opts in options:
        readings = sorted(((kinds + [k], p * q) for kinds, p in readings for k, q in opts), key=lambda r: -r[1])
        readings = readings[:MELD_READINGS]
    first = [t.kind for t in (tiles[i] for i in places)]
    as_read = next((p for kinds, p in readings if kinds == first), readings[0][1])
    return [(first, as_read)] + [r for r in readings if r[0] != first and r[1] >= OTHER_READING_FLOOR * as_read]


def _meld_of(tiles: list[Tile], line: Line, group: list[int], stacked: dict[int, int],
             kind_of: dict[int, str]) -> tuple[MeldReading | None, tuple | None]:
    """The meld these places make with these kinds (``kind_of``: tile index -> kind), or why they make none;
    ``stacked``: an added kan's tile under -> the tile on it."""
    from rules.tiles import HandError, Meld

    kinds = [kind_of[i] for i in group]
    side = [k for k, i in enumerate(group) if is_sideways(tiles[i], line.up)]
    backs = [k for k, kind in enumerate(kinds) if kind == "back"]
    indices = list(group)
    try:
        # a closed kan's two faces lie upright; one alike a quarter turned may seem sideways by its length alone
        if (len(group) == 4 and len(backs) == 2 and backs in ([0, 3], [1, 2])
                and all(_quarter_alike(tiles[group[k]]) for k in side)):
            faces = [k for k in kinds if k != "back"]
            shown = plain(faces[0])
            if plain(faces[1]) != shown:
                return None, (f"closed kan shows two different tiles {faces[0]} and {faces[1]}", indices)
            notes = []
            hidden = [shown] * 2
            if shown[0] == "5":
                notes.append(f"a red five may be hidden face down in the closed kan of {shown}: counted as plain fives")
            meld = Meld("ankan", tuple(faces + hidden))
            return MeldReading("ankan", list(meld.tiles), None, None, indices, notes), None
        if backs:
            return None, ("face-down tiles in an open meld", indices)
        run = len(group) == 3 and len({plain(k) for k in kinds}) == 3
        place, notes = _called_place(tiles, line, group, side, run)
        if place is None:
            what = "no sideways tile" if not side else f"{len(side)} sideways tiles"
            return None, (f"a meld needs one sideways (called) tile, these {len(group)} have {what}", indices)
        source = "left" if place == 0 else "right" if place == len(group) - 1 else "across"
        called = kinds[place]
        under = group[place]
        if under in stacked:
            if len(group) != 3:
                return None, ("an added kan is three places with two tiles stacked sideways", indices)
            added_index = stacked[under]
            added = kind_of[added_index]
            meld = Meld("kakan", tuple(kinds + [added]), called, source, added)
            return MeldReading("kakan", list(meld.tiles), called, source, indices + [added_index],
                               called_place=place), None
        if run:
            meld = Meld("chi", tuple(kinds), called, source)
        else:
            meld = Meld("pon" if len(group) == 3 else "daiminkan", tuple(kinds), called, source)
        return MeldReading(meld.kind, list(meld.tiles), called, source, indices, notes, called_place=place), None
    except HandError as e:
        return None, (str(e), indices)


def _called_place(tiles: list[Tile], line: Line, group: list[int], side: list[int],
                  run: bool) -> tuple[int | None, list[str]]:
    """The place of a meld's called tile, and notes on it: the one place its glyphs show sideways; where they show
    none or two, the one its shape shows (``_called_by_length``); None where neither tells.

    A run of three laid apart from the tiles before it (a clear gap, ``CLEAR_GAP``) with no tile showing sideways is a
    chi whose called tile the photo does not show lying across (a far meld seen low, its tiles boxed alike): a chi
    is called from the left, so its source is known, and its called tile is taken to be its left one, with a note
    (session 49: dev hands end to end 999 -> 1,000 of 1,187, none lost; before, a problem and no score).

    Where two of three read sideways and their lengths do not tell (an upright tile misread a quarter turned, a
    sheared face's box leaning near 45 degrees), a run's called tile is its left one (a chi is called from the
    left); of a pon's or a daiminkan's two, the one plainly longer for its depth (``CALLED_SHAPED``), else the one
    more plainly sideways is taken, with a note that its source is in doubt: a meld whose source is in doubt
    scores as the hand does, tiles flagged among the concealed ones do not (dev scenes end to end: 559 -> 563 hands
    of 664; the daiminkan too, session 28: 595 -> 596 of 763, a kan of 1p read as a pon and a stray). A tile whose
    lie a person set is not second-guessed."""
    if len(side) == 1:
        return side[0], []
    if (longest := _called_by_length(tiles, line, group)) is not None:
        return longest, []
    if any(tiles[i].fixed for i in group):
        return None, []
    if run and not side and _laid_apart(tiles, line, group):
        return 0, [NO_SIDEWAYS_CHI]
    if len(side) != 2:
        return None, []
    if run and 0 in side:
        return 0, []
    a, b = (_length_for_depth(tiles[group[k]], line.right) for k in side)
    if max(a, b) >= CALLED_SHAPED * min(a, b):
        return side[0] if a > b else side[1], []
    plainest = max(side, key=lambda k: _sideways_margin(tiles[group[k]], line.right))
    return plainest, ["two tiles of this meld look sideways: the called tile, and so whose discard it was, is "
                      "taken to be the one more plainly sideways"]


def _laid_apart(tiles: list[Tile], line: Line, group: list[int]) -> bool:
    """Whether a meld's places lie a clear gap (``CLEAR_GAP``) from the tiles before them in their line, or begin it."""
    return _gap_before(tiles, line, line.tiles, line.tiles.index(group[0])) > CLEAR_GAP


NO_SIDEWAYS_CHI = ("no tile of this chi shows lying sideways: a chi is called from the left player, so its called "
                   "tile is taken to be its left one")
CALLED_LONGER = 1.2  # in an open meld whose glyphs name no one called tile, the one this much longer along the row
CALLED_UPRIGHT = 1.1  # ... than each other tile of it, while they are all within this of each other, is the called one


def _called_by_length(tiles: list[Tile], line: Line, group: list[int]) -> int | None:
    """The place of a meld's called tile from the tiles' shapes, for when their glyphs say none or two: a tile
    lying sideways is longer along the row than the upright ones (its long side lies along it), whatever the
    reader made of its glyph (a 6s seen low read upright, an upright 2z read as lying sideways). None when no one
    tile stands out, or a person set a tile's lie."""
    if any(tiles[i].fixed for i in group):
        return None
    length = [float(np.linalg.norm(_edges_along(tiles[i], line.right)[0])) for i in group]
    # each tile against the others' median: a sideways one is about 1.33 times an upright one's length
    ratio = [length[k] / float(np.median(length[:k] + length[k + 1:])) for k in range(len(group))]
    long = [k for k, r in enumerate(ratio) if r > CALLED_LONGER]
    if len(long) != 1 or any(r > CALLED_UPRIGHT for k, r in enumerate(ratio) if k != long[0]):
        return None
    return long[0]


def read_as(tile: Tile, kind: str) -> Tile:
    """The tile taken as another of its candidate kinds, its confidence scaled to that kind's probability (at
    most 1: in live mode a likelier kind may follow the kind kept)."""
    p = dict(tile.candidates)
    return replace(tile, kind=kind, confidence=round(min(1.0, tile.confidence * p[kind] / p[tile.kind]), 4))


def _lie_as_read(tiles: list[Tile], line: Line, meld: MeldReading) -> None:
    """Turn an open meld's tiles to lie as it was read: the called tile sideways, the others upright (where the
    called tile was not the one its glyphs showed, ``_called_place``). Polygons in ``tiles`` are turned to match."""
    place = meld.called_place
    if place is None or meld.kind == "kakan":  # a closed kan; an added kan's stacked pair was read by its glyphs
        return
    for k, i in enumerate(meld.tile_indices):
        if is_sideways(tiles[i], line.up) != (k == place):
            tiles[i] = _turned_to_lie(tiles[i], line.up, k == place)

"""Every reading of a complete hand: which sets and pair it is made of, and which of them the winning tile
completed (the wait). Scoring tries each reading and keeps the best, as the rules require.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .tiles import _KIND_INDEX, Meld, TERMINALS_AND_HONORS

RUN, TRIPLET, PAIR = "run", "triplet", "pair"
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"


class Group(NamedTuple):
    """A set or the pair. ``open`` is true for called melds, and for a triplet completed by a ron.
    (Named tuples: readings are built for every scored hand, and cached.)"""

    shape: str
    first: int
    open: bool = False
    kan: bool = False
    called: bool = False  # one of the player's melds, not a concealed group

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.shape == RUN:
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,)

    @property
    def is_set(self) -> bool:
        return self.shape != PAIR


class Reading(NamedTuple):
    """A regular reading: four sets and a pair, the winning group and its wait. ``form`` is also
    ``chiitoitsu`` (groups are the seven pairs) or ``kokushi`` (no groups)."""

    form: str
    groups: tuple[Group, ...]
    wait: str
    win_group: int = -1


def meld_group(m: Meld) -> Group:
    # a meld's tiles are sorted by kind, so its first tile is its lowest kind
    shape = RUN if m.kind == "chi" else TRIPLET
    return Group(shape, _KIND_INDEX[m.tiles[0]], m.kind != "ankan", len(m.tiles) == 4, True)


@lru_cache(maxsize=65536)
def _split(counts: tuple[int, ...], pair_needed: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """All ways to cut one part's counts into sets (and the pair if ``pair_needed``), as (shape, first)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return ((),) if not pair_needed else ()
    out = []
    c = list(counts)
    if pair_needed and c[i] >= 2:
        c[i] -= 2
        out += [((PAIR, i),) + rest for rest in _split(tuple(c), False)]
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        out += [((TRIPLET, i),) + rest for rest in _split(tuple(c), pair_needed)]
        c[i] += 3
    if len(c) == 9 and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        out += [((RUN, i),) + rest for rest in _split(tuple(c), pair_needed)]
    return tuple(out)


_PARTS = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=65536)
def _part_splits(counts: tuple[int, ...], offset: int, pair_needed: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """:func:`_split` of one part with global kind indices."""
    return tuple(tuple((shape, first + offset) for shape, first in opt) for opt in _split(counts, pair_needed))


def regular_splits(counts: list[int]) -> list[tuple[tuple[str, int], ...]]:
    """All set-and-pair splits of complete concealed counts (kind indices are global)."""
    results: tuple[tuple[tuple[str, int], ...], ...] = ((),)
    pairs = 0
    counts = tuple(counts)
    for a, b in _PARTS:
        part = counts[a:b]
        size = sum(part)
        if not size:
            continue
        rest = size % 3
        if rest == 1:
            return []
        if rest == 2:
            pairs += 1
        options = _part_splits(part, a, rest == 2)
        if not options:
            return []
        results = tuple(r + opt for r in results for opt in options)
    return list(results) if pairs == 1 else []


def _wait_of(shape: str, first: int, win: int) -> str:
    if shape == PAIR:
        return TANKI
    if shape == TRIPLET:
        return SHANPON
    pos = win - first
    if pos == 1:
        return KANCHAN
    if (pos == 2 and first % 9 == 0) or (pos == 0 and first % 9 == 6):
        return PENCHAN
    return RYANMEN


def readings(concealed: list[int], melds: tuple[Meld, ...], win: int, tsumo: bool) -> list[Reading]:
    """Every reading of a complete hand with the winning tile placed in each group that can hold it.

    ``concealed`` counts include the winning tile. A triplet completed by a ron is open (minkou).
    """
    called = tuple(meld_group(m) for m in melds)
    out: list[Reading] = []
    closed_group = _CLOSED_GROUP
    for split in regular_splits(concealed):
        seen = set()
        groups = None
        for gi, (shape, first) in enumerate(split):
            if not (first == win or (shape == RUN and first <= win <= first + 2)) or (shape, first) in seen:
                continue
            seen.add((shape, first))
            if groups is None:
                groups = [closed_group[g] for g in split]
            these = groups
            if shape == TRIPLET and not tsumo:
                these = groups[:]
                these[gi] = _RON_TRIPLET[first]
            out.append(Reading("regular", tuple(these) + called, _wait_of(shape, first, win), gi))
    if not melds and sum(concealed) == 14:
        if concealed.count(2) == 7:  # seven kinds twice: that is all 14 tiles
            pairs = tuple(closed_group[(PAIR, k)] for k in range(34) if concealed[k])
            out.append(Reading("chiitoitsu", pairs, TANKI))
        elif (concealed.count(0) == 21 and all(concealed[k] for k in TERMINALS_AND_HONORS)):  # the 13, one twice
            out.append(Reading("kokushi", (), "thirteen-sided" if concealed[win] == 2 else TANKI))
    return out


# Every concealed group there can be, made once (groups are immutable).
_CLOSED_GROUP = {
    **{(RUN, f): Group(RUN, f) for suit in (0, 9, 18) for f in range(suit, suit + 7)},
    **{(TRIPLET, f): Group(TRIPLET, f) for f in range(34)},
    **{(PAIR, f): Group(PAIR, f) for f in range(34)},
}
_RON_TRIPLET = {f: Group(TRIPLET, f, True) for f in range(34)}  # completed by a ron: open

"""Every reading of a complete hand: which sets and pair it is made of, and which of them the winning tile
completed (the wait). Scoring tries each reading and keeps the best, as the rules require.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .tiles import Meld, TERMINALS_AND_HONORS

RUN, TRIPLET, PAIR = "run", "triplet", "pair"
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"


@dataclass(frozen=True)
class Group:
    """A set or the pair. ``open`` is true for called melds, and for a triplet completed by a ron."""

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


@dataclass(frozen=True)
class Reading:
    """A regular reading: four sets and a pair, the winning group and its wait. ``form`` is also
    ``chiitoitsu`` (groups are the seven pairs) or ``kokushi`` (no groups)."""

    form: str
    groups: tuple[Group, ...]
    wait: str
    win_group: int = -1


def meld_group(m: Meld) -> Group:
    shape = RUN if m.kind == "chi" else TRIPLET
    return Group(shape, m.first_kind, open=m.is_open, kan=m.is_kan, called=True)


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


def regular_splits(counts: list[int]) -> list[list[tuple[str, int]]]:
    """All set-and-pair splits of complete concealed counts (kind indices are global)."""
    parts = [(0, 9), (9, 18), (18, 27), (27, 34)]
    sizes = [sum(counts[a:b]) for a, b in parts]
    if sum(1 for s in sizes if s % 3 == 2) != 1 or any(s % 3 == 1 for s in sizes):
        return []
    results: list[list[tuple[str, int]]] = [[]]
    for (a, b), size in zip(parts, sizes):
        if not size:
            continue
        options = _split(tuple(counts[a:b]), size % 3 == 2)
        if not options:
            return []
        results = [r + [(shape, first + a) for shape, first in opt] for r in results for opt in options]
    return results


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
    for split in regular_splits(concealed):
        seen = set()
        for gi, (shape, first) in enumerate(split):
            if not (first == win or (shape == RUN and first <= win <= first + 2)) or (shape, first) in seen:
                continue
            seen.add((shape, first))
            groups = []
            for gj, (s, f) in enumerate(split):
                groups.append(Group(s, f, open=(gj == gi and s == TRIPLET and not tsumo)))
            out.append(Reading("regular", tuple(groups) + called, _wait_of(shape, first, win), gi))
    if not melds and sum(concealed) == 14:
        if all(c in (0, 2) for c in concealed) and sum(1 for c in concealed if c) == 7:
            pairs = tuple(Group(PAIR, k) for k in range(34) if concealed[k])
            out.append(Reading("chiitoitsu", pairs, TANKI))
        if all(concealed[k] for k in TERMINALS_AND_HONORS) and sum(concealed[k] for k in TERMINALS_AND_HONORS) == 14:
            out.append(Reading("kokushi", (), "thirteen-sided" if concealed[win] == 2 else TANKI))
    return out

"""Every reading of a complete hand: which sets and pair it is made of, and which of them the winning tile
completed (the wait). Scoring tries each reading and keeps the best, as the rules require.

A hand's counts are packed into one integer (:func:`pack`: three bits per kind), so the kinds it holds are a
mask test and each suit's counts are a shift away. A suit's nine counts decompose on their own, so the splits
of a hand are the products of its parts' splits (three suits and the honours): :func:`part_splits` looks a
part up by its own pattern in a table filled as patterns are first seen (some hundreds per suit). Reading
a hand is then four small lookups, not a search over the whole hand.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .tiles import _KIND_INDEX, RED_FIVES, TERMINALS_AND_HONORS

RUN, TRIPLET, PAIR = "run", "triplet", "pair"
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"

# ------------------------------------------------------------------------------------------------ packed counts
# Kind k's count (0..4, never carries into the next field) sits at bit 3k; red fives are counted on top, from
# bit 102. Summing the tiles' weights packs a hand in one C-level pass over its tiles.
RED_SHIFT = 3 * 34
TILE_WEIGHT = {t: 1 << 3 * k | (1 << RED_SHIFT if t in RED_FIVES else 0) for t, k in _KIND_INDEX.items()}


def pack(tiles) -> int:
    """Packed counts of some tile codes (see above)."""
    return sum(map(TILE_WEIGHT.__getitem__, tiles))


def pack_counts(counts) -> int:
    """Packed counts of a 34-count list."""
    return sum(c << 3 * k for k, c in enumerate(counts))


def count_of(key: int, k: int) -> int:
    """How many tiles of kind k in packed counts."""
    return key >> 3 * k & 7


def fields(kinds) -> int:
    """The mask of these kinds' count fields: ``key & fields(kinds)`` is non-zero when the hand holds one."""
    return sum(7 << 3 * k for k in set(kinds))


# ------------------------------------------------------------------------------------------------------ groups
class Group(NamedTuple):
    """A set or the pair. ``open`` is true for called melds, and for a triplet completed by a ron.
    (Named tuples: made once per kind in the tables below, shared by every reading.)"""

    shape: str
    first: int
    open: bool = False
    kan: bool = False
    called: bool = False  # one of the player's melds, not a concealed group


# Every concealed group there can be, made once (groups are immutable).
_CLOSED_GROUP = {
    **{(RUN, f): Group(RUN, f) for suit in (0, 9, 18) for f in range(suit, suit + 7)},
    **{(TRIPLET, f): Group(TRIPLET, f) for f in range(34)},
    **{(PAIR, f): Group(PAIR, f) for f in range(34)},
}
_RON_TRIPLET = {f: Group(TRIPLET, f, True) for f in range(34)}  # completed by a ron: open


@lru_cache(maxsize=4096)
def meld_info(meld_kind: str, tiles: tuple[str, ...]) -> tuple[Group, int]:
    """A meld's group and packed counts, by its kind and tiles (a table of the few hundred melds there are).
    A meld's tiles are sorted by kind, so its first tile is its lowest kind."""
    shape = RUN if meld_kind == "chi" else TRIPLET
    return Group(shape, _KIND_INDEX[tiles[0]], meld_kind != "ankan", len(tiles) == 4, True), pack(tiles)


# ------------------------------------------------------------------------------------------------------ splits
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


# A split of concealed tiles (a part's or a hand's) into sets and at most one pair, sorted out for scoring:
# (first kinds of the runs, triplet groups, the pair group or None). Plain tuples: a hand's split is put
# together from its parts' for every hand scored.
Split = tuple[tuple[int, ...], tuple[Group, ...], "Group | None"]
PartSplits = tuple[bool, tuple[Split, ...]]

# Per part (man, pin, sou, honours): its table of splits by pattern, first kind, bit shift and field mask.
_PARTS: tuple[tuple[dict[int, PartSplits], int, int, int], ...] = (
    ({}, 0, 0, (1 << 27) - 1), ({}, 9, 27, (1 << 27) - 1), ({}, 18, 54, (1 << 27) - 1), ({}, 27, 81, (1 << 21) - 1))


def part_splits(first: int, pattern: int) -> PartSplits:
    """One part's splits, looked up by the part's own packed counts in a per-part table (filled as patterns
    are first seen, not a per-hand cache): (whether the part holds the pair -- its size is 3n+2 --, its splits
    with global kinds). No splits: the part cannot be cut into sets and at most one pair."""
    table = _PARTS[first // 9][0]
    entry = table.get(pattern)
    if entry is None:
        if len(table) >= 1 << 16:  # a bound far above the patterns real play shows
            table.clear()
        entry = table[pattern] = _part_splits(first, pattern)
    return entry


def _part_splits(first: int, pattern: int) -> PartSplits:
    counts = tuple(pattern >> 3 * i & 7 for i in range(7 if first == 27 else 9))
    size = sum(counts)
    if size % 3 == 1:
        return False, ()
    pair = size % 3 == 2
    out = []
    for option in _split(counts, pair):
        runs = tuple(f + first for shape, f in option if shape == RUN)
        triplets = tuple(_CLOSED_GROUP[TRIPLET, f + first] for shape, f in option if shape == TRIPLET)
        pairs = [_CLOSED_GROUP[PAIR, f + first] for shape, f in option if shape == PAIR]
        out.append((runs, triplets, pairs[0] if pairs else None))
    return pair, tuple(out)


def splits(key: int) -> list[Split]:
    """Every split of complete concealed counts (packed) into sets and one pair: the products of the parts'."""
    out: list[Split] = [((), (), None)]
    pairs = 0
    for table, first, shift, mask in _PARTS:
        pattern = key >> shift & mask
        if not pattern:
            continue
        pair, options = table.get(pattern) or part_splits(first, pattern)  # part_splits on a table miss
        if not options:
            return []
        pairs += pair
        if len(options) == 1 and len(out) == 1:  # the usual case: one way to cut each part so far
            (runs, triplets, pair_group), (more_runs, more_triplets, more_pair) = out[0], options[0]
            out = [(runs + more_runs, triplets + more_triplets, pair_group or more_pair)]
        else:
            out = [(runs + more_runs, triplets + more_triplets, pair_group or more_pair)
                   for runs, triplets, pair_group in out for more_runs, more_triplets, more_pair in options]
    return out if pairs == 1 else []


def regular_splits(counts: list[int]) -> list[tuple[tuple[str, int], ...]]:
    """All set-and-pair splits of complete concealed counts (a 34-count list), as (shape, first kind)."""
    return [((PAIR, pair.first),) + tuple((TRIPLET, g.first) for g in triplets) + tuple((RUN, f) for f in runs)
            for runs, triplets, pair in splits(pack_counts(counts))]


# ---------------------------------------------------------------------------------------------------- readings
class Reading:
    """One reading of a complete hand: its ``form`` (regular, chiitoitsu or kokushi), the wait, and its groups
    sorted out for the yaku and fu: the pair (the first of seven in chiitoitsu), the runs' first kinds, the
    triplets and quads (called melds last), and how many of those are concealed."""

    __slots__ = ("form", "wait", "pair", "runs", "triplets", "concealed_triplets")

    def __init__(self, form: str, wait: str, pair: Group | None = None, runs: tuple[int, ...] = (),
                 triplets: tuple[Group, ...] = (), concealed_triplets: int = 0):
        self.form = form
        self.wait = wait
        self.pair = pair
        self.runs = runs
        self.triplets = triplets
        self.concealed_triplets = concealed_triplets

    def __repr__(self) -> str:
        return (f"Reading({self.form}, {self.wait}, pair {self.pair and self.pair.first}, runs {self.runs}, "
                f"triplets {[g.first for g in self.triplets]})")


def _run_wait(first: int, win: int) -> str:
    pos = win - first
    if pos == 1:
        return KANCHAN
    if (pos == 2 and first % 9 == 0) or (pos == 0 and first % 9 == 6):
        return PENCHAN
    return RYANMEN


# masks for the two special forms: every field's lowest bit, odd counts or fours, terminals and honours
_ALL_FIELDS = (1 << RED_SHIFT) - 1
_LOW = sum(1 << 3 * k for k in range(34))
_ODD_OR_FOUR = _LOW | _LOW << 2
_TH_LOW = sum(1 << 3 * k for k in TERMINALS_AND_HONORS)
_SIMPLE_FIELDS = fields(set(range(34)) - TERMINALS_AND_HONORS)


def readings(concealed: int, called: tuple[Group, ...], win: int, tsumo: bool) -> list[Reading]:
    """Every reading of a complete hand with the winning tile placed in each concealed group that can hold it
    (in the order of the groups' kinds: runs below the tile first, then the pair, the triplet, the run from it).

    ``concealed``: packed counts of the concealed tiles, the winning tile included; ``called``: the melds'
    groups. A triplet completed by a ron is open (minkou).
    """
    out: list[Reading] = []
    called_runs, called_triplets, ankans = (), (), 0
    for g in called:
        if g.shape == RUN:
            called_runs += (g.first,)
        else:
            called_triplets += (g,)
            ankans += not g.open
    won_triplet = _CLOSED_GROUP[TRIPLET, win]
    for runs, triplets, pair in splits(concealed):
        all_runs = runs + called_runs if called_runs else runs
        all_triplets = triplets + called_triplets if called_triplets else triplets
        n_concealed = len(triplets) + ankans
        for f in (win - 2, win - 1):
            if f in runs:
                out.append(Reading("regular", _run_wait(f, win), pair, all_runs, all_triplets, n_concealed))
        if pair.first == win:
            out.append(Reading("regular", TANKI, pair, all_runs, all_triplets, n_concealed))
        if won_triplet in triplets:
            if tsumo:
                out.append(Reading("regular", SHANPON, pair, all_runs, all_triplets, n_concealed))
            else:  # completed by the ron: an open triplet
                opened = list(all_triplets)
                opened[opened.index(won_triplet)] = _RON_TRIPLET[win]
                out.append(Reading("regular", SHANPON, pair, all_runs, tuple(opened), n_concealed - 1))
        if win in runs:
            out.append(Reading("regular", _run_wait(win, win), pair, all_runs, all_triplets, n_concealed))
    if not called:
        counts = concealed & _ALL_FIELDS
        if not counts & _ODD_OR_FOUR:  # 14 tiles, every count 0 or 2: seven pairs
            first = next(k for k in range(34) if counts >> 3 * k & 2)
            out.append(Reading("chiitoitsu", TANKI, _CLOSED_GROUP[PAIR, first]))
        elif not counts & _SIMPLE_FIELDS and (counts | counts >> 1 | counts >> 2) & _TH_LOW == _TH_LOW:
            # 14 terminals and honours, all thirteen kinds present: one of them twice
            out.append(Reading("kokushi", "thirteen-sided" if count_of(counts, win) == 2 else TANKI))
    return out

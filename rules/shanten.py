"""Shanten, completeness and waits over 34-count lists.

Shanten is the number of tile exchanges a hand is from tenpai: ``exchanges_to_complete - 1``, so a complete
14-tile hand is -1 and a tenpai 13-tile hand is 0. The regular form is computed exactly (the targets are real
complete hands, never a fifth copy of a tile) from per-suit tables: for every pattern of counts in one suit
(5**9 patterns, 5**7 for honours) and every target of ``m`` sets plus ``h`` pairs, the fewest tiles the
pattern lacks. A hand is then four table lookups and a tiny combination step. The tables are built once, on
first use, with numpy (about a second), using two facts about the "fewest tiles lacking" function:
the sub-patterns of targets are closed downwards, and the best overlap with a target is a prefix maximum
along each axis.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

from .tiles import TERMINALS_AND_HONORS

_MH = [(m, h) for m in range(5) for h in range(2)]  # column order of a table row


def _sets_for(n: int) -> list[tuple[int, ...]]:
    """Sets within one suit of n ranks: triplets, and runs when the suit has numbers."""
    sets = []
    for i in range(n):
        v = [0] * n
        v[i] = 3
        sets.append(tuple(v))
    if n == 9:
        for i in range(7):
            v = [0] * n
            v[i] = v[i + 1] = v[i + 2] = 1
            sets.append(tuple(v))
    return sets


def _build_table(n: int) -> bytes:
    """Row per pattern index (base-5 digits = counts), 10 columns (m, h): tiles lacking for m sets + h pairs."""
    import numpy as np

    shape = (5,) * n
    sizes = np.indices(shape, dtype=np.int8).sum(axis=0, dtype=np.int8)
    sets = _sets_for(n)
    pairs = []
    for i in range(n):
        v = [0] * n
        v[i] = 2
        pairs.append(tuple(v))
    out = np.zeros((5**n, 10), dtype=np.uint8)
    for col, (m, h) in enumerate(_MH):
        completable = np.zeros(shape, dtype=bool)
        for combo in itertools.combinations_with_replacement(range(len(sets)), m):
            base = [sum(sets[s][i] for s in combo) for i in range(n)]
            for pair in (pairs if h else [(0,) * n]):
                target = tuple(b + p for b, p in zip(base, pair))
                if max(target) <= 4:
                    # axis order: digit i is the i-th axis, index = sum c_i * 5**i -> reverse for C order
                    completable[target[::-1]] = True
        for axis in range(n):  # close downwards: any sub-pattern of a target is completable
            a = np.moveaxis(completable, axis, 0)
            for k in range(3, -1, -1):
                a[k] |= a[k + 1]
        overlap = np.where(completable, sizes, np.int8(-1))
        for axis in range(n):  # best completable sub-pattern of each pattern
            a = np.moveaxis(overlap, axis, 0)
            for k in range(1, 5):
                np.maximum(a[k], a[k - 1], out=a[k])
        out[:, col] = (3 * m + 2 * h - overlap).reshape(-1)
    return out.tobytes()


@lru_cache(maxsize=None)
def _tables() -> tuple[bytes, bytes]:
    return _build_table(9), _build_table(7)


def _index(counts: list[int], start: int, n: int) -> int:
    idx = 0
    for i in range(start + n - 1, start - 1, -1):
        idx = idx * 5 + counts[i]
    return idx


def _part_rows(counts: list[int]) -> list[tuple[bytes, int]]:
    suit, honor = _tables()
    return [
        (suit, _index(counts, 0, 9) * 10),
        (suit, _index(counts, 9, 9) * 10),
        (suit, _index(counts, 18, 9) * 10),
        (honor, _index(counts, 27, 7) * 10),
    ]


def regular_shanten(counts: list[int], melds_called: int = 0) -> int:
    """Exact shanten of the concealed counts as ``4 - melds_called`` sets and a pair."""
    need = 4 - melds_called
    inf = 99
    best = [[0, inf]] + [[inf, inf] for _ in range(need)]  # best[m][h]
    for table, off in _part_rows(counts):
        row = table[off:off + 10]
        new = [[inf, inf] for _ in range(need + 1)]
        for m0 in range(need + 1):
            for h0 in range(2):
                b = best[m0][h0]
                if b >= inf:
                    continue
                for m1 in range(need - m0 + 1):
                    for h1 in range(2 - h0):
                        v = b + row[m1 * 2 + h1]
                        if v < new[m0 + m1][h0 + h1]:
                            new[m0 + m1][h0 + h1] = v
        best = new
    return best[need][1] - 1


def chiitoitsu_shanten(counts: list[int]) -> int:
    """Seven distinct pairs (four of a kind is not two pairs)."""
    pairs = sum(1 for c in counts if c >= 2)
    kinds = sum(1 for c in counts if c)
    return 6 - pairs + max(0, 7 - kinds)


def kokushi_shanten(counts: list[int]) -> int:
    kinds = sum(1 for k in TERMINALS_AND_HONORS if counts[k])
    pair = any(counts[k] >= 2 for k in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if pair else 0)


def shanten(counts: list[int], melds_called: int = 0) -> int:
    """Best of the three forms; seven pairs and thirteen orphans only for a hand without melds."""
    s = regular_shanten(counts, melds_called)
    if melds_called == 0:
        s = min(s, chiitoitsu_shanten(counts), kokushi_shanten(counts))
    return s


def is_regular_complete(counts: list[int]) -> bool:
    """Four lookups: each part must be exactly its sets, and one part also holds the pair."""
    pairs = 0
    for (table, off), start, end in zip(_part_rows(counts), (0, 9, 18, 27), (9, 18, 27, 34)):
        m, r = divmod(sum(counts[start:end]), 3)
        if r == 1 or m > 4:
            return False
        pairs += r == 2
        if table[off + m * 2 + (r == 2)] != 0:
            return False
    return pairs == 1


def is_complete(counts: list[int], melds_called: int = 0) -> bool:
    if is_regular_complete(counts):
        return True
    if melds_called == 0 and sum(counts) == 14:
        return chiitoitsu_shanten(counts) == -1 or kokushi_shanten(counts) == -1
    return False


def waits(counts: list[int], melds_called: int = 0, held: list[int] | None = None) -> list[int]:
    """Kinds that complete a 13-tile hand, leaving out any kind of which the hand already holds all four.

    ``held`` counts every tile the player owns (concealed and melds); it defaults to ``counts``.
    """
    held = held or counts
    out = []
    for k in range(34):
        if held[k] >= 4 or not _may_help(counts, k):
            continue
        counts[k] += 1
        if is_complete(counts, melds_called):
            out.append(k)
        counts[k] -= 1
    return out


def helpful_draws(counts: list[int], melds_called: int = 0, held: list[int] | None = None) -> list[int]:
    """Kinds whose draw takes a 13-tile hand one step nearer to winning: its shanten down by one once the player
    discards (tenhou.net's ukeire, 有効牌). For a tenpai hand they are its waits. A kind the player holds all four
    of cannot be drawn; a hand whose only waits are such tiles (a quad's fifth) counts as one step from tenpai.
    ``held`` counts every tile the player owns (concealed and melds); it defaults to ``counts``."""
    counts, held = list(counts), list(held or counts)
    before = _shanten_with_waits(counts, melds_called, held)
    out = []
    for k in range(34):
        if held[k] >= 4:
            continue
        counts[k] += 1
        held[k] += 1
        after = shanten(counts, melds_called)
        if after == 0 and max(held) >= 4 and not _tenpai_after_a_discard(counts, melds_called, held):
            after = 1
        if after < before:
            out.append(k)
        counts[k] -= 1
        held[k] -= 1
    return out


def _shanten_with_waits(counts: list[int], melds_called: int, held: list[int]) -> int:
    s = shanten(counts, melds_called)
    return 1 if s == 0 and not waits(counts, melds_called, held) else s


def _tenpai_after_a_discard(counts: list[int], melds_called: int, held: list[int]) -> bool:
    """A 14-tile hand one discard from a tenpai with a wait the player can still draw."""
    for t in range(34):
        if counts[t]:
            counts[t] -= 1
            held[t] -= 1
            tenpai = shanten(counts, melds_called) == 0 and bool(waits(counts, melds_called, held))
            counts[t] += 1
            held[t] += 1
            if tenpai:
                return True
    return False


def _may_help(counts: list[int], k: int) -> bool:
    """A winning tile is held already or sits next to a held tile of its suit (or is a terminal/honour for kokushi)."""
    if counts[k] or k in TERMINALS_AND_HONORS:
        return True
    if k >= 27:
        return False
    r = k % 9
    return any(0 <= r + d <= 8 and counts[k + d] for d in (-2, -1, 1, 2))

"""Yaku: one small predicate per yaku, han values in one table.

Each predicate takes a :class:`Win` (one reading of a complete hand plus its context) and says whether the
yaku applies. ``HAN`` gives (closed han, open han); open ``None`` means closed only. Yakuman are in
``YAKUMAN`` with their multiple (a double yakuman counts 2 where the ruleset allows it).
Names follow the usual romanisation, as Tenhou's records do.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from .context import Context
from .decompose import PAIR, RUN, RYANMEN, TANKI, TRIPLET, Group, Reading
from .tiles import TERMINALS_AND_HONORS, WIND_KIND

DRAGONS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)
GREEN = frozenset([19, 20, 21, 23, 25, 32])  # 2s 3s 4s 6s 8s hatsu
TERMINALS = frozenset([0, 8, 9, 17, 18, 26])
WIND_NAMES = {27: "east", 28: "south", 29: "west", 30: "north"}


@dataclass
class Win:
    reading: Reading
    counts: list[int]  # every tile of the hand, melds included, by kind
    concealed: list[int]  # concealed tiles including the winning tile
    win: int
    closed: bool
    ctx: Context

    def __post_init__(self) -> None:
        self.sets = [g for g in self.reading.groups if g.shape != PAIR]
        self.pair = next((g for g in self.reading.groups if g.shape == PAIR), None)
        self.runs = [g for g in self.sets if g.shape == RUN]
        self.triplets = [g for g in self.sets if g.shape == TRIPLET]
        self.seat = WIND_KIND[self.ctx.seat_wind]
        self.round = WIND_KIND[self.ctx.round_wind]
        self.kinds = [k for k in range(34) if self.counts[k]]

    @property
    def regular(self) -> bool:
        return self.reading.form == "regular"

    def value_kinds(self) -> set[int]:
        """Pair kinds that make a pair worth fu and a hand not pinfu: dragons, seat and round wind."""
        return {31, 32, 33, self.seat, self.round}


def _suits(w: Win) -> set[int]:
    return {k // 9 for k in w.kinds if k < 27}


def _has_honor(w: Win) -> bool:
    return any(k >= 27 for k in w.kinds)


def _all_groups_have(w: Win, allowed: frozenset[int]) -> bool:
    return w.regular and all(any(k in allowed for k in g.kinds) for g in w.reading.groups)


# --- situational ---
def riichi(w: Win) -> bool: return w.ctx.riichi and not w.ctx.double_riichi
def double_riichi(w: Win) -> bool: return w.ctx.double_riichi
def ippatsu(w: Win) -> bool: return w.ctx.ippatsu and w.ctx.ruleset.ippatsu
def menzen_tsumo(w: Win) -> bool: return w.closed and w.ctx.tsumo
def haitei(w: Win) -> bool: return w.ctx.haitei and not w.ctx.rinshan
def houtei(w: Win) -> bool: return w.ctx.houtei
def rinshan_kaihou(w: Win) -> bool: return w.ctx.rinshan
def chankan(w: Win) -> bool: return w.ctx.chankan


# --- shape ---
def pinfu(w: Win) -> bool:
    """平和: closed, four runs, a pair worth no fu, an open (two-sided) wait."""
    if not (w.closed and w.regular and len(w.runs) == 4 and w.reading.wait == RYANMEN):
        return False
    if w.pair.first in w.value_kinds():
        return False
    return w.ctx.ruleset.pinfu_tsumo or not w.ctx.tsumo


def tanyao(w: Win) -> bool:
    """断幺九: simples only (open too where kuitan is played)."""
    return (w.closed or w.ctx.ruleset.kuitan) and not any(k in TERMINALS_AND_HONORS for k in w.kinds)


def _identical_run_pairs(w: Win) -> int:
    return sum(n // 2 for n in Counter(g.first for g in w.runs).values())


def iipeikou(w: Win) -> bool:
    """一盃口: two identical runs, closed hand."""
    return w.closed and w.regular and _identical_run_pairs(w) == 1


def ryanpeikou(w: Win) -> bool:
    """二盃口: two pairs of identical runs, closed hand."""
    return w.closed and w.regular and _identical_run_pairs(w) == 2


def sanshoku_doujun(w: Win) -> bool:
    """三色同順: the same run in all three suits."""
    starts = {g.first for g in w.runs}
    return any(r in starts and r + 9 in starts and r + 18 in starts for r in range(7))


def sanshoku_doukou(w: Win) -> bool:
    """三色同刻: the same triplet in all three suits."""
    t = {g.first for g in w.triplets}
    return any(r in t and r + 9 in t and r + 18 in t for r in range(9))


def ittsu(w: Win) -> bool:
    """一気通貫: 123, 456 and 789 of one suit."""
    starts = {g.first for g in w.runs}
    return any({s, s + 3, s + 6} <= starts for s in (0, 9, 18))


def toitoi(w: Win) -> bool:
    """対々和: four triplets or quads."""
    return w.regular and len(w.triplets) == 4


def _concealed_triplets(w: Win) -> int:
    return sum(1 for g in w.triplets if not g.open)


def sanankou(w: Win) -> bool:
    """三暗刻: three concealed triplets (a triplet completed by ron is not concealed)."""
    return _concealed_triplets(w) == 3


def sankantsu(w: Win) -> bool:
    return sum(1 for g in w.sets if g.kan) == 3


def chanta(w: Win) -> bool:
    """混全帯幺九: every set and the pair hold a terminal or honour, with a run and an honour."""
    return _all_groups_have(w, TERMINALS_AND_HONORS) and bool(w.runs) and _has_honor(w)


def junchan(w: Win) -> bool:
    """純全帯幺九: every set and the pair hold a terminal, with a run, no honours."""
    return _all_groups_have(w, TERMINALS) and bool(w.runs)


def honroutou(w: Win) -> bool:
    """混老頭: terminals and honours only, both present."""
    return all(k in TERMINALS_AND_HONORS for k in w.kinds) and _has_honor(w) and any(k < 27 for k in w.kinds)


def shousangen(w: Win) -> bool:
    """小三元: two dragon triplets and a dragon pair."""
    return w.regular and sum(1 for g in w.triplets if g.first in DRAGONS) == 2 and w.pair.first in DRAGONS


def honitsu(w: Win) -> bool:
    """混一色: one suit plus honours."""
    return len(_suits(w)) == 1 and _has_honor(w)


def chinitsu(w: Win) -> bool:
    """清一色: one suit, no honours."""
    return len(_suits(w)) == 1 and not _has_honor(w)


def chiitoitsu(w: Win) -> bool:
    return w.reading.form == "chiitoitsu"


def _yakuhai(kind: int, seat_or_round: str) -> Callable[[Win], bool]:
    def check(w: Win) -> bool:
        target = w.seat if seat_or_round == "seat" else w.round if seat_or_round == "round" else kind
        return (seat_or_round not in ("seat", "round") or target == kind) and any(g.first == kind for g in w.triplets)
    return check


# --- yakuman ---
def kokushi_musou(w: Win) -> bool: return w.reading.form == "kokushi" and w.reading.wait != "thirteen-sided"
def kokushi_musou_13(w: Win) -> bool: return w.reading.form == "kokushi" and w.reading.wait == "thirteen-sided"
def suuankou(w: Win) -> bool: return _concealed_triplets(w) == 4 and w.reading.wait != TANKI
def suuankou_tanki(w: Win) -> bool: return _concealed_triplets(w) == 4 and w.reading.wait == TANKI
def daisangen(w: Win) -> bool: return sum(1 for g in w.triplets if g.first in DRAGONS) == 3


def shousuushii(w: Win) -> bool:
    return w.regular and sum(1 for g in w.triplets if g.first in WIND_KINDS) == 3 and w.pair.first in WIND_KINDS


def daisuushii(w: Win) -> bool: return sum(1 for g in w.triplets if g.first in WIND_KINDS) == 4
def tsuuiisou(w: Win) -> bool: return all(k >= 27 for k in w.kinds)
def chinroutou(w: Win) -> bool: return all(k in TERMINALS for k in w.kinds)
def ryuuiisou(w: Win) -> bool: return all(k in GREEN for k in w.kinds)
def suukantsu(w: Win) -> bool: return sum(1 for g in w.sets if g.kan) == 4


def _chuuren_counts(w: Win) -> list[int] | None:
    suits = _suits(w)
    if not w.closed or len(suits) != 1 or _has_honor(w) or any(g.called for g in w.sets):
        return None
    s = suits.pop() * 9
    c = w.concealed[s:s + 9]
    if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):
        return c
    return None


def _chuuren_pure(w: Win) -> bool:
    """Nine-sided: the thirteen tiles before the win were exactly 1112345678999."""
    c = list(_chuuren_counts(w))
    c[w.win % 9] -= 1
    return c == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def chuuren_poutou(w: Win) -> bool: return _chuuren_counts(w) is not None and not _chuuren_pure(w)
def junsei_chuuren_poutou(w: Win) -> bool: return _chuuren_counts(w) is not None and _chuuren_pure(w)
def tenhou(w: Win) -> bool: return w.ctx.tenhou
def chiihou(w: Win) -> bool: return w.ctx.chiihou
def renhou_yakuman(w: Win) -> bool: return w.ctx.renhou and w.ctx.ruleset.renhou == "yakuman"
def renhou_mangan(w: Win) -> bool: return w.ctx.renhou and w.ctx.ruleset.renhou == "mangan"


# name -> (predicate, closed han, open han or None for closed-only)
HAN: dict[str, tuple[Callable[[Win], bool], int, int | None]] = {
    "menzen tsumo": (menzen_tsumo, 1, None),
    "riichi": (riichi, 1, None),
    "ippatsu": (ippatsu, 1, None),
    "chankan": (chankan, 1, 1),
    "rinshan kaihou": (rinshan_kaihou, 1, 1),
    "haitei": (haitei, 1, 1),
    "houtei": (houtei, 1, 1),
    "pinfu": (pinfu, 1, None),
    "tanyao": (tanyao, 1, 1),
    "iipeikou": (iipeikou, 1, None),
    **{f"seat wind {WIND_NAMES[k]}": (_yakuhai(k, "seat"), 1, 1) for k in WIND_KINDS},
    **{f"round wind {WIND_NAMES[k]}": (_yakuhai(k, "round"), 1, 1) for k in WIND_KINDS},
    "haku": (_yakuhai(31, "dragon"), 1, 1),
    "hatsu": (_yakuhai(32, "dragon"), 1, 1),
    "chun": (_yakuhai(33, "dragon"), 1, 1),
    "double riichi": (double_riichi, 2, None),
    "chiitoitsu": (chiitoitsu, 2, None),
    "chanta": (chanta, 2, 1),
    "ittsu": (ittsu, 2, 1),
    "sanshoku doujun": (sanshoku_doujun, 2, 1),
    "sanshoku doukou": (sanshoku_doukou, 2, 2),
    "sankantsu": (sankantsu, 2, 2),
    "toitoi": (toitoi, 2, 2),
    "sanankou": (sanankou, 2, 2),
    "shousangen": (shousangen, 2, 2),
    "honroutou": (honroutou, 2, 2),
    "ryanpeikou": (ryanpeikou, 3, None),
    "junchan": (junchan, 3, 2),
    "honitsu": (honitsu, 3, 2),
    "chinitsu": (chinitsu, 6, 5),
    "renhou": (renhou_mangan, 5, None),
}

# A yaku that a stronger one replaces.
SUPERSEDED_BY = {
    "iipeikou": "ryanpeikou", "chanta": "junchan", "honitsu": "chinitsu", "riichi": "double riichi",
}

# name -> (predicate, multiple, counts double only where the ruleset has double yakuman)
YAKUMAN: dict[str, tuple[Callable[[Win], bool], bool]] = {
    "kokushi musou": (kokushi_musou, False),
    "kokushi musou 13-sided": (kokushi_musou_13, True),
    "suuankou": (suuankou, False),
    "suuankou tanki": (suuankou_tanki, True),
    "daisangen": (daisangen, False),
    "shousuushii": (shousuushii, False),
    "daisuushii": (daisuushii, True),
    "tsuuiisou": (tsuuiisou, False),
    "chinroutou": (chinroutou, False),
    "ryuuiisou": (ryuuiisou, False),
    "chuuren poutou": (chuuren_poutou, False),
    "junsei chuuren poutou": (junsei_chuuren_poutou, True),
    "suukantsu": (suukantsu, False),
    "tenhou": (tenhou, False),
    "chiihou": (chiihou, False),
    "renhou": (renhou_yakuman, False),
}


def find_yakuman(w: Win) -> list[tuple[str, int]]:
    """Yakuman of this reading with their multiple (1, or 2 for a double yakuman where allowed)."""
    rules = w.ctx.ruleset
    found = [(name, 2 if double and rules.double_yakuman else 1) for name, (pred, double) in YAKUMAN.items() if pred(w)]
    if found and not rules.yakuman_stacking:
        found = [max(found, key=lambda x: x[1])]
    return found


def find_yaku(w: Win) -> list[tuple[str, int]]:
    """Ordinary yaku of this reading with their han (open values for an open hand)."""
    found = {}
    for name, (pred, closed_han, open_han) in HAN.items():
        han = closed_han if w.closed else open_han
        if han is not None and pred(w):
            found[name] = han
    for weaker, stronger in SUPERSEDED_BY.items():
        if stronger in found:
            found.pop(weaker, None)
    return list(found.items())

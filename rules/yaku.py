"""Yaku: which yaku a reading of a complete hand has, han values in one table, one small predicate per yaku.

``HAN`` gives every ordinary yaku's (closed han, open han); open ``None`` means closed only. ``YAKUMAN`` gives
every yakuman and whether it counts double where the ruleset has double yakuman. Both tables are in the order
the yaku are listed in a result. Names follow the usual romanisation, as Tenhou's records do.

Scoring tries every reading of a hand, so the work is split: :class:`HandShape` holds what the tiles alone
decide -- the kinds present, the honour sets (an honour is a triplet or the pair in every regular reading), the
readings with their groups sorted out -- and is cached by :func:`hand_shape`; :class:`Win` puts one reading
together with the context (winds, tsumo, table events). Each yaku is a predicate over a ``Win``, named after
it, with its rule in the docstring; ``YAKU_TESTS`` and ``YAKUMAN_TESTS`` list them in table order, and
:func:`find_yaku` and :func:`find_yakuman` run them.
"""
from __future__ import annotations

from functools import lru_cache, partial
from operator import attrgetter
from typing import Callable

from .context import Context
from .decompose import RED_SHIFT, RUN, RYANMEN, TANKI, Reading, count_of, fields, meld_info, pack, readings
from .tiles import _KIND_INDEX, TERMINALS_AND_HONORS, Meld

DRAGONS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)
GREEN = frozenset([19, 20, 21, 23, 25, 32])  # 2s 3s 4s 6s 8s hatsu
TERMINALS = frozenset([0, 8, 9, 17, 18, 26])
WIND_NAMES = {27: "east", 28: "south", 29: "west", 30: "north"}

# name -> (closed han, open han or None for closed-only), in the order results list them
HAN: dict[str, tuple[int, int | None]] = {
    "menzen tsumo": (1, None),  # 門前清自摸和: closed hand, self-drawn
    "riichi": (1, None),
    "ippatsu": (1, None),
    "chankan": (1, 1),
    "rinshan kaihou": (1, 1),
    "haitei": (1, 1),  # not on a rinshan draw
    "houtei": (1, 1),
    "pinfu": (1, None),  # 平和: four runs, a pair worth no fu, a two-sided wait
    "tanyao": (1, 1),  # 断幺九: simples only (open only where kuitan is played)
    "iipeikou": (1, None),  # 一盃口: two identical runs
    **{f"seat wind {WIND_NAMES[k]}": (1, 1) for k in WIND_KINDS},
    **{f"round wind {WIND_NAMES[k]}": (1, 1) for k in WIND_KINDS},
    "haku": (1, 1),
    "hatsu": (1, 1),
    "chun": (1, 1),
    "double riichi": (2, None),
    "chiitoitsu": (2, None),
    "chanta": (2, 1),  # 混全帯幺九: every group holds a terminal or honour; a run and an honour
    "ittsu": (2, 1),  # 一気通貫: 123 456 789 of one suit
    "sanshoku doujun": (2, 1),  # 三色同順: one run in all three suits
    "sanshoku doukou": (2, 2),  # 三色同刻: one triplet in all three suits
    "sankantsu": (2, 2),
    "toitoi": (2, 2),  # 対々和: four triplets or quads
    "sanankou": (2, 2),  # 三暗刻: three concealed triplets (one completed by ron is not concealed)
    "shousangen": (2, 2),  # 小三元: two dragon triplets and a dragon pair
    "honroutou": (2, 2),  # 混老頭: terminals and honours only, both present
    "ryanpeikou": (3, None),  # 二盃口: two pairs of identical runs
    "junchan": (3, 2),  # 純全帯幺九: every group holds a terminal, with a run
    "honitsu": (3, 2),  # 混一色: one suit plus honours
    "chinitsu": (6, 5),  # 清一色: one suit, no honours
    "renhou": (5, None),  # where the ruleset pays renhou as a mangan
}

# name -> counts double where the ruleset has double yakuman, in the order results list them
YAKUMAN: dict[str, bool] = {
    "kokushi musou": False,
    "kokushi musou 13-sided": True,  # the thirteen tiles before the win were all thirteen kinds
    "suuankou": False,  # four concealed triplets
    "suuankou tanki": True,  # ... won on the pair
    "daisangen": False,
    "shousuushii": False,  # three wind triplets and a wind pair
    "daisuushii": True,
    "tsuuiisou": False,
    "chinroutou": False,
    "ryuuiisou": False,  # 2 3 4 6 8 sou and hatsu only
    "chuuren poutou": False,  # closed, one suit: 1112345678999 plus one
    "junsei chuuren poutou": True,  # ... and the thirteen before the win were exactly 1112345678999
    "suukantsu": False,
    "tenhou": False,
    "chiihou": False,
    "renhou": False,  # where the ruleset makes renhou a yakuman
}

_DRAGON_NAMES = {31: "haku", 32: "hatsu", 33: "chun"}

# Masks over packed counts (see rules.decompose): what kinds a hand holds is one AND per question.
_SUIT_FIELDS = (fields(range(0, 9)), fields(range(9, 18)), fields(range(18, 27)))
_HONOUR_FIELDS = fields(range(27, 34))
_TERMINAL_FIELDS = fields(TERMINALS)
_SIMPLE_FIELDS = fields(set(range(34)) - TERMINALS_AND_HONORS)
_NOT_GREEN_FIELDS = fields(set(range(34)) - GREEN)
_NOT_TERMINAL_FIELDS = fields(set(range(34)) - TERMINALS)


@lru_cache(maxsize=None)
def _honour_sets(pattern: int) -> tuple[tuple[int, ...], int, int]:
    """(honour kinds with 3 or 4 tiles, how many are dragons, how many winds) of the honours' packed counts
    (at most 5**7 patterns). In a regular reading such an honour is a triplet or quad, never in the pair."""
    kinds = tuple(27 + i for i in range(7) if pattern >> 3 * i & 7 >= 3)
    dragons = sum(1 for k in kinds if k >= 31)
    return kinds, dragons, len(kinds) - dragons


class HandShape:
    """What every reading of one hand shares, and the readings: the tiles' packed counts, whether the hand is
    closed, what kinds of tiles it holds, its honour sets. It depends on the tiles, the winning tile and whether
    the win was a tsumo (a triplet completed by ron is open), not on the rest of the context: see
    :func:`hand_shape`, which caches it. Its tuples are shared: never change them."""

    __slots__ = ("key", "win", "closed", "n_suits", "has_honor", "simples_only", "terminals_honours_only",
                 "all_honours", "all_terminals", "all_green", "red", "n_kans", "honour_triplets",
                 "dragon_triplets", "wind_triplets", "chuuren", "maybe_yakuman", "readings")

    def __init__(self, concealed_tiles: tuple[str, ...], melds: tuple[Meld, ...], win_tile: str, tsumo: bool):
        self.win = win = _KIND_INDEX[win_tile]
        concealed = key = pack(concealed_tiles)  # the winning tile included
        closed, n_kans, called = True, 0, ()
        for m in melds:
            group, tiles = meld_info(m.kind, m.tiles)
            called += (group,)
            key += tiles
            if group.open:
                closed = False
            n_kans += group.kan
        self.key = key  # every tile of the hand, melds included
        self.closed = closed
        self.red = key >> RED_SHIFT
        man, pin, sou = _SUIT_FIELDS
        self.n_suits = n_suits = (key & man != 0) + (key & pin != 0) + (key & sou != 0)
        self.has_honor = has_honor = bool(key & _HONOUR_FIELDS)
        self.simples_only = not key & (_TERMINAL_FIELDS | _HONOUR_FIELDS)
        self.terminals_honours_only = not key & _SIMPLE_FIELDS
        self.all_honours = all_honours = not n_suits
        self.all_terminals = all_terminals = not key & _NOT_TERMINAL_FIELDS
        self.all_green = all_green = not key & _NOT_GREEN_FIELDS
        self.n_kans = n_kans
        honours = (key & _HONOUR_FIELDS) >> 3 * 27  # the honours' packed counts
        self.honour_triplets, dragons, winds = _honour_sets(honours) if has_honor else ((), 0, 0)
        self.dragon_triplets, self.wind_triplets = dragons, winds
        self.chuuren = chuuren = None
        if not melds and n_suits == 1 and not has_honor:  # closed, no kan, one suit
            s = 9 * [i for i, f in enumerate(_SUIT_FIELDS) if key & f][0]
            c = [count_of(key, s + i) for i in range(9)]
            if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):  # 1112345678999 plus one tile
                c[win - s] -= 1
                self.chuuren = chuuren = "pure" if c == [3, 1, 1, 1, 1, 1, 1, 1, 3] else "plain"
        # Whether a yakuman the tiles alone make (not kokushi or suuankou, read from the reading) is possible.
        self.maybe_yakuman = bool(all_honours or all_terminals or all_green or chuuren or n_kans == 4
                                  or dragons == 3 or winds >= 3)
        self.readings = readings(concealed, called, win, tsumo)


@lru_cache(maxsize=8192)
def hand_shape(concealed_tiles: tuple[str, ...], melds: tuple[Meld, ...], win_tile: str, tsumo: bool) -> HandShape:
    """The :class:`HandShape` of a hand, cached: the same hand is often scored again (every wait of a hand
    is scored for ron and tsumo, a camera reads the same table frame after frame)."""
    return HandShape(concealed_tiles, melds, win_tile, tsumo)


class Win:
    """One reading of a complete hand, with the hand's shared facts and the context it is scored in."""

    __slots__ = ("reading", "hand", "ctx", "rules", "closed", "regular", "pair", "runs", "triplets",
                 "concealed_triplets", "seat", "round", "is_pinfu")

    def __init__(self, reading: Reading, hand: HandShape, ctx: Context, seat: int, round_wind: int):
        self.reading = reading
        self.hand = hand
        self.ctx = ctx
        self.rules = ctx.ruleset
        self.closed = hand.closed
        self.seat = seat
        self.round = round_wind
        self.regular = reading.form == "regular"
        self.pair = reading.pair
        self.runs = reading.runs  # first kinds of the runs
        self.triplets = reading.triplets  # triplet and quad groups
        self.concealed_triplets = reading.concealed_triplets
        self.is_pinfu = pinfu(self)  # fu needs it too


def _identical_run_pairs(runs: tuple[int, ...]) -> int:
    """How many pairs of identical runs (one of a run's copies pairs once)."""
    if len(set(runs)) == len(runs):
        return 0
    r = sorted(runs)
    pairs, i = 0, 0
    while i < len(r) - 1:
        if r[i] == r[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _every_group_has(w: Win, allowed: frozenset[int]) -> bool:
    """Whether every set and the pair holds a kind of ``allowed`` (terminals, or terminals and honours)."""
    return (w.pair.first in allowed and all([f % 9 in (0, 6) for f in w.runs])  # a run's terminal is at an end
            and all([g.first in allowed for g in w.triplets]))


def _in_all_suits(firsts) -> bool:
    """Whether some number is among the kinds ``firsts`` in all three suits."""
    for f in firsts:
        if f < 9 and f + 9 in firsts and f + 18 in firsts:
            return True
    return False


# ------------------------------------------------------------------------------------------------------ yaku
# One predicate per yaku, in HAN order; find_yaku tries a closed-only yaku (open han None) on closed hands only.
# A yaku that a stronger one replaces is never found with it: iipeikou and ryanpeikou, chanta and junchan,
# honitsu and chinitsu, riichi and double riichi exclude each other.

def menzen_tsumo(w: Win) -> bool:
    """門前清自摸和: a closed hand, self-drawn."""
    return w.closed and w.ctx.tsumo


def riichi(w: Win) -> bool:
    """立直: declared ready (a double riichi is its own yaku)."""
    return w.ctx.riichi and not w.ctx.double_riichi


def ippatsu(w: Win) -> bool:
    """一発: won within one go-around of riichi, no call between."""
    return w.ctx.ippatsu and w.rules.ippatsu


def chankan(w: Win) -> bool:
    """槍槓: won on the tile another player adds to a pon."""
    return w.ctx.chankan


def rinshan_kaihou(w: Win) -> bool:
    """嶺上開花: won on the replacement tile after a kan."""
    return w.ctx.rinshan


def haitei(w: Win) -> bool:
    """海底摸月: won on the last tile of the wall, self-drawn (never a rinshan draw: ``Context`` refuses both)."""
    return w.ctx.haitei


def houtei(w: Win) -> bool:
    """河底撈魚: won on the last discard."""
    return w.ctx.houtei


def pinfu(w: Win) -> bool:
    """平和: closed, four runs, a pair worth no fu, an open (two-sided) wait; on a tsumo where the rules allow."""
    if not (w.closed and w.regular and len(w.runs) == 4 and w.reading.wait == RYANMEN):
        return False
    p = w.pair.first
    if p >= 31 or p == w.seat or p == w.round:
        return False
    return w.rules.pinfu_tsumo or not w.ctx.tsumo


def tanyao(w: Win) -> bool:
    """断幺九: simples only (an open hand only where kuitan is played)."""
    return w.hand.simples_only and (w.closed or w.rules.kuitan)


def iipeikou(w: Win) -> bool:
    """一盃口: closed, two identical runs (two pairs of them are ryanpeikou)."""
    return w.closed and _identical_run_pairs(w.runs) == 1


def seat_wind(kind: int, w: Win) -> bool:
    """自風牌: a triplet or quad of the player's seat wind."""
    return w.seat == kind and w.regular and kind in w.hand.honour_triplets


def round_wind(kind: int, w: Win) -> bool:
    """場風牌: a triplet or quad of the round wind."""
    return w.round == kind and w.regular and kind in w.hand.honour_triplets


def dragon(kind: int, w: Win) -> bool:
    """三元牌 (haku, hatsu, chun): a triplet or quad of that dragon."""
    return kind in w.hand.honour_triplets and w.regular


def double_riichi(w: Win) -> bool:
    """ダブル立直: riichi declared on the first turn, no call before it."""
    return w.ctx.double_riichi


def chiitoitsu(w: Win) -> bool:
    """七対子: seven different pairs."""
    return w.reading.form == "chiitoitsu"


def chanta(w: Win) -> bool:
    """混全帯幺九: every set and the pair holds a terminal or honour, with a run and an honour."""
    return bool(w.runs) and w.hand.has_honor and _every_group_has(w, TERMINALS_AND_HONORS)


def ittsu(w: Win) -> bool:
    """一気通貫: 123 456 789 of one suit."""
    runs = w.runs
    if len(runs) >= 3:
        for s in (0, 9, 18):
            if s in runs and s + 3 in runs and s + 6 in runs:
                return True
    return False


def sanshoku_doujun(w: Win) -> bool:
    """三色同順: the same run in all three suits."""
    return len(w.runs) >= 3 and _in_all_suits(w.runs)


def sanshoku_doukou(w: Win) -> bool:
    """三色同刻: a triplet or quad of the same number in all three suits."""
    return len(w.triplets) >= 3 and _in_all_suits([g.first for g in w.triplets])


def sankantsu(w: Win) -> bool:
    """三槓子: three quads."""
    return w.hand.n_kans == 3


def toitoi(w: Win) -> bool:
    """対々和: four triplets or quads."""
    return w.regular and len(w.triplets) == 4


def sanankou(w: Win) -> bool:
    """三暗刻: three concealed triplets or quads (one completed by a ron is not concealed)."""
    return w.concealed_triplets == 3


def shousangen(w: Win) -> bool:
    """小三元: two dragon triplets and a dragon pair."""
    return w.regular and w.hand.dragon_triplets == 2 and w.pair.first >= 31


def honroutou(w: Win) -> bool:
    """混老頭: terminals and honours only, both present."""
    h = w.hand
    return h.terminals_honours_only and h.has_honor and not h.all_honours


def ryanpeikou(w: Win) -> bool:
    """二盃口: closed, two pairs of identical runs."""
    return w.closed and _identical_run_pairs(w.runs) == 2


def junchan(w: Win) -> bool:
    """純全帯幺九: every set and the pair holds a terminal, with a run."""
    h = w.hand
    return bool(w.runs) and not h.has_honor and not h.simples_only and _every_group_has(w, TERMINALS)


def honitsu(w: Win) -> bool:
    """混一色: one suit plus honours."""
    return w.hand.n_suits == 1 and w.hand.has_honor


def chinitsu(w: Win) -> bool:
    """清一色: one suit, no honours."""
    return w.hand.n_suits == 1 and not w.hand.has_honor


def renhou_mangan(w: Win) -> bool:
    """人和 as a yaku: won on a discard before one's first draw, no call before (where the ruleset pays a
    mangan's 5 han for it)."""
    return w.ctx.renhou and w.rules.renhou == "mangan"


YAKU_TESTS = {
    "menzen tsumo": menzen_tsumo, "riichi": riichi, "ippatsu": ippatsu, "chankan": chankan,
    "rinshan kaihou": rinshan_kaihou, "haitei": haitei, "houtei": houtei, "pinfu": pinfu, "tanyao": tanyao,
    "iipeikou": iipeikou,
    **{f"seat wind {WIND_NAMES[k]}": partial(seat_wind, k) for k in WIND_KINDS},
    **{f"round wind {WIND_NAMES[k]}": partial(round_wind, k) for k in WIND_KINDS},
    **{name: partial(dragon, k) for k, name in _DRAGON_NAMES.items()},
    "double riichi": double_riichi, "chiitoitsu": chiitoitsu, "chanta": chanta, "ittsu": ittsu,
    "sanshoku doujun": sanshoku_doujun, "sanshoku doukou": sanshoku_doukou, "sankantsu": sankantsu,
    "toitoi": toitoi, "sanankou": sanankou, "shousangen": shousangen, "honroutou": honroutou,
    "ryanpeikou": ryanpeikou, "junchan": junchan, "honitsu": honitsu, "chinitsu": chinitsu,
    "renhou": renhou_mangan,
}
assert list(YAKU_TESTS) == list(HAN), "one predicate per yaku, in HAN order"

# Many yaku are out of reach of a hand and context in ways seen at once: a closed-only yaku (open han None) on
# an open hand, a yakuhai without its honour's triplet, a table event (ippatsu, chankan...) the context does not
# have. find_yaku tries only the others; the list for each (closed, honour triplets, events) is made once.
_HONOUR_YAKU = {**{f"seat wind {WIND_NAMES[k]}": k for k in WIND_KINDS},
                **{f"round wind {WIND_NAMES[k]}": k for k in WIND_KINDS},
                **{name: k for k, name in _DRAGON_NAMES.items()}}  # yaku -> the honour it needs a triplet of
_EVENT_YAKU = {"ippatsu": "ippatsu", "chankan": "chankan", "rinshan kaihou": "rinshan", "haitei": "haitei",
               "houtei": "houtei", "double riichi": "double_riichi", "renhou": "renhou"}  # yaku -> Context flag
_EVENTS = tuple(_EVENT_YAKU.values())
_events_of = attrgetter(*_EVENTS)  # a Context's flags of these events, in this order
YakuTest = tuple[str, int, Callable[[Win], bool]]  # name, han, predicate


@lru_cache(maxsize=4096)
def _yaku_to_try(closed: bool, honours: tuple[int, ...], events: tuple[bool, ...]) -> tuple[YakuTest, ...]:
    """(name, han, predicate) of every yaku that can hold on a hand that is ``closed`` or open, has triplets of
    ``honours`` and is won with these table ``events`` (flags in ``_EVENTS`` order), in HAN order."""
    happened = {event for event, flag in zip(_EVENTS, events) if flag}
    out = []
    for name, test in YAKU_TESTS.items():
        han = HAN[name][0 if closed else 1]
        if (han is None or (name in _HONOUR_YAKU and _HONOUR_YAKU[name] not in honours)
                or (name in _EVENT_YAKU and _EVENT_YAKU[name] not in happened)):
            continue
        out.append((name, han, test))
    return tuple(out)


def find_yaku(w: Win) -> list[tuple[str, int]]:
    """Ordinary yaku of this reading with their han (open values for an open hand), in ``HAN`` order."""
    tests = _yaku_to_try(w.closed, w.hand.honour_triplets, _events_of(w.ctx))
    return [(name, han) for name, han, test in tests if test(w)]


# --------------------------------------------------------------------------------------------------- yakuman
# One predicate per yakuman, in YAKUMAN order.

def kokushi_musou(w: Win) -> bool:
    """国士無双: one of each terminal and honour, and one of them twice (not a 13-sided wait)."""
    return w.reading.form == "kokushi" and w.reading.wait != "thirteen-sided"


def kokushi_musou_13_sided(w: Win) -> bool:
    """国士無双十三面: kokushi whose thirteen tiles before the win were all thirteen kinds."""
    return w.reading.form == "kokushi" and w.reading.wait == "thirteen-sided"


def suuankou(w: Win) -> bool:
    """四暗刻: four concealed triplets or quads (not won on the pair: that is suuankou tanki)."""
    return w.concealed_triplets == 4 and w.reading.wait != TANKI


def suuankou_tanki(w: Win) -> bool:
    """四暗刻単騎: four concealed triplets or quads, won on the pair."""
    return w.concealed_triplets == 4 and w.reading.wait == TANKI


def daisangen(w: Win) -> bool:
    """大三元: triplets or quads of all three dragons."""
    return w.regular and w.hand.dragon_triplets == 3


def shousuushii(w: Win) -> bool:
    """小四喜: three wind triplets and a wind pair."""
    return w.regular and w.hand.wind_triplets == 3 and 27 <= w.pair.first <= 30


def daisuushii(w: Win) -> bool:
    """大四喜: triplets or quads of all four winds."""
    return w.regular and w.hand.wind_triplets == 4


def tsuuiisou(w: Win) -> bool:
    """字一色: honours only."""
    return w.hand.all_honours


def chinroutou(w: Win) -> bool:
    """清老頭: terminals only."""
    return w.hand.all_terminals


def ryuuiisou(w: Win) -> bool:
    """緑一色: 2 3 4 6 8 sou and hatsu only."""
    return w.hand.all_green


def chuuren_poutou(w: Win) -> bool:
    """九蓮宝燈: closed, one suit, 1112345678999 plus one tile of the suit."""
    return w.hand.chuuren == "plain"


def junsei_chuuren_poutou(w: Win) -> bool:
    """純正九蓮宝燈: chuuren whose thirteen tiles before the win were exactly 1112345678999."""
    return w.hand.chuuren == "pure"


def suukantsu(w: Win) -> bool:
    """四槓子: four quads."""
    return w.hand.n_kans == 4


def tenhou(w: Win) -> bool:
    """天和: the dealer's win on the first draw."""
    return w.ctx.tenhou


def chiihou(w: Win) -> bool:
    """地和: a non-dealer's win on the first draw, no call before."""
    return w.ctx.chiihou


def renhou_yakuman(w: Win) -> bool:
    """人和 as a yakuman (where the ruleset makes it one)."""
    return w.ctx.renhou and w.rules.renhou == "yakuman"


YAKUMAN_TESTS = {
    "kokushi musou": kokushi_musou, "kokushi musou 13-sided": kokushi_musou_13_sided, "suuankou": suuankou,
    "suuankou tanki": suuankou_tanki, "daisangen": daisangen, "shousuushii": shousuushii,
    "daisuushii": daisuushii, "tsuuiisou": tsuuiisou, "chinroutou": chinroutou, "ryuuiisou": ryuuiisou,
    "chuuren poutou": chuuren_poutou, "junsei chuuren poutou": junsei_chuuren_poutou, "suukantsu": suukantsu,
    "tenhou": tenhou, "chiihou": chiihou, "renhou": renhou_yakuman,
}
assert list(YAKUMAN_TESTS) == list(YAKUMAN), "one predicate per yakuman, in YAKUMAN order"


def find_yakuman(w: Win) -> list[tuple[str, int]]:
    """Yakuman of this reading with their multiple (1, or 2 for a double yakuman where allowed)."""
    ctx = w.ctx
    # No yakuman's predicate holds unless one of these does (most hands): skip trying them.
    if not (w.hand.maybe_yakuman or w.concealed_triplets == 4 or w.reading.form == "kokushi" or ctx.tenhou
            or ctx.chiihou or ctx.renhou):
        return []
    names = [name for name, test in YAKUMAN_TESTS.items() if test(w)]
    if not names:
        return []
    rules = w.rules
    found = [(name, 2 if YAKUMAN[name] and rules.double_yakuman else 1) for name in names]
    if not rules.yakuman_stacking:
        found = [max(found, key=lambda x: x[1])]
    return found

"""Yaku: which yaku a reading of a complete hand has, han values in one table.

``HAN`` gives every ordinary yaku's (closed han, open han); open ``None`` means closed only. ``YAKUMAN`` gives
every yakuman and whether it counts double where the ruleset has double yakuman. Both tables are in the order
the yaku are listed in a result. Names follow the usual romanisation, as Tenhou's records do.

Scoring tries every reading of a hand, so the work is split: :class:`HandShape` holds what the tiles alone
decide -- the kinds present, the honour sets (an honour is a triplet or the pair in every regular reading), the
readings with their groups sorted out -- and is cached by :func:`hand_shape`; :class:`Win` puts one reading
together with the context (winds, tsumo, table events). :func:`find_yaku` and :func:`find_yakuman` read a
``Win``; each yaku's rule is written out there, in table order.
"""
from __future__ import annotations

from functools import lru_cache

from .context import Context
from .decompose import PAIR, RUN, RYANMEN, TANKI, Reading, readings
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

# A yaku that a stronger one replaces is never found with it: find_yaku's rules for iipeikou and ryanpeikou,
# chanta and junchan, honitsu and chinitsu, riichi and double riichi exclude each other.
_CLOSED_HAN = {name: closed for name, (closed, _) in HAN.items()}
_OPEN_HAN = {name: open_ for name, (_, open_) in HAN.items() if open_ is not None}

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

_SEAT_NAMES = {k: f"seat wind {WIND_NAMES[k]}" for k in WIND_KINDS}
_ROUND_NAMES = {k: f"round wind {WIND_NAMES[k]}" for k in WIND_KINDS}
_DRAGON_NAMES = {31: "haku", 32: "hatsu", 33: "chun"}

# Per tile code: its kind and a bit mask of what it is, so one pass over the tiles finds what all of them
# are (AND of the masks) and what any of them is (OR).
_TERMINAL_OR_HONOUR, _TERMINAL, _GREEN, _HONOUR = 1, 2, 4, 8
_SUIT_BITS = (16, 32, 64)  # man, pin, sou


def _tile_mask(k: int) -> int:
    return ((_TERMINAL_OR_HONOUR if k in TERMINALS_AND_HONORS else 0) | (_TERMINAL if k in TERMINALS else 0)
            | (_GREEN if k in GREEN else 0) | (_HONOUR if k >= 27 else _SUIT_BITS[k // 9]))


_TILE_INFO = {t: (k, _tile_mask(k)) for t, k in _KIND_INDEX.items()}
_SUITS_OF_BITS = [tuple(i for i in range(3) if b >> i & 1) for b in range(8)]  # suit bits -> the suits
_ALL_BITS = 127


class ReadingShape:
    """One reading's groups sorted out: its sets, pair, runs (their first kinds) and triplets (quads too)."""

    __slots__ = ("reading", "regular", "sets", "pair", "runs", "triplets", "concealed_triplets")

    def __init__(self, reading: Reading):
        self.reading = reading
        self.regular = reading.form == "regular"
        sets, runs, triplets = [], [], []
        pair = None
        concealed_triplets = 0
        for g in reading.groups:
            shape = g.shape
            if shape == PAIR:
                if pair is None:
                    pair = g
                continue
            sets.append(g)
            if shape == RUN:
                runs.append(g.first)
            else:
                triplets.append(g)
                if not g.open:
                    concealed_triplets += 1
        self.sets = tuple(sets)
        self.pair = pair
        self.runs = tuple(runs)
        self.triplets = tuple(triplets)
        self.concealed_triplets = concealed_triplets


class HandShape:
    """What every reading of one hand shares, and the readings: the tiles by kind, whether the hand is closed,
    what kinds of tiles it holds, its honour sets. It depends on the tiles, the winning tile and whether the
    win was a tsumo (a triplet completed by ron is open), not on the rest of the context: see
    :func:`hand_shape`, which caches it. Its lists are shared: never change them."""

    __slots__ = ("counts", "concealed", "win", "closed", "n_suits", "has_honor", "simples_only",
                 "terminals_honours_only", "all_honours", "all_terminals", "all_green", "red", "n_kans",
                 "honour_triplets", "dragon_triplets", "wind_triplets", "chuuren", "maybe_yakuman", "readings")

    def __init__(self, concealed_tiles: tuple[str, ...], melds: tuple[Meld, ...], win_tile: str, tsumo: bool):
        info = _TILE_INFO
        concealed = [0] * 34
        any_bits, all_bits = 0, _ALL_BITS
        for t in concealed_tiles:
            k, bits = info[t]
            concealed[k] += 1
            any_bits |= bits
            all_bits &= bits
        counts = concealed[:] if melds else concealed
        red = concealed_tiles.count("0m") + concealed_tiles.count("0p") + concealed_tiles.count("0s")
        closed = True
        n_kans = 0
        for m in melds:
            if m.kind != "ankan":
                closed = False
            if len(m.tiles) == 4:
                n_kans += 1
            for t in m.tiles:
                k, bits = info[t]
                counts[k] += 1
                any_bits |= bits
                all_bits &= bits
                if t[0] == "0":
                    red += 1
        self.counts = counts  # every tile of the hand, melds included, by kind
        self.concealed = concealed  # concealed tiles including the winning tile
        self.win = win = _KIND_INDEX[win_tile]
        self.closed = closed
        self.red = red
        suits = _SUITS_OF_BITS[any_bits >> 4 & 7]
        self.n_suits = len(suits)
        self.has_honor = has_honor = bool(any_bits & _HONOUR)
        self.simples_only = not any_bits & _TERMINAL_OR_HONOUR
        self.terminals_honours_only = bool(all_bits & _TERMINAL_OR_HONOUR)
        self.all_honours = all_honours = bool(all_bits & _HONOUR)
        self.all_terminals = all_terminals = bool(all_bits & _TERMINAL)
        self.all_green = all_green = bool(all_bits & _GREEN)
        self.n_kans = n_kans
        # In a regular reading an honour is a triplet (3 or 4 tiles) or the pair (2).
        self.honour_triplets = honours = tuple(k for k in range(27, 34) if counts[k] >= 3) if has_honor else ()
        self.dragon_triplets = dragons = sum(1 for k in honours if k >= 31)
        self.wind_triplets = winds = len(honours) - dragons
        self.chuuren = chuuren = None
        if not melds and len(suits) == 1 and not has_honor:  # closed, no kan, one suit
            s = suits[0] * 9
            c = concealed[s:s + 9]
            if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):  # 1112345678999 plus one tile
                c[win % 9] -= 1
                self.chuuren = chuuren = "pure" if c == [3, 1, 1, 1, 1, 1, 1, 1, 3] else "plain"
        # Whether a yakuman the tiles alone make (not kokushi or suuankou, read from the reading) is possible.
        self.maybe_yakuman = bool(all_honours or all_terminals or all_green or chuuren or n_kans == 4
                                  or dragons == 3 or winds >= 3)
        self.readings = tuple(ReadingShape(r) for r in readings(concealed, melds, win, tsumo))


@lru_cache(maxsize=8192)
def hand_shape(concealed_tiles: tuple[str, ...], melds: tuple[Meld, ...], win_tile: str, tsumo: bool) -> HandShape:
    """The :class:`HandShape` of a hand, cached: the same hand is often scored again (every wait of a hand
    is scored for ron and tsumo, a camera reads the same table frame after frame)."""
    return HandShape(concealed_tiles, melds, win_tile, tsumo)


class Win:
    """One reading of a complete hand, with the hand's shared facts and the context it is scored in."""

    __slots__ = ("reading", "hand", "ctx", "closed", "regular", "sets", "pair", "runs", "triplets",
                 "concealed_triplets", "seat", "round", "is_pinfu")

    def __init__(self, rs: ReadingShape, hand: HandShape, ctx: Context, seat: int, round_wind: int):
        self.reading = rs.reading
        self.hand = hand
        self.ctx = ctx
        self.closed = hand.closed
        self.seat = seat
        self.round = round_wind
        self.regular = rs.regular
        self.sets = rs.sets
        self.pair = rs.pair
        self.runs = rs.runs  # first kinds of the runs
        self.triplets = rs.triplets  # triplet and quad groups
        self.concealed_triplets = rs.concealed_triplets
        self.is_pinfu = pinfu(self)


def pinfu(w: Win) -> bool:
    """平和: closed, four runs, a pair worth no fu, an open (two-sided) wait."""
    if not (w.closed and w.regular and len(w.runs) == 4 and w.reading.wait == RYANMEN):
        return False
    p = w.pair.first
    if p >= 31 or p == w.seat or p == w.round:
        return False
    return w.ctx.ruleset.pinfu_tsumo or not w.ctx.tsumo


def _identical_run_pairs(runs: list[int]) -> int:
    """How many pairs of identical runs (one of a run's copies pairs once)."""
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
    for g in w.reading.groups:
        f = g.first
        if not (f in allowed or (g.shape == RUN and f + 2 in allowed)):  # a run's terminal is at an end
            return False
    return True


def find_yaku(w: Win) -> list[tuple[str, int]]:
    """Ordinary yaku of this reading with their han (open values for an open hand), in ``HAN`` order."""
    h, ctx = w.hand, w.ctx
    rules = ctx.ruleset
    closed, regular, runs, triplets = w.closed, w.regular, w.runs, w.triplets
    names: list[str] = []
    add = names.append
    if closed and ctx.tsumo:
        add("menzen tsumo")
    if ctx.riichi and not ctx.double_riichi:
        add("riichi")
    if ctx.ippatsu and rules.ippatsu:
        add("ippatsu")
    if ctx.chankan:
        add("chankan")
    if ctx.rinshan:
        add("rinshan kaihou")
    if ctx.haitei and not ctx.rinshan:
        add("haitei")
    if ctx.houtei:
        add("houtei")
    if w.is_pinfu:
        add("pinfu")
    if h.simples_only and (closed or rules.kuitan):
        add("tanyao")
    peikou = _identical_run_pairs(runs) if closed and len(runs) >= 2 else 0
    if peikou == 1:
        add("iipeikou")
    if regular and h.honour_triplets:  # yakuhai
        for k in h.honour_triplets:
            if k == w.seat:
                add(_SEAT_NAMES[k])
        for k in h.honour_triplets:
            if k == w.round:
                add(_ROUND_NAMES[k])
        for k in h.honour_triplets:
            if k >= 31:
                add(_DRAGON_NAMES[k])
    if ctx.double_riichi:
        add("double riichi")
    if w.reading.form == "chiitoitsu":
        add("chiitoitsu")
    if runs:  # only a regular reading has runs
        if h.has_honor and not h.simples_only and _every_group_has(w, TERMINALS_AND_HONORS):
            add("chanta")
        if len(runs) >= 3:
            starts = set(runs)
            for s in (0, 9, 18):
                if s in starts and s + 3 in starts and s + 6 in starts:
                    add("ittsu")
            for r in starts:
                if r < 9 and r + 9 in starts and r + 18 in starts:
                    add("sanshoku doujun")
                    break
    if len(triplets) >= 3:
        t = {g.first for g in triplets}
        for r in t:
            if r < 9 and r + 9 in t and r + 18 in t:
                add("sanshoku doukou")
                break
    if h.n_kans == 3:
        add("sankantsu")
    if regular and len(triplets) == 4:
        add("toitoi")
    if w.concealed_triplets == 3:
        add("sanankou")
    if regular and h.dragon_triplets == 2 and w.pair.first >= 31:
        add("shousangen")
    if h.terminals_honours_only and h.has_honor and not h.all_honours:
        add("honroutou")
    if peikou == 2:
        add("ryanpeikou")
    if runs and not h.has_honor and not h.simples_only and _every_group_has(w, TERMINALS):
        add("junchan")
    if h.n_suits == 1:
        add("honitsu" if h.has_honor else "chinitsu")
    if ctx.renhou and rules.renhou == "mangan":
        add("renhou")
    if closed:
        return [(name, _CLOSED_HAN[name]) for name in names]
    table = _OPEN_HAN
    return [(name, table[name]) for name in names if name in table]


def find_yakuman(w: Win) -> list[tuple[str, int]]:
    """Yakuman of this reading with their multiple (1, or 2 for a double yakuman where allowed)."""
    h, ctx = w.hand, w.ctx
    names: list[str] = []
    add = names.append
    form = w.reading.form
    if form == "kokushi":
        add("kokushi musou 13-sided" if w.reading.wait == "thirteen-sided" else "kokushi musou")
    if w.concealed_triplets == 4:
        add("suuankou tanki" if w.reading.wait == TANKI else "suuankou")
    if h.maybe_yakuman or ctx.tenhou or ctx.chiihou or ctx.renhou:
        if form == "regular":
            if h.dragon_triplets == 3:
                add("daisangen")
            if h.wind_triplets == 3 and 27 <= w.pair.first <= 30:
                add("shousuushii")
            if h.wind_triplets == 4:
                add("daisuushii")
        if h.all_honours:
            add("tsuuiisou")
        if h.all_terminals:
            add("chinroutou")
        if h.all_green:
            add("ryuuiisou")
        if h.chuuren:
            add("junsei chuuren poutou" if h.chuuren == "pure" else "chuuren poutou")
        if h.n_kans == 4:
            add("suukantsu")
        if ctx.tenhou:
            add("tenhou")
        if ctx.chiihou:
            add("chiihou")
        if ctx.renhou and ctx.ruleset.renhou == "yakuman":
            add("renhou")
    if not names:
        return []
    rules = ctx.ruleset
    found = [(name, 2 if YAKUMAN[name] and rules.double_yakuman else 1) for name in names]
    if not rules.yakuman_stacking:
        found = [max(found, key=lambda x: x[1])]
    return found

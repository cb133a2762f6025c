"""Score a complete hand: try every reading, keep the one worth most (points, then a real yakuman over a counted
one, then han, then fu)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .context import Context
from .decompose import TILE_WEIGHT, count_of
from .fu import fu_breakdown
from .points import LIMIT_BASE, Payment, base_points, limit_name, make_frozen, payments
from .tiles import _KIND_INDEX, WIND_KIND, Hand, HandError, dora_from_indicator
from .yaku import Win, find_yaku, find_yakuman, hand_shape

# Yakuman that a pao (liability) can attach to, and the sets the liable player must have fed: the third dragon set
# for daisangen, the fourth wind set for daisuushii (a wind pon from that player leaves a daisangen without pao).
PAO_YAKUMAN = {"daisangen": ("567", "dragon"), "daisuushii": ("1234", "wind")}


def honour_sets_fed(hand: Hand, source: str) -> set[str]:
    """The honours (their digits) of the hand's open sets called from ``source``: what a pao player fed."""
    return {m.tiles[0][0] for m in hand.melds if m.is_open and m.source == source and m.tiles[0][1] == "z"}


@dataclass(frozen=True)
class WinResult:
    yaku: tuple[tuple[str, int], ...]  # (name, han); yakuman carry 13 per multiple; dora lines at the end
    han: int  # 0 for a yakuman hand
    fu: int
    fu_items: tuple[tuple[str, int], ...]
    yakuman: int  # how many yakuman (0 for an ordinary hand)
    limit: str  # "" | mangan | haneman | baiman | sanbaiman | yakuman
    points: int  # the hand's value before honba and sticks (ron: what the discarder pays; tsumo: all payments)
    payments: tuple[Payment, ...]
    winner_gain: int  # points + honba + riichi sticks
    reading: str  # regular | chiitoitsu | kokushi
    wait: str
    valid: bool = True  # False: complete but no yaku
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {
            "yaku": [list(y) for y in self.yaku], "han": self.han, "fu": self.fu,
            "fu_items": [list(f) for f in self.fu_items], "yakuman": self.yakuman, "limit": self.limit,
            "points": self.points, "payments": [p.to_dict() for p in self.payments],
            "winner_gain": self.winner_gain, "reading": self.reading, "wait": self.wait, "valid": self.valid,
            "notes": list(self.notes),
        }


# indicator code -> the kind it makes dora, four players and three (where 1m points to 9m)
_DORA_OF = {t: dora_from_indicator(k) for t, k in _KIND_INDEX.items()}
_DORA_OF_SANMA = {**_DORA_OF, "1m": 8}


def _dora_in(key: int, indicators: tuple[str, ...], dora_of: dict[str, int]) -> int:
    """How many dora the indicators make of tiles with these packed counts."""
    n = 0
    for t in indicators:
        n += count_of(key, dora_of[t])
    return n


def score_win(hand: Hand, win_tile: str, ctx: Context) -> WinResult:
    """Score a 14-tile hand won on ``win_tile`` (which is among ``hand.concealed``)."""
    tiles, melds = hand.concealed, hand.melds
    if len(tiles) + 3 * len(melds) != 14:
        raise HandError(f"a winning hand has 14 tiles counting 3 per meld, this one has {hand.size}")
    if win_tile not in tiles:
        raise HandError(f"the winning tile {win_tile} must be among the concealed tiles")
    if not ctx.tsumo and ctx.win_from is None:
        raise HandError("a ron needs win_from: whose discard was won on (left, across or right)")
    rules = ctx.ruleset
    shape = hand_shape(tiles, melds, win_tile, ctx.tsumo)
    found = shape.readings
    if not found:
        raise HandError(f"{hand.notation()} is not a complete hand")
    dora_lines, dora_han = _dora_lines(shape.key, shape.red, ctx)
    seat, round_wind = WIND_KIND[ctx.seat_wind], WIND_KIND[ctx.round_wind]
    best: tuple | None = None
    itemise = len(found) == 1  # else the fu items are written for the best reading only
    for reading in found:
        w = Win(reading, shape, ctx, seat, round_wind)
        yakuman = find_yakuman(w)
        fu, fu_items = fu_breakdown(w, w.is_pinfu, itemise)
        if yakuman:
            yaku = [(name, 13 * mult) for name, mult in yakuman]
            han, n_yakuman = 0, sum([m for _, m in yakuman])
            base = base_points(0, fu, n_yakuman, rules)
        else:
            yaku = find_yaku(w)
            han, n_yakuman = sum([h for _, h in yaku]), 0
            base = base_points(han + dora_han, fu, 0, rules) if yaku else 0
        # Equal value: a real yakuman beats a counted (kazoe) one (33344405566677m tsumo with riichi and dora
        # is suuankou, not 14 han of chinitsu and iipeikou: rules/DIFFERENCES.md, fix 1).
        key = (bool(yaku), base, n_yakuman, han, fu)
        if best is None or key > best[0]:
            best = (key, w, yaku, yakuman, fu, fu_items)
    (has_yaku, base, n_yakuman, han, _), w, yaku, yakuman, fu, fu_items = best
    reading = w.reading
    if not itemise:
        fu, fu_items = fu_breakdown(w, w.is_pinfu)
    notes = ()
    if ctx.renhou and rules.renhou == "strict-mangan" and not yakuman:
        if base < LIMIT_BASE["mangan"]:  # renhou alone, a mangan: neither the hand's yaku nor dora add to it
            has_yaku, base, yaku, han, dora_lines, dora_han = True, LIMIT_BASE["mangan"], [("renhou", 5)], 5, [], 0
        else:
            notes = ("renhou not counted: a mangan on its own, and the hand is worth at least that without it",)
    if not has_yaku:
        return make_frozen(
            WinResult, yaku=(), han=0, fu=fu, fu_items=tuple(fu_items), yakuman=0, limit="", points=0, payments=(),
            winner_gain=0, reading=reading.form, wait=reading.wait, valid=False,
            notes=("complete, but no yaku" + (": dora alone cannot win" if dora_han else ""),),
        )
    if not yakuman:
        yaku = yaku + dora_lines
        han += dora_han
    limit = limit_name(han, fu, n_yakuman, rules)
    pao_base = 0
    if ctx.pao and rules.pao:
        fed = honour_sets_fed(hand, ctx.pao)
        liable = [(PAO_YAKUMAN[name], m) for name, m in yakuman if name in PAO_YAKUMAN]
        pao_base = 8000 * sum(m for (honours, _), m in liable if fed & set(honours))
        if liable and not pao_base:
            sets = " or ".join(word for (_, word), _ in liable)
            notes += (f"pao not applied: {ctx.pao} fed no {sets} set of this hand",)
    honba, sticks = ctx.honba, ctx.riichi_sticks
    if ctx.other_winner_nearer:  # the nearer winner takes the sticks, and the honba unless every winner does
        honba = honba if rules.honba_every_winner else 0
        own_stick = rules.honba_every_winner and (ctx.riichi or ctx.double_riichi)  # EMA: a winner's bet comes back
        sticks = min(sticks, 1) if own_stick else 0
    pays = payments(base, ctx.seat_wind == "E", ctx.tsumo, ctx.win_from, seat - 27, honba, rules,
                    ctx.pao if pao_base else None, pao_base)
    points = gain = 0
    for p in pays:
        points += p.points
        gain += p.honba
    return make_frozen(
        WinResult, yaku=tuple(yaku), han=han, fu=fu, fu_items=tuple(fu_items), yakuman=n_yakuman, limit=limit,
        points=points, payments=tuple(pays), winner_gain=points + gain + 1000 * sticks,
        reading=reading.form, wait=reading.wait, valid=True, notes=notes,
    )


def _dora_lines(key: int, red: int, ctx: Context) -> tuple[list[tuple[str, int]], int]:
    """Dora, red fives, ura dora (riichi) and kita lines, and their han: the same for every reading of a hand.
    ``key``: the hand's packed counts (rules.decompose.pack)."""
    rules = ctx.ruleset
    dora_of = _DORA_OF_SANMA if rules.players == 3 else _DORA_OF
    kita = ctx.kita
    if kita:  # a north set aside is a dora tile for the dora and ura indicators (west indicator: +1 each)
        key += kita * TILE_WEIGHT["4z"]
    lines = []
    dora = _dora_in(key, ctx.dora_indicators, dora_of)
    if dora:
        lines.append(("dora", dora))
    if red:
        lines.append(("aka dora", red))
    total = dora + red
    if ctx.riichi and rules.ura_dora:
        ura = _dora_in(key, ctx.ura_indicators, dora_of)
        lines.append(("ura dora", ura))
        total += ura
    if kita:
        lines.append(("kita", kita))
        total += kita
    return lines, total

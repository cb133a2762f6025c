"""Score a complete hand: try every reading, keep the one worth most (points, then han, then fu)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .context import Context
from .decompose import readings
from .fu import fu_breakdown
from .points import Payment, base_points, limit_name, payments
from .tiles import RED_FIVES, WIND_KIND, Hand, HandError, counts34, dora_from_indicator, kind
from .yaku import Win, find_yaku, find_yakuman, pinfu

# Yakuman that a pao (liability) can attach to.
PAO_YAKUMAN = ("daisangen", "daisuushii")


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


def dora_count(tiles: list[str], indicators: tuple[str, ...], players: int) -> int:
    dora = []
    for t in indicators:
        k = kind(t)
        dora.append(8 if players == 3 and k == 0 else dora_from_indicator(k))  # sanma: 1m points to 9m
    counts = counts34(tiles)
    return sum(counts[d] for d in dora)


def score_win(hand: Hand, win_tile: str, ctx: Context) -> WinResult:
    """Score a 14-tile hand won on ``win_tile`` (which is among ``hand.concealed``)."""
    if hand.size != 14:
        raise HandError(f"a winning hand has 14 tiles counting 3 per meld, this one has {hand.size}")
    if win_tile not in hand.concealed:
        raise HandError(f"the winning tile {win_tile} must be among the concealed tiles")
    if not ctx.tsumo and ctx.win_from is None:
        raise HandError("a ron needs win_from: whose discard was won on (left, across or right)")
    rules = ctx.ruleset
    win = kind(win_tile)
    concealed = counts34(hand.concealed)
    all_tiles = hand.all_tiles()
    counts = counts34(all_tiles)
    closed = hand.is_closed
    best: tuple | None = None
    for reading in readings(concealed, hand.melds, win, ctx.tsumo):
        w = Win(reading, counts, concealed, win, closed, ctx)
        yakuman = find_yakuman(w)
        is_pinfu = pinfu(w)
        fu, fu_items = fu_breakdown(w, is_pinfu)
        if yakuman:
            yaku = [(name, 13 * mult) for name, mult in yakuman]
            han, n_yakuman = 0, sum(m for _, m in yakuman)
        else:
            yaku = find_yaku(w)
            han, n_yakuman = sum(h for _, h in yaku), 0
        base = base_points(han + _dora_han(all_tiles, ctx) if yaku and not yakuman else han, fu, n_yakuman, rules)
        key = (bool(yaku), base, han, fu)
        if best is None or key > best[0]:
            best = (key, reading, yaku, yakuman, fu, fu_items)
    if best is None:
        raise HandError(f"{hand.notation()} is not a complete hand")
    (has_yaku, _, _, _), reading, yaku, yakuman, fu, fu_items = best
    lines = list(yaku)
    if has_yaku and not yakuman:
        lines += _dora_lines(all_tiles, ctx)
    han = 0 if yakuman else sum(h for _, h in lines)
    n_yakuman = sum(m for _, m in yakuman)
    limit = limit_name(han, fu, n_yakuman, rules) if has_yaku else ""
    base = base_points(han, fu, n_yakuman, rules) if has_yaku else 0
    pao_base = 8000 * sum(m for name, m in yakuman if name in PAO_YAKUMAN) if ctx.pao and rules.pao else 0
    honba, sticks = (0, 0) if ctx.other_winner_nearer else (ctx.honba, ctx.riichi_sticks)
    pays = payments(base, ctx.dealer, ctx.tsumo, ctx.win_from, WIND_KIND[ctx.seat_wind] - 27, honba, rules,
                    ctx.pao if pao_base else None, pao_base) if has_yaku else []
    points = sum(p.points for p in pays)
    notes = () if has_yaku else ("complete, but no yaku: dora alone cannot win",)
    return WinResult(
        yaku=tuple(lines), han=han, fu=fu, fu_items=tuple(fu_items), yakuman=n_yakuman, limit=limit,
        points=points, payments=tuple(pays),
        winner_gain=(points + sum(p.honba for p in pays) + 1000 * sticks) if has_yaku else 0,
        reading=reading.form, wait=reading.wait, valid=has_yaku, notes=notes,
    )


def _dora_lines(tiles: list[str], ctx: Context) -> list[tuple[str, int]]:
    rules = ctx.ruleset
    lines = []
    dora = dora_count(tiles, ctx.dora_indicators, rules.players)
    if ctx.kita:
        dora += dora_count(["4z"] * ctx.kita, ctx.dora_indicators, rules.players)
    if dora:
        lines.append(("dora", dora))
    red = sum(1 for t in tiles if t in RED_FIVES)
    if red:
        lines.append(("aka dora", red))
    if ctx.riichi and rules.ura_dora:
        lines.append(("ura dora", dora_count(tiles, ctx.ura_indicators, rules.players)))
    if ctx.kita:
        lines.append(("kita", ctx.kita))
    return lines


def _dora_han(tiles: list[str], ctx: Context) -> int:
    return sum(h for _, h in _dora_lines(tiles, ctx))

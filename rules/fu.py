"""Fu with an itemised breakdown, so a referee can check every line."""
from __future__ import annotations

from .decompose import KANCHAN, PAIR, PENCHAN, TANKI, TRIPLET
from .tiles import KINDS, TERMINALS_AND_HONORS
from .yaku import Win

WAIT_FU_NAMES = {KANCHAN: "closed wait (kanchan)", PENCHAN: "edge wait (penchan)", TANKI: "pair wait (tanki)"}


def fu_breakdown(w: Win, is_pinfu: bool) -> tuple[int, list[tuple[str, int]]]:
    """(total rounded up to 10, [(item, fu), ...]). Seven pairs are a flat 25; a pinfu tsumo is a flat 20."""
    rules = w.ctx.ruleset
    if w.reading.form == "chiitoitsu":
        return 25, [("seven pairs", 25)]
    if w.reading.form == "kokushi":
        return 0, []
    items = [("base (futei)", 20)]
    if is_pinfu and w.ctx.tsumo:
        return 20, items
    if w.closed and not w.ctx.tsumo:
        items.append(("closed ron (menzen kafu)", 10))
    for g in w.sets:
        if g.shape != TRIPLET:
            continue
        fu = 2
        if g.first in TERMINALS_AND_HONORS:
            fu *= 2
        if not g.open:
            fu *= 2
        if g.kan:
            fu *= 4
        what = ("closed " if not g.open else "open ") + ("kan" if g.kan else "triplet")
        items.append((f"{what} {KINDS[g.first] * (4 if g.kan else 3)}", fu))
    pair = w.pair.first
    value = 0
    if pair in (31, 32, 33):
        value += 2
    if pair == w.seat and pair == w.round:
        value += rules.double_wind_pair_fu
    elif pair in (w.seat, w.round):
        value += 2
    if value:
        items.append((f"value pair {KINDS[pair] * 2}", value))
    if w.reading.wait in WAIT_FU_NAMES:
        items.append((WAIT_FU_NAMES[w.reading.wait], 2))
    if w.ctx.tsumo and not is_pinfu and (rules.rinshan_tsumo_fu or not w.ctx.rinshan):
        items.append(("tsumo", 2))
    total = sum(fu for _, fu in items)
    if total == 20 and not w.closed:
        items.append(("open hand without fu (counted as 30)", 10))
        total = 30
    return -(-total // 10) * 10, items

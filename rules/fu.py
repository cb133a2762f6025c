"""Fu with an itemised breakdown, so a referee can check every line."""
from __future__ import annotations

from .decompose import KANCHAN, PENCHAN, TANKI, TRIPLET, Group
from .tiles import KINDS, TERMINALS_AND_HONORS
from .yaku import Win

WAIT_FU_NAMES = {KANCHAN: "closed wait (kanchan)", PENCHAN: "edge wait (penchan)", TANKI: "pair wait (tanki)"}


def _set_fu(first: int, open_: bool, kan: bool) -> tuple[str, int]:
    """The fu line of a triplet or quad: 2, doubled for a terminal or honour, doubled if concealed, x4 for a kan."""
    fu = 2
    if first in TERMINALS_AND_HONORS:
        fu *= 2
    if not open_:
        fu *= 2
    if kan:
        fu *= 4
    what = ("closed " if not open_ else "open ") + ("kan" if kan else "triplet")
    return f"{what} {KINDS[first] * (4 if kan else 3)}", fu


# every triplet's and quad's fu line, by its group, made once
_SET_FU = {Group(TRIPLET, k, o, q, c): _set_fu(k, o, q)
           for k in range(34) for o in (False, True) for q in (False, True) for c in (False, True)}


def fu_breakdown(w: Win, is_pinfu: bool, itemise: bool = True) -> tuple[int, list[tuple[str, int]]]:
    """(total rounded up to 10, [(item, fu), ...]). Seven pairs are a flat 25; a pinfu tsumo is a flat 20.
    ``itemise=False``: the total only (the list is empty), for comparing readings."""
    ctx = w.ctx
    rules = ctx.ruleset
    form = w.reading.form
    if form == "chiitoitsu":
        return 25, [("seven pairs", 25)]
    if form == "kokushi":
        return 0, []
    items = [("base (futei)", 20)] if itemise else []
    total = 20
    if is_pinfu and ctx.tsumo:
        return 20, items
    if w.closed and not ctx.tsumo:
        total += 10
        if itemise:
            items.append(("closed ron (menzen kafu)", 10))
    for g in w.triplets:
        item = _SET_FU[g]
        total += item[1]
        if itemise:
            items.append(item)
    pair = w.pair.first
    if pair >= 27:
        value = 0
        if pair >= 31:
            value += 2
        if pair == w.seat and pair == w.round:
            value += rules.double_wind_pair_fu
        elif pair == w.seat or pair == w.round:
            value += 2
        if value:
            total += value
            if itemise:
                items.append((f"value pair {KINDS[pair] * 2}", value))
    wait = w.reading.wait
    if wait in WAIT_FU_NAMES:
        total += 2
        if itemise:
            items.append((WAIT_FU_NAMES[wait], 2))
    if ctx.tsumo and not is_pinfu and (rules.rinshan_tsumo_fu or not ctx.rinshan):
        total += 2
        if itemise:
            items.append(("tsumo", 2))
    if total == 20 and not w.closed:
        total = 30
        if itemise:
            items.append(("open hand without fu (counted as 30)", 10))
    return -(-total // 10) * 10, items

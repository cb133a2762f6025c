"""From han and fu to points, limit names and who pays what."""
from __future__ import annotations

from dataclasses import dataclass

from .ruleset import Ruleset

LIMIT_BASE = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000, "yakuman": 8000}


def _round100(x: int) -> int:
    return -(-x // 100) * 100


def limit_name(han: int, fu: int, yakuman: int, rules: Ruleset) -> str:
    if yakuman:
        return "yakuman"
    if han >= 13:
        return "yakuman" if rules.kazoe_yakuman else "sanbaiman"
    if han >= 11:
        return "sanbaiman"
    if han >= 8:
        return "baiman"
    if han >= 6:
        return "haneman"
    base = fu * 2 ** (han + 2)
    if han >= 5 or base >= 2000 or (rules.kiriage_mangan and base >= 1920):
        return "mangan"
    return ""


def base_points(han: int, fu: int, yakuman: int, rules: Ruleset) -> int:
    """The hand's basic points (fu x 2^(han+2), or the limit's), before the x4 / x6 of the payments."""
    limit = limit_name(han, fu, yakuman, rules)
    if yakuman:
        return 8000 * yakuman
    if limit:
        return LIMIT_BASE[limit]
    return fu * 2 ** (han + 2)


def make_frozen(cls, **fields):
    """An instance of the frozen dataclass ``cls`` from all of its fields, without the generated ``__init__``
    (which sets each field through ``object.__setattr__``): results are made for every hand scored, and that
    ``__init__`` took a tenth of a score. The instance is the same as ``cls(**fields)``: same type, equality,
    hash and repr, still frozen."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


@dataclass(frozen=True)
class Payment:
    """What one other player pays the winner, by their seat relative to the winner."""

    payer: str  # left | across | right
    points: int  # hand value share
    honba: int  # honba bonus in this payment

    def to_dict(self) -> dict:
        return {"payer": self.payer, "points": self.points, "honba": self.honba, "total": self.points + self.honba}


SOURCE_OFFSET = {4: {"right": 1, "across": 2, "left": 3}, 3: {"right": 1, "left": 2}}


def seat_of(source: str, winner_wind_index: int, players: int = 4) -> int:
    """Wind index (0=E, 1=S, ...) of the player at ``source`` (right = next in turn order, left = previous)
    from a player of wind index w. Three players sit E S W: there is no one across."""
    return (winner_wind_index + SOURCE_OFFSET[players][source]) % players


def payments(base: int, dealer: bool, tsumo: bool, win_from: str | None, winner_wind: int, honba: int,
             rules: Ruleset, pao: str | None = None, pao_base: int = 0) -> list[Payment]:
    """Who pays what. ``pao`` is liable for ``pao_base`` of the base (the yakuman it fed): on a tsumo it
    pays that part alone, on a ron half of that part and the discarder the rest; the liable player pays the honba
    either way (riichi.wiki, "Sekinin barai": "the liable player pays the full value of any honba")."""
    if not pao:  # the usual case, spelt out: nearly every hand scored comes through here
        if not tsumo:
            ron = -(-base * (6 if dealer else 4) // 100) * 100
            extra = rules.honba_ron * honba
            return [make_frozen(Payment, payer=win_from, points=ron, honba=extra)] if ron or extra else []
        players = rules.players
        offsets = SOURCE_OFFSET[players]
        extra = rules.honba_tsumo * honba
        share = -(-base * 2 // 100) * 100 if dealer else -(-base // 100) * 100
        dealer_share = -(-base * 2 // 100) * 100
        north = 0
        if players == 3 and not rules.tsumo_loss:  # the missing north's share, split in two
            north = -(-(share // 2) // 100) * 100
        out = []
        for s, offset in offsets.items():
            pts = (dealer_share if not dealer and (winner_wind + offset) % players == 0 else share) + north
            if pts or extra:
                out.append(make_frozen(Payment, payer=s, points=pts, honba=extra))
        return out
    others = list(SOURCE_OFFSET[rules.players])
    pay: dict[str, list[int]] = {s: [0, 0] for s in others}
    normal = base - pao_base
    if tsumo:
        for s in others:
            payer_is_dealer = seat_of(s, winner_wind, rules.players) == 0
            pay[s][0] = _round100(normal * (2 if dealer or payer_is_dealer else 1))
            if rules.players == 3 and not rules.tsumo_loss:  # the missing north's share, split in two
                pay[s][0] += _round100(_round100(normal * (2 if dealer else 1)) // 2)
        for s in ([pao] * len(others) if pao else others):
            pay[s][1] += rules.honba_tsumo * honba
    else:
        pay[win_from][0] = _round100(normal * (6 if dealer else 4))
        pay[pao if pao_base and rules.pao_pays_honba else win_from][1] = rules.honba_ron * honba
    if pao_base:
        liable = _round100(pao_base * (6 if dealer else 4))
        if tsumo:
            pay[pao][0] += liable
        else:
            pay[pao][0] += liable // 2
            pay[win_from][0] += liable - liable // 2
    return [Payment(s, p[0], p[1]) for s, p in pay.items() if p[0] or p[1]]

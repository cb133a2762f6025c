"""What the rules need to know beyond the tiles: winds, riichi, how the hand was won, dora, sticks, discards.

Dealer is the player whose seat wind is east. Table events the tiles cannot show (ippatsu, haitei, rinshan,
chankan, tenhou...) are flags the caller sets; the engine checks they are consistent with each other.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .ruleset import TENHOU, Ruleset
from .tiles import SOURCES, WINDS, HandError, kind, plain_notation

MAX_STICKS = 100  # honba or riichi sticks above this are no table's count (10**30 was paid out digit by digit)


def typed_tile(tile):
    """A tile code as a keyboard may type it (full-width digits: '５m') in the notation's characters, as hand
    notation is read (``plain_notation``); what is no text is left for ``kind`` to refuse."""
    return plain_notation(tile) if isinstance(tile, str) and not tile.isascii() else tile


@dataclass(frozen=True)
class Discard:
    """One tile of a player's pond: ``riichi`` for the declaration tile, ``called`` if another player took it."""

    tile: str
    riichi: bool = False
    called: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "tile", typed_tile(self.tile))
        kind(self.tile)


@dataclass(frozen=True)
class Missed:
    """A tile that would have completed the hand and that the player let pass (no ron).

    ``after_riichi``: passed while in riichi (riichi furiten, for the rest of the hand). Otherwise it causes
    temporary furiten until the player's next draw (``drawn_since``) or, where the ruleset says so, their own
    next call (``called_since``).
    """

    tile: str
    after_riichi: bool = False
    drawn_since: bool = False
    called_since: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "tile", typed_tile(self.tile))
        kind(self.tile)


@dataclass(frozen=True)
class Context:
    seat_wind: str = "E"
    round_wind: str = "E"
    tsumo: bool = False
    win_from: str | None = None  # whose discard a ron is on: left | across | right
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    kita: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    discards: tuple[Discard, ...] = ()
    missed: tuple[Missed, ...] = ()
    visible: tuple[str, ...] = ()  # other tiles the player can see: other ponds and melds
    pao: str | None = None  # the player liable for daisangen / daisuushii: left | across | right
    other_winner_nearer: bool = False  # double ron: a winner nearer the discarder takes the honba and sticks
    ruleset: Ruleset = field(default=TENHOU)

    def __post_init__(self) -> None:
        for name in ("dora_indicators", "ura_indicators", "visible"):
            object.__setattr__(self, name, tuple(typed_tile(t) for t in getattr(self, name)))
        for name in ("discards", "missed"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name, wind in (("seat_wind", self.seat_wind), ("round_wind", self.round_wind)):
            if wind not in WINDS:
                raise HandError(f"{name} must be one of E S W N, not {wind!r}")
        if self.ruleset.players == 3 and "N" in (self.seat_wind, self.round_wind):
            raise HandError("three-player games have no north seat or round")
        for name in ("win_from", "pao"):
            value = getattr(self, name)
            if value is not None and value not in SOURCES:
                raise HandError(f"{name} must be left, across or right, not {value!r}")
            if value == "across" and self.ruleset.players == 3:
                said = "a ron" if name == "win_from" else "pao"  # in the words of a table, not the field's name
                raise HandError(f"{said} from across: three players sit E S W, nobody is across; use left or right")
        if self.other_winner_nearer and self.tsumo:
            raise HandError("only a ron can be shared with another winner")
        if self.tsumo and self.win_from:
            raise HandError("a tsumo win has no discarder: leave win_from empty")
        if self.double_riichi:
            object.__setattr__(self, "riichi", True)
        if self.ippatsu and not self.riichi:
            raise HandError("ippatsu needs riichi")
        if (self.haitei or self.rinshan or self.tenhou or self.chiihou) and not self.tsumo:
            raise HandError("haitei, rinshan, tenhou and chiihou are self-drawn wins: set tsumo")
        if (self.houtei or self.chankan or self.renhou) and self.tsumo:
            raise HandError("houtei, chankan and renhou are wins on another player's tile: not tsumo")
        if self.houtei and self.chankan:  # no kan may be declared on the last draw, so none can be robbed after it
            raise HandError("houtei and chankan cannot be one win: no kan can be declared on the last tile")
        if self.haitei and self.rinshan:  # the same rule: a rinshan tile follows a kan, never the last draw
            raise HandError("haitei and rinshan cannot be one win: no kan can be declared on the last tile, and a "
                            "rinshan tile comes from the dead wall")
        if self.tenhou and not self.dealer:
            raise HandError("tenhou is the dealer's win; a non-dealer's first-draw win is chiihou")
        if self.chiihou and self.dealer:
            raise HandError("chiihou is a non-dealer's win; the dealer's first-draw win is tenhou")
        if self.renhou and self.dealer:
            raise HandError("renhou is a non-dealer's win before their first draw; the dealer draws first")
        first_turn = next((n for n in ("tenhou", "chiihou", "renhou") if getattr(self, n)), None)
        last_tile = next((n for n in ("haitei", "houtei") if getattr(self, n)), None)
        if first_turn and self.riichi:  # riichi is declared with a discard, after the first draw's
            raise HandError(f"{first_turn} is won before any discard, so before any riichi")
        if first_turn and self.chankan:  # the first go-around ends with any call or kan: none is left to rob
            raise HandError(f"{first_turn} is won before any call or kan, so no kan can be robbed (chankan)")
        if first_turn and last_tile:
            raise HandError(f"{first_turn} is won on the first turn, {last_tile} on the last tile: not both")
        # a north set aside is as a call: it ends the first go-around (Tenhou's manual, "ルール/段位戦3人打ち": 北を
        # 抜いた時は鳴きと同じ扱い, 一発/地和/九種/両立直は消える), so a win after one is no tenhou, chiihou, renhou
        if first_turn and self.kita:
            raise HandError(f"{first_turn} is won before any call, and a north set aside is as one: not with kita "
                            f"{self.kita}")
        if self.ippatsu and self.rinshan:  # a rinshan draw follows a kan or a north set aside, which ends ippatsu
            raise HandError("ippatsu and rinshan cannot be one win: the kan declared after riichi ends ippatsu"
                            if not self.ruleset.kita else "ippatsu and rinshan cannot be one win: the kan or north "
                            "set aside after riichi ends ippatsu")
        for name, indicators in (("dora", self.dora_indicators), ("ura dora", self.ura_indicators)):
            if len(indicators) > 5:  # not tied to the dora given: a photo may leave the dead wall out of view
                raise HandError(f"{len(indicators)} {name} indicators: at most 5 (the first and one per kan)")
        # each ura indicator lies under a dora indicator (none given: a photo may leave the dead wall out of view)
        if self.dora_indicators and len(self.ura_indicators) > len(self.dora_indicators):
            dora = len(self.dora_indicators)
            raise HandError(f"{len(self.ura_indicators)} ura dora indicators but {dora} dora indicator"
                            f"{'s' if dora > 1 else ''}: each ura indicator lies under a dora indicator")
        rules = self.ruleset
        for name, indicators, option in (("dora", self.dora_indicators, rules.kan_dora),
                                         ("ura dora", self.ura_indicators, rules.kan_ura_dora or not rules.ura_dora)):
            if len(indicators) > 1 and not option:
                raise HandError(f"{len(indicators)} {name} indicators, but ruleset {rules.name} has no kan "
                                f"{name}: only the first indicator is turned")
        for t in self.dora_indicators + self.ura_indicators + self.visible:
            kind(t)
        if self.honba < 0 or self.riichi_sticks < 0 or self.kita < 0:
            raise HandError("honba, riichi sticks and kita cannot be negative")
        if max(self.honba, self.riichi_sticks) > MAX_STICKS:
            raise HandError(f"honba {self.honba}, riichi sticks {self.riichi_sticks}: no table counts above "
                            f"{MAX_STICKS}")
        if self.kita > 4:
            raise HandError(f"kita {self.kita}: a set has only four north tiles to set aside")
        if self.kita and not self.ruleset.kita:
            raise HandError(f"kita (north set aside) is a three-player rule; ruleset {self.ruleset.name} has none")

    @property
    def dealer(self) -> bool:
        return self.seat_wind == "E"

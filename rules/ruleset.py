"""Rulesets: one frozen object with every option named; presets are instances of it.

The README has a table of what each preset sets. Nothing in the engine reads a rule from anywhere else.

Editions and sources (checked against the published texts where they could be read):
- ``tenhou``: Tenhou's ranked rules, and all 6,878 records in ``shared/data/rules``.
- ``mahjong-soul``: Mahjong Soul's ranked rules (double yakuman, triple ron allowed, no renhou, no kiriage).
- ``wrc``: WRC 2022 rules, as the 2015 ones (renhou a mangan, cumulative with other yaku per the 2014 errata;
  kiriage mangan; no counted yakuman; head bump; no abortive draws) but for yakuman, which since 2022 add up (a
  daisangen with suuankou is a double yakuman; no yakuman counts double by its wait; WRC 2022's rule changes, as
  mahjongbelgium.be lists them, 2022-04-02). Until session 80 the 2015 rules (no yakuman added).
- ``ema``: EMA Riichi Competition Rules 2016 (no red fives, no kiriage, yakuman neither double nor cumulative,
  renhou a strict mangan, pao on the third dragon / fourth wind meld, multiple ron, no abortive draws); in a
  multiple ron each winner takes the honba, a farther winner in riichi its own stick back (§4.1: "each winner
  receives the value of the hand including the value of counters in play"; "riichi declarers that win, always get
  their riichi bet back"), and under pao on a ron only the discarder pays the honba (§3.3.9).
Uncertain cells: the double-wind pair fu of WRC (2) and EMA (4), and whether rinshan earns tsumo fu there.
``renhou="mangan"`` scores renhou as a 5-han yaku that adds to the hand's others (WRC's reading);
``renhou="strict-mangan"`` pays it a mangan on its own, with no other yaku or dora added, unless the hand is worth
more without it (EMA 2016: "renhou is now a strict mangan only", riichi.wiki, "EMA Riichi Competition Rules").
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace


_CHOICES = {
    "players": (3, 4), "renhou": ("none", "mangan", "strict-mangan", "yakuman"),
    "multiple_ron": ("head_bump", "double", "triple"), "double_wind_pair_fu": (2, 4),
}


@dataclass(frozen=True)
class Ruleset:
    name: str
    players: int = 4
    red_fives: tuple[int, int, int] = (1, 1, 1)  # red 5m, 5p, 5s in the set
    kuitan: bool = True  # open tanyao
    kiriage_mangan: bool = False  # 4 han 30 fu and 3 han 60 fu paid as mangan
    kazoe_yakuman: bool = True  # 13+ han is a yakuman; else capped at sanbaiman
    double_yakuman: bool = False  # kokushi 13-sided, suuankou tanki, junsei chuuren, daisuushii count twice
    yakuman_stacking: bool = True  # several yakuman in one hand add up
    nagashi_mangan: bool = True
    renhou: str = "none"  # none | mangan (5 han, adds up) | strict-mangan (a mangan alone) | yakuman
    pinfu_tsumo: bool = True  # pinfu allowed on a self-drawn win (20 fu, no tsumo fu)
    double_wind_pair_fu: int = 4  # pair of a wind that is both seat and round wind
    rinshan_tsumo_fu: bool = True  # a rinshan win earns the 2 fu for tsumo
    ippatsu: bool = True
    ura_dora: bool = True
    kan_dora: bool = True
    kan_ura_dora: bool = True
    multiple_ron: str = "double"  # head_bump (nearest winner only) | double (triple ron aborts) | triple
    abortive_draws: bool = True  # nine terminals, four winds, four riichi, four kans by several players, triple ron
    suji_kuikae: bool = False  # True: the other end of a chii may be discarded at once (only the called tile is barred)
    kuikae_allowed: bool = False  # True: no kuikae restriction at all
    temporary_furiten_ends_on_call: bool = True  # a player's own call ends temporary furiten, like a draw
    atozuke: bool = True  # may win on a wait that has a yaku even if other waits have none
    pao: bool = True  # liability for daisangen / daisuushii
    pao_pays_honba: bool = True  # under pao on a ron the liable player pays the honba (else the discarder does)
    honba_every_winner: bool = False  # a multiple ron's farther winner too takes the honba (and its own riichi stick)
    honba_ron: int = 300  # paid by the discarder per honba
    honba_tsumo: int = 100  # paid by each other player per honba
    noten_payment_total: int = 3000
    tsumo_loss: bool = False  # 3 players: the missing player's share of a tsumo is not paid
    kita: bool = False  # 3 players: north tiles set aside as dora

    def __post_init__(self) -> None:
        for option, allowed in _CHOICES.items():
            if getattr(self, option) not in allowed:
                raise ValueError(f"ruleset option {option}={getattr(self, option)!r}: one of "
                                 f"{', '.join(map(str, allowed))}")
        if self.players == 4 and (self.kita or self.tsumo_loss):
            raise ValueError("ruleset options kita and tsumo_loss are three-player rules: use a *-sanma preset")

    def has_tile(self, tile: str) -> bool:
        """Whether the set holds this tile's kind: a three-player set has no 2m-8m (riichi.wiki, "Sanma")."""
        return self.players == 4 or tile[1] != "m" or tile[0] not in "02345678"

    def to_dict(self) -> dict:
        return asdict(self)

    def with_options(self, **changes) -> "Ruleset":
        unknown = set(changes) - set(self.to_dict())
        if unknown:
            raise ValueError(f"unknown ruleset option(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)


TENHOU = Ruleset(name="tenhou")
TENHOU_SANMA = replace(
    TENHOU, name="tenhou-sanma", players=3, red_fives=(0, 1, 1), honba_ron=200, honba_tsumo=100,
    noten_payment_total=2000, tsumo_loss=True, kita=True, multiple_ron="double",
)
MAHJONG_SOUL = Ruleset(name="mahjong-soul", double_yakuman=True, multiple_ron="triple")
MAHJONG_SOUL_SANMA = replace(
    MAHJONG_SOUL, name="mahjong-soul-sanma", players=3, red_fives=(0, 1, 1), honba_ron=200, honba_tsumo=100,
    noten_payment_total=2000, tsumo_loss=True, kita=True, multiple_ron="double",
)
WRC = Ruleset(
    name="wrc", red_fives=(0, 0, 0), kiriage_mangan=True, kazoe_yakuman=False, double_yakuman=False,
    yakuman_stacking=True, nagashi_mangan=False, renhou="mangan", double_wind_pair_fu=2,
    multiple_ron="head_bump", abortive_draws=False, pao=True,
)
EMA = Ruleset(
    name="ema", red_fives=(0, 0, 0), kiriage_mangan=False, kazoe_yakuman=False, double_yakuman=False,
    yakuman_stacking=False, nagashi_mangan=False, renhou="strict-mangan", double_wind_pair_fu=4,
    multiple_ron="triple", abortive_draws=False, pao=True, pao_pays_honba=False, honba_every_winner=True,
)

PRESETS: dict[str, Ruleset] = {r.name: r for r in (TENHOU, TENHOU_SANMA, MAHJONG_SOUL, MAHJONG_SOUL_SANMA, WRC, EMA)}


def preset(spec: str) -> Ruleset:
    """A preset by name, or a preset with options changed: ``tenhou:kuitan=no,red_fives=0/0/0`` (house rules,
    from the CLI's ``--ruleset`` or the API's ``ruleset``). The ruleset is named by the whole spec."""
    name, _, changes = spec.strip().partition(":")
    try:
        base = PRESETS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown ruleset {name[:40]!r}: one of {', '.join(PRESETS)}, optionally followed by "
                         "':option=value,...'") from None
    if not changes.strip():
        return base
    options = {}
    for item in filter(str.strip, changes.split(",")):  # a trailing comma is no option
        option, eq, text = (part.strip() for part in item.partition("="))
        option = option.lower()
        if not eq or option not in _HOUSE_OPTIONS:
            raise ValueError(f"ruleset {spec[:80]!r}: {item.strip()[:40]!r} is not option=value with an option of "
                             f"{', '.join(_HOUSE_OPTIONS)} (the number of players comes with the preset)")
        if option in options:
            raise ValueError(f"ruleset {spec[:80]!r}: {option} given twice")
        options[option] = _option_value(option, text, getattr(base, option))
    return base.with_options(name=f"{base.name}:{','.join(f'{o}={_option_text(v)}' for o, v in options.items())}",
                             **options)


_YES, _NO = ("yes", "true", "on", "1"), ("no", "false", "off", "0")
_HOUSE_OPTIONS = tuple(o for o in TENHOU.to_dict() if o not in ("name", "players"))
MAX_OPTION_POINTS = 100_000  # a honba's or a noten payment's points


def _option_text(value) -> str:
    return "yes" if value is True else "no" if value is False else "/".join(map(str, value)) \
        if isinstance(value, tuple) else str(value)


def house_options() -> dict[str, str]:
    """Each option house rules may change, with the values it takes in words: the API's list, the page's hint."""
    return {option: _values_text(option, getattr(TENHOU, option)) for option in _HOUSE_OPTIONS}


def _values_text(option: str, like) -> str:
    if option in _CHOICES:
        return " or ".join(map(str, _CHOICES[option]))
    return ("yes or no" if isinstance(like, bool) else "0 or 1 red five a suit, such as 1/1/1"
            if isinstance(like, tuple) else f"a whole number from 0 to {MAX_OPTION_POINTS}" if isinstance(like, int)
            else "a word")


def _option_value(option: str, text: str, like):
    """An option's value from its text, of the type of the preset's value (yes/no, a number, 1/1/1)."""
    try:
        if isinstance(like, bool):
            if text.lower() not in _YES + _NO:
                raise ValueError
            value = text.lower() in _YES
        elif isinstance(like, tuple):  # a set holds one red five of a suit or none (rules.tiles.check_copies)
            value = tuple(text.split("/"))
            if len(value) != len(like) or not all(v in ("0", "1") for v in value):
                raise ValueError
            value = tuple(map(int, value))
        elif isinstance(like, int):
            if not (text.isascii() and text.isdigit() and len(text) <= 6 and int(text) <= MAX_OPTION_POINTS):
                raise ValueError
            value = int(text)
        else:
            value = text.lower()
        if option in _CHOICES and value not in _CHOICES[option]:
            raise ValueError
        return value
    except ValueError:
        raise ValueError(f"ruleset option {option}={text[:20]!r}: {_values_text(option, like)}") from None


def markdown_table() -> str:
    """The README's table of presets (``python -m rules.ruleset`` prints it; a test keeps the README in step)."""
    names = list(PRESETS)
    rows = ["| option | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for option in TENHOU.to_dict():
        if option == "name":
            continue
        cells = []
        for n in names:
            cells.append(_option_text(getattr(PRESETS[n], option)))
        rows.append(f"| `{option}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())

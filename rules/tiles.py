"""Tiles, melds, hands and the compact notation.

A tile is written as a two-character code: ``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``, ``1z``..``7z``
(east, south, west, north, haku, hatsu, chun) and ``0m 0p 0s`` for the red fives. Codes are what the public
API takes and returns (JSON-friendly); the algorithms work on *kind indices* 0..33 (a red five is the kind of
its five) and 34-count lists.

Hand notation: digits followed by their suit letter, ``123m406p789s1122z``. Space-separated groups after
the first are still concealed tiles unless they carry a call mark, which writes a meld the way it lies on the
table, left to right:

- ``'`` after a tile: that tile is turned sideways, i.e. it was called. Its place says whose discard it was:
  first place = the left player, last place = the right player, any place between = the player across.
  ``3'45m`` chii of 3m (always from the left), ``55'5p`` pon from across, ``7777'z`` daiminkan from the right.
- ``"`` after a tile: two tiles stacked sideways, an added kan (kakan). ``5"55p`` = pon of 5p from the left,
  later upgraded by the fourth 5p.
- ``[...]``: a closed kan (ankan), e.g. ``[5505p]``.

All bad input raises :class:`HandError` with a message naming the offending tile or meld.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

SUITS = "mpsz"
KINDS: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
RED_FIVES = ("0m", "0p", "0s")
ALL_CODES = KINDS + RED_FIVES
TILE_NAMES = {
    **{f"{n}m": f"{n} man" for n in range(1, 10)},
    **{f"{n}p": f"{n} pin" for n in range(1, 10)},
    **{f"{n}s": f"{n} sou" for n in range(1, 10)},
    "1z": "east", "2z": "south", "3z": "west", "4z": "north", "5z": "haku", "6z": "hatsu", "7z": "chun",
    "0m": "red 5 man", "0p": "red 5 pin", "0s": "red 5 sou",
}
WINDS = ("E", "S", "W", "N")
WIND_KIND = {w: 27 + i for i, w in enumerate(WINDS)}  # E -> 1z ...
SOURCES = ("left", "across", "right")
MELD_KINDS = ("chi", "pon", "daiminkan", "kakan", "ankan")

_KIND_INDEX = {code: i for i, code in enumerate(KINDS)}
_KIND_INDEX.update({"0m": 4, "0p": 13, "0s": 22})

TERMINALS_AND_HONORS = frozenset([0, 8, 9, 17, 18, 26] + list(range(27, 34)))


class HandError(ValueError):
    """Anything that cannot be a real hand, meld or tile: the message names the problem."""


def kind(tile: str) -> int:
    """Kind index 0..33 of a tile code (a red five has its five's index)."""
    try:
        return _KIND_INDEX[tile]
    except (KeyError, TypeError):
        raise HandError(f"unknown tile {tile!r}: expected a code like 5m, 0p or 7z") from None


def code(kind_index: int) -> str:
    return KINDS[kind_index]


def is_red(tile: str) -> bool:
    return tile in RED_FIVES


def is_honor(k: int) -> bool:
    return k >= 27


def is_terminal_or_honor(k: int) -> bool:
    return k in TERMINALS_AND_HONORS


def is_run(ks: Iterable[int]) -> bool:
    """Whether tile kinds (indices, in any order) are a run of three in one suit."""
    ks = sorted(ks)
    return len(ks) == 3 and ks[0] < 27 and ks[0] % 9 <= 6 and ks == [ks[0], ks[0] + 1, ks[0] + 2]


def dora_from_indicator(k: int) -> int:
    """The dora kind that an indicator of kind k points to (9 -> 1, N -> E, chun -> haku)."""
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


def counts34(tiles: Iterable[str]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[kind(t)] += 1
    return c


# A phone's keyboard types curly quotes for the call marks, a Japanese one full-width digits and letters (１２３ｍ,
# which NFKC makes plain): both are taken as the notation's own characters
_TYPED_MARKS = str.maketrans({"\u2018": "'", "\u2019": "'", "\u00b4": "'", "\u201c": '"', "\u201d": '"'})


def plain_notation(text: str) -> str:
    """Notation as a keyboard may type it, in the notation's own characters."""
    import unicodedata

    return unicodedata.normalize("NFKC", text).translate(_TYPED_MARKS)


def shown(text: str, limit: int = 60) -> str:
    """What the user typed, quoted for a message, cut short when long (a pasted megabyte is not echoed back)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f" (and {len(text) - limit} characters more)"


def parse_tiles(text: str) -> list[str]:
    """``'123m406p'`` -> ``['1m','2m','3m','4p','0p','6p']``. Spaces are ignored."""
    text = plain_notation(text)
    tiles: list[str] = []
    pending: list[str] = []
    for ch in text:
        if ch.isspace():
            continue
        if ch.isdigit():
            pending.append(ch)
        elif ch in SUITS:
            if not pending:
                raise HandError(f"suit letter {ch!r} in {shown(text)} has no digits before it")
            for d in pending:
                t = d + ch
                if t not in _KIND_INDEX:
                    raise HandError(f"no such tile {t!r} in {shown(text)} (honours are 1z..7z, red fives 0m/0p/0s)")
                tiles.append(t)
            pending = []
        else:
            raise HandError(f"unexpected character {ch!r} in {shown(text)}")
    if pending:
        raise HandError(f"digits {''.join(pending)!r} at the end of {shown(text)} have no suit letter")
    return tiles


def parse_tile(text: str, what: str = "the winning tile") -> str:
    """One tile in notation (``'5m'``, ``' 0p '``), or a HandError that names ``what`` was expected."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise HandError(f"{what} must be one tile, like 5m: {shown(text)} is {len(tiles)}")
    return tiles[0]


def sort_key(tile: str) -> tuple[int, int]:
    return kind(tile), 0 if tile in RED_FIVES else 1


def format_tiles(tiles: Iterable[str]) -> str:
    """Compact notation of tiles, sorted by suit: ``['1m','2m','5z']`` -> ``'12m5z'``."""
    out = []
    for suit in SUITS:
        digits = [t[0] for t in sorted(tiles, key=sort_key) if t[1] == suit]
        if digits:
            out.append("".join(digits) + suit)
    return "".join(out)


@dataclass(frozen=True)
class Meld:
    """An open meld or a closed kan, as it lies on the table.

    ``called`` is the tile taken from another player's discard and ``source`` whose discard it was, seen
    from the meld's owner. An ankan has neither. A kakan's ``added`` is the fourth tile put on the pon.
    """

    kind: str
    tiles: tuple[str, ...]
    called: str | None = None
    source: str | None = None
    added: str | None = None

    def __post_init__(self) -> None:
        for t in self.tiles:
            kind(t)
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=sort_key)))
        if self.kind not in MELD_KINDS:
            raise HandError(f"unknown meld kind {self.kind!r}: one of {', '.join(MELD_KINDS)}")
        size = 3 if self.kind in ("chi", "pon") else 4
        if len(self.tiles) != size:
            raise HandError(f"{self.kind} {format_tiles(self.tiles)} has {len(self.tiles)} tiles: "
                            f"{'an' if self.kind[0] in 'aeiou' else 'a'} {self.kind} has {size}")
        ks = sorted(kind(t) for t in self.tiles)
        if self.kind == "chi":
            if not is_run(ks):
                raise HandError(f"chi {format_tiles(self.tiles)} is not a run of three in one suit")
        elif len(set(ks)) != 1:
            raise HandError(f"{self.kind} {format_tiles(self.tiles)} is not {size} of the same tile")
        if self.kind == "ankan":
            if self.called or self.source:
                raise HandError(f"a closed kan takes no tile from another player: {format_tiles(self.tiles)}")
        else:
            if self.source not in SOURCES:
                raise HandError(f"{self.kind} {format_tiles(self.tiles)} needs a source: left, across or right")
            if self.kind == "chi" and self.source != "left":
                raise HandError(f"chi {format_tiles(self.tiles)} called from {self.source}: chi is only from the left player")
            if self.called is None:
                raise HandError(f"{self.kind} {format_tiles(self.tiles)}: say which of its tiles was called (called)")
            if self.called not in self.tiles:
                raise HandError(f"{self.kind} {format_tiles(self.tiles)}: the called tile must be one of its tiles")
        if self.kind == "kakan":
            if self.added is None:  # as the called tile's refusal says which field is missing
                raise HandError(f"kakan {format_tiles(self.tiles)}: say which of its tiles was added to the pon "
                                "(added)")
            if self.added not in self.tiles:
                raise HandError(f"kakan {format_tiles(self.tiles)}: the added tile must be one of its tiles")
        elif self.added is not None:  # it would be dropped without a word
            raise HandError(f"{self.kind} {format_tiles(self.tiles)}: only an added kan (kakan) has an added tile")

    @property
    def is_open(self) -> bool:
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return len(self.tiles) == 4

    @property
    def first_kind(self) -> int:
        return min(kind(t) for t in self.tiles)

    def notation(self) -> str:
        """Table-layout notation, the inverse of :func:`parse_meld`."""
        if self.kind == "ankan":
            return "[" + format_tiles(self.tiles) + "]"
        rest = sorted(self.tiles, key=sort_key)
        rest.remove(self.called)
        if self.kind == "kakan":
            rest.remove(self.added)
        mark = '"' if self.kind == "kakan" else "'"
        n = len(rest) + 1
        place = {"left": 0, "across": 1, "right": n - 1}[self.source]
        digits = [t[0] for t in rest]
        digits.insert(place, self.called[0] + mark)
        return "".join(digits) + self.called[1]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "tiles": list(self.tiles), "called": self.called, "source": self.source, "added": self.added}

    @classmethod
    def from_dict(cls, d: dict) -> "Meld":
        return cls(d["kind"], tuple(d["tiles"]), d.get("called"), d.get("source") or d.get("from"), d.get("added"))


def parse_meld(text: str) -> Meld:
    """One meld in table-layout notation (see the module docstring)."""
    text = plain_notation(text)
    if text.startswith("[") and text.endswith("]"):
        return Meld("ankan", tuple(parse_tiles(text[1:-1])))
    if not text or text[-1] not in SUITS:
        raise HandError(f"meld {shown(text)} must end with its suit letter")
    suit = text[-1]
    places: list[tuple[str, str]] = []  # (tile, mark)
    for ch in text[:-1]:
        if ch.isdigit():
            places.append((ch + suit, ""))
        elif ch in "'\"" and places and not places[-1][1]:
            places[-1] = (places[-1][0], ch)
        else:
            raise HandError(f"unexpected {ch!r} in meld {shown(text)}")
    for t, _ in places:
        kind(t)
    marked = [i for i, (_, m) in enumerate(places) if m]
    if len(marked) != 1:
        raise HandError(f"meld {shown(text)} must mark exactly one called tile with ' (or \" for an added kan)")
    i = marked[0]
    called, mark = places[i]
    n = len(places)
    tiles = [t for t, _ in places]
    source = "left" if i == 0 else "right" if i == n - 1 else "across"
    if mark == '"':
        if n != 3:
            raise HandError(f"added kan {shown(text)}: write the pon's three tiles with \" on the called one")
        return Meld("kakan", tuple(tiles + [called]), called, source, called)
    ks = {kind(t) for t in tiles}
    if n == 3 and len(ks) == 3:
        return Meld("chi", tuple(tiles), called, source)
    return Meld("pon" if n == 3 else "daiminkan", tuple(tiles), called, source)


@dataclass(frozen=True)
class Hand:
    """A player's concealed tiles (13 or 14 counting 3 per meld) and their melds."""

    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(self.concealed))
        object.__setattr__(self, "melds", tuple(self.melds))
        for t in self.concealed:
            kind(t)
        if len(self.melds) > 4:
            raise HandError(f"a hand has at most 4 melds, not {len(self.melds)}")
        size = len(self.concealed) + 3 * len(self.melds)
        if size not in (13, 14):
            raise HandError(
                f"hand has {counted(len(self.concealed), 'concealed tile')} and {counted(len(self.melds), 'meld')}"
                f" = {counted(size, 'tile')}; "
                f"a hand has 13 (waiting) or 14 (complete), counting 3 per meld"
            )
        check_copies(self.all_tiles(), "hand")

    @property
    def size(self) -> int:
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def is_closed(self) -> bool:
        return all(not m.is_open for m in self.melds)

    def all_tiles(self) -> list[str]:
        return list(self.concealed) + [t for m in self.melds for t in m.tiles]

    def notation(self) -> str:
        return " ".join([format_tiles(self.concealed)] + [m.notation() for m in self.melds])


def counted(n: int, thing: str) -> str:
    """'1 meld', '2 melds': a count in a message."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def check_copies(tiles: Iterable[str], where: str, red_fives: tuple[int, int, int] = (1, 1, 1)) -> None:
    """No more than four of a kind, nor more red fives of a suit than the set has (m, p, s)."""
    tiles = list(tiles)
    for k, n in Counter(kind(t) for t in tiles).items():
        if n > 4:
            raise HandError(f"{where} shows {n} copies of {KINDS[k]}: a set has only four")
    for red, n in Counter(t for t in tiles if t in RED_FIVES).items():
        allowed = red_fives[RED_FIVES.index(red)]
        if n > allowed:
            has = f"has {allowed}" if allowed else "is played without red fives of that suit"
            raise HandError(f"{where} shows {counted(n, 'red five')} {red}: the set {has}")


def parse_hand(text: str) -> Hand:
    """``'123m456p789s11z 555z 3'45m'`` -> Hand; groups with call marks are melds."""
    text = plain_notation(text)
    concealed: list[str] = []
    melds: list[Meld] = []
    for group in text.split():
        if "'" in group or '"' in group or group.startswith("["):
            melds.append(parse_meld(group))
        else:
            concealed.extend(parse_tiles(group))
    return Hand(tuple(concealed), tuple(melds))

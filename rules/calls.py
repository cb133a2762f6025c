"""Calls and table events: a referee's legality checks.

Calls on a discard (chi, pon, open kan) and kans on one's own turn (closed kan, added kan), kuikae (the
tiles a caller may not discard straight after the call), closed kans during riichi, the four-kan limit,
the abortive draws (nine terminals, four winds, four riichi, four kans by several players, triple ron) and
the exhaustive draw (tenpai, noten payments, nagashi mangan).

Every check comes in two forms with one rule text: ``*_options`` lists what is legal, ``check_*`` raises
:class:`HandError` saying which rule refuses an action. Hands are :class:`Hand` objects or hand notation.
Seats are numbered 0..players-1 in turn order (each seat's right-hand neighbour is the next number).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from typing import Sequence

from .context import Discard
from .decompose import RUN, TRIPLET, regular_splits
from .points import payments, seat_of
from .readout import hand_waits
from .ruleset import TENHOU, Ruleset
from .tiles import (
    KINDS, Hand, HandError, Meld, check_copies, counts34, format_tiles, is_terminal_or_honor, kind, parse_hand,
    sort_key,
)

MANGAN_BASE = 2000


# ---------------------------------------------------------------------------------------------- helpers

def _hand(hand: Hand | str) -> Hand:
    return parse_hand(hand) if isinstance(hand, str) else hand


def _without(tiles: Sequence[str], taken: Sequence[str], what: str) -> list[str]:
    """``tiles`` less ``taken`` (exact codes: a red five is not a plain five); names a missing tile."""
    rest = list(tiles)
    for t in taken:
        if t not in rest:
            raise HandError(f"{what}: {t} is not in the concealed tiles {format_tiles(tiles)}")
        rest.remove(t)
    return rest


def _meld_text(meld: Meld) -> str:
    return f"{meld.kind} {meld.notation()}"


def _kan_refusal(tiles_left_in_wall: int | None, kans_made: int) -> str | None:
    """A kan draws a replacement tile and moves the end of the wall: it needs both to be there."""
    if kans_made >= 4:
        return "four kans have been made: no fifth kan (no rinshan tile is left for it)"
    if tiles_left_in_wall == 0:
        return "the wall is empty: no kan after the last tile has been drawn"
    return None


# ------------------------------------------------------------------------------------------ kuikae

def kuikae_forbidden(meld: Meld, ruleset: Ruleset = TENHOU) -> frozenset[int]:
    """Kinds the caller may not discard in the turn of a chi or pon (kuikae), so that a call cannot just
    swap a tile for the same shape: the called kind, and for a chi taken at one end of the run the kind
    beyond the other end (chi 1p with 23p bars 1p and 4p; a kanchan chi of 2p with 13p bars only 2p).
    ``suji_kuikae`` lets that other end go; ``kuikae_allowed`` lifts the rule. A kan is followed by a
    replacement draw, not a discard, so it bars nothing."""
    if meld.kind not in ("chi", "pon") or ruleset.kuikae_allowed:
        return frozenset()
    called = kind(meld.called)
    barred = {called}
    if meld.kind == "chi" and not ruleset.suji_kuikae:
        first = meld.first_kind
        if called == first and first % 9 <= 5:
            barred.add(first + 3)
        elif called == first + 2 and first % 9 >= 1:
            barred.add(first - 1)
    return frozenset(barred)


def check_discard_after_call(meld: Meld, discard: str, ruleset: Ruleset = TENHOU,
                             concealed: Sequence[str] | None = None) -> None:
    """Raise if ``discard`` may not follow the call ``meld`` in the same turn (kuikae); with ``concealed``
    (the caller's tiles after the call) also if the tile is not in the hand."""
    if concealed is not None:
        _without(concealed, [discard], f"discard after {_meld_text(meld)}")
    if kind(discard) in kuikae_forbidden(meld, ruleset):
        end = "the called tile" if kind(discard) == kind(meld.called) else "the other end of the run (suji kuikae)"
        raise HandError(f"kuikae: after {_meld_text(meld)}, {discard} may not be discarded this turn: it is {end}")


# ------------------------------------------------------------------------------ calls on a discard

def _call_refusal(hand: Hand, meld: Meld, ruleset: Ruleset, tiles_left_in_wall: int | None,
                  riichi: bool, kans_made: int) -> str | None:
    """The one place that says why a chi / pon / open kan on a discard is not allowed (None: allowed)."""
    if meld.kind not in ("chi", "pon", "daiminkan"):
        return f"{meld.kind} is not a call on a discard: only chi, pon and daiminkan are"
    if tiles_left_in_wall == 0:
        return "no call on the last discard of the wall (houtei): it may only be won on by ron"
    if riichi:
        return "a player in riichi may not chi, pon or open kan: only ron"
    if meld.kind == "chi" and ruleset.players == 3:
        return "three-player mahjong has no chi"
    if meld.kind == "daiminkan":
        return _kan_refusal(tiles_left_in_wall, kans_made)
    rest = list(hand.concealed)
    for t in _own_tiles(meld):
        rest.remove(t)
    barred = kuikae_forbidden(meld, ruleset)
    if all(kind(t) in barred for t in rest):
        return (f"kuikae: after {_meld_text(meld)} every tile left ({format_tiles(rest)}) is barred "
                f"this turn, so there would be no legal discard")
    return None


def _own_tiles(meld: Meld) -> list[str]:
    """The meld's tiles that come out of the caller's hand (all but the called one)."""
    tiles = list(meld.tiles)
    tiles.remove(meld.called)
    return tiles


def _check_call_input(hand: Hand, discard: str, ruleset: Ruleset) -> None:
    if hand.size != 13:
        raise HandError(f"a player calling a discard holds 13 tiles (counting 3 per meld), not {hand.size}")
    check_copies(hand.all_tiles() + [discard], "the hand with the discard", ruleset.red_fives)


def _candidate_calls(hand: Hand, discard: str, source: str) -> list[Meld]:
    """Every chi / pon / daiminkan shape the tiles allow, red-five variants distinct, before the rules."""
    k = kind(discard)
    held: dict[int, set[str]] = {}
    for t in hand.concealed:
        held.setdefault(kind(t), set()).add(t)
    out: list[Meld] = []
    if source == "left" and k < 27:
        for first in (k - 2, k - 1, k):
            if first // 9 != k // 9 or first % 9 > 6:
                continue
            others = [j for j in (first, first + 1, first + 2) if j != k]
            for pick in product(*(sorted(held.get(j, ()), key=sort_key) for j in others)):
                out.append(Meld("chi", (discard, *pick), discard, source))
    same = sorted((t for t in hand.concealed if kind(t) == k), key=sort_key)
    for pair in sorted(set(combinations(same, 2)), key=lambda p: [sort_key(t) for t in p]):
        out.append(Meld("pon", (discard, *pair), discard, source))
    if len(same) == 3:
        out.append(Meld("daiminkan", (discard, *same), discard, source))
    return out


def call_options(hand: Hand | str, discard: str, source: str, ruleset: Ruleset = TENHOU, *,
                 tiles_left_in_wall: int | None = None, riichi: bool = False, kans_made: int = 0) -> list[Meld]:
    """The legal chi, pon and open kans of a 13-tile hand on ``discard`` from ``source`` (left, across,
    right). ``tiles_left_in_wall``: tiles still to draw (0: this is the last discard); ``kans_made``: kans
    already declared at the table this hand."""
    hand = _hand(hand)
    _check_call_input(hand, discard, ruleset)
    if source not in ("left", "across", "right"):
        raise HandError(f"a discard comes from left, across or right, not {source!r}")
    return [m for m in _candidate_calls(hand, discard, source)
            if _call_refusal(hand, m, ruleset, tiles_left_in_wall, riichi, kans_made) is None]


def check_call(hand: Hand | str, meld: Meld, ruleset: Ruleset = TENHOU, *,
               tiles_left_in_wall: int | None = None, riichi: bool = False, kans_made: int = 0) -> None:
    """Raise if the 13-tile ``hand`` may not make the call ``meld`` (its ``called`` tile is the discard)."""
    hand = _hand(hand)
    if meld.kind not in ("chi", "pon", "daiminkan"):
        raise HandError(f"{meld.kind} is not a call on a discard: only chi, pon and daiminkan are")
    _check_call_input(hand, meld.called, ruleset)
    _without(hand.concealed, _own_tiles(meld), f"{_meld_text(meld)}")
    reason = _call_refusal(hand, meld, ruleset, tiles_left_in_wall, riichi, kans_made)
    if reason:
        raise HandError(f"{_meld_text(meld)} refused: {reason}")


# ------------------------------------------------------------------------------- kans on one's turn

def _own_kan_refusal(hand: Hand, meld: Meld, tiles_left_in_wall: int | None, kans_made: int,
                     just_called: bool, riichi: bool, drawn: str | None) -> str | None:
    """The one place that says why a closed or added kan on the player's own turn is not allowed."""
    if just_called:
        return "no kan in the same turn as a chi or pon: the caller must discard first"
    reason = _kan_refusal(tiles_left_in_wall, kans_made)
    if reason:
        return reason
    if meld.kind == "kakan" and riichi:
        return "a player in riichi has no pon to add to"
    if meld.kind == "ankan" and riichi:
        return riichi_ankan_refusal(hand, meld, drawn)
    return None


def riichi_ankan_refusal(hand: Hand | str, meld: Meld, drawn: str | None) -> str | None:
    """Why a closed kan is not allowed during riichi, or None. It must use the tile just drawn (no
    okuri-kan, which would change the discards), and change neither the waits nor the reading of the
    hand: the four tiles must be a triplet in every reading of every winning hand."""
    hand = _hand(hand)
    k = meld.first_kind
    if drawn is None:
        raise HandError("a closed kan during riichi needs the tile just drawn (drawn=...)")
    if kind(drawn) != k:
        return f"okuri-kan: during riichi only the tile just drawn ({drawn}) may complete a closed kan"
    before = Hand(tuple(_without(hand.concealed, [drawn], "the tile just drawn")), hand.melds)
    waits_before = hand_waits(before)
    if not waits_before:
        raise HandError(f"a riichi hand must be tenpai before its draw: {before.notation()} is not")
    after = Hand(tuple(t for t in hand.concealed if kind(t) != k), hand.melds + (meld,))
    waits_after = hand_waits(after)
    if waits_after != waits_before:
        return (f"a kan of {KINDS[k]} would change the waits from {_codes(waits_before)} "
                f"to {_codes(waits_after) or 'none'}")
    counts = counts34(before.concealed)
    for w in waits_before:
        counts[w] += 1
        for split in regular_splits(counts):
            uses = [(shape, first) for shape, first in split
                    if first == k or (shape == RUN and first <= k <= first + 2)]
            if uses != [(TRIPLET, k)]:
                how = "a run" if any(s == RUN for s, _ in uses) else "the pair"
                return (f"a kan of {KINDS[k]} would change the reading of the hand: winning on {KINDS[w]} "
                        f"it can be read with {KINDS[k]} in {how}")
        counts[w] -= 1
    return None


def _codes(kinds: Sequence[int]) -> str:
    return " ".join(KINDS[k] for k in kinds)


def _check_own_turn(hand: Hand) -> None:
    if hand.size != 14:
        raise HandError(f"a kan on one's own turn is made from 14 tiles (counting 3 per meld), not {hand.size}")


def ankan_options(hand: Hand | str, *, tiles_left_in_wall: int | None = None, kans_made: int = 0,
                  just_called: bool = False, riichi: bool = False, drawn: str | None = None) -> list[Meld]:
    """The legal closed kans of a 14-tile hand on its own turn (``drawn``: the tile just drawn, needed in riichi)."""
    hand = _hand(hand)
    _check_own_turn(hand)
    counts = counts34(hand.concealed)
    out = []
    for k in range(34):
        if counts[k] == 4:
            meld = Meld("ankan", tuple(t for t in hand.concealed if kind(t) == k))
            if _own_kan_refusal(hand, meld, tiles_left_in_wall, kans_made, just_called, riichi, drawn) is None:
                out.append(meld)
    return out


def kakan_options(hand: Hand | str, *, tiles_left_in_wall: int | None = None, kans_made: int = 0,
                  just_called: bool = False) -> list[Meld]:
    """The legal added kans: a pon of the hand and its fourth tile from the concealed ones."""
    hand = _hand(hand)
    _check_own_turn(hand)
    out = []
    for pon in hand.melds:
        if pon.kind != "pon":
            continue
        for t in hand.concealed:
            if kind(t) == pon.first_kind:
                meld = Meld("kakan", pon.tiles + (t,), pon.called, pon.source, t)
                if _own_kan_refusal(hand, meld, tiles_left_in_wall, kans_made, just_called, False, None) is None:
                    out.append(meld)
    return out


def check_own_kan(hand: Hand | str, meld: Meld, *, tiles_left_in_wall: int | None = None, kans_made: int = 0,
                  just_called: bool = False, riichi: bool = False, drawn: str | None = None) -> None:
    """Raise if the 14-tile ``hand`` may not declare the closed or added kan ``meld`` now."""
    hand = _hand(hand)
    _check_own_turn(hand)
    if meld.kind == "ankan":
        _without(hand.concealed, meld.tiles, _meld_text(meld))
    elif meld.kind == "kakan":
        _without(hand.concealed, [meld.added], _meld_text(meld))
        pon_tiles = sorted(_without(meld.tiles, [meld.added], _meld_text(meld)), key=sort_key)
        if not any(m.kind == "pon" and list(m.tiles) == pon_tiles for m in hand.melds):
            raise HandError(f"{_meld_text(meld)}: the hand has no pon {format_tiles(pon_tiles)} to add to")
    else:
        raise HandError(f"{meld.kind} is not a kan on one's own turn: only ankan and kakan are")
    reason = _own_kan_refusal(hand, meld, tiles_left_in_wall, kans_made, just_called, riichi, drawn)
    if reason:
        raise HandError(f"{_meld_text(meld)} refused: {reason}")


# ------------------------------------------------------------------------ four kans, abortive draws

@dataclass(frozen=True)
class KanState:
    """After the kans so far: whether another kan may be made and whether the hand is aborted."""

    kans: int
    more_kans: bool
    abortive_draw: bool
    note: str

    def to_dict(self) -> dict:
        return {"kans": self.kans, "more_kans": self.more_kans, "abortive_draw": self.abortive_draw, "note": self.note}


def _check_seats(values: Sequence, ruleset: Ruleset, what: str) -> None:
    if len(values) != ruleset.players:
        raise HandError(f"{what}: one entry per seat, {ruleset.players} seats, not {len(values)}")


def four_kan_state(kans_by_player: Sequence[int], ruleset: Ruleset = TENHOU) -> KanState:
    """There are four rinshan tiles, so four kans at most. One player's four kans: play goes on (that
    player may win suukantsu). Four kans by two or more players: abortive draw (suukaikan) when
    ``abortive_draws``, declared once the discard after the fourth kan is not won on; else play goes on."""
    _check_seats(kans_by_player, ruleset, "kans by player")
    if any(n < 0 for n in kans_by_player):
        raise HandError("a player's kan count cannot be negative")
    total = sum(kans_by_player)
    if total > 4:
        raise HandError(f"{total} kans: a hand has at most four (there are four rinshan tiles)")
    if total < 4:
        return KanState(total, True, False, "")
    if max(kans_by_player) == 4:
        return KanState(4, False, False, "one player holds four kans: play continues (suukantsu possible), no fifth kan")
    if ruleset.abortive_draws:
        return KanState(4, False, True, "four kans by several players: abortive draw (suukaikan)")
    return KanState(4, False, False, "four kans by several players: play continues, no fifth kan")


def four_riichi(riichi_by_seat: Sequence[bool], ruleset: Ruleset = TENHOU) -> bool:
    """All four players in riichi: abortive draw (suucha riichi) once the fourth declaration tile passes."""
    _check_seats(riichi_by_seat, ruleset, "riichi by seat")
    return ruleset.abortive_draws and ruleset.players == 4 and all(riichi_by_seat)


def nine_terminals(hand: Hand | str, ruleset: Ruleset = TENHOU, *, first_draw: bool = True,
                   calls_made: bool = False) -> bool:
    """Whether the player may abort with kyuushu kyuuhai: nine or more distinct terminal and honour kinds
    in the 14 tiles of their first draw, before any call at the table."""
    hand = _hand(hand)
    if hand.melds or len(hand.concealed) != 14:
        raise HandError("nine terminals is declared with 14 concealed tiles on the first draw")
    distinct = {kind(t) for t in hand.concealed if is_terminal_or_honor(kind(t))}
    return ruleset.abortive_draws and first_draw and not calls_made and len(distinct) >= 9


def four_winds(first_discards: Sequence[str], ruleset: Ruleset = TENHOU, *, calls_made: bool = False) -> bool:
    """Abortive draw (suufon renda): the four first discards are the same wind, with no call in between."""
    _check_seats(first_discards, ruleset, "first discards")
    kinds = {kind(t) for t in first_discards}
    return (ruleset.abortive_draws and ruleset.players == 4 and not calls_made
            and len(kinds) == 1 and 27 <= min(kinds) <= 30)


@dataclass(frozen=True)
class RonOutcome:
    winners: tuple[int, ...]  # seats that win, nearest the discarder first
    abortive_draw: bool

    def to_dict(self) -> dict:
        return {"winners": list(self.winners), "abortive_draw": self.abortive_draw}


def ron_winners(discarder: int, claimants: Sequence[int], ruleset: Ruleset = TENHOU) -> RonOutcome:
    """Who wins when several players ron one discard, by ``multiple_ron``: head_bump (only the claimant
    nearest the discarder in turn order), double (up to two; three claimants abort when ``abortive_draws``,
    else the two nearest win), triple (all win)."""
    n = ruleset.players
    seats = list(claimants) + [discarder]
    if any(not 0 <= s < n for s in seats) or len(set(seats)) != len(seats):
        raise HandError(f"seats are 0..{n - 1}, each claimant once and not the discarder: {discarder} -> {list(claimants)}")
    order = tuple(sorted(claimants, key=lambda s: (s - discarder) % n))
    if ruleset.multiple_ron == "head_bump":
        return RonOutcome(order[:1], False)
    if ruleset.multiple_ron == "double":
        if len(order) >= 3 and ruleset.abortive_draws:
            return RonOutcome((), True)
        return RonOutcome(order[:2], False)
    return RonOutcome(order, False)


# ------------------------------------------------------------------------------------ exhaustive draw

@dataclass(frozen=True)
class SeatDraw:
    seat: int
    tenpai: bool
    waits: tuple[str, ...]
    nagashi: bool
    delta: int

    def to_dict(self) -> dict:
        return {"seat": self.seat, "tenpai": self.tenpai, "waits": list(self.waits), "nagashi": self.nagashi,
                "delta": self.delta}


@dataclass(frozen=True)
class DrawResult:
    seats: tuple[SeatDraw, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"seats": [s.to_dict() for s in self.seats], "notes": list(self.notes)}


def is_nagashi(pond: Sequence[Discard]) -> bool:
    """Nagashi mangan: every discard a terminal or honour and none of them called by another player."""
    return bool(pond) and all(is_terminal_or_honor(kind(d.tile)) and not d.called for d in pond)


def noten_payments(tenpai: Sequence[bool], ruleset: Ruleset = TENHOU) -> list[int]:
    """The noten players pay ``noten_payment_total`` in equal parts, the tenpai players share it equally;
    nothing when all or none are tenpai."""
    _check_seats(tenpai, ruleset, "tenpai by seat")
    ready = sum(map(bool, tenpai))
    if ready in (0, len(tenpai)):
        return [0] * len(tenpai)
    total = ruleset.noten_payment_total
    return [total // ready if t else -(total // (len(tenpai) - ready)) for t in tenpai]


def nagashi_payments(seat: int, dealer: int, ruleset: Ruleset = TENHOU) -> list[int]:
    """A mangan paid as a tsumo (dealer 4000 all; non-dealer 2000 / 4000 from the dealer), with the
    ruleset's three-player tsumo rule. Score changes by seat."""
    n = ruleset.players
    wind = (seat - dealer) % n
    delta = [0] * n
    for p in payments(MANGAN_BASE, wind == 0, True, None, wind, 0, ruleset):
        payer = (dealer + seat_of(p.payer, wind, n)) % n
        delta[payer] -= p.points
        delta[seat] += p.points
    return delta


def exhaustive_draw(hands_by_seat: Sequence[Hand | str | None], ruleset: Ruleset = TENHOU, *,
                    ponds: Sequence[Sequence[Discard]] | None = None, dealer: int = 0,
                    names: Sequence[str] | None = None,
                    declared: Sequence[bool | None] | None = None) -> DrawResult:
    """The end of the wall: each seat tenpai or noten (a hand whose only waits are tiles it holds all four
    of is noten; None, a hand not shown, is noten: at a draw the tenpai players show theirs) and the score
    changes: noten payments, or, if ``nagashi_mangan`` and some pond (``ponds``, by seat) qualifies, a mangan
    paid as a tsumo to each such player instead. ``declared``, by seat: what a player declared, True tenpai,
    False noten, None as the hand says; it stands over the hand (a tenpai player may declare noten and keep it
    face down; a hand declared tenpai but not tenpai is noted). ``names``: what the notes call each seat
    (``seat N`` if not given)."""
    _check_seats(hands_by_seat, ruleset, "hands by seat")
    if not 0 <= dealer < ruleset.players:
        raise HandError(f"dealer seat must be 0..{ruleset.players - 1}, not {dealer}")
    waits = [[] if h is None else hand_waits(_hand(h)) for h in hands_by_seat]
    tenpai = [bool(w) for w in waits]
    notes = []

    def who(seat: int) -> str:
        return names[seat] if names else f"seat {seat}"

    if declared is not None:
        _check_seats(declared, ruleset, "declarations by seat")
        for seat, said in enumerate(declared):
            if said is None:
                continue
            if said and hands_by_seat[seat] is not None and not tenpai[seat]:
                notes.append(f"{who(seat)}: declared tenpai, but its hand is not tenpai")
            tenpai[seat] = bool(said)
            if not said:
                waits[seat] = []
    nagashi = [False] * ruleset.players
    if ponds is not None:
        _check_seats(ponds, ruleset, "ponds by seat")
        if ruleset.nagashi_mangan:
            nagashi = [is_nagashi(p) for p in ponds]
    if any(nagashi):
        delta = [0] * ruleset.players
        for seat in (s for s, yes in enumerate(nagashi) if yes):
            delta = [a + b for a, b in zip(delta, nagashi_payments(seat, dealer, ruleset))]
            notes.append(f"{who(seat)}: nagashi mangan, paid as a tsumo instead of the noten payments")
    else:
        delta = noten_payments(tenpai, ruleset)
    seats = tuple(SeatDraw(s, tenpai[s], tuple(KINDS[k] for k in waits[s]), nagashi[s], delta[s])
                  for s in range(ruleset.players))
    return DrawResult(seats, tuple(notes))

"""The one call the vision and web code make: a hand plus its context in, one JSON-ready readout out.

For a 13-tile hand: shanten, tenpai, each wait with how many copies are still unseen and what winning on it
is worth (a wait with no yaku is marked), and furiten with its reason. For a 14-tile hand: the score
of the win (the winning tile given, or else the one worth most, said so in the notes); an incomplete 14-tile
hand gets its shanten and the discards that keep it closest to winning.

Atozuke (a yaku that only some winning tiles give): allowed by every preset. With ``atozuke=False`` the hand must
have a yaku whatever tile it wins on, by the same way of winning (riichi.wiki, "Atozuke", the variant a photo can
judge; whether a yaku was sure when each call was made cannot be seen afterwards): else no wait wins.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .context import Context
from .scoring import WinResult, honour_sets_fed, score_win
from .shanten import helpful_draws, shanten, waits
from .tiles import KINDS, Hand, HandError, check_copies, counts34, kind


@dataclass(frozen=True)
class Wait:
    tile: str
    unseen: int  # copies the player cannot see anywhere (own hand, melds, discards, dora indicators)
    ron: WinResult | None  # the value of winning on it by ron (None: no yaku that way)
    tsumo: WinResult | None

    def to_dict(self) -> dict:
        return {
            "tile": self.tile, "unseen": self.unseen,
            "can_ron": self.ron is not None, "can_tsumo": self.tsumo is not None,
            "ron": self.ron.to_dict() if self.ron else None, "tsumo": self.tsumo.to_dict() if self.tsumo else None,
        }


@dataclass(frozen=True)
class Draw:
    tile: str  # a tile whose draw takes the hand one step nearer to winning
    unseen: int

    def to_dict(self) -> dict:
        return {"tile": self.tile, "unseen": self.unseen}


@dataclass(frozen=True)
class DiscardChoice:
    """A discard that leaves a 14-tile hand as near to winning as any, and the draws that then take it nearer."""
    discard: str
    shanten: int  # after the discard (0: tenpai, and the draws are its waits)
    draws: tuple[Draw, ...]

    @property
    def unseen(self) -> int:
        return sum(d.unseen for d in self.draws)

    def to_dict(self) -> dict:
        return {"discard": self.discard, "shanten": self.shanten, "draws": [d.to_dict() for d in self.draws],
                "unseen": self.unseen}


@dataclass(frozen=True)
class Furiten:
    furiten: bool
    kind: str | None  # permanent | temporary | riichi
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"furiten": self.furiten, "kind": self.kind, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class Readout:
    hand: str
    tiles: int
    shanten: int
    tenpai: bool
    waits: tuple[Wait, ...] = ()
    furiten: Furiten = Furiten(False, None)
    win: WinResult | None = None
    win_tile: str | None = None
    draws: tuple[Draw, ...] = ()  # 13 tiles, not tenpai: the draws that take it nearer (tenpai: see waits)
    discards: tuple[DiscardChoice, ...] = ()  # 14 tiles, not complete: the best discards, most draws first
    notes: tuple[str, ...] = field(default_factory=tuple)
    furiten_ron: bool = False  # a ron on a wait the hand is in furiten for: no such win, though ``win`` values it

    def to_dict(self) -> dict:
        return {
            "hand": self.hand, "tiles": self.tiles, "shanten": self.shanten, "tenpai": self.tenpai,
            "furiten_ron": self.furiten_ron,
            "waits": [w.to_dict() for w in self.waits], "furiten": self.furiten.to_dict(),
            "win": self.win.to_dict() if self.win else None, "win_tile": self.win_tile,
            "draws": [d.to_dict() for d in self.draws], "discards": [d.to_dict() for d in self.discards],
            "notes": list(self.notes),
        }


def hand_waits(hand: Hand) -> list[int]:
    """Kinds that complete a 13-tile hand, none of which the hand holds all four of. Empty = not tenpai."""
    if hand.size != 13:
        raise HandError(f"waits are for a 13-tile hand, this one has {hand.size}")
    return waits(counts34(hand.concealed), len(hand.melds), counts34(hand.all_tiles()))


def hand_shanten(hand: Hand) -> int:
    s = shanten(counts34(hand.concealed), len(hand.melds))
    if s == 0 and hand.size == 13 and not hand_waits(hand):
        return 1  # its only waits are tiles it holds all four of: a tile must be exchanged first
    return s


def furiten(wait_kinds: list[int], ctx: Context) -> Furiten:
    """Permanent (own discards, called ones included), temporary (a winning tile let pass since the last
    draw) and riichi furiten (a winning tile let pass after riichi), each with its reason."""
    waits_set = set(wait_kinds)
    reasons, kinds = [], []
    own = sorted({d.tile for d in ctx.discards if kind(d.tile) in waits_set}, key=kind)
    if own:
        kinds.append("permanent")
        reasons.append(f"waits on {', '.join(own)} which the player discarded")
    for m in ctx.missed:
        if kind(m.tile) not in waits_set:
            continue
        if m.after_riichi and ctx.riichi:
            kinds.append("riichi")
            reasons.append(f"let {m.tile} pass after riichi: furiten for the rest of the hand")
        elif not m.drawn_since and not (m.called_since and ctx.ruleset.temporary_furiten_ends_on_call):
            kinds.append("temporary")
            reasons.append(f"let {m.tile} pass: furiten until the player's next draw")
    order = ("riichi", "permanent", "temporary")
    first = next((k for k in order if k in kinds), None)
    return Furiten(bool(kinds), first, tuple(reasons))


def unseen(tile_kind: int, hand: Hand, ctx: Context) -> int:
    """Copies of a kind the player cannot see: not in the hand, its own discards and norths set aside (kita), the
    dora indicators or the other visible tiles."""
    seen = counts34(hand.all_tiles() + [d.tile for d in ctx.discards] + list(ctx.dora_indicators) + list(ctx.visible)
                    + ["4z"] * ctx.kita)
    return max(0, 4 - seen[tile_kind])


def _check_table(hand: Hand, ctx: Context) -> None:
    """Refuse a context the hand makes impossible (Context checks the flags against each other, not the hand)."""
    held = hand.all_tiles()
    norths = held.count("4z") + ctx.kita
    if norths > 4:
        raise HandError(f"{norths} north tiles: kita {ctx.kita} set aside and {norths - ctx.kita} in the hand")
    # the norths set aside (kita) are the player's own, not among the visible tiles (vision.table.seen_context
    # leaves a photo's out of them)
    tiles = (held + [d.tile for d in ctx.discards if not d.called] + list(ctx.dora_indicators)
             + list(ctx.ura_indicators) + list(ctx.visible) + ["4z"] * ctx.kita)
    check_copies(tiles, "the hand with the visible tiles" + (" and its kita" if ctx.kita else ""),
                 ctx.ruleset.red_fives)
    if ctx.ruleset.players == 3:  # no 2m-8m, no one sits across, and no chi is called (riichi.wiki, "Sanma")
        if manzu := next((t for t in tiles if not ctx.ruleset.has_tile(t)), None):
            raise HandError(f"{manzu}: a three-player set has no 2m-8m, only 1m and 9m of the manzu")
        if chi := next((m for m in hand.melds if m.kind == "chi"), None):
            raise HandError(f"{chi.notation()}: a three-player game has no chi")
        if across := next((m for m in hand.melds if m.source == "across"), None):
            raise HandError(f"{across.notation()}: called from across, but a three-player table has no one there")
    if ctx.pao and not honour_sets_fed(hand, ctx.pao):
        raise HandError(f"pao: no dragon or wind set of this hand was called from {ctx.pao}, so {ctx.pao} is not "
                        "liable")
    open_meld = next((m for m in hand.melds if m.is_open), None)
    if ctx.riichi and open_meld:
        name = "double riichi" if ctx.double_riichi else "riichi"
        raise HandError(f"{name} needs a closed hand: {open_meld.notation()} is an open meld")
    for name in ("tenhou", "chiihou", "renhou"):
        if getattr(ctx, name) and hand.melds:
            raise HandError(f"{name} is won before any call or kan: this hand has {hand.melds[0].notation()}")
    # a north set aside also draws from the dead wall: Tenhou's sanma scores a win on that draw as rinshan
    if ctx.rinshan and not any(m.is_kan for m in hand.melds) and not ctx.kita:
        raise HandError("rinshan kaihou needs a kan" + (" or a north set aside" if ctx.ruleset.kita else "")
                        + ": this hand has none")


def _win_value(hand13: Hand, tile: str, ctx: Context, tsumo: bool) -> WinResult | None:
    hand14 = Hand(hand13.concealed + (tile,), hand13.melds)
    won = replace(ctx, tsumo=tsumo, win_from=None if tsumo else (ctx.win_from or "left"),
                  other_winner_nearer=ctx.other_winner_nearer and not tsumo,  # a tsumo is no one else's win
                  haitei=False, houtei=False, rinshan=False, chankan=False, tenhou=False, chiihou=False, renhou=False)
    r = score_win(hand14, tile, won)
    return r if r.valid else None


def _score(hand: Hand, tile: str, ctx: Context) -> WinResult:
    """``score_win``, and where the ruleset has no atozuke, no win for a hand some of whose waits have no yaku."""
    r = score_win(hand, tile, ctx)
    if not r.valid or ctx.ruleset.atozuke:
        return r
    before = list(hand.concealed)
    before.remove(tile)
    lacking = _atozuke_lacking({KINDS[k]: score_win(Hand((*before, KINDS[k]), hand.melds), KINDS[k], ctx).valid
                                for k in hand_waits(Hand(tuple(before), hand.melds))})
    if not lacking:
        return r
    return replace(r, yaku=(), han=0, yakuman=0, limit="", points=0, payments=(), winner_gain=0, valid=False,
                   notes=r.notes + (_atozuke_note(ctx.ruleset.name, "tsumo" if ctx.tsumo else "ron", lacking),))


def _atozuke_lacking(has_yaku: dict[str, bool]) -> list[str]:
    """The one test of no atozuke: a way of winning (ron, tsumo) by which some waits have no yaku wins on no wait.
    ``has_yaku``: each wait of the 13 tiles, whether it has a yaku won that way. The waits lacking one where that
    bars the way of winning; empty where every wait has a yaku that way, or none has (nothing to bar)."""
    lacking = [t for t, ok in has_yaku.items() if not ok]
    return lacking if len(lacking) < len(has_yaku) else []


def _atozuke_note(ruleset: str, how: str, lacking: list[str]) -> str:
    return f"no atozuke in ruleset {ruleset}: no yaku on a {how} with {', '.join(lacking)}, so no {how} on any wait"


def analyse(hand: Hand, ctx: Context | None = None, win_tile: str | None = None) -> Readout:
    """The readout of a hand of 13 tiles (tenpai, waits...) or 14 (the win); 13 tiles and the tile won on are the
    14-tile hand won on it, as most calculators take them."""
    ctx = ctx or Context()
    added = ()
    if hand.size == 13 and win_tile:
        hand = Hand(hand.concealed + (win_tile,), hand.melds)  # a fifth copy is refused here
        added = (f"the winning tile {win_tile} is taken with the 13 tiles given",)
    _check_table(hand, ctx)
    r = _analyse(hand, ctx, win_tile)
    return replace(r, notes=added + r.notes + _not_counted(ctx))


def _not_counted(ctx: Context) -> tuple[str, ...]:
    """What the context gives that the ruleset or the hand leaves out of the score, said rather than dropped."""
    rules, notes = ctx.ruleset, ()
    if ctx.ura_indicators and not (ctx.riichi and rules.ura_dora):
        notes += (f"ura dora indicators not counted: ruleset {rules.name} has no ura dora" if not rules.ura_dora
                  else "ura dora indicators not counted: ura dora are for a hand in riichi",)
    if ctx.ippatsu and not rules.ippatsu:
        notes += (f"ippatsu not counted: ruleset {rules.name} has no ippatsu",)
    if ctx.renhou and rules.renhou == "none":
        notes += (f"renhou not counted: ruleset {rules.name} has no renhou",)
    return notes


def _analyse(hand: Hand, ctx: Context, win_tile: str | None) -> Readout:
    if hand.size == 13:
        return _analyse_waiting(hand, ctx)
    if not ctx.tsumo and ctx.win_from is None:  # a photo or a form may not say who dealt in
        r = _analyse_fourteen(hand, replace(ctx, win_from="left"), win_tile)
        if r.win:
            r = replace(r, notes=r.notes + ("scored as a ron on the left player's discard: neither tsumo nor the "
                                            "discarder was given (the value is the same; only who pays differs)",))
        return r
    return _analyse_fourteen(hand, ctx, win_tile)


def _analyse_waiting(hand: Hand, ctx: Context) -> Readout:
    wait_kinds = hand_waits(hand)
    notes = []
    out = []
    for k in wait_kinds:
        tile = KINDS[k]
        ron, tsumo = _win_value(hand, tile, ctx, False), _win_value(hand, tile, ctx, True)
        out.append(Wait(tile, unseen(k, hand, ctx), ron, tsumo))
        if ron is None and tsumo is None:
            notes.append(f"no yaku when winning on {tile}: tenpai, but cannot win on it")
        elif ron is None:
            notes.append(f"no yaku on a ron with {tile}: only a tsumo wins on it")
    if not ctx.ruleset.atozuke:
        out, notes = _without_atozuke(out, notes, ctx.ruleset.name)
    if wait_kinds and all(w.unseen == 0 for w in out):
        notes.append("every winning tile is already visible: tenpai, but no copy is left to win on")
    fur = furiten(wait_kinds, ctx)
    # a tile said let pass that the hand does not wait on makes no furiten: said, so a wrong entry shows
    passed = sorted({m.tile for m in ctx.missed if kind(m.tile) not in wait_kinds}, key=kind)
    if passed and wait_kinds:
        notes.append(f"let {', '.join(passed)} pass: no wait of this hand, so no furiten from it")
    draws = () if wait_kinds else _draws(hand, hand, ctx)
    return Readout(hand.notation(), 13, hand_shanten(hand), bool(wait_kinds), tuple(out), fur, draws=draws,
                   notes=tuple(notes))


def _draws(hand13: Hand, seen: Hand, ctx: Context) -> tuple[Draw, ...]:
    """The draws that take a 13-tile hand nearer, each with its copies unseen by the player holding ``seen``."""
    kinds = helpful_draws(counts34(hand13.concealed), len(hand13.melds), counts34(hand13.all_tiles()))
    return tuple(Draw(KINDS[k], unseen(k, seen, ctx)) for k in kinds if ctx.ruleset.has_tile(KINDS[k]))


def _discard_choices(hand: Hand, ctx: Context) -> tuple[DiscardChoice, ...]:
    """Each discard that leaves a 14-tile hand nearest to winning, most unseen draws first (tenhou.net's 牌理)."""
    after = {}
    for t in sorted(set(hand.concealed), key=kind):
        rest = list(hand.concealed)
        rest.remove(t)
        after[t] = Hand(tuple(rest), hand.melds)
    shanten_after = {t: hand_shanten(h) for t, h in after.items()}
    best = min(shanten_after.values())
    choices = [DiscardChoice(t, best, _draws(h, hand, ctx)) for t, h in after.items() if shanten_after[t] == best]
    return tuple(sorted(choices, key=lambda c: -c.unseen))


def _without_atozuke(waits_: list[Wait], notes: list[str], ruleset: str) -> tuple[list[Wait], list[str]]:
    """No atozuke for a 13-tile hand's waits, ron and tsumo in turn (one note where both are barred alike)."""
    barred = {}
    for how in ("ron", "tsumo"):
        lacking = _atozuke_lacking({w.tile: getattr(w, how) is not None for w in waits_})
        if lacking:
            waits_ = [replace(w, **{how: None}) for w in waits_]
            barred[how] = lacking
    if len(barred) == 2 and barred["ron"] == barred["tsumo"]:
        barred = {"win": barred["ron"]}
    return waits_, notes + [_atozuke_note(ruleset, how, lacking) for how, lacking in barred.items()]


def _analyse_fourteen(hand: Hand, ctx: Context, win_tile: str | None) -> Readout:
    if hand_shanten(hand) >= 0:
        choices = _discard_choices(hand, ctx)
        return Readout(hand.notation(), 14, choices[0].shanten, False, discards=choices,
                       notes=("not a complete hand",) if win_tile else ())

    def furiten_if_won_on(tile: str) -> Furiten:
        before = list(hand.concealed)
        before.remove(tile)
        return furiten(hand_waits(Hand(tuple(before), hand.melds)), ctx)

    notes = []
    could_win_on = sorted(set(hand.concealed), key=kind)
    if ctx.chankan and win_tile == "4z" and ctx.ruleset.kita:
        raise HandError("a ron on a north another player set aside is a plain ron, not chankan: leave chankan off")
    if ctx.chankan:  # the robbed tile is its kind's fourth copy, the kan's three the rest: the winner holds no other
        held = counts34(hand.all_tiles())
        could_win_on = [t for t in could_win_on if held[kind(t)] == 1]
        if win_tile in hand.concealed and held[kind(win_tile)] != 1:  # one not there is refused as for any win
            raise HandError(f"chankan: the robbed {win_tile} is the fourth of its kind, the kan held the other three, "
                            f"so this hand cannot hold {held[kind(win_tile)]} of them")
        if not could_win_on:
            raise HandError("chankan: the robbed tile is the fourth of its kind, the kan held the other three, but "
                            "this hand holds each of its tiles twice or more")
    if win_tile is None:
        scored = sorted(((_score(hand, t, ctx), t) for t in could_win_on),
                        key=lambda rt: (rt[0].valid, rt[0].points, rt[0].han, rt[0].fu), reverse=True)
        (result, win_tile), fur = scored[0], furiten_if_won_on(scored[0][1])
        legal = ""
        if fur.furiten and not ctx.tsumo:  # a ron on a wait in furiten cannot be: the best tile it could be won on
            for r, t in scored[1:]:
                if r.valid == result.valid and not (f := furiten_if_won_on(t)).furiten:
                    result, win_tile, fur, legal = r, t, f, " that is not in furiten"
                    break
        notes.append(f"winning tile not given: scored as won on {win_tile}, the reading worth most{legal}")
    else:
        result, fur = _score(hand, win_tile, ctx), furiten_if_won_on(win_tile)
    furiten_ron = fur.furiten and not ctx.tsumo
    if furiten_ron:
        notes.append("furiten: this hand cannot win by ron")
    notes += list(result.notes)
    return Readout(hand.notation(), 14, -1, True, furiten=fur, win=result, win_tile=win_tile, notes=tuple(notes),
                   furiten_ron=furiten_ron)

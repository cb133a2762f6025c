"""The rules commands of the ``riichi-lens`` CLI: ``hand`` (score or read one hand) and ``check-cases``."""
from __future__ import annotations

import argparse
import json
import sys

from .cases import check_case, read_cases
from .context import Context, Discard, Missed
from .readout import analyse
from .ruleset import PRESETS, preset
from .tiles import SOURCES, TILE_NAMES, WINDS, HandError, parse_hand, parse_tile, parse_tiles


def add_hand_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hand", help="read and score one hand written in notation",
                       description="Examples: riichi-lens hand \"123m456p789s11z 555z\" --win 5z --tsumo --seat E "
                                   "--round E --dora 4z   |   riichi-lens hand \"234m 3'45p 66s 789s 22z\" "
                                   "(melds: ' marks the called tile, \" an added kan, [5555p] a closed kan)")
    p.add_argument("hand", help="concealed tiles, then melds, e.g. \"123m406p789s11z 5'55z\"")
    p.add_argument("--win", "--win-tile", dest="win",
                   help="the winning tile: one of a 14-tile hand's (default: the reading worth most), or the tile a "
                        "13-tile hand won on")
    add_context_args(p, ("--seat", "--seat-wind"), "won on the discard of this player (a 14-tile hand with "
                                                   "neither: scored as a ron from the left, the note says)")
    p.add_argument("--discards", default="", help="the player's own discards, for furiten")
    p.add_argument("--seen", "--visible", dest="seen", default="",
                   help="other tiles the player can see (other ponds and melds)")
    p.add_argument("--json", action="store_true", help="print the readout as JSON")
    p.set_defaults(run=run_hand)


def add_context_args(p: argparse.ArgumentParser, seat_wind_flags: tuple[str, ...], ron_help: str) -> None:
    """The hand's context as flags: ``hand`` and ``read --score`` take the same ones (``read`` names the seat
    wind --seat-wind only, its --seat being whose hand to score), each also by the API's name for it
    (``ContextIn``: --win-from, --dora-indicators, --riichi-sticks...)."""
    how = p.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help="won by self-draw")
    how.add_argument("--ron", "--win-from", dest="ron", choices=SOURCES, default=None, help=ron_help)
    p.add_argument(*seat_wind_flags, dest="seat_wind", choices=WINDS, default="E",
                   help="seat wind (default E: the dealer)")
    p.add_argument("--round", "--round-wind", dest="round_wind", choices=WINDS, default="E", help="round wind")
    p.add_argument("--dora", "--dora-indicators", dest="dora", default="", help="dora indicators, e.g. 4z or 3m7p")
    p.add_argument("--ura", "--ura-indicators", dest="ura", default="", help="ura dora indicators (riichi only)")
    p.add_argument("--riichi", action="store_true")
    p.add_argument("--double-riichi", action="store_true")
    p.add_argument("--ippatsu", action="store_true")
    for flag in ("haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou"):
        p.add_argument(f"--{flag}", action="store_true")
    p.add_argument("--honba", type=int, default=0)
    p.add_argument("--sticks", "--riichi-sticks", dest="sticks", type=int, default=0, help="riichi sticks on the table")
    p.add_argument("--kita", type=int, default=0, help="north tiles set aside (3 players)")
    p.add_argument("--ruleset", default="tenhou",
                   help=f"one of {', '.join(PRESETS)}, with house rules after a colon, e.g. "
                        "tenhou:kuitan=no,atozuke=no (the options: README, \"Rulesets\")")
    p.add_argument("--pao", choices=SOURCES, help="the player liable for daisangen / daisuushii (pao)")
    p.add_argument("--other-winner-nearer", action="store_true",
                   help="a double ron whose other winner sits nearer the discarder (who takes the honba and sticks)")
    p.add_argument("--missed", default="", help="winning tiles the player let pass since their last draw "
                                                "(temporary furiten)")
    p.add_argument("--missed-in-riichi", default="", help="winning tiles the player let pass in riichi "
                                                          "(furiten for the rest of the hand)")


def context_from_args(args: argparse.Namespace, win_from: str | None, **more) -> Context:
    """The context the flags of ``add_context_args`` give (a HandError or ValueError for what cannot be one)."""
    return Context(
        seat_wind=args.seat_wind, round_wind=args.round_wind, tsumo=args.tsumo, win_from=win_from,
        riichi=args.riichi, double_riichi=args.double_riichi, ippatsu=args.ippatsu,
        haitei=args.haitei, houtei=args.houtei, rinshan=args.rinshan, chankan=args.chankan,
        tenhou=args.tenhou, chiihou=args.chiihou, renhou=args.renhou,
        dora_indicators=tuple(parse_tiles(args.dora)), ura_indicators=tuple(parse_tiles(args.ura)),
        honba=args.honba, riichi_sticks=args.sticks, kita=args.kita, pao=args.pao, ruleset=preset(args.ruleset),
        other_winner_nearer=args.other_winner_nearer,
        missed=tuple(Missed(t) for t in parse_tiles(args.missed))
        + tuple(Missed(t, after_riichi=True) for t in parse_tiles(args.missed_in_riichi)), **more,
    )


def add_check_cases_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check-cases", help="check the engine against Tenhou records (tenhou-cases.jsonl format)")
    p.add_argument("file")
    p.set_defaults(run=run_check_cases)


def run_hand(args: argparse.Namespace) -> int:
    try:
        hand = parse_hand(args.hand)
        # told neither --tsumo nor --ron, the engine scores a win as a ron from the left and notes it, as for the API
        ctx = context_from_args(args, args.ron, discards=tuple(Discard(t) for t in parse_tiles(args.discards)),
                                visible=tuple(parse_tiles(args.seen)))
        # a blank --win is refused (an unset variable in a script, say), where the page's empty field is none
        readout = analyse(hand, ctx, None if args.win is None else parse_tile(args.win))
    except (HandError, ValueError) as e:
        print(f"riichi-lens: {e}", file=sys.stderr)
        return 2
    print(json.dumps(readout.to_dict(), ensure_ascii=False, indent=2) if args.json else format_readout(readout.to_dict()))
    return 0


def format_readout(r: dict) -> str:
    """A readout (``Readout.to_dict()``, as the web app and ``read --score`` also get it) as a person reads it."""
    lines = [f"hand: {r['hand']}"]
    w = r["win"]
    if w:
        lines.append(f"won on {r['win_tile']} ({TILE_NAMES[r['win_tile']]}), {w['reading']} reading, {w['wait']} wait")
        if not w["valid"]:
            lines.append("no yaku: this hand cannot win")
        for name, han in w["yaku"]:
            lines.append(f"  {name:<24} yakuman" if w["yakuman"] else f"  {name:<24} {han:>2} han")
        if w["yakuman"]:
            lines.append(f"{w['yakuman']}x yakuman")
        elif w["valid"]:
            lines.append(f"{w['han']} han {w['fu']} fu" + (f" ({w['limit']})" if w["limit"] else ""))
        for item, fu in w["fu_items"]:
            lines.append(f"    {item:<40} {fu:>3} fu")
        if w["valid"]:
            lines.append(f"points: {w['points']}")
            for p in w["payments"]:
                extra = f" + {p['honba']} honba" if p["honba"] else ""
                lines.append(f"  {p['payer']} pays {p['points']}{extra}")
            lines.append(f"winner gains {w['winner_gain']} (sticks and honba included)")
    elif r["tiles"] == 13:
        lines.append("tenpai" if r["tenpai"] else f"{r['shanten']}-shanten (not tenpai)")
        for wait in r["waits"]:
            value = [f"{how} {wait[how]['points']}" for how in ("ron", "tsumo") if wait[how]]
            lines.append(f"  wait {wait['tile']:<3} {wait['unseen']} unseen   " + (", ".join(value) or "no yaku"))
        if r["draws"]:
            lines.append(f"  nearer on {_draws_text(r['draws'])}")
    else:
        lines.append("tenpai after a discard" if r["shanten"] == 0 else f"{r['shanten']}-shanten")
        for d in r["discards"]:
            after = "tenpai on" if d["shanten"] == 0 else f"{d['shanten']}-shanten, nearer on"
            lines.append(f"  discard {d['discard']} -> {after} {_draws_text(d['draws'])}")
    f = r["furiten"]
    if f["furiten"]:
        lines.append(f"furiten ({f['kind']}): " + "; ".join(f["reasons"]))
    lines += [f"note: {n}" for n in r["notes"]]
    return "\n".join(lines)


def _draws_text(draws: list[dict]) -> str:
    return " ".join(d["tile"] for d in draws) + f" ({sum(d['unseen'] for d in draws)} unseen)"


def run_check_cases(args: argparse.Namespace) -> int:
    passed = failed = 0
    previous = None
    try:
        for case in read_cases(args.file):
            result = check_case(case, previous)
            previous = None if any(p.startswith("error:") for p in result.problems) else case  # no double ron's half
            if result.ok:
                passed += 1
            else:
                failed += 1
                print(f"{result.id}: " + "; ".join(result.problems))
    except OSError as e:  # not Python's "[Errno 2] No such file or directory: ..."
        print(f"riichi-lens check-cases: {args.file}: {e.strerror.lower() if e.strerror else e}", file=sys.stderr)
        return 2
    except HandError as e:
        print(f"riichi-lens check-cases: {e}", file=sys.stderr)
        return 2
    if not passed + failed:  # a check of nothing is no pass
        print(f"riichi-lens check-cases: {args.file} holds no records (one JSON object a line, as "
              "tenhou-cases.jsonl)", file=sys.stderr)
        return 2
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

"""Check the engine against recorded games in the format of ``shared/data/rules/tenhou-cases.jsonl``.

Each agari line is scored under the Tenhou preset (its 3-player preset for ``"players": 3``) and compared on
han, fu, points, the yaku with their han and every seat's score change; each tenpai line on the verdict.
A ron winner must also not be found furiten from its own discards.

The record carries the table events the tiles cannot show (ippatsu, haitei, rinshan, chankan, double riichi,
tenhou...) only as Tenhou's yaku names, so those flags are read from there; riichi comes from the discards.
Liability (pao) is read from the melds: the meld that completed the third dragon (fourth wind) set, if
called, names the liable player. These records list melds newest first (every daisangen line agrees only
that way), so the first-listed big set is the last one called. A double ron shows as two consecutive lines
of one log, both ron off the same discarder at the same honba: the second winner gets no honba or sticks.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Iterator

from .context import Context, Discard
from .points import SOURCE_OFFSET
from .readout import hand_waits
from .ruleset import TENHOU, TENHOU_SANMA
from .scoring import score_win
from .tiles import Hand, HandError, Meld, kind

EVENT_YAKU = {
    "ippatsu": "ippatsu", "double riichi": "double_riichi", "haitei": "haitei", "houtei": "houtei",
    "rinshan kaihou": "rinshan", "chankan": "chankan", "tenhou": "tenhou", "chiihou": "chiihou", "renhou": "renhou",
}


@dataclass
class CaseResult:
    id: str
    ok: bool
    problems: list[str]


def case_hand(case: dict) -> Hand:
    return Hand(tuple(case["concealed"]), tuple(Meld.from_dict(m) for m in case["melds"]))


def case_ruleset(case: dict):
    base = TENHOU_SANMA if case.get("players", 4) == 3 else TENHOU
    rules = case.get("rules", {})
    red = base.red_fives if rules.get("aka", True) else (0, 0, 0)
    return replace(base, kuitan=rules.get("kuitan", True), red_fives=red)


def _pao(case: dict) -> str | None:
    """The source of the last called meld among the dragon (or wind) sets, if they make the big yakuman."""
    for group, needed in (((31, 32, 33), 3), ((27, 28, 29, 30), 4)):
        sets = [m for m in case["melds"] if kind(m["tiles"][0]) in group and m["kind"] != "chi"]
        if len(sets) == needed and sets[0]["kind"] != "ankan":
            return sets[0]["from"]
    return None


def _discarder_seat(case: dict) -> int | None:
    deltas = case["expected"]["score_deltas"]
    return None if case.get("tsumo") else min(range(len(deltas)), key=lambda s: deltas[s])


def _dealer_seat(case: dict) -> int:
    deltas = case["expected"]["score_deltas"]
    winner = max(range(len(deltas)), key=lambda s: deltas[s])
    return (winner - "ESWN".index(case["seat_wind"])) % len(deltas)


def is_second_ron(case: dict, previous: dict | None) -> bool:
    """Whether ``case`` is the farther winner of a double ron whose nearer winner is ``previous``:
    the same hand of the same log (round, dealer, honba), both ron off the same discarder."""
    if not previous or previous.get("kind") != "agari" or case.get("kind") != "agari" or case.get("tsumo"):
        return False
    same_hand = all(previous[k] == case[k] for k in ("round_wind", "honba")) and _dealer_seat(previous) == _dealer_seat(case)
    return (previous["id"].split("#")[0] == case["id"].split("#")[0] and not previous.get("tsumo") and same_hand
            and _discarder_seat(previous) == _discarder_seat(case))


def case_context(case: dict, second_ron: bool = False) -> Context:
    names = {name for name, _ in case["expected"].get("yaku", [])} if "expected" in case else set()
    flags = {flag: True for name, flag in EVENT_YAKU.items() if name in names}
    return Context(
        seat_wind=case["seat_wind"], round_wind=case["round_wind"], tsumo=case.get("tsumo", False),
        win_from=None if case.get("tsumo") else case.get("from"),
        riichi=any(d["riichi"] for d in case.get("discards", [])) or flags.get("double_riichi", False),
        dora_indicators=tuple(case.get("dora_indicators", [])), ura_indicators=tuple(case.get("ura_indicators", [])),
        kita=case.get("kita", 0), honba=case.get("honba", 0), riichi_sticks=case.get("riichi_sticks", 0),
        discards=tuple(Discard(d["tile"], d["riichi"], d["called"]) for d in case.get("discards", [])),
        pao=_pao(case), other_winner_nearer=second_ron, ruleset=case_ruleset(case), **flags,
    )


def score_deltas(case: dict, gain: int, payments) -> list[int]:
    """Our payments laid out in the record's seat order (the winner is the seat with the largest change)."""
    expected = case["expected"]["score_deltas"]
    if len(expected) not in SOURCE_OFFSET:
        raise HandError(f"score_deltas has {len(expected)} seats: a table has 3 or 4")
    winner_seat = max(range(len(expected)), key=lambda s: expected[s])
    winner_wind = "ESWN".index(case["seat_wind"])
    n = len(expected)
    out = [0] * n
    out[winner_seat] = gain
    paid = {p.payer: p.points + p.honba for p in payments}
    source_at = {offset: source for source, offset in SOURCE_OFFSET[n].items()}
    for s in range(n):
        if s != winner_seat:
            out[s] = -paid.get(source_at[(s - winner_seat) % n], 0)
    return out


def check_case(case: dict, previous: dict | None = None) -> CaseResult:
    """Check one line; ``previous`` is the line before it (a double ron spans two lines)."""
    problems: list[str] = []
    try:
        if case["kind"] == "tenpai":
            got = bool(hand_waits(case_hand(case)))
            if got != case["expected"]["tenpai"]:
                problems.append(f"tenpai: got {got}, Tenhou {case['expected']['tenpai']}")
        else:
            problems += _check_agari(case, is_second_ron(case, previous))
    except HandError as e:
        problems.append(f"error: {e}")
    except KeyError as e:  # a line of another format, or cut short
        problems.append(f"error: the case has no {e} field")
    except (TypeError, ValueError, AttributeError) as e:  # a field of another type or shape: a number as text...
        problems.append(f"error: a field of the wrong type or shape ({type(e).__name__}: {e})")
    return CaseResult(str(case.get("id", "?")), not problems, problems)


def _check_agari(case: dict, second_ron: bool) -> list[str]:
    e = case["expected"]
    hand, ctx = case_hand(case), case_context(case, second_ron)
    r = score_win(hand, case["win_tile"], ctx)
    problems = []
    for name, got, want in (("han", r.han, e["han"]), ("yakuman", r.yakuman, e["yakuman"]), ("fu", r.fu, e["fu"]),
                            ("points", r.points, e["points"]), ("limit", r.limit, e["limit"])):
        if got != want:
            problems.append(f"{name}: got {got}, Tenhou {want}")
    if sorted(map(tuple, r.yaku)) != sorted(map(tuple, e["yaku"])):
        problems.append(f"yaku: got {sorted(r.yaku)}, Tenhou {sorted(map(tuple, e['yaku']))}")
    deltas = score_deltas(case, r.winner_gain, r.payments)
    if deltas != e["score_deltas"]:
        problems.append(f"score deltas: got {deltas}, Tenhou {e['score_deltas']}")
    if not ctx.tsumo:
        before = list(case["concealed"])
        before.remove(case["win_tile"])
        waits = set(hand_waits(Hand(tuple(before), hand.melds)))
        furiten = sorted({d.tile for d in ctx.discards if kind(d.tile) in waits})
        if furiten:
            problems.append(f"ron winner found furiten on its own discards {furiten}")
    return problems


def read_cases(path: str) -> Iterator[dict]:
    """The cases of a file of JSON lines, each an object with a ``kind`` (a HandError names the first line that
    is not)."""
    with open(path, encoding="utf-8") as f:
        n = 0
        try:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    case = json.loads(line)
                except json.JSONDecodeError as e:
                    raise HandError(f"{path}:{n}: not a JSON line ({e.msg})") from None
                if not isinstance(case, dict) or "kind" not in case:
                    raise HandError(f"{path}:{n}: not a case: a JSON object with its 'kind' (tenpai or agari)")
                yield case
        except UnicodeDecodeError:
            raise HandError(f"{path}:{n + 1}: not text: a file of JSON lines is UTF-8") from None

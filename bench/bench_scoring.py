"""Benchmark: scoring real Tenhou wins with this engine and with the reference package ``mahjong``.

One run scores the same hands -- the first N agari lines of ``tenhou-cases.jsonl`` -- with ``rules.scoring.score_win``
and with ``mahjong``'s ``HandCalculator.estimate_hand_value``, and times ``rules.readout.hand_waits`` and
``rules.readout.analyse`` on the 13-tile hands before each win (the hand minus its winning tile).

Inputs are built before timing (our Hand and Context; mahjong's 136-format tiles, melds and HandConfig), so each
timed call is the scoring alone. Every call is timed with ``time.perf_counter``; a hand's time is the median of
``--repeat`` calls in a row, after one warm-up pass over all hands; the report gives the median over hands (and
the 90th percentile). The two engines take turns by blocks of 50 hands, so a change in the machine's load
affects both alike.

Both engines cache what a hand's tiles decide: mahjong its divisions of the hand (``HandDivider``, 128 hands),
ours the hand's shape and readings (``rules.yaku.hand_shape``, 8192 hands). Repeated calls on one hand, as
timed by default, hit those caches -- as when a camera reads the same table frame after frame. ``--cold`` also
times every call with both whole-hand caches cleared first, i.e. each hand scored as if seen for the first
time (ours keeps its tables by pattern -- one suit's splits, some hundreds of patterns per suit filled within
the first hands, and the melds' groups and honour sets -- never a whole hand).

    python bench/bench_scoring.py [--cases PATH] [--limit N] [--repeat R] [--cold] [--profile]

``--cases`` defaults to ``$RIICHI_LENS_SHARED/data/rules/tenhou-cases.jsonl``, or ``../shared/data/rules/...``
beside the repository. ``--profile`` prints a cProfile of our scoring pass instead of timing.
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rules.cases import case_context, case_hand, is_second_ron, read_cases  # noqa: E402
from rules.context import Context  # noqa: E402
from rules.readout import analyse, hand_waits  # noqa: E402
from rules.scoring import score_win  # noqa: E402
from rules.tiles import Hand, HandError, kind  # noqa: E402


def default_cases() -> Path:
    shared = Path(os.environ.get("RIICHI_LENS_SHARED", REPO.parent / "shared"))
    return shared / "data" / "rules" / "tenhou-cases.jsonl"


# ------------------------------------------------------------------------------------------------ mahjong inputs
def mahjong_inputs(case: dict, ctx: Context):
    """(tiles, win_tile, melds, dora, ura, config) in mahjong's 136-format for one agari line."""
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld as MjMeld

    rules = ctx.ruleset
    red = {4: rules.red_fives[0], 13: rules.red_fives[1], 22: rules.red_fives[2]}
    used: set[int] = set()

    def tile_id(t: str) -> int:
        k = kind(t)
        copies = [0] if t in ("0m", "0p", "0s") else ([1, 2, 3] if red.get(k) else [0, 1, 2, 3])
        for c in copies:
            if k * 4 + c not in used:
                used.add(k * 4 + c)
                return k * 4 + c
        raise HandError(f"no free copy of {t}")

    hand = case_hand(case)
    concealed = [tile_id(t) for t in hand.concealed]
    win = concealed[list(hand.concealed).index(case["win_tile"])]
    melds, meld_tiles = [], []
    kinds = {"chi": MjMeld.CHI, "pon": MjMeld.PON, "daiminkan": MjMeld.KAN, "kakan": MjMeld.SHOUMINKAN,
             "ankan": MjMeld.KAN}
    for m in hand.melds:
        ids = [tile_id(t) for t in m.tiles]
        meld_tiles += ids
        melds.append(MjMeld(meld_type=kinds[m.kind], tiles=ids, opened=m.kind != "ankan"))
    dora = [tile_id(t) for t in ctx.dora_indicators]
    ura = [tile_id(t) for t in ctx.ura_indicators]
    options = OptionalRules(
        has_open_tanyao=rules.kuitan, has_aka_dora=any(rules.red_fives), has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage_mangan, fu_for_open_pinfu=True, fu_for_pinfu_tsumo=not rules.pinfu_tsumo,
        is_three_player=rules.players == 3,
    )
    wind = {"E": 27, "S": 28, "W": 29, "N": 30}
    config = HandConfig(
        is_tsumo=ctx.tsumo, is_riichi=ctx.riichi and not ctx.double_riichi, is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu, is_rinshan=ctx.rinshan, is_chankan=ctx.chankan, is_haitei=ctx.haitei,
        is_houtei=ctx.houtei, is_tenhou=ctx.tenhou, is_chiihou=ctx.chiihou, is_renhou=ctx.renhou,
        player_wind=wind[ctx.seat_wind], round_wind=wind[ctx.round_wind], tsumi_number=ctx.honba,
        kyoutaku_number=ctx.riichi_sticks, num_nuki_dora=ctx.kita, options=options,
    )
    return concealed + meld_tiles, win, melds, dora, ura, config


# ------------------------------------------------------------------------------------------------------ timing
def time_calls(calls, repeat: int, before=None) -> list[float]:
    """Per call: the median of ``repeat`` timed runs, in microseconds."""
    return time_pairs([(fn,) for fn in calls], repeat, before)[0]


def time_pairs(pairs, repeat: int, before=None, block: int = 50) -> list[list[float]]:
    """Like :func:`time_calls` for tuples of calls on the same hand (ours, theirs). The sides take turns by
    blocks of ``block`` hands, so that a change in the machine's load during the run affects both alike, while
    each side runs long enough to have its own code and data in the processor's caches."""
    clock = time.perf_counter
    width = len(pairs[0])
    out: list[list[float]] = [[] for _ in range(width)]
    for start in range(0, len(pairs), block):
        chunk = pairs[start:start + block]
        for i in range(width):
            for fns in chunk:
                fn = fns[i]
                runs = []
                for _ in range(repeat):
                    if before:
                        before()
                    t0 = clock()
                    fn()
                    runs.append(clock() - t0)
                out[i].append(statistics.median(runs) * 1e6)
    return out


def summary(name: str, times: list[float]) -> str:
    q = statistics.quantiles(times, n=10)
    return f"{name:<44} median {statistics.median(times):8.1f} µs   p90 {q[-1]:8.1f} µs   (N={len(times)})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=Path, default=default_cases())
    p.add_argument("--limit", type=int, default=3000, help="agari lines to score (default 3000; 0 = all)")
    p.add_argument("--repeat", type=int, default=5, help="timed calls per hand (median taken)")
    p.add_argument("--cold", action="store_true", help="also time with both engines' whole-hand caches cleared")
    p.add_argument("--profile", action="store_true", help="cProfile our scoring pass instead of timing")
    args = p.parse_args(argv)

    from importlib.metadata import version

    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator

    print("command:", " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    print(f"machine: nproc={os.cpu_count()} {platform.machine()} {platform.processor() or ''} | "
          f"python {platform.python_version()} ({platform.python_implementation()}) | mahjong {version('mahjong')}")
    print(f"cases: {args.cases}")

    ours, theirs, waits_calls, analyse_calls = [], [], [], []
    agree = with_pao = 0
    previous = None
    for case in read_cases(str(args.cases)):
        prev, previous = previous, case
        if case.get("kind") != "agari":
            continue
        if args.limit and len(ours) >= args.limit:
            break
        hand, ctx = case_hand(case), case_context(case, is_second_ron(case, prev))
        win = case["win_tile"]
        ours.append(lambda hand=hand, win=win, ctx=ctx: score_win(hand, win, ctx))
        tiles, win_id, melds, dora, ura, config = mahjong_inputs(case, ctx)
        theirs.append(lambda a=(tiles, win_id, melds, dora, config, HandCalculator, ura):
                      a[5].estimate_hand_value(a[0], a[1], melds=a[2], dora_indicators=a[3], config=a[4],
                                               ura_dora_indicators=a[6]))
        rest = list(hand.concealed)
        rest.remove(win)
        hand13 = Hand(tuple(rest), hand.melds)
        waits_calls.append(lambda h=hand13: hand_waits(h))
        plain = Context(seat_wind=ctx.seat_wind, round_wind=ctx.round_wind, riichi=ctx.riichi,
                        dora_indicators=ctx.dora_indicators, win_from="across", ruleset=ctx.ruleset)
        analyse_calls.append(lambda h=hand13, c=plain: analyse(h, c))
        # sanity: both engines value the same input alike (mahjong has no pao: those hands are not compared)
        r, m = ours[-1](), theirs[-1]()
        if ctx.pao:
            with_pao += 1
        elif m.error is None and r.valid:
            others = ctx.ruleset.players - 2
            agree += r.points == (m.cost["main"] + others * m.cost["additional"] if ctx.tsumo else m.cost["main"])
    n = len(ours)
    print(f"hands: {n} agari lines (the first {n} of the file); the two engines' points agree on {agree} of "
          f"{n - with_pao} ({with_pao} with pao not compared)")

    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.repeat):
            for fn in ours:
                fn()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return 0

    for calls in (ours, theirs, waits_calls, analyse_calls):  # warm-up pass
        for fn in calls:
            fn()
    t_ours, t_theirs = time_pairs(list(zip(ours, theirs)), args.repeat)
    t_waits = time_calls(waits_calls, args.repeat)
    t_analyse = time_calls(analyse_calls, args.repeat)
    print(summary("score_win (this engine)", t_ours))
    print(summary("mahjong estimate_hand_value", t_theirs))
    ratio = statistics.median(t_theirs) / statistics.median(t_ours)
    print(f"{'ratio of medians (mahjong / this engine)':<44} {ratio:6.2f}x   (target >= 3x: "
          f"{'met' if ratio >= 3 else 'NOT met'})")
    print(summary("hand_waits(13 tiles)", t_waits) + f"   (target < 1000 µs: "
          f"{'met' if statistics.median(t_waits) < 1000 else 'NOT met'})")
    print(summary("analyse(13 tiles)", t_analyse))
    if args.cold:
        from rules import yaku

        def clear():  # the whole-hand caches; ours keeps its per-pattern tables (one suit's splits, melds, honours)
            yaku.hand_shape.cache_clear()
            HandDivider._divide_hand_impl.cache_clear()

        c_ours, c_theirs = time_pairs(list(zip(ours, theirs)), args.repeat, clear)
        print(summary("score_win, caches cleared", c_ours))
        print(summary("estimate_hand_value, caches cleared", c_theirs))
        cold_ratio = statistics.median(c_theirs) / statistics.median(c_ours)
        print(f"{'ratio of medians, caches cleared':<44} {cold_ratio:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

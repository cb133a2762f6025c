"""Calls and table events: the rule-text examples, every expected answer worked out by hand from the rule."""
import json

import pytest

from rules.calls import (
    ankan_options, call_options, check_call, check_discard_after_call, check_own_kan, exhaustive_draw,
    four_kan_state, four_riichi, four_winds, kakan_options, kuikae_forbidden, nine_terminals, noten_payments,
    ron_winners,
)
from rules.context import Discard
from rules.ruleset import EMA, TENHOU, TENHOU_SANMA, WRC
from rules.tiles import HandError, Meld, kind, parse_hand, parse_meld

TENPAI = "23m456p789s11z555z"  # waits 1m and 4m
NOTEN = "1379m2468p13579s"


def notations(melds):
    return [m.notation() for m in melds]


# --------------------------------------------------------------------------------- calls on a discard

def test_chi_pon_kan_options_with_red_five_variants():
    # Each distinct chi shape is its own option, and a red five makes a separate one: with 4p 5p 0p 6p,
    # a 3p from the left is chi 3-4-5 with the red five or with the plain one.
    assert notations(call_options("4056p 123m 789s 112z", "3p", "left")) == ["3'40p", "3'45p"]
    # 5p from the left: chi 4-5-6; and a pon of 5p with 0p+5p (only one 5p pair in hand).
    assert notations(call_options("4056p 123m 789s 112z", "5p", "left")) == ["5'46p", "5'05p"]
    # Holding 5p 5p 0p, a 5p from across: pon with 0p+5p, pon with 5p+5p, and the open kan.
    assert notations(call_options("550p 123m 789s 1122z", "5p", "across")) == ["05'5p", "55'5p", "05'55p"]


def test_chi_only_from_the_left_player():
    # "Chii may only be called on the discard of the player to one's left."
    hand = "23p 456m 789s 1122z 3z"
    assert notations(call_options(hand, "1p", "left")) == ["1'23p"]
    assert call_options(hand, "1p", "across") == []
    with pytest.raises(HandError, match="only from the left"):
        check_call(hand, parse_meld("21'3p"))  # 1p turned in the middle: taken from across


def test_no_chi_in_three_player_mahjong():
    # Three-player riichi has no chii; pon and kan remain.
    assert call_options("23p 456m 789s 1122z 3z", "1p", "left", TENHOU_SANMA) == []


def test_no_call_on_the_last_discard():
    # "The last discard (houtei) may not be called for chii, pon or kan: it may only be won on by ron."
    hand = "233p 456m 789s 1122z"
    assert call_options(hand, "3p", "across", tiles_left_in_wall=1) == [parse_meld("33'3p")]
    assert call_options(hand, "3p", "across", tiles_left_in_wall=0) == []
    with pytest.raises(HandError, match="houtei"):
        check_call(hand, parse_meld("33'3p"), tiles_left_in_wall=0)


def test_no_call_during_riichi():
    assert call_options("233p 456m 789s 1122z", "3p", "right", riichi=True) == []


def test_no_open_kan_after_four_kans():
    # Four rinshan tiles: no fifth kan. The pon is still allowed.
    opts = call_options("333p 456m 789s 1122z", "3p", "right", kans_made=4)
    assert notations(opts) == ["333'p"]
    with pytest.raises(HandError, match="fifth kan"):
        check_call("333p 456m 789s 1122z", parse_meld("333'3p"), kans_made=4)


# ------------------------------------------------------------------------------------------- kuikae

def test_pon_bars_the_called_tile():
    # "After pon of 1p, 1p may not be discarded in the same turn."
    pon = parse_meld("1'11p")
    with pytest.raises(HandError, match="kuikae.*1p"):
        check_discard_after_call(pon, "1p")
    check_discard_after_call(pon, "9s")


def test_chi_bars_the_called_tile_and_the_other_end():
    # "Chii 1p with 23p: may not discard 1p nor 4p (suji kuikae); 5p may be discarded."
    chi = parse_meld("1'23p")
    with pytest.raises(HandError, match="called tile"):
        check_discard_after_call(chi, "1p")
    with pytest.raises(HandError, match="suji kuikae"):
        check_discard_after_call(chi, "4p")
    check_discard_after_call(chi, "5p")
    # "Chii 4p with 23p forbids 4p and 1p."
    assert kuikae_forbidden(parse_meld("4'23p")) == {kind("4p"), kind("1p")}
    # "A kanchan chii of 2p with 13p forbids only 2p."
    assert kuikae_forbidden(parse_meld("2'13p")) == {kind("2p")}
    # A red five counts as its five: after chi of 0p with 34p, 5p is barred too.
    with pytest.raises(HandError, match="kuikae"):
        check_discard_after_call(parse_meld("0'34p"), "5p")


def test_suji_kuikae_and_no_kuikae_rulesets():
    # With suji_kuikae the other end may go at once; only the called kind stays barred.
    suji = TENHOU.with_options(suji_kuikae=True)
    chi = parse_meld("1'23p")
    check_discard_after_call(chi, "4p", suji)
    with pytest.raises(HandError, match="kuikae"):
        check_discard_after_call(chi, "1p", suji)
    # With kuikae_allowed nothing is barred.
    check_discard_after_call(chi, "1p", TENHOU.with_options(kuikae_allowed=True))


def test_a_call_that_leaves_no_legal_discard_is_refused():
    # Concealed 1234p with three pons: chi 1p with 23p would leave 1p and 4p, both barred.
    hand = "1234p 1'11z 2'22z 3'33z"
    assert call_options(hand, "1p", "left") == []
    with pytest.raises(HandError, match="no legal discard"):
        check_call(hand, parse_meld("1'23p"))
    # Under suji_kuikae 4p may be discarded, so the chi is allowed.
    assert notations(call_options(hand, "1p", "left", TENHOU.with_options(suji_kuikae=True))) == ["1'23p"]


# ------------------------------------------------------------------------------- kans on one's turn

def test_no_kan_straight_after_a_call():
    # "After chii or pon the player must discard: no kan (closed or added) in the same turn."
    hand = "1111m 234p 56p 5z 9s 5'55z"
    assert notations(ankan_options(hand)) == ["[1111m]"]
    assert notations(kakan_options(hand)) == ['5"55z']
    assert ankan_options(hand, just_called=True) == []
    assert kakan_options(hand, just_called=True) == []
    with pytest.raises(HandError, match="discard first"):
        check_own_kan(hand, parse_meld("[1111m]"), just_called=True)


def test_no_kan_on_an_empty_wall_or_after_four_kans():
    hand = "1111m 234p 56p 5z 9s 5'55z"
    assert ankan_options(hand, tiles_left_in_wall=0) == []
    assert kakan_options(hand, kans_made=4) == []
    with pytest.raises(HandError, match="wall is empty"):
        check_own_kan(hand, parse_meld("[1111m]"), tiles_left_in_wall=0)


def test_riichi_closed_kan_allowed_when_waits_and_reading_stay():
    # Shanpon 1s/9s, 555m an isolated triplet; the fourth 5m is drawn: kan allowed.
    hand = parse_hand("555m 234p 678p 11s 99s 5m")
    assert notations(ankan_options(hand, riichi=True, drawn="5m")) == ["[5555m]"]
    # Ryanmen 1p/4p with 111m: the drawn 1m can be konged.
    assert notations(ankan_options("111m 23p 456p 789s 99s 1m", riichi=True, drawn="1m")) == ["[1111m]"]
    # 111234m with a 5s tanki: 111m is a triplet in the only reading (111+234), waits stay 5s.
    check_own_kan("111234m 567p 789p 5s 1m", parse_meld("[1111m]"), riichi=True, drawn="1m")


def test_riichi_closed_kan_refused_when_waits_change():
    # 3334m waits on 2m, 4m and 5m; a kan of 3m leaves a 4m tanki.
    with pytest.raises(HandError, match="change the waits from 2m 4m 5m to 4m"):
        check_own_kan("3334m 456p 789p 123s 3m", parse_meld("[3333m]"), riichi=True, drawn="3m")
    assert ankan_options("3334m 456p 789p 123s 3m", riichi=True, drawn="3m") == []


def test_riichi_closed_kan_refused_when_the_reading_changes():
    # 1112444m waits on 2m and 3m before and after a kan of 1m, but won on 3m it also reads
    # 11m + 123m + 444m: the 1m would be in a run, so the kan changes the hand and is refused.
    with pytest.raises(HandError, match="reading.*1m in a run"):
        check_own_kan("1112444m 456p 789p 1m", parse_meld("[1111m]"), riichi=True, drawn="1m")


def test_riichi_okuri_kan_refused():
    # 55556m waits 4m/7m; drawing 1z and konging the 5m held before the draw is okuri-kan.
    with pytest.raises(HandError, match="okuri-kan"):
        check_own_kan("55556m 456p 789s 99s 1z", parse_meld("[5555m]"), riichi=True, drawn="1z")
    with pytest.raises(HandError, match="drawn"):
        ankan_options("555m 234p 678p 11s 99s 5m", riichi=True)


# ---------------------------------------------------------------------- four kans, abortive draws

def test_four_kans_by_one_player_play_continues():
    # "One player with four kans: play continues (suukantsu is possible); no one may make a fifth kan."
    state = four_kan_state([0, 4, 0, 0], TENHOU)
    assert (state.more_kans, state.abortive_draw) == (False, False)


def test_four_kans_by_several_players_abort():
    # "Four kans by two or more players: abortive draw (suukaikan)."
    state = four_kan_state([2, 1, 0, 1], TENHOU)
    assert (state.more_kans, state.abortive_draw) == (False, True)
    # Without abortive draws play goes on, still with no fifth kan.
    state = four_kan_state([2, 1, 0, 1], WRC)
    assert (state.more_kans, state.abortive_draw) == (False, False)
    assert four_kan_state([1, 1, 1, 0], TENHOU).more_kans
    with pytest.raises(HandError, match="at most four"):
        four_kan_state([3, 2, 0, 0], TENHOU)


def test_four_riichi_abort():
    # "All four players declare riichi: abortive draw."
    assert four_riichi([True, True, True, True], TENHOU)
    assert not four_riichi([True, True, True, False], TENHOU)
    assert not four_riichi([True, True, True, True], WRC)


def test_nine_terminals():
    # Nine different terminals and honours among the 14 tiles of the first draw: 1m 9m 1p 9p 1s 9s E S W.
    assert nine_terminals("19m19p19s123z2345m6p", TENHOU)
    # Eight kinds (a second 1m does not count twice): no.
    assert not nine_terminals("119m19p19s12z2345m6p", TENHOU)
    assert not nine_terminals("19m19p19s123z2345m6p", TENHOU, calls_made=True)
    assert not nine_terminals("19m19p19s123z2345m6p", WRC)


def test_four_winds():
    # "All four players discard the same wind on their first turn: abortive draw."
    assert four_winds(["1z", "1z", "1z", "1z"], TENHOU)
    assert not four_winds(["5z", "5z", "5z", "5z"], TENHOU)  # haku is not a wind
    assert not four_winds(["1z", "1z", "1z", "2z"], TENHOU)
    assert not four_winds(["1z", "1z", "1z", "1z"], TENHOU, calls_made=True)
    assert not four_winds(["1z", "1z", "1z", "1z"], WRC)


def test_multiple_ron():
    # Seat 0 discards; seats 1, 2 and 3 call ron.
    assert ron_winners(0, [3, 1, 2], TENHOU).abortive_draw  # double ron rule: a triple ron aborts
    assert ron_winners(0, [3, 2], TENHOU).winners == (2, 3)  # double ron: both win, nearest first
    assert ron_winners(0, [3, 2], WRC).winners == (2,)  # head bump: seat 2 plays before seat 3
    assert ron_winners(2, [0, 1], WRC).winners == (0,)  # after seat 2 come 3, then 0
    assert ron_winners(0, [3, 1, 2], EMA).winners == (1, 2, 3)


# ---------------------------------------------------------------------------------- exhaustive draw

@pytest.mark.parametrize("tenpai, expected", [
    # noten_payment_total 3000: the noten players pay it, the tenpai players share it.
    ([False, False, False, False], [0, 0, 0, 0]),
    ([True, False, False, False], [3000, -1000, -1000, -1000]),
    ([True, False, True, False], [1500, -1500, 1500, -1500]),
    ([True, True, False, True], [1000, 1000, -3000, 1000]),
    ([True, True, True, True], [0, 0, 0, 0]),
])
def test_noten_payments(tenpai, expected):
    hands = [TENPAI if t else NOTEN for t in tenpai]
    result = exhaustive_draw(hands, TENHOU)
    assert [s.delta for s in result.seats] == expected
    assert [s.tenpai for s in result.seats] == tenpai


def test_a_hand_not_shown_at_the_draw_is_noten():
    # The tenpai players show their hands; one kept face down (None) pays as noten.
    result = exhaustive_draw([TENPAI, None, None, TENPAI], TENHOU)
    assert [s.tenpai for s in result.seats] == [True, False, False, True]
    assert [s.delta for s in result.seats] == [1500, -1500, -1500, 1500] and result.seats[1].waits == ()


def test_what_a_player_declares_at_the_draw_stands_over_the_hand():
    # A tenpai player may declare noten and keep the hand hidden: seat 0 pays as noten though its hand waits on
    # 1m and 4m, and seat 1, its hand not given, declared tenpai, takes the 3,000 with seat 3.
    result = exhaustive_draw([TENPAI, None, NOTEN, TENPAI], TENHOU, declared=[False, True, None, None])
    assert [s.tenpai for s in result.seats] == [False, True, False, True]
    assert [s.delta for s in result.seats] == [-1500, 1500, -1500, 1500]
    assert result.seats[0].waits == () and result.seats[3].waits == ("1m", "4m") and result.notes == ()
    # A noten hand declared tenpai counts as declared, and the notes say the hand does not bear it out.
    result = exhaustive_draw([NOTEN, NOTEN, NOTEN, NOTEN], TENHOU, declared=[None, None, True, None],
                             names=["self", "right", "across", "left"])
    assert [s.delta for s in result.seats] == [-1000, -1000, 3000, -1000]
    assert result.notes == ("across: declared tenpai, but its hand is not tenpai",)
    with pytest.raises(HandError, match="declarations by seat: one entry per seat, 4 seats, not 3"):
        exhaustive_draw([TENPAI, None, NOTEN, TENPAI], TENHOU, declared=[None, None, None])


def test_noten_payments_three_players():
    # Three players, 2000 in all: one tenpai takes 1000 from each; two tenpai take 1000 each from one.
    assert noten_payments([True, False, False], TENHOU_SANMA) == [2000, -1000, -1000]
    assert noten_payments([True, True, False], TENHOU_SANMA) == [1000, 1000, -2000]


def test_waiting_only_on_a_tile_held_four_times_is_noten():
    # 4444p 123m 456m 789s can only be completed by a fifth 4p: noten at the draw.
    result = exhaustive_draw(["4444p123m456m789s", TENPAI, NOTEN, NOTEN], TENHOU)
    assert [s.tenpai for s in result.seats] == [False, True, False, False]
    assert result.seats[1].waits == ("1m", "4m")
    assert [s.delta for s in result.seats] == [-1000, 3000, -1000, -1000]
    json.dumps(result.to_dict())


def test_nagashi_mangan():
    # All discards terminals or honours, none called: a mangan paid as a tsumo, no noten payments.
    clean = [Discard("1m"), Discard("9p"), Discard("5z")]
    plain = [Discard("2m"), Discard("1z")]
    hands = [TENPAI, NOTEN, NOTEN, NOTEN]
    # Non-dealer (seat 1, dealer seat 0): 4000 from the dealer, 2000 from each of the others.
    result = exhaustive_draw(hands, TENHOU, ponds=[plain, clean, plain, plain], dealer=0)
    assert [s.delta for s in result.seats] == [-4000, 8000, -2000, -2000]
    assert result.seats[1].nagashi and result.seats[0].tenpai
    # The dealer: 4000 from everyone.
    result = exhaustive_draw(hands, TENHOU, ponds=[clean, plain, plain, plain], dealer=0)
    assert [s.delta for s in result.seats] == [12000, -4000, -4000, -4000]
    # One of the discards was called: no nagashi, the noten payments apply.
    called = clean[:2] + [Discard("5z", called=True)]
    result = exhaustive_draw(hands, TENHOU, ponds=[plain, called, plain, plain], dealer=0)
    assert [s.delta for s in result.seats] == [3000, -1000, -1000, -1000]
    # Three players with tsumo loss: the missing north's 2000 is not paid (dealer 4000, the other 2000).
    result = exhaustive_draw([TENPAI, NOTEN, NOTEN], TENHOU_SANMA, ponds=[plain, clean, plain], dealer=0)
    assert [s.delta for s in result.seats] == [-4000, 6000, -2000]
    # A ruleset without nagashi mangan.
    result = exhaustive_draw(hands, WRC, ponds=[plain, clean, plain, plain], dealer=0)
    assert [s.delta for s in result.seats] == [3000, -1000, -1000, -1000]


# ---------------------------------------------------------------------------------------- bad input

def test_impossible_meld():
    with pytest.raises(HandError, match="not 3 of the same tile"):
        Meld("pon", ("1p", "2p", "3p"), "1p", "left")
    # A pon of 5p by a hand holding a single 5p.
    with pytest.raises(HandError, match="5p is not in the concealed tiles"):
        check_call("5p 123m 456m 789s 112z", parse_meld("55'5p"))


def test_fifth_copy():
    with pytest.raises(HandError, match="5 copies of 5p"):
        call_options("5555p 123m 789s 112z", "5p", "left")


def test_discard_not_in_hand():
    with pytest.raises(HandError, match="9s is not in the concealed tiles"):
        check_discard_after_call(parse_meld("1'11p"), "9s", concealed=["2p", "3p", "4m"])


def test_wrong_hand_size():
    with pytest.raises(HandError, match="13 tiles"):
        call_options("23p 456m 789s 1122z 3z 4z", "1p", "left")
    with pytest.raises(HandError, match="14 tiles"):
        ankan_options("1111m 234p 567p 5'55z")

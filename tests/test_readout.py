"""Waits, unseen counts, furiten and atozuke: the rule-text examples, answers worked out by hand."""
import json

import pytest

from rules.context import Context, Discard, Missed
from rules.readout import analyse, hand_shanten
from rules.ruleset import TENHOU, TENHOU_SANMA
from rules.tiles import HandError, parse_hand


def waits_of(readout):
    return [w.tile for w in readout.waits]


def test_nobetan_waits_and_unseen_counts():
    # 23m456p789s11z555z waits on 1m and 4m. Seen: one 1m in the discards, one 1m elsewhere, a 4m indicator.
    hand = parse_hand("23m456p789s11z555z")
    ctx = Context(seat_wind="S", discards=(Discard("1m"),), visible=("1m",), dora_indicators=("4m",))
    r = analyse(hand, ctx)
    assert r.tenpai and r.shanten == 0
    assert waits_of(r) == ["1m", "4m"]
    assert [w.unseen for w in r.waits] == [2, 3]


def test_three_six_nine_furiten():
    # Waiting on 3m-6m-9m with 9m in one's own discards: furiten on every wait, 3m and 6m included.
    hand = parse_hand("45678m234p678s11z")
    r = analyse(hand, Context(discards=(Discard("9m"),)))
    assert waits_of(r) == ["3m", "6m", "9m"]
    assert r.furiten.furiten and r.furiten.kind == "permanent"
    assert "9m" in r.furiten.reasons[0]


def test_one_four_furiten_counts_a_discard_called_away():
    # Waiting on 1m-4m; the player's 4m was called by another player: still furiten.
    hand = parse_hand("23m456p789s11z555z")
    r = analyse(hand, Context(discards=(Discard("4m", called=True),)))
    assert r.furiten.furiten and r.furiten.kind == "permanent"


def test_not_furiten_on_unrelated_discards():
    r = analyse(parse_hand("23m456p789s11z555z"), Context(discards=(Discard("5m"), Discard("2m"))))
    assert not r.furiten.furiten and r.furiten.kind is None


def test_temporary_furiten_lasts_until_the_next_draw():
    hand = parse_hand("23m456p789s11z555z")
    assert analyse(hand, Context(missed=(Missed("1m"),))).furiten.kind == "temporary"
    assert not analyse(hand, Context(missed=(Missed("1m", drawn_since=True),))).furiten.furiten


def test_a_tile_let_pass_that_is_no_wait_makes_no_furiten_and_is_said_so():
    """A referee giving the wrong tile let pass (9m for a hand waiting on 1m and 4m) got no word of it."""
    hand = parse_hand("23m456p789s11z555z")
    r = analyse(hand, Context(missed=(Missed("9m"), Missed("1m", drawn_since=True), Missed("7z"))))
    assert not r.furiten.furiten
    assert "let 9m, 7z pass: no wait of this hand, so no furiten from it" in r.notes
    assert not [n for n in analyse(hand, Context(missed=(Missed("4m"),))).notes if "no wait" in n]


def test_temporary_furiten_and_calls_follow_the_ruleset():
    hand = parse_hand("23m456p789s11z555z")
    missed = (Missed("4m", called_since=True),)
    assert not analyse(hand, Context(missed=missed)).furiten.furiten
    strict = TENHOU.with_options(temporary_furiten_ends_on_call=False)
    assert analyse(hand, Context(missed=missed, ruleset=strict)).furiten.kind == "temporary"


def test_riichi_furiten_lasts_the_rest_of_the_hand():
    hand = parse_hand("23m456p789s11z555z")
    r = analyse(hand, Context(riichi=True, missed=(Missed("1m", after_riichi=True, drawn_since=True),)))
    assert r.furiten.kind == "riichi"


def test_waiting_only_on_a_tile_held_four_times_is_not_tenpai():
    hand = parse_hand("1111m234p567p789s")
    r = analyse(hand)
    assert not r.tenpai and r.waits == () and r.shanten == 1
    # with three 1m the hand is tenpai on its other shape: 2345p567p waits 2p, 5p and 8p (234 55 678)
    assert waits_of(analyse(parse_hand("111m2345p567p789s"))) == ["2p", "5p", "8p"]


def test_fourth_copy_in_a_meld_counts_as_held():
    # tanki on 1z while holding a pon of 1z: the only wait is the fifth 1z, so noten
    hand = parse_hand("1z 234m567m789m 1'11z")
    assert not analyse(hand).tenpai
    assert hand_shanten(hand) == 1


def test_tenpai_even_when_every_winning_tile_is_visible():
    hand = parse_hand("23m456p789s11z555z")
    r = analyse(hand, Context(visible=("1m",) * 4 + ("4m",) * 3, discards=(Discard("4m"),)))
    assert r.tenpai and [w.unseen for w in r.waits] == [0, 0]
    assert any("no copy is left" in n for n in r.notes)


def test_atozuke_wait_without_yaku_is_marked():
    # Open hand: shanpon on haku (yaku) and 2m (no yaku). Winning on 2m is impossible, on haku fine.
    hand = parse_hand("55z22m456p678s 3'45m")
    r = analyse(hand, Context(seat_wind="S", win_from="left"))
    by_tile = {w.tile: w for w in r.waits}
    assert set(by_tile) == {"2m", "5z"}
    assert by_tile["5z"].ron is not None and by_tile["5z"].ron.han == 1
    assert by_tile["2m"].ron is None and by_tile["2m"].tsumo is None
    assert any("2m" in n and "cannot win" in n for n in r.notes)


NO_ATOZUKE = TENHOU.with_options(name="no-atozuke", atozuke=False)


def test_without_atozuke_a_hand_with_a_yakuless_wait_wins_on_none():
    # The same open shanpon on haku and 2m: with atozuke off a hand must have a yaku whatever tile it wins on
    # (riichi.wiki, "Atozuke"), so not even haku wins, waiting or complete.
    r = analyse(parse_hand("55z22m456p678s 3'45m"), Context(seat_wind="S", ruleset=NO_ATOZUKE))
    assert [(w.tile, w.ron, w.tsumo) for w in r.waits] == [("2m", None, None), ("5z", None, None)]
    assert any("no atozuke in ruleset no-atozuke: no yaku on a win with 2m" in n for n in r.notes)
    r = analyse(parse_hand("555z22m456p678s 3'45m"), Context(seat_wind="S", win_from="left", ruleset=NO_ATOZUKE),
                "5z")
    assert not r.win.valid and r.win.points == 0 and r.win.payments == () and r.win.yaku == ()
    assert any("no yaku on a ron with 2m, so no ron on any wait" in n for n in r.notes)
    # closed: a ron on 1m would have no yaku (1m breaks tanyao), a tsumo on either wait has menzen tsumo, so only
    # the ron is barred
    hand, ctx = parse_hand("233445m555p678s22s"), dict(seat_wind="S", ruleset=NO_ATOZUKE)
    r = analyse(hand, Context(win_from="left", **ctx), "4m")
    assert not r.win.valid and any("no yaku on a ron with 1m" in n for n in r.notes)
    assert analyse(hand, Context(tsumo=True, **ctx), "4m").win.valid


def test_without_atozuke_a_yaku_on_every_wait_still_wins():
    # riichi.wiki's examples: 789m789p67878s55z wins on 6s (iipeikou) or 9s (sanshoku), a yaku either way;
    # 123m67p55s with a hatsu pon and a 789s chi has hatsu on 5p and 8p. Both win with atozuke off.
    r = analyse(parse_hand("789m789p678789s55z"), Context(seat_wind="S", win_from="left", ruleset=NO_ATOZUKE), "9s")
    assert r.win.valid and r.win.yaku == (("sanshoku doujun", 2),)
    r = analyse(parse_hand("123m67p55s 6'66z 7'89s"), Context(seat_wind="S", ruleset=NO_ATOZUKE))
    assert [(w.tile, w.ron.yaku) for w in r.waits] == [("5p", (("hatsu", 1),)), ("8p", (("hatsu", 1),))]
    # one wait, no yaku on a ron but menzen tsumo on a tsumo: every wait has a yaku by tsumo, so tsumo still wins
    r = analyse(parse_hand("13m456p789s11s678m"), Context(seat_wind="S", ruleset=NO_ATOZUKE))
    (wait,) = r.waits
    assert wait.ron is None and wait.tsumo is not None


def test_closed_hand_wait_winnable_only_by_tsumo():
    # Closed, no yaku on a ron (kanchan, not pinfu, no tanyao because of 9s): menzen tsumo is the only yaku.
    r = analyse(parse_hand("13m456p789s11s678m"), Context(seat_wind="S"))
    (wait,) = r.waits
    assert wait.tile == "2m" and wait.ron is None and wait.tsumo is not None


def test_complete_hand_scored_and_json_ready():
    r = analyse(parse_hand("123m456p789s11z555z"), Context(tsumo=True, dora_indicators=("4z",)), "5z")
    assert r.win.valid and r.win.han == 4 and r.win.fu == 40 and r.win.points == 12000
    json.dumps(r.to_dict())


def draws_of(draws):
    return [(d.tile, d.unseen) for d in draws]


def test_fourteen_tiles_not_complete_lists_discards_to_tenpai():
    r = analyse(parse_hand("23m456p789s11z555z9p"))
    assert r.shanten == 0 and r.win is None
    (choice,) = r.discards  # only 9p leaves it tenpai: on 1m or 4m, four of each unseen
    assert (choice.discard, choice.shanten, draws_of(choice.draws), choice.unseen) == ("9p", 0, [("1m", 4), ("4m", 4)], 8)


def test_a_hand_not_tenpai_lists_the_draws_that_take_it_nearer():
    # 123m 456p 789s with 35m and 79p, no pair: 1-shanten. Nearer on 4m or 8p (a set, then a tanki), on 3m, 5m,
    # 7p or 9p (a pair beside a kanchan), and on 4p (44p with 567p: 4p, 5p, 6p, 7p split anew, waiting on 4m).
    # Unseen: 3m 2 (the hand holds two), 4m and 8p 4, the others 3.
    r = analyse(parse_hand("123m456p789s35m79p"))
    assert r.shanten == 1 and not r.tenpai and not r.waits
    assert draws_of(r.draws) == [("3m", 2), ("4m", 4), ("5m", 3), ("4p", 3), ("7p", 3), ("8p", 4), ("9p", 3)]
    assert analyse(parse_hand("123m456p789s35m79p"), Context(visible=("8p", "8p"))).draws[5].unseen == 2
    assert analyse(parse_hand("23m456p789s11z555z")).draws == ()  # tenpai: its waits say it


def test_fourteen_tiles_list_the_best_discards_most_draws_first():
    # The same hand with a lone east: dropping it keeps all 22 draws above; dropping 9p leaves 35m, 7p and the east,
    # nearer on 4m, 4p (44p 567p), 7p and 1z (pairs), 13 unseen; a tile of a set leaves it 2-shanten, not listed.
    r = analyse(parse_hand("123m456p789s35m79p1z"))
    assert r.shanten == 1
    assert [(c.discard, c.unseen) for c in r.discards[:2]] == [("1z", 22), ("9p", 13)]
    assert draws_of(r.discards[1].draws) == [("4m", 4), ("4p", 3), ("7p", 3), ("1z", 3)]
    assert {c.discard for c in r.discards} == {"1z", "9p", "3m", "5m", "4p", "7p"}
    assert all(c.shanten == 1 for c in r.discards)
    json.dumps(r.to_dict())


def test_a_hand_waiting_only_on_a_fifth_copy_is_nearer_on_every_other_tile():
    # 1111m with three sets waits only on a fifth 1m: 1-shanten. Any other tile drawn, the fourth 1m goes and the
    # hand waits on the tile drawn (a tanki), so every kind but 1m takes it nearer.
    r = analyse(parse_hand("1111m234p567s789s"))
    assert r.shanten == 1 and not r.tenpai
    assert len(r.draws) == 33 and "1m" not in [d.tile for d in r.draws]


def test_fourteen_tiles_without_winning_tile_picks_the_best_reading():
    # 111222333m won on 1m reads as three runs or triplets; winning on 3m makes no difference to the shape
    r = analyse(parse_hand("111222333m456p77s"), Context(tsumo=True, seat_wind="S"))
    assert r.win.valid and any("not given" in n for n in r.notes)


def test_five_copies_across_hand_and_table_are_refused():
    with pytest.raises(HandError, match="5 copies of 1m"):
        analyse(parse_hand("23m456p789s11z555z"), Context(discards=(Discard("1m"),), visible=("1m",) * 4))


def test_red_five_in_a_ruleset_without_them_is_refused():
    from rules.ruleset import WRC
    with pytest.raises(HandError, match="played without red fives"):
        analyse(parse_hand("23m406p789s11z555z"), Context(ruleset=WRC))


@pytest.mark.parametrize("kwargs, words", [
    ({"seat_wind": "X"}, "seat_wind must be one of"),
    ({"tsumo": True, "win_from": "left"}, "no discarder"),
    ({"ippatsu": True}, "ippatsu needs riichi"),
    ({"haitei": True}, "self-drawn"),
    ({"tenhou": True, "tsumo": True, "seat_wind": "S"}, "dealer's win"),
    ({"honba": -1}, "cannot be negative"),
])
def test_impossible_context_is_refused(kwargs, words):
    with pytest.raises(HandError, match=words):
        Context(**kwargs)


def test_three_player_waits_are_valued_without_an_across_seat():
    from rules.ruleset import TENHOU_SANMA
    r = analyse(parse_hand("23p456p789s11z555z"), Context(seat_wind="S", ruleset=TENHOU_SANMA))
    assert [w.tile for w in r.waits] == ["1p", "4p", "7p"] and all(w.ron for w in r.waits)  # 23 456 or 234 56


@pytest.mark.parametrize("hand, kwargs, words", [
    # riichi and its variants need a closed hand; the pon of haku is open
    ("123m456p789s11z 55'5z", {"riichi": True, "ura_indicators": ("4z",), "tsumo": True},
     "riichi needs a closed hand: 55'5z is an open meld"),
    ("123m456p789s11z 55'5z", {"double_riichi": True, "tsumo": True}, "double riichi needs a closed hand"),
    ("123m456p789s11z 55'5z", {"riichi": True, "ippatsu": True, "tsumo": True}, "riichi needs a closed hand"),
    ("123m456p11z 7'89s 5'55z", {"riichi": True}, "riichi needs a closed hand: 7'89s"),  # 13 tiles, waiting
    # first-draw wins come before any call, and before any kan too
    ("123m456p789s11z [5555z]", {"tenhou": True, "tsumo": True}, "tenhou is won before any call or kan: this hand has \\[5555z\\]"),
    ("123m456p789s11z 55'5z", {"chiihou": True, "tsumo": True, "seat_wind": "S"}, "chiihou is won before any call"),
    ("123m456p789s11z 55'5z", {"renhou": True, "win_from": "left", "seat_wind": "S",
                               "ruleset": TENHOU.with_options(renhou="yakuman")}, "renhou is won before any call"),
    # the replacement draw comes only after a kan (a pon is not one)
    ("123m456p789s11z 55'5z", {"rinshan": True, "tsumo": True}, "rinshan kaihou needs a kan: this hand has none"),
    ("123m456p789s11z555z", {"rinshan": True, "tsumo": True}, "rinshan kaihou needs a kan"),
    # a three-player set has no 2m-8m, in the hand or anywhere on the table
    ("234m456p789s11z555z", {"tsumo": True, "ruleset": TENHOU_SANMA}, "2m: a three-player set has no 2m-8m"),
    ("123p456p789s11z555z", {"tsumo": True, "dora_indicators": ("7m",), "ruleset": TENHOU_SANMA}, "7m: a three"),
    # three players: no chi, and no one across to call from
    ("234p567p22s345s 6'78s", {"tsumo": True, "seat_wind": "S", "ruleset": TENHOU_SANMA}, "6'78s: a three-player game has no chi"),
    ("234p567p22s345s 66'6s", {"tsumo": True, "seat_wind": "S", "ruleset": TENHOU_SANMA}, "66'6s: called from across"),
    # the norths set aside and the hand's own: a set has four
    ("123p456p789s11z [4444z]", {"tsumo": True, "kita": 1, "ruleset": TENHOU_SANMA},
     "5 north tiles: kita 1 set aside and 4 in the hand"),
    # ura indicators are tiles of the set too (five 7z: 15 ura dora were counted)
    ("123m456p789s11z555z", {"tsumo": True, "riichi": True, "ura_indicators": ("7z",) * 5}, "5 copies of 7z"),
    # pao: the liable player fed a dragon or wind set of the hand
    ("11m555z 6'66z 77'7z 1'23m", {"tsumo": True, "pao": "right"}, "no dragon or wind set of this hand was called "
                                                                     "from right, so right is not liable"),
])
def test_context_the_hand_makes_impossible_is_refused(hand, kwargs, words):
    with pytest.raises(HandError, match=words):
        analyse(parse_hand(hand), Context(**kwargs))


@pytest.mark.parametrize("kwargs, words", [
    ({"houtei": True, "chankan": True, "win_from": "left"}, "no kan can be declared on the last tile"),
    ({"kita": 5, "ruleset": TENHOU_SANMA}, "kita 5: a set has only four north tiles"),
    ({"kita": 10**18, "ruleset": TENHOU_SANMA}, "a set has only four north tiles"),
    ({"kita": -1, "ruleset": TENHOU_SANMA}, "cannot be negative"),
    ({"renhou": True, "win_from": "left", "ruleset": TENHOU.with_options(renhou="yakuman")},
     "renhou is a non-dealer's win"),
    ({"tenhou": True, "tsumo": True, "riichi": True}, "tenhou is won before any discard, so before any riichi"),
    ({"chiihou": True, "tsumo": True, "seat_wind": "S", "double_riichi": True}, "chiihou is won before any discard"),
    ({"tenhou": True, "tsumo": True, "haitei": True}, "tenhou is won on the first turn, haitei on the last tile"),
    ({"renhou": True, "win_from": "left", "seat_wind": "S", "houtei": True}, "renhou is won on the first turn"),
    ({"renhou": True, "win_from": "left", "seat_wind": "S", "chankan": True}, "so no kan can be robbed"),
    ({"riichi": True, "ippatsu": True, "rinshan": True, "tsumo": True}, "ippatsu and rinshan cannot be one win"),
    ({"haitei": True, "rinshan": True, "tsumo": True}, "haitei and rinshan cannot be one win"),  # haitei was dropped
    ({"win_from": "across", "ruleset": TENHOU_SANMA}, "^a ron from across: three players sit E S W"),  # said win_from
    ({"pao": "across", "ruleset": TENHOU_SANMA}, "^pao from across: three players sit E S W, nobody is across"),
    ({"dora_indicators": ("1m",) * 6}, "6 dora indicators: at most 5"),
    ({"dora_indicators": ("1m", "2m"), "ruleset": TENHOU.with_options(name="x", kan_dora=False)},
     "2 dora indicators, but ruleset x has no kan dora: only the first indicator is turned"),
    ({"dora_indicators": ("1m", "2m"), "ura_indicators": ("3m", "4m"), "riichi": True,
      "ruleset": TENHOU.with_options(name="x", kan_ura_dora=False)}, "2 ura dora indicators, but ruleset x has no kan ura"),
    ({"ura_indicators": ("1m",) * 6, "riichi": True}, "6 ura dora indicators: at most 5"),
    ({"dora_indicators": ("9m",), "ura_indicators": ("4z", "4z"), "riichi": True},  # scored ura dora 4, 18,000
     "2 ura dora indicators but 1 dora indicator: each ura indicator lies under a dora indicator"),
    ({"honba": 10**30}, "no table counts above 100"), ({"riichi_sticks": 101}, "no table counts above 100"),
])
def test_impossible_table_event_or_kita_count_is_refused(kwargs, words):
    with pytest.raises(HandError, match=words):
        Context(**kwargs)


def test_ura_indicators_with_no_dora_indicator_given_are_taken_as_a_photo_may_show_them():
    """A photo may leave the dead wall's dora indicators out of view while the user gives the ura ones."""
    assert Context(riichi=True, ura_indicators=("4z", "4z")).ura_indicators == ("4z", "4z")
    assert Context(riichi=True, dora_indicators=("1m", "2m"), ura_indicators=("4z", "4z")).ura_indicators == ("4z", "4z")


def test_legal_neighbours_of_the_refused_contexts_still_score():
    # riichi with a closed kan of 1m: closed. Non-dealer tsumo, rinshan on the kan's replacement tile.
    # Yaku: haku 1, riichi 1, menzen tsumo 1, rinshan kaihou 1, ura dora 0 (indicator 4z points at 1z: none) = 4 han.
    # Fu: 20 + 2 tsumo + 2 tanki + 32 closed kan of terminals + 8 closed haku triplet = 64 -> 70 fu.
    # 4 han 70 fu is over 2000 basic points: mangan, 2000/4000 = 8000.
    r = analyse(parse_hand("456p789s22s555z [1111m]"),
                Context(seat_wind="S", tsumo=True, riichi=True, rinshan=True, ura_indicators=("4z",)), "2s")
    assert sorted(r.win.yaku) == [("haku", 1), ("menzen tsumo", 1), ("riichi", 1), ("rinshan kaihou", 1),
                                  ("ura dora", 0)]
    assert r.win.points == 8000
    # Tenhou's sanma: the draw after setting a north aside comes from the dead wall too, so rinshan needs no kan
    r = analyse(parse_hand("234p456p789s11z555z"),
                Context(seat_wind="S", tsumo=True, rinshan=True, kita=2, visible=("4z", "4z"), ruleset=TENHOU_SANMA),
                "2p")
    assert sorted(r.win.yaku) == [("haku", 1), ("kita", 2), ("menzen tsumo", 1), ("rinshan kaihou", 1)]
    # a north set aside is as a call (Tenhou's manual, "ルール/段位戦3人打ち": 一発/地和/九種/両立直は消える): the
    # rinshan draw after one comes too late for ippatsu (until session 80 it was kept), and no first-turn win follows
    with pytest.raises(HandError, match="the kan or north set aside after riichi ends ippatsu"):
        Context(riichi=True, ippatsu=True, rinshan=True, tsumo=True, kita=1, ruleset=TENHOU_SANMA)
    for first_turn in ("tenhou", "chiihou"):
        with pytest.raises(HandError, match=f"{first_turn} is won before any call, and a north set aside is as one"):
            Context(tsumo=True, seat_wind="E" if first_turn == "tenhou" else "S", kita=1, ruleset=TENHOU_SANMA,
                    **{first_turn: True})
    # a ron on another player's north set aside is a plain ron (riichi.wiki, "Sanma"): chankan said so, not as a kan
    with pytest.raises(HandError, match="a ron on a north another player set aside is a plain ron, not chankan"):
        analyse(parse_hand("123p456p789s111s4z"), Context(seat_wind="S", win_from="left", chankan=True,
                                                            ruleset=TENHOU_SANMA), "4z")
    assert analyse(parse_hand("123p456p789s111s4z"), Context(seat_wind="S", win_from="left", ruleset=TENHOU_SANMA),
                   "4z").win.valid is False  # no yaku: a north is no value wind in sanma
    # pao where a dragon set was called from the liable player, the third kept concealed (the second call made
    # daisangen sure): left pays the whole of the dealer's yakuman, 48000
    r = analyse(parse_hand("11m555z 6'66z 77'7z 1'23m"), Context(tsumo=True, pao="left"), "1m")
    assert r.win.yakuman == 1 and [(p.payer, p.points) for p in r.win.payments] == [("left", 48000)]
    # houtei alone and chankan alone are fine
    assert Context(houtei=True, win_from="left").houtei and Context(chankan=True, win_from="left").chankan


def test_thirteen_tiles_and_the_tile_won_on_are_the_hand_won_on_it():
    """As most calculators take them (it was valued as a waiting hand, the tile said to be for 14 tiles)."""
    r = analyse(parse_hand("123m456p789s1z555z"), Context(seat_wind="S", tsumo=True), "1z")
    # haku, menzen tsumo; 20 + 2 tsumo + 8 closed honour triplet + 2 tanki = 32 -> 40 fu: 700 / 1300
    assert r.win.valid and r.win.wait == "tanki" and r.win.points == 2700
    assert "the winning tile 1z is taken with the 13 tiles given" in r.notes
    assert analyse(parse_hand("123m456p789s1z555z"), Context(), "2m").win is None  # 2m completes nothing
    with pytest.raises(HandError, match="5 copies of 5z"):
        analyse(parse_hand("123m456p789s5z555z"), Context(), "5z")


def test_a_fourteen_tile_hand_without_its_winning_tile_is_scored_on_one_it_could_be_won_on_by_ron():
    """A photo never says the winning tile. 123456789m 11p 234p with 1m in the pond: won on 1m the waits were 1m
    4m 7m, furiten; won on 4m they hold no 1m. Both readings are worth the same, but only the second is a ron
    that can be: it was said "this hand cannot win by ron"."""
    r = analyse(parse_hand("123456789m11234p"), Context(discards=(Discard("1m"),)))
    assert r.win.valid and not r.furiten.furiten and r.win_tile != "1m"
    assert "furiten: this hand cannot win by ron" not in r.notes and not r.furiten_ron
    assert r.notes[0].endswith("the reading worth most that is not in furiten")
    # given, the winning tile is taken as said, furiten and all: a ron that cannot be, said so in the answer too
    r = analyse(parse_hand("123456789m11234p"), Context(discards=(Discard("1m"),)), "1m")
    assert r.furiten.furiten and "furiten: this hand cannot win by ron" in r.notes
    assert r.furiten_ron and r.to_dict()["furiten_ron"] is True
    r = analyse(parse_hand("123456789m11234p"), Context(tsumo=True, discards=(Discard("1m"),)), "1m")
    assert r.furiten.furiten and not r.furiten_ron  # a tsumo wins in furiten


def test_what_the_ruleset_or_hand_leaves_out_is_said():
    # 123m456p789s234s with a pair of souths; ura indicator 1z makes 2z ura dora: 2 han where they count.
    hand = parse_hand("123m456p789s234s22z")
    riichi = dict(seat_wind="E", tsumo=True, riichi=True, ura_indicators=("1z",))
    r = analyse(hand, Context(**riichi), "2z")
    assert ("ura dora", 2) in r.win.yaku and not r.notes
    r = analyse(hand, Context(**riichi, ruleset=TENHOU.with_options(name="x", ura_dora=False)), "2z")
    assert [y for y, _ in r.win.yaku] == ["menzen tsumo", "riichi"]
    assert r.notes == ("ura dora indicators not counted: ruleset x has no ura dora",)
    r = analyse(hand, Context(seat_wind="E", tsumo=True, ura_indicators=("1z",)), "2z")
    assert r.win.yaku == (("menzen tsumo", 1),)
    assert r.notes == ("ura dora indicators not counted: ura dora are for a hand in riichi",)
    # ippatsu in a ruleset without it, for a waiting hand too
    ctx = Context(seat_wind="E", riichi=True, ippatsu=True, ruleset=TENHOU.with_options(name="x", ippatsu=False))
    r = analyse(parse_hand("123m456p789s234s2z"), ctx)
    assert [w.tile for w in r.waits] == ["2z"] and "ippatsu" not in [y for y, _ in r.waits[0].ron.yaku]
    assert r.notes == ("ippatsu not counted: ruleset x has no ippatsu",)


def test_a_waiting_hand_of_a_double_ron_is_valued_by_ron_and_tsumo():
    """The farther winner of a double ron, waiting: each wait's tsumo value was worked out with the double ron
    still set, which no tsumo can be, and the whole readout was refused ("only a ron can be shared")."""
    hand = parse_hand("123m456p789s1z 555z")
    r = analyse(hand, Context(win_from="right", honba=2, riichi_sticks=1, other_winner_nearer=True))
    assert waits_of(r) == ["1z"]
    assert (r.waits[0].ron.points, r.waits[0].tsumo.points) == (2400, 3900)  # dealer: haku, 50 fu; tsumo 40 fu 2 han


def test_three_players_draws_are_of_tiles_their_set_has():
    """A sanma set has no 2m-8m: 1-shanten 19m234567p234s55s was told to draw 2m 3m 7m 8m too (24 unseen)."""
    r = analyse(parse_hand("19m234p567p234s55s"), Context(ruleset=TENHOU_SANMA))
    assert r.shanten == 1 and [(d.tile, d.unseen) for d in r.draws] == [("1m", 3), ("9m", 3), ("5s", 2)]
    r = analyse(parse_hand("19m234p567p234s55s4z"), Context(ruleset=TENHOU_SANMA))
    assert all(TENHOU_SANMA.has_tile(d.tile) for c in r.discards for d in c.draws)


def test_norths_set_aside_are_the_players_own_and_not_unseen():
    """Three norths set aside and one held: none is left to win on (it was 3 unseen); with a north seen
    elsewhere too, five norths are refused."""
    hand = parse_hand("234p567p234s678s4z")
    r = analyse(hand, Context(seat_wind="S", kita=3, ruleset=TENHOU_SANMA))
    assert [(w.tile, w.unseen) for w in r.waits] == [("4z", 0)]
    assert [(w.tile, w.unseen) for w in analyse(hand, Context(seat_wind="S", kita=1, ruleset=TENHOU_SANMA)).waits] \
        == [("4z", 2)]
    with pytest.raises(HandError, match="the hand with the visible tiles and its kita shows 5 copies of 4z"):
        analyse(hand, Context(seat_wind="S", kita=3, visible=("4z",), ruleset=TENHOU_SANMA))


@pytest.mark.parametrize("hand, tile, held", [
    ("234m567p234s555s11z", "5s", 3),  # a shanpon: the kan's three and these three are six
    ("19m19p19s1234567z1m", "1m", 2),  # kokushi's 13-sided wait holds the kind already
])
def test_chankan_robs_the_fourth_copy_so_the_winner_held_none(hand, tile, held):
    """The kan held three of the robbed tile's kind: such wins were scored (13-sided kokushi, 32,000)."""
    ctx = Context(seat_wind="S", win_from="left", chankan=True)
    with pytest.raises(HandError, match=f"chankan: the robbed {tile} is the fourth of its kind.*cannot hold {held}"):
        analyse(parse_hand(hand), ctx, tile)
    # without the winning tile, it is one held once
    r = analyse(parse_hand(hand), ctx)
    assert r.win.valid and parse_hand(hand).all_tiles().count(r.win_tile) == 1
    with pytest.raises(HandError, match="holds each of its tiles twice or more"):
        analyse(parse_hand("11m22p33s44s55s66z77z"), ctx)


def test_renhou_the_ruleset_has_not_is_said_not_counted():
    r = analyse(parse_hand("234m567p234678s55s"), Context(seat_wind="S", win_from="left", renhou=True), "5s")
    assert "renhou not counted: ruleset tenhou has no renhou" in r.notes

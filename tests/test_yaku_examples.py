"""Textbook hands, mostly the yaku and rules the Tenhou records never show. Every expected value is worked
out by hand in the comment beside it (han and fu from the rule text, points from the payment tables)."""
import pytest

from rules.context import Context
from rules.ruleset import MAHJONG_SOUL, TENHOU, TENHOU_SANMA, WRC
from rules.scoring import score_win
from rules.tiles import parse_hand

RON_S = dict(seat_wind="S", round_wind="E", win_from="across")


def win(hand, tile, **ctx):
    return score_win(parse_hand(hand), tile, Context(**ctx))


@pytest.mark.parametrize("hand, tile, ctx, yaku, points", [
    # 緑一色: only 2 3 4 6 8 sou and hatsu. Non-dealer ron yakuman = 32000.
    ("234s234s666s888s66z", "8s", RON_S, [("ryuuiisou", 13)], 32000),
    # 字一色 with an open haku pon; three wind triplets and a chun pair is not shousuushii.
    ("111z222z333z77z 5'55z", "7z", RON_S, [("tsuuiisou", 13)], 32000),
    # 大四喜 (single under Tenhou's rules).
    ("111z222z55m 3'33z 44'4z", "5m", RON_S, [("daisuushii", 13)], 32000),
    # 小四喜: three wind triplets and a wind pair.
    ("111z222z44z234m 3'33z", "2m", RON_S, [("shousuushii", 13)], 32000),
    # 清老頭: terminals only; the ron-completed 999p is open, so no suuankou.
    ("111m999m111p999p11s", "9p", RON_S, [("chinroutou", 13)], 32000),
    # 純正九蓮宝燈: 1112345678999m waiting on all nine, won on 5m.
    ("11123455678999m", "5m", RON_S, [("junsei chuuren poutou", 13)], 32000),
    # 九蓮宝燈 won on 1m: the thirteen tiles before were 1123455678999m, not the pure shape.
    ("11123455678999m", "1m", RON_S, [("chuuren poutou", 13)], 32000),
    # 四槓子: four kans and a pair wait; non-dealer tsumo 8000/16000.
    ("55m [1111p] 2'222s 3333'z 7\"77z", "5m", dict(seat_wind="S", tsumo=True), [("suukantsu", 13)], 32000),
    # 国士無双十三面: dealer tsumo, single yakuman at Tenhou: 16000 all.
    ("119m19p19s1234567z", "1m", dict(seat_wind="E", tsumo=True), [("kokushi musou 13-sided", 13)], 48000),
    # 三色同刻 open (2) + kuitan (1); fu 20 + 2 + 4 + 4 = 30: 3 han 30 fu non-dealer ron 3900.
    ("222m222p345m66p 2'22s", "3m", RON_S, [("sanshoku doukou", 2), ("tanyao", 1)], 3900),
    # 二盃口 3 + pinfu 1 (no tanyao: the 9s pair) = 4 han 30 fu: 1920 x 4 -> 7700, beating the seven-pairs
    # reading (2 han 25 fu).
    ("223344m556677p99s", "2m", RON_S, [("pinfu", 1), ("ryanpeikou", 3)], 7700),
    # 七対子 2 han 25 fu: 25 x 2^4 x 4 = 1600.
    ("1133m5577p22s4466z", "6z", RON_S, [("chiitoitsu", 2)], 1600),
    # 対々和 2 + 混老頭 2 + round wind east 1 = 5 han: mangan.
    ("111m999p11s 1'11z 99'9s", "1s", dict(seat_wind="S", round_wind="E", win_from="right"),
     [("toitoi", 2), ("honroutou", 2), ("round wind east", 1)], 8000),
    # 純全帯 3 + 三色同順 2 + pinfu 1 = 6 han: haneman 12000.
    ("123m123p123s789s99m", "1p", RON_S, [("pinfu", 1), ("sanshoku doujun", 2), ("junchan", 3)], 12000),
    # 清一色 6 + 一気通貫 2 + pinfu 1 = 9 han: baiman 16000.
    ("12345678911m234m", "9m", RON_S, [("pinfu", 1), ("ittsu", 2), ("chinitsu", 6)], 16000),
])
def test_textbook_hands(hand, tile, ctx, yaku, points):
    r = win(hand, tile, **ctx)
    assert sorted(r.yaku) == sorted(yaku)
    assert r.points == points


def test_double_yakuman_where_the_ruleset_has_them():
    # Mahjong Soul counts 13-sided kokushi and daisuushii double: 96000 for a dealer tsumo, 64000 for a ron.
    r = win("119m19p19s1234567z", "1m", seat_wind="E", tsumo=True, ruleset=MAHJONG_SOUL)
    assert (r.yakuman, r.points) == (2, 96000)
    r = win("111z222z55m 3'33z 44'4z", "5m", **RON_S, ruleset=MAHJONG_SOUL)
    assert (r.yakuman, r.points) == (2, 64000)


def test_counted_yakuman_or_sanbaiman_per_ruleset():
    # riichi 1, tsumo 1, pinfu 1, ittsu 2, chinitsu 6, dora 3 (indicator 9m -> three 1m) = 14 han.
    hand, tile = "12345678911m234m", "9m"
    ctx = dict(seat_wind="S", tsumo=True, riichi=True, dora_indicators=("9m",))
    tenhou = win(hand, tile, **ctx)
    assert (tenhou.han, tenhou.limit, tenhou.points) == (14, "yakuman", 32000)
    assert ("ura dora", 0) in tenhou.yaku
    wrc = win(hand, tile, **ctx, ruleset=WRC)
    assert (wrc.limit, wrc.points) == ("sanbaiman", 24000)  # 6000 x 4, paid 6000 / 12000


def test_kiriage_mangan():
    # riichi, pinfu, tanyao, iipeikou: 4 han 30 fu. Non-dealer ron 1920 x 4 = 7680 -> 7700; kiriage: 8000.
    ctx = dict(**RON_S, riichi=True)
    assert win("234m234m567p678s55p", "8s", **ctx).points == 7700
    assert win("234m234m567p678s55p", "8s", **ctx, ruleset=WRC).points == 8000


def test_double_wind_pair_fu_per_ruleset():
    # Dealer in the east round, east pair: 20 + 10 (closed ron) + 8 (closed haku triplet) + pair 4 (Tenhou)
    # = 42 -> 50 fu: 1 han 50 fu dealer ron 2400. WRC counts the pair 2: 40 fu -> 1920 -> 2000.
    ctx = dict(seat_wind="E", round_wind="E", win_from="left")
    tenhou = win("234m456p789s11z555z", "4m", **ctx)
    assert (tenhou.fu, tenhou.points) == (50, 2400)
    assert ("value pair 1z1z", 4) in tenhou.fu_items
    wrc = win("234m456p789s11z555z", "4m", **ctx, ruleset=WRC)
    assert (wrc.fu, wrc.points) == (40, 2000)


def test_pao_splits_a_fed_daisangen():
    hand = "234m66s 5'55z 66'6z 777'z"
    # tsumo: the liable player (left) pays the whole 32000
    r = win(hand, "2m", seat_wind="S", tsumo=True, pao="left")
    assert [(p.payer, p.points) for p in r.payments] == [("left", 32000)]
    # ron off across: across and the liable left pay half each
    r = win(hand, "2m", **RON_S, pao="left")
    assert sorted((p.payer, p.points) for p in r.payments) == [("across", 16000), ("left", 16000)]
    # with 2 honba the liable player pays them, 600, on a ron as on a tsumo (riichi.wiki, "Sekinin barai")
    r = win(hand, "2m", **RON_S, pao="left", honba=2)
    assert sorted((p.payer, p.points, p.honba) for p in r.payments) == [("across", 16000, 0), ("left", 16000, 600)]
    r = win(hand, "2m", seat_wind="S", tsumo=True, pao="left", honba=2)
    assert [(p.payer, p.points, p.honba) for p in r.payments] == [("left", 32000, 600)]


def test_no_pao_from_a_player_who_fed_no_dragon_set():
    """Every dragon set concealed, an east pon from the left: the left fed none of the daisangen, so it is not
    liable (it paid the whole 32000). Non-dealer tsumo yakuman: 8000, 8000 and the dealer (left, seat S) 16000."""
    r = win("555z666z777z44m 1'11z", "4m", seat_wind="S", tsumo=True, pao="left")
    assert sorted((p.payer, p.points) for p in r.payments) == [("across", 8000), ("left", 16000), ("right", 8000)]
    assert r.notes == ("pao not applied: left fed no dragon set of this hand",)


def test_ron_payment_with_honba_and_sticks():
    # East triplet in the east round (1 han) completed by ron, so open: 20 + 10 (closed ron) + 4 (open
    # honour triplet) + 2 (haku pair) = 36 -> 40 fu. 1 han 40 fu non-dealer ron = 1300; 2 honba = 600 paid
    # by the discarder; 1 riichi stick = 1000 to the winner.
    r = win("123m456p789s55z111z", "1z", **RON_S, honba=2, riichi_sticks=1)
    assert (r.han, r.fu) == (1, 40)
    assert [(p.payer, p.points, p.honba) for p in r.payments] == [("across", 1300, 600)]
    assert r.winner_gain == 1300 + 600 + 1000


def test_three_player_tsumo_loss():
    # Tenhou sanma, non-dealer tsumo 4 han 40 fu = mangan: the dealer pays 4000 and the west seat 2000;
    # the missing north's 2000 is not paid (tsumo loss).
    r = win("123p456p789s11z555z", "5z", seat_wind="S", tsumo=True, dora_indicators=("4z",), ruleset=TENHOU_SANMA)
    assert sorted((p.payer, p.points) for p in r.payments) == [("left", 4000), ("right", 2000)]
    assert r.points == 6000


def test_yakuman_ignores_dora_and_counts_tenhou():
    r = win("123m456p789s11z555z", "5z", seat_wind="E", tsumo=True, tenhou=True, dora_indicators=("4z",))
    assert r.yaku == (("tenhou", 13),) and r.points == 48000


def test_renhou_only_where_the_ruleset_scores_it():
    # Tenhou has no renhou: a hand with no other yaku (closed kanchan ron, terminals) stays without one.
    hand, ctx = "123m456p789s11s678m", dict(seat_wind="S", win_from="left", renhou=True)
    assert not win(hand, "2m", **ctx).valid
    r = win(hand, "2m", **ctx, ruleset=TENHOU.with_options(renhou="yakuman"))
    assert r.yaku == (("renhou", 13),) and r.points == 32000


def test_renhou_as_a_strict_mangan_does_not_add_up():
    # EMA 2016: renhou a mangan alone. The yakuless kanchan ron with a 2m dora (indicator 1m): EMA pays the
    # non-dealer's mangan, 8000; WRC adds renhou's 5 han to the dora's 1: 6 han, haneman, 12000.
    from rules.ruleset import EMA
    hand, ctx = "123m456p789s11s678m", dict(seat_wind="S", win_from="left", renhou=True, dora_indicators=("1m",))
    ema = win(hand, "2m", **ctx, ruleset=EMA)
    assert ema.yaku == (("renhou", 5),) and ema.limit == "mangan" and ema.points == 8000
    assert win(hand, "2m", **ctx, ruleset=WRC).points == 12000
    # A hand worth more without it keeps its own value: closed chinitsu 6 + ittsu 2 = baiman, 16000 (WRC: 13 han,
    # no kazoe yakuman there, sanbaiman 24000).
    hand, ctx = "123456789m111m22m", dict(seat_wind="S", win_from="left", renhou=True)
    ema = win(hand, "2m", **ctx, ruleset=EMA)
    assert ema.points == 16000 and "renhou" not in dict(ema.yaku)
    assert any("renhou not counted" in n for n in ema.notes)
    assert win(hand, "2m", **ctx, ruleset=WRC).points == 24000


def test_a_ruleset_is_a_preset_with_house_rules_after_a_colon():
    from rules.ruleset import preset
    house = preset(" EMA : kuitan=no, red_fives=0/1/1,honba_ron=100 ")
    assert (house.kuitan, house.red_fives, house.honba_ron, house.renhou) == (False, (0, 1, 1), 100, "strict-mangan")
    assert house.name == "ema:kuitan=no,red_fives=0/1/1,honba_ron=100" and preset("tenhou:") == TENHOU
    assert preset("tenhou:KUITAN=no,").name == "tenhou:kuitan=no"  # option names as the values, any case
    for spec, words in (("tenhou:kuitan", "'kuitan' is not option=value"), ("tenhou:name=x", "'name=x' is not"),
                        ("tenhou:ura=no", "'ura=no' is not option=value"), ("tenhou:kuitan=2", "kuitan='2': yes or no"),
                        ("tenhou:honba_ron=-300", "a whole number from 0 to 100000"),
                        ("tenhou:honba_ron=" + "9" * 5000, "a whole number from 0 to 100000"),
                        ("tenhou:red_fives=1/1", "0 or 1 red five a suit"), ("tenhou:red_fives=2/2/2", "0 or 1 red"),
                        ("tenhou:kuitan=no,kuitan=yes", "kuitan given twice"),
                        ("tenhou:players=3", "the number of players comes with the preset"),
                        ("tenhou:kita=yes", "three-player rules: use a \\*-sanma preset"),
                        ("house:kuitan=no", "unknown ruleset")):
        with pytest.raises(ValueError, match=words):
            preset(spec)
    with pytest.raises(ValueError) as long_name:  # an unknown name is quoted cut, as house rules are: it was whole
        preset("x" * 5000)
    assert len(str(long_name.value)) < 200


def test_a_ruleset_option_out_of_its_choices_is_refused():
    for option, value in (("renhou", "double"), ("players", 5), ("multiple_ron", "all"), ("double_wind_pair_fu", 3)):
        with pytest.raises(ValueError, match=f"ruleset option {option}="):
            TENHOU.with_options(**{option: value})


def test_complete_hand_without_yaku_is_not_a_win():
    # open, no yakuhai, a terminal: no yaku; dora do not make a win
    r = win("234m456p11s789s 6'78m", "2m", **RON_S, dora_indicators=("1m",))
    assert not r.valid and r.points == 0 and r.payments == ()
    assert r.notes == ("complete, but no yaku: dora alone cannot win",)
    # without dora the note does not speak of them
    r = win("234m456p11s789s 6'78m", "2m", **RON_S, dora_indicators=("9p",))
    assert not r.valid and r.notes == ("complete, but no yaku",)


def test_yakuman_add_up_only_where_the_ruleset_says():
    # daisangen + tsuuiisou (open haku pon, so no suuankou): Tenhou and WRC 2022 count two yakuman, 64000 for a
    # non-dealer ron; EMA 2016 counts every hand as a single yakuman, 32000 (as WRC 2015 did).
    from rules.ruleset import EMA
    hand = "666z777z111z22z 5'55z"
    for rules in (TENHOU, WRC):
        double = win(hand, "2z", **RON_S, ruleset=rules)
        assert (double.yakuman, double.points) == (2, 64000)
        assert {name for name, _ in double.yaku} == {"daisangen", "tsuuiisou"}
    single = win(hand, "2z", **RON_S, ruleset=EMA)
    assert (single.yakuman, single.points) == (1, 32000)


def test_under_ema_the_discarder_pays_the_honba_of_a_pao_ron():
    """EMA 2016 §3.3.9: the discarder shares the payment with the liable player, "but only the discarder pays for
    any counters"; Tenhou has the liable player pay them (above)."""
    from rules.ruleset import EMA

    r = win("234m66s 5'55z 66'6z 777'z", "2m", **RON_S, pao="left", honba=2, ruleset=EMA)
    assert sorted((p.payer, p.points, p.honba) for p in r.payments) == [("across", 16000, 600), ("left", 16000, 0)]


def test_a_double_rons_farther_winner_takes_the_honba_and_its_own_stick_under_ema_and_nothing_at_tenhou():
    """EMA 2016 §4.1: "each winner receives the value of the hand including the value of counters in play", and
    "riichi declarers that win, always get their riichi bet back"; the other sticks go to the nearer winner."""
    from rules.ruleset import EMA

    farther = dict(RON_S, honba=2, riichi_sticks=3, other_winner_nearer=True)
    tenhou = win("123m456p789s55z111z", "1z", **farther)
    assert [(p.points, p.honba) for p in tenhou.payments] == [(1300, 0)] and tenhou.winner_gain == 1300
    ema = win("123m456p789s55z111z", "1z", **farther, ruleset=EMA)
    assert [(p.points, p.honba) for p in ema.payments] == [(1300, 600)] and ema.winner_gain == 1300 + 600
    in_riichi = win("123m456p789s55z111z", "1z", **farther, riichi=True, ruleset=EMA)
    assert in_riichi.winner_gain == in_riichi.points + 600 + 1000  # its own stick, not the two others'


def test_wrc_adds_yakuman_up_since_2022_but_counts_none_double_by_its_wait():
    """WRC 2022's rule changes: a hand of several yakuman is a double or triple yakuman (daisangen with suuankou);
    suuankou tanki is still one."""
    r = win("555666777z111m22p", "1m", seat_wind="S", tsumo=True, ruleset=WRC)
    assert sorted(name for name, _ in r.yaku) == ["daisangen", "suuankou"] and (r.yakuman, r.points) == (2, 64000)
    r = win("111m222p333s444z55z", "5z", seat_wind="S", tsumo=True, ruleset=WRC)
    assert (r.yakuman, r.points) == (1, 32000)

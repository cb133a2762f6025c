"""Tiles, melds and hands in the compact notation, and the one clear error for bad input."""
import pytest

from rules.tiles import Hand, HandError, Meld, format_tiles, parse_hand, parse_meld, parse_tiles


def test_parse_and_print_round_trip():
    assert parse_tiles("123m406p1122z") == ["1m", "2m", "3m", "4p", "0p", "6p", "1z", "1z", "2z", "2z"]
    assert format_tiles(["5z", "1m", "0p", "3m", "5p"]) == "13m05p5z"


@pytest.mark.parametrize("text, kind, called, source", [
    ("3'45m", "chi", "3m", "left"),
    ("5'55p", "pon", "5p", "left"),
    ("55'5p", "pon", "5p", "across"),
    ("555'p", "pon", "5p", "right"),
    ("7'777z", "daiminkan", "7z", "left"),
    ("77'77z", "daiminkan", "7z", "across"),
    ("777'7z", "daiminkan", "7z", "across"),
    ("7777'z", "daiminkan", "7z", "right"),
    ("50'5s", "pon", "0s", "across"),
])
def test_meld_layout_gives_kind_and_source(text, kind, called, source):
    m = parse_meld(text)
    assert (m.kind, m.called, m.source) == (kind, called, source)


def test_added_and_closed_kan():
    kakan = parse_meld('5"55p')
    assert (kakan.kind, kakan.source, len(kakan.tiles), kakan.added) == ("kakan", "left", 4, "5p")
    ankan = parse_meld("[5505p]")
    assert (ankan.kind, ankan.is_open, ankan.called) == ("ankan", False, None)
    assert parse_meld(ankan.notation()) == ankan
    assert parse_meld(kakan.notation()) == kakan


def test_hand_with_melds():
    h = parse_hand("234m 66s 789s 22z 3'45p")
    assert h.size == 13 and len(h.melds) == 1 and not h.is_closed
    assert parse_hand(h.notation()) == h


@pytest.mark.parametrize("text, words", [
    ("123x", "unexpected character 'x'"),
    ("8z", "no such tile '8z'"),
    ("123", "no suit letter"),
    ("m123", "has no digits"),
])
def test_bad_tiles_name_the_problem(text, words):
    with pytest.raises(HandError, match=words):
        parse_tiles(text)


def test_fifth_copy_is_refused():
    with pytest.raises(HandError, match="5 copies of 1m"):
        parse_hand("11111m234p567s11z")


def test_two_red_fives_of_a_suit_are_refused():
    with pytest.raises(HandError, match="red fives 0m"):
        parse_hand("00m123456p789s111z")


def test_wrong_hand_size_is_refused():
    with pytest.raises(HandError, match="5 tiles"):
        parse_hand("11112m")
    with pytest.raises(HandError, match="hand has 1 concealed tile and 1 meld = 4 tiles; a hand has 13"):
        parse_hand("1m 5'55p")


@pytest.mark.parametrize("text, words", [
    ("3'46m", "not a run"),
    ("5'56p", "not 3 of the same tile"),
    ("12'3z", "not a run"),
    ("5'55'p", "exactly one called tile"),
    ("[555p]", r"ankan 555p has 3 tiles: an ankan has 4$"),
])
def test_impossible_meld_is_refused(text, words):
    with pytest.raises(HandError, match=words):
        parse_meld(text)


def test_chi_from_across_is_refused():
    with pytest.raises(HandError, match="only from the left"):
        Meld("chi", ("3m", "4m", "5m"), "4m", "across")


def test_meld_without_source_is_refused():
    with pytest.raises(HandError, match="needs a source"):
        Meld("pon", ("5m", "5m", "5m"), "5m", None)


def test_hand_tiles_across_melds_count_copies():
    with pytest.raises(HandError, match="5 copies of 5p"):
        Hand(("5p", "5p", "1m", "2m", "3m", "7s", "8s", "9s", "1z", "1z", "1z"), (parse_meld("5'55p"),))


def test_notation_as_phone_and_japanese_keyboards_type_it_is_read():
    """A phone types curly quotes for the call marks; a Japanese keyboard full-width digits, letters and spaces
    (１２３ｍ was "no such tile '１m'")."""
    hand = parse_hand("123m456p789s1z 5'55z")
    assert parse_hand("１２３ｍ４５６ｐ７８９ｓ１ｚ　５’５５ｚ") == hand
    assert parse_hand("123m456p789s1z 5‘55z") == hand
    assert parse_hand("123m456p7s 5”55z 1'11z").melds[0] == parse_meld('5"55z')
    assert parse_tiles("０ｍ") == ["0m"]


def test_a_tile_of_the_context_typed_full_width_is_read_as_the_hand_is():
    """The hand's '５m' was read, a dora indicator's refused ("unknown tile '\\uff15m'")."""
    from rules.context import Context, Discard, Missed

    ctx = Context(dora_indicators=("４ｚ",), ura_indicators=("１ｍ",), riichi=True, visible=("９ｐ",),
                  discards=(Discard("０ｓ"),), missed=(Missed("３ｍ"),))
    assert (ctx.dora_indicators, ctx.ura_indicators, ctx.visible) == (("4z",), ("1m",), ("9p",))
    assert (ctx.discards[0].tile, ctx.missed[0].tile) == ("0s", "3m")
    with pytest.raises(HandError, match="unknown tile"):
        Context(dora_indicators=("٥m",))  # a digit NFKC leaves as it is: refused, not guessed


def test_a_long_input_is_not_echoed_back_whole():
    with pytest.raises(HandError) as e:
        parse_tiles("1x" * 500_000)
    assert len(str(e.value)) < 200 and "(and 999940 characters more)" in str(e.value)

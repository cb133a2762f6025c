"""Whole tables from tile polygons: seats, hands, melds with their sources, ponds, dora, problems, readout.

Tables are laid out by hand with ``lay_row`` (upright tiles 30 x 40 px): the read hand at the bottom, the
other seats' rows turned to face their owners, then the whole photo turned or mirrored."""
import math
import re
from dataclasses import replace

import numpy as np
import pytest

import vision.table
from rules.context import Context
from rules.ruleset import TENHOU, TENHOU_SANMA
from test_layout import H, lay_row, rotated
from vision.classes import QUARTER_SYMMETRIC, SYMMETRIC
from vision.cli import format_table
from vision.layout import Tile
from vision.tiles import _upward
from vision.table import draw_at, read_table, score_table, sorted_hand

SELF_HAND = "2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 5z 5z"  # tenpai on 1z and 5z (shanpon)


def turn(tiles: list[Tile], degrees: float, centre=(400.0, 400.0)) -> list[Tile]:
    return [Tile(t.kind, tuple(rotated(t.polygon, degrees, about=centre)), t.confidence) for t in tiles]


def kinds(table, indices):
    return [table.tiles[i].kind for i in indices]


def whole_table() -> list[Tile]:
    """Four seats around (400, 400): self's open hand and pond (riichi on 9m), the right seat's hidden hand with
    a pon of 5p called from its left (self's discard), the across seat's pond, the left seat's wall with a dora."""
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0))
    tiles += lay_row("9p 2m 4p 2s 9m> 6m", 0, origin=(280.0, 500.0))
    tiles += lay_row("3m 8s 7s", 0, origin=(280.0, 500.0 + H + 2))
    tiles += lay_row("# # # # # # # # # # | 5p> 5p 5p", -90, origin=(760.0, 760.0))
    tiles += lay_row("1m 9s 3p 6s 7z 2z", 180, origin=(520.0, 280.0))
    tiles += lay_row("# # 4z # # # #", 90, origin=(120.0, 200.0))
    return tiles


@pytest.mark.parametrize("degrees", [0, 90, 180, 233])
def test_whole_table_at_any_roll_reads_seats_melds_ponds_and_dora(degrees):
    table = read_table(turn(whole_table(), degrees))
    me, right = table.seats["self"], table.seats["right"]
    assert kinds(table, me.concealed) == SELF_HAND.split() and me.melds == []
    assert kinds(table, [i for i, _ in me.pond]) == "9p 2m 4p 2s 9m 6m 3m 8s 7s".split()
    assert [r for _, r in me.pond] == [False] * 4 + [True] + [False] * 4
    assert right.hidden == 10 and [(m.kind, m.called, m.source) for m in right.melds] == [("pon", "5p", "left")]
    assert kinds(table, [i for i, _ in table.seats["across"].pond]) == "1m 9s 3p 6s 7z 2z".split()
    assert kinds(table, table.dora_indicators) == ["4z"]
    assert table.problems == []


def test_a_standing_hand_whose_glyphs_lean_far_from_its_ponds_keeps_its_seats():
    """Near a photo's edge a standing hand's glyphs point up the photo's vertical, 50 degrees off its lying pond's
    (whose glyphs point away across the table), as far as the next seat's are. The pond rows still run parallel
    to the hand, facing its way, in front of it: they are its own, and the other seats keep the order of play."""
    tiles = whole_table()
    lean = H * math.tan(math.radians(50))  # each hand tile's top edge slid left: a sheared face, seen edge on
    tiles[:13] = [Tile(t.kind, ((t.polygon[0][0] - lean, t.polygon[0][1]), (t.polygon[1][0] - lean, t.polygon[1][1]),
                                t.polygon[2], t.polygon[3])) for t in tiles[:13]]
    tiles += lay_row("1s 2s 3s 4s 5s 6s", -90, origin=(640.0, 620.0))  # the right seat's pond
    table = read_table(tiles)
    me, right = table.seats["self"], table.seats["right"]
    assert kinds(table, me.concealed) == SELF_HAND.split()
    assert kinds(table, [i for i, _ in me.pond]) == "9p 2m 4p 2s 9m 6m 3m 8s 7s".split()
    assert right.hidden == 10 and [(m.kind, m.called, m.source) for m in right.melds] == [("pon", "5p", "left")]
    assert kinds(table, [i for i, _ in right.pond]) == "1s 2s 3s 4s 5s 6s".split()
    assert kinds(table, [i for i, _ in table.seats["across"].pond]) == "1m 9s 3p 6s 7z 2z".split()


def test_readout_sees_riichi_dora_the_called_discard_and_furiten():
    out = score_table(read_table(whole_table()))
    assert out["hand"]["notation"] == "234m678p345s1155z"
    assert out["context"]["riichi"] and out["context"]["dora_indicators"] == ["4z"]
    called = [d for d in out["context"]["discards"] if d["called"]]
    assert called == [{"tile": "5p", "riichi": False, "called": True}]
    r = out["readout"]
    assert r["tenpai"] and {w["tile"] for w in r["waits"]} == {"1z", "5z"}
    assert not r["furiten"]["furiten"]
    # a 1z in self's own pond makes the shanpon furiten
    tiles = whole_table() + lay_row("1z", 0, origin=(460.0, 500.0 + H + 2))
    assert score_table(read_table(tiles))["readout"]["furiten"]["furiten"]


def test_a_sideways_pond_tile_beside_an_open_hand_is_not_taken_as_riichi():
    """An open hand cannot have declared riichi (the rules refuse it): its sideways pond tile was set askew or read
    so, and the hand is still read and scored, without riichi; the same pond beside a closed hand is riichi."""
    pond = lay_row("9p 2m 4p 2s 9m> 6m", 0, origin=(280.0, 500.0))
    open_hand = lay_row("2m 3m 4m 6p 7p 8p 3s 4s 1z 1z | 5z> 5z 5z", 0, origin=(200.0, 700.0), gap_between=0.6)
    out = score_table(read_table(open_hand + pond))
    assert out["hand"]["melds"] and not out["context"]["riichi"] and out["problems"] == []
    assert {w["tile"] for w in out["readout"]["waits"]} == {"2s", "5s"}
    closed = score_table(read_table(lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + pond))
    assert closed["context"]["riichi"] and closed["readout"]["tenpai"]


def test_a_tile_called_from_self_counts_for_furiten():
    hand = "2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 4p 6p"  # kanchan on 5p, which the right seat called from self
    tiles = lay_row(hand, 0, origin=(200.0, 700.0)) + lay_row("# # # # # # # # # # | 5p> 5p 5p", -90,
                                                              origin=(760.0, 760.0))
    r = score_table(read_table(tiles))["readout"]
    assert [w["tile"] for w in r["waits"]] == ["5p"] and r["furiten"]["furiten"]


def test_fourteenth_tile_set_apart_is_the_winning_tile():
    tiles = lay_row("2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 5z 5z | 5z", 0, gap_between=0.6)
    out = score_table(read_table(tiles), Context(tsumo=True))
    assert out["hand"]["win_tile"] == "5z"
    win = out["readout"]["win"]
    assert win["valid"] and ["haku", 1] in win["yaku"]


def test_a_fourteenth_tile_out_of_order_at_a_sorted_hands_end_is_the_winning_tile():
    """No gap before it, but a 1m after the honours of a hand sorted otherwise is the tile drawn last: scored as
    won on it, not on the tile worth most. A 14th tile in order is not told apart (the readout then takes the
    reading worth most)."""
    tiles = lay_row("2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 5z 1m", 0)
    table = read_table(tiles)
    assert table.seats["self"].drawn == 13 and table.notes == []
    assert score_table(table, Context(tsumo=True))["hand"]["win_tile"] == "1m"
    in_order = read_table(lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 5z", 0))
    assert in_order.seats["self"].drawn is None


def test_melds_with_sources_are_read_into_the_hand():
    tiles = lay_row("2m 3m 4m 6p 7p 1z 1z | 3s> 4s 5s | 7z 7z> 7z", 0)
    out = score_table(read_table(tiles))
    assert [(m["kind"], m["called"], m["source"]) for m in out["hand"]["melds"]] == [
        ("chi", "3s", "left"), ("pon", "7z", "across")]
    assert out["readout"]["tenpai"] and [w["tile"] for w in out["readout"]["waits"]] == ["5p", "8p"]


def as_the_reader_gives_them(tiles: list[Tile]) -> list[Tile]:
    """The tiles with those alike both ways up (2s, 8p...) turned as the reader reports them: it cannot tell
    which way up they lie, so it points their glyph toward the photo's top (``vision.tiles``)."""
    out = []
    for t in tiles:
        if t.kind in SYMMETRIC and t.kind not in QUARTER_SYMMETRIC:
            c = max((np.roll(t.corners, -k, axis=0) for k in (0, 2)), key=_upward)
            t = Tile(t.kind, tuple(map(tuple, c)), t.confidence)
        out.append(t)
    return out


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_a_meld_of_tiles_alike_both_ways_up_faces_its_owner_at_any_roll(degrees):
    """The melds are 2s, 8p and 3p only: nothing in them says which way they face. The hand beside them does
    (before, the reader's guess faced the far seat's melds the wrong way and their sources came out mirrored)."""
    hand = lay_row("1m 2m 3m 7z 7z 7z 9m | 2s 2s> 2s | 8p> 8p 8p | 3p 3p 3p>", 0, origin=(200.0, 600.0))
    table = read_table(as_the_reader_gives_them(turn(hand, degrees)))
    (seat,) = [s for s in table.seats.values() if s.melds]
    assert [(m.kind, m.called, m.source) for m in seat.melds] == [
        ("pon", "2s", "across"), ("pon", "8p", "left"), ("pon", "3p", "right")]
    assert kinds(table, seat.concealed) == "1m 2m 3m 7z 7z 7z 9m".split() and table.problems == []


def test_a_far_seat_of_tiles_alike_both_ways_up_faces_the_table_centre():
    """Whole table: the across seat's hand and pon are all 2s/8s/9s, upside down in the photo; the reader turns
    them upright. With no glyph to say, a row faces the table's centre."""
    tiles = whole_table() + lay_row("2s 2s 8s 8s 9s 9s 9s 4s | 6s 6s> 6s", 180, origin=(560.0, 120.0))
    table = read_table(as_the_reader_gives_them(tiles))
    across = table.seats["across"]
    assert [(m.kind, m.called, m.source) for m in across.melds] == [("pon", "6s", "across")]
    assert kinds(table, across.concealed) == "2s 2s 8s 8s 9s 9s 9s 4s".split()
    assert all(table.tiles[i].lie == "upside-down" for i in across.concealed)


def test_hidden_red_five_in_a_closed_kan_is_said_not_guessed():
    out = score_table(read_table(lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z | # 5s 5s #")))
    assert any("red five" in n for n in out["notes"])
    assert out["hand"]["melds"][0]["kind"] == "ankan" and out["readout"] is not None


def test_five_copies_of_a_tile_is_a_problem_naming_them():
    tiles = lay_row("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s 1m")
    table = read_table(tiles)
    (problem,) = [p for p in table.problems if "copies" in p.message]
    assert "5 copies of 1m" in problem.message and kinds(table, problem.tiles) == ["1m"] * 5
    out = score_table(table)
    assert out["readout"] is None and any("four" in p["message"] for p in out["problems"])


def test_a_fourteen_tile_hand_that_is_not_complete_is_offered_the_unsure_reading_that_completes_it():
    """123m 456p 1s 89s 11z 555z is no win; its 1s, read 55 % sure, is 7s at 40 %, which makes 789s: offered, not
    applied. A candidate that completes nothing, a tile a person set, a kind shown four times: none offered."""
    tiles = lay_row("1m 2m 3m 4p 5p 6p 1s 8s 9s 1z 1z 5z 5z 5z", 0, origin=(150.0, 700.0))
    tiles[6] = replace(tiles[6], confidence=0.55, candidates=(("1s", 0.55), ("7s", 0.4), ("4s", 0.03)))
    tiles[1] = replace(tiles[1], confidence=0.7, candidates=(("2m", 0.7), ("3m", 0.2)))
    out = score_table(read_table(tiles))
    assert out["hand"]["notation"] == "123m456p189s11555z" and out["readout"]["win"] is None
    assert out["suggestions"] == [{"tile": 6, "read": "1s", "kind": "7s", "probability": 0.4}]
    assert "maybe: the 1s at (345, 680) is a 7s (the reader gives it 40%): then the hand is complete" in format_table(out)
    tiles_fixed = list(tiles)
    tiles_fixed[6] = replace(tiles[6], fixed=True)
    assert score_table(read_table(tiles_fixed))["suggestions"] == []
    four_shown = tiles + lay_row("7s 7s 7s 7s", 0, origin=(150.0, 500.0))  # a pond row: a fifth 7s cannot be
    out = score_table(read_table(four_shown))
    assert out["hand"]["notation"] == "123m456p189s11555z" and out["suggestions"] == []
    complete = list(tiles)
    complete[6] = replace(tiles[6], kind="7s", candidates=(("7s", 0.55), ("1s", 0.4)))
    assert score_table(read_table(complete))["suggestions"] == []
    waiting = tiles[:13]  # 13 tiles: not tenpai is a hand's ordinary state, nothing to offer
    assert score_table(read_table(waiting))["suggestions"] == []


def test_the_readout_names_the_hand_s_tiles_to_check_before_it_is_trusted():
    """A winning hand read surely has none to check. Its tiles read under CHECK_BELOW sure, one taken as another
    kind than read, and one a problem names are to check; a pond tile read unsurely is not the hand's, and a tile
    a person set is never one."""
    from vision.table import CHECK_BELOW, Problem

    hand = lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 5z", 0, origin=(150.0, 700.0))
    hand = [replace(t, confidence=0.9, candidates=((t.kind, 0.95),)) for t in hand]
    pond = lay_row("9m 9m 8p 8p 2s 2s", 0, origin=(300.0, 500.0))
    pond[0] = replace(pond[0], confidence=0.2)
    out = score_table(read_table(hand + pond))
    assert out["readout"]["win"] is not None and out["check"] == {"below": CHECK_BELOW, "tiles": []}
    assert "every tile of the hand read at least 50% sure" in format_table(out)
    unsure = list(hand)
    unsure[3] = replace(hand[3], confidence=CHECK_BELOW - 0.01)
    unsure[7] = replace(hand[7], kind="7s", candidates=(("1s", 0.5), ("7s", 0.45)))  # the table's word over the reader's
    unsure[0] = replace(hand[0], confidence=0.3, kind="1m", fixed=True)
    out = score_table(read_table(unsure + pond))
    assert out["readout"] is not None and out["check"]["tiles"] == [3, 7]
    assert "check: 2 of the hand's tiles read less surely: 4p at (" in format_table(out)
    set_by_hand = list(unsure)
    set_by_hand[3] = replace(unsure[3], confidence=1.0, candidates=())  # the page's correction
    assert score_table(read_table(set_by_hand + pond))["check"]["tiles"] == [7]
    named = read_table(hand + pond)  # a problem that names a hand tile and a pond tile but leaves a readout
    named.problems.append(Problem("a sideways or face-down tile among the concealed tiles", [5, 14]))
    out = score_table(named)
    assert out["readout"] is not None and out["check"]["tiles"] == [5]


def test_a_fifth_copy_is_the_least_sure_one_read_as_its_next_likeliest_kind():
    """Five 1m face up: the copy whose next candidate loses least against 1m is taken as it (a note says so), so
    the hand scores; a candidate of a kind already shown four times is passed over for the next one."""
    tiles = lay_row("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s 1m 2z 2z 2z 2z", 0, origin=(150.0, 700.0))
    tiles[0] = replace(tiles[0], candidates=(("1m", 0.9), ("7m", 0.08)))
    tiles[12] = replace(tiles[12], candidates=(("1m", 0.6), ("2z", 0.3), ("4m", 0.08)))  # 2z: four shown
    tiles[13:] = lay_row("2z 2z 2z 2z", 0, origin=(150.0, 500.0))  # a pond row of four 2z
    table = read_table(tiles)
    assert table.tiles[12].kind == "4m" and table.tiles[0].kind == "1m"
    assert not [p for p in table.problems if "copies" in p.message]
    out = score_table(table)
    assert any("four 1m" in n and "4m" in n for n in out["notes"])
    # with no candidate likely enough (under a tenth as likely as 1m), the five stay and the problem is said
    tiles[12] = replace(tiles[12], candidates=(("1m", 0.95), ("4m", 0.05)))
    table = read_table(tiles)
    assert table.tiles[12].kind == "1m" and [p for p in table.problems if "5 copies of 1m" in p.message]


def test_a_fifth_copy_is_not_taken_from_a_pon_whose_tiles_agree_when_another_copy_can_go():
    """Five 6z face up: three in a pon, one in the hand, one in a pond. The pon's called tile is the least sure
    copy, but two readings agree with it; the hand's 6z, also likely a 7z, is the one taken otherwise."""
    tiles = lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 6z | 6z> 6z 6z", 0, origin=(150.0, 700.0))
    tiles[10] = replace(tiles[10], candidates=(("6z", 0.6), ("2z", 0.2)))  # 2z: a third as likely
    tiles[9] = replace(tiles[9], candidates=(("6z", 0.8), ("7z", 0.16)))  # 7z: a fifth as likely
    tiles += lay_row("6z 1p", 0, origin=(150.0, 500.0))  # a pond row
    table = read_table(tiles)
    assert [t.kind for t in table.tiles[:13]] == "1m 2m 3m 4p 5p 6p 7s 8s 9s 7z 6z 6z 6z".split()
    (pon,) = table.seats["self"].melds
    assert pon.kind == "pon" and pon.tiles == ["6z"] * 3 and pon.source == "left"
    assert not table.problems
    # with no other copy to take, the pon's tile goes as before, and the broken pon is said
    tiles[9] = replace(tiles[9], candidates=(("6z", 0.95), ("7z", 0.05)))
    table = read_table(tiles)
    assert table.tiles[10].kind == "2z" and any("pon" in p.message for p in table.problems)


def test_a_fifth_copy_is_not_taken_from_a_chi_whose_run_it_makes_when_another_copy_can_go():
    """Five 5p face up: two in the hand, one in a chi of 3p 4p 5p, two in a pond. The chi's 5p is the copy whose
    next candidate loses least, but taken as a 5s it would leave no run: its meld-mates agree with it, and a
    pond's copy is taken otherwise (dev seed 18's scene 384, where the chi was lost)."""
    tiles = lay_row("1m 2m 3m 5p 5p 7s 8s 9s 6z 6z | 3p> 4p 5p", 0, origin=(150.0, 700.0))
    tiles[12] = replace(tiles[12], candidates=(("5p", 0.6), ("5s", 0.3)))  # 5s: half as likely
    tiles += lay_row("5p 5p 1p", 0, origin=(150.0, 500.0))  # a pond row
    tiles[13] = replace(tiles[13], candidates=(("5p", 0.8), ("6p", 0.16)))  # 6p: a fifth as likely
    table = read_table(tiles)
    (chi,) = table.seats["self"].melds
    assert chi.kind == "chi" and chi.tiles == ["3p", "4p", "5p"] and chi.source == "left"
    assert table.tiles[13].kind == "6p" and not table.problems
    # a change that keeps the run is no break: the chi's 5p taken as a 2p still makes one, 2p 3p 4p
    tiles[12] = replace(tiles[12], candidates=(("5p", 0.6), ("2p", 0.3)))
    table = read_table(tiles)
    assert table.tiles[12].kind == "2p" and table.tiles[13].kind == "5p"
    # with no other copy to take, the chi's 5p goes as before, and the broken chi is said
    tiles[12] = replace(tiles[12], candidates=(("5p", 0.6), ("5s", 0.3)))
    tiles[13] = replace(tiles[13], candidates=(("5p", 0.95), ("6p", 0.05)))
    table = read_table(tiles)
    assert table.tiles[12].kind == "5s" and any("chi" in p.message for p in table.problems)


def test_a_run_laid_apart_with_no_tile_showing_sideways_is_a_chi_from_the_left():
    """A far meld seen low shows its tiles boxed alike, its called tile not lying across by glyph or shape: a run
    of three laid apart from the hand and the pon before it is a chi, called from the left (a chi always is), its
    left tile the called one, with a note; touching the tiles before it, the run stays as it was."""
    tiles = lay_row("1m 2m 3m 4m 5m 6m 7s | 9m> 9m 9m | 3p 4p 5p", 0, origin=(150.0, 700.0))
    table = read_table(tiles)
    pon, chi = table.seats["self"].melds
    assert (pon.kind, pon.source) == ("pon", "left") and not table.problems
    assert (chi.kind, chi.tiles, chi.source, chi.called) == ("chi", ["3p", "4p", "5p"], "left", "3p")
    assert any("chi" in n and "left" in n for n in chi.notes)
    assert score_table(table)["hand"] is not None
    # three kinds that are no run: no chi, the problem is said
    table = read_table(lay_row("1m 2m 3m 4m 5m 6m 7s | 9m> 9m 9m | 3p 4p 6p", 0, origin=(150.0, 700.0)))
    assert len(table.seats["self"].melds) == 1 and any("not a run" in p.message for p in table.problems)
    # three alike: a pon, whose source only its sideways tile can say
    table = read_table(lay_row("1m 2m 3m 4m 5m 6m 7s | 9m> 9m 9m | 3p 3p 3p", 0, origin=(150.0, 700.0)))
    assert len(table.seats["self"].melds) == 1 and any("sideways" in p.message for p in table.problems)
    # the run touching the pon (no clear gap): not read as a chi of its own
    table = read_table(lay_row("1m 2m 3m 4m 5m 6m 7s | 9m> 9m 9m 3p 4p 5p", 0, origin=(150.0, 700.0)))
    assert all(m.kind != "chi" for m in table.seats["self"].melds)


def test_a_fifth_copy_is_not_taken_from_a_sorted_hand_where_its_change_would_put_it_out_of_order():
    """Five 2m face up: four in a sorted hand, one in a pond (a 3m misread). The hand's third 2m is the least sure
    copy, but taken as a 3m it would stand before a 2m: its place agrees with it, and the pond's copy is taken
    otherwise (dev seed 20's scene 113, where then the next 2m was taken as 3m too, to sort the hand again)."""
    tiles = lay_row("1m 2m 2m 2m 2m 7m 7m 8m 3z 3z 5z 7z 7z", 0, origin=(150.0, 700.0))
    tiles[3] = replace(tiles[3], candidates=(("2m", 0.68), ("3m", 0.15)))  # 3m: more than a fifth as likely
    tiles += lay_row("2m 1p", 0, origin=(150.0, 500.0))  # a pond row
    tiles[13] = replace(tiles[13], candidates=(("2m", 0.86), ("3m", 0.09)))  # 3m: about a tenth as likely
    table = read_table(tiles)
    assert kinds(table, table.seats["self"].concealed) == "1m 2m 2m 2m 2m 7m 7m 8m 3z 3z 5z 7z 7z".split()
    assert table.tiles[13].kind == "3m" and not table.problems
    # the last 2m of the hand may go: as a 3m it still stands in order
    tiles[4] = replace(tiles[4], candidates=(("2m", 0.68), ("3m", 0.15)))
    tiles[3] = replace(tiles[3], candidates=(("2m", 0.68), ("3m", 0.1)))
    table = read_table(tiles)
    assert kinds(table, table.seats["self"].concealed) == "1m 2m 2m 2m 3m 7m 7m 8m 3z 3z 5z 7z 7z".split()
    assert table.tiles[13].kind == "2m"


def test_a_fifth_copy_in_a_sorted_hand_is_not_taken_face_down_and_the_five_are_reported():
    """The hand's least sure 2m has only "face down" for its next reading (a second reader's guess on a washed-out
    face) and the pond's copy no other likely enough: a face-up hand holds no face-down tile, so the five stay
    and the problem names them (this once stopped the table reading with a ValueError)."""
    tiles = lay_row("1m 2m 2m 2m 2m 7m 7m 8m 3z 3z 5z 7z 7z", 0, origin=(150.0, 700.0))
    tiles[3] = replace(tiles[3], candidates=(("2m", 0.6), ("back", 0.3)))
    tiles += lay_row("2m 1p", 0, origin=(150.0, 500.0))  # a pond row
    tiles[13] = replace(tiles[13], candidates=(("2m", 0.95), ("3m", 0.04)))  # 3m: under a tenth as likely
    table = read_table(tiles)
    assert [t.kind for t in table.tiles] == [t.kind for t in tiles]
    assert [p.tiles for p in table.problems if "5 copies of 2m" in p.message] == [[1, 2, 3, 4, 13]]
    # with a likely enough other kind for the pond's copy, that copy goes as before
    tiles[13] = replace(tiles[13], candidates=(("2m", 0.86), ("3m", 0.09)))
    table = read_table(tiles)
    assert table.tiles[13].kind == "3m" and table.tiles[3].kind == "2m" and not table.problems


def test_a_sorted_hand_is_each_suit_together_numbers_rising_and_alike_honours_side_by_side():
    assert sorted_hand("1p 2p 2p 0p 6p 1m 9m 7z 7z 1z 3s".split())  # suits in any order, a red five as a five
    assert sorted_hand("1z 1z 5z 5z 5z 2z".split())  # honours in a player's own order
    assert not sorted_hand("1m 3m 2m".split())
    assert not sorted_hand("1m 1p 2m".split())  # the man split by a pin
    assert not sorted_hand("1z 2z 1z 3m".split())  # two east apart
    assert sorted_hand("1m back 2m".split()) and not sorted_hand("2m back 1m".split())  # a face-down tile passed over


SORTED_BUT_ONE = "1m 2m 3m 4p 5p 6p 7s 6s 9s 1z 1z 5z 5z"  # the 6s between 7s and 9s: misread


@pytest.mark.parametrize("degrees", [0, 90, 180, 233])
def test_a_sorted_hand_with_one_tile_out_of_order_takes_it_as_the_candidate_that_puts_it_in_order(degrees):
    """Players keep their hands sorted: a 6s between 7s and 9s, read 50 % sure and an 8s at 30 % (a 4s at 10 %
    would not sort the hand), is taken as the 8s, with a note, at any roll of the photo."""
    tiles = turn(lay_row(SORTED_BUT_ONE, 0, origin=(200.0, 500.0)), degrees)
    tiles[7] = replace(tiles[7], confidence=0.5, candidates=(("6s", 0.5), ("8s", 0.3), ("4s", 0.1)))
    tiles[2] = replace(tiles[2], confidence=0.6, candidates=(("3m", 0.6), ("8m", 0.35)))  # in order as read
    table = read_table(tiles)
    assert kinds(table, table.seats["self"].concealed) == "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z".split()
    assert table.tiles[7].confidence == 0.3 and any("6s is taken as 8s" in n for n in table.notes)


def test_a_tile_out_of_order_stays_as_read_where_no_likely_candidate_sorts_the_hand():
    """Left as read: a candidate under a twentieth as likely as the kind read; a hand a player did not sort (a
    5p before the man as well); a tile a person set; a candidate shown four times already; the last of 14 shown,
    which may be the tile just drawn."""
    def read(spec, k, candidates, **changes):
        tiles = lay_row(spec, 0, origin=(200.0, 700.0)) + lay_row("8s 8s 8s 8s", 0, origin=(200.0, 500.0))
        tiles[k] = replace(tiles[k], confidence=candidates[0][1], candidates=candidates, **changes)
        table = read_table(tiles)
        return kinds(table, table.seats["self"].concealed), table.notes

    likely = (("6s", 0.5), ("9s", 0.3))
    assert read(SORTED_BUT_ONE, 7, (("6s", 0.9), ("9s", 0.04))) == (SORTED_BUT_ONE.split(), [])
    assert read(SORTED_BUT_ONE, 7, likely)[0][7] == "9s"
    unsorted = "5p 1m 2m 3m 4p 6p 7s 6s 9s 1z 1z 5z 5z"
    assert read(unsorted, 7, likely) == (unsorted.split(), [])
    assert read(SORTED_BUT_ONE, 7, likely, fixed=True) == (SORTED_BUT_ONE.split(), [])
    assert read(SORTED_BUT_ONE, 7, (("6s", 0.5), ("8s", 0.3))) == (SORTED_BUT_ONE.split(), [])  # four 8s in a pond
    drawn_last = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 3m"
    assert read(drawn_last, 13, (("3m", 0.5), ("5z", 0.4))) == (drawn_last.split(), [])


SORTED_BUT_TWO = "1m 7m 3m 4p 5p 6p 7s 3s 9s 1z 1z 5z 5z"  # a 2m read 7m, an 8s read 3s


def test_a_sorted_hand_with_two_tiles_out_of_order_takes_both_as_the_candidates_that_put_it_in_order():
    """No one change sorts it: the 7m as 2m and the 3s as 8s together do, 0.6 and 0.4 as likely as read, so
    both are taken, with a note. Together under a twentieth as likely (0.11 and 0.2), or a hand that two changes do
    not sort, stays as read."""
    def read(candidates_1, candidates_7, spec=SORTED_BUT_TWO):
        tiles = lay_row(spec, 0, origin=(200.0, 500.0))
        tiles[1] = replace(tiles[1], confidence=candidates_1[0][1], candidates=candidates_1)
        tiles[7] = replace(tiles[7], confidence=candidates_7[0][1], candidates=candidates_7)
        table = read_table(tiles)
        return kinds(table, table.seats["self"].concealed), table.notes

    hand, notes = read((("7m", 0.5), ("2m", 0.3)), (("3s", 0.5), ("8s", 0.2)))
    assert hand == "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z".split()
    assert notes == ["a hand sorted but for two tiles: its 7m and 3s are taken as 2m and 8s, also likely to the "
                     "reader, which puts it in order"]
    assert read((("7m", 0.9), ("2m", 0.1)), (("3s", 0.5), ("8s", 0.1))) == (SORTED_BUT_TWO.split(), [])
    unsorted = "1m 7m 3m 4p 5p 6p 7s 3s 9s 1z 5z 1z 5z"  # haku and east apart as well
    assert read((("7m", 0.5), ("2m", 0.3)), (("3s", 0.5), ("8s", 0.2)), unsorted) == (unsorted.split(), [])


def test_a_short_hand_running_to_the_photo_s_edge_says_a_tile_may_be_cut_off():
    """Twelve tiles whose last one touches the photo's right edge: the photo likely cut the thirteenth off, and
    the problem names the tile at the edge. The same hand in the middle of the photo or along its bottom edge, or
    a whole hand at the edge, gets no such problem."""
    from test_layout import W
    from vision.pipeline import table_json

    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 3z"
    out = table_json(read_table(lay_row(hand, 0, origin=(200.0, 700.0))), None, "self", int(200 + 12 * W + 3), 900,
                     False)
    (cut,) = [p for p in out["problems"] if "edge" in p["message"]]
    assert "12 tiles" in cut["message"] and cut["tiles"] == [11] and cut["seat"] == "self" and out["readout"] is None
    out = table_json(read_table(lay_row(hand, 0, origin=(200.0, 700.0))), None, "self", 1600, 900, False)
    assert not [p for p in out["problems"] if "edge" in p["message"]]
    # a row lying along the photo's bottom edge, its ends far from the sides: nothing says a tile is cut off
    out = table_json(read_table(lay_row(hand, 0, origin=(200.0, 700.0))), None, "self", 1600, 702, False)
    assert not [p for p in out["problems"] if "edge" in p["message"]]
    out = table_json(read_table(lay_row(hand + " 4z", 0, origin=(200.0, 700.0))), None, "self",
                     int(200 + 13 * W + 3), 900, False)
    assert not [p for p in out["problems"] if "edge" in p["message"]] and out["readout"] is not None


def test_the_tile_the_user_says_the_hand_won_on_is_its_winning_tile():
    """Not set apart, a 14-tile hand was scored on the reading worth most, and nothing could say otherwise."""
    table = read_table(lay_row("2m 3m 4m 4p 5p 6p 6s 7s 8s 3p 4p 5p 8m 8m", 0))  # pinfu on a run, or a pair wait
    ron = Context(seat_wind="S", win_from="left")
    best = score_table(table, ron)
    assert best["hand"]["win_tile"] is None and best["readout"]["win"]["wait"] == "ryanmen"
    on_the_pair = score_table(read_table(lay_row("2m 3m 4m 4p 5p 6p 6s 7s 8s 3p 4p 5p 8m 8m", 0)), ron, won=12)
    assert on_the_pair["hand"]["win_tile"] == "8m"
    win = on_the_pair["readout"]["win"]
    assert (win["wait"], [y for y, _ in win["yaku"]], win["points"]) == ("tanki", ["tanyao"], 1300)
    assert best["readout"]["win"]["points"] == 2000  # pinfu tanyao 30 fu
    # not among a 14-tile hand's concealed tiles: said, and the photo's reading stands
    short = read_table(lay_row("2m 3m 4m 4p 5p 6p 6s 7s 8s 3p 4p 5p 8m", 0))
    out = score_table(short, ron, won=12)
    assert any(n.startswith("the tile marked as the winning one (8m) is not taken: the hand shows 13 tiles")
               for n in out["notes"])
    with pytest.raises(ValueError, match="won on tile 20: the table has 13 tiles"):
        score_table(short, ron, won=20)


def payments(out) -> list[tuple[str, int]]:
    return [(p["payer"], p["total"]) for p in out["readout"]["win"]["payments"]]


BIG_THREE = "2m 3m 4m 1p 1p | {} | {} | {}"  # a daisangen of three dragon melds, laid from the right edge inward


@pytest.mark.parametrize("melds, liable", [
    (("5z 5z> 5z", "6z> 6z 6z", "7z 7z 7z>"), "across"),  # the meld nearest the hand was called last
    (("7z 7z 7z>", "6z> 6z 6z", "5z 5z> 5z"), "right"),
    (("6z> 6z 6z", "7z 7z 7z>", "5z 5z> 5z"), "left"),
    (("6z^6z> 6z 6z", "7z 7z 7z>", "5z 5z> 5z"), "left"),  # the pon made an added kan later: still fed by left
])
def test_a_daisangen_shown_in_melds_is_paid_by_whoever_fed_its_last_dragon_set(melds, liable):
    table = read_table(lay_row(BIG_THREE.format(*melds), 0))
    tsumo = score_table(table, Context(seat_wind="S", tsumo=True))
    assert payments(tsumo) == [(liable, 32000)]  # on a tsumo the liable player pays it all
    assert any(n.startswith(f"pao: {liable} fed the last dragon set") for n in tsumo["notes"])
    discarder = next(s for s in ("left", "across", "right") if s != liable)
    ron = score_table(table, Context(seat_wind="S", win_from=discarder))
    assert sorted(payments(ron)) == sorted([(liable, 16000), (discarder, 16000)])  # on a ron it is shared


def test_a_big_set_finished_concealed_or_by_a_closed_kan_makes_no_one_liable():
    # the last dragon set a closed kan: no one fed it
    last_closed = read_table(lay_row(BIG_THREE.format("5z # # 5z", "6z> 6z 6z", "7z 7z 7z>"), 0))
    out = score_table(last_closed, Context(seat_wind="S", tsumo=True))
    assert sorted(payments(out)) == [("across", 8000), ("left", 16000), ("right", 8000)]  # the dealer left pays double
    assert not any(n.startswith("pao") for n in out["notes"])
    # the third dragon set still in the hand: two melds only
    in_hand = read_table(lay_row("2m 3m 4m 1p 1p 7z 7z 7z | 5z 5z> 5z | 6z> 6z 6z", 0))
    out = score_table(in_hand, Context(seat_wind="S", tsumo=True))
    assert out["readout"]["win"]["yaku"] == [["daisangen", 13]] and len(payments(out)) == 3


def test_pao_named_by_the_caller_or_ruled_out_by_the_ruleset_stands_over_the_photo():
    from rules.ruleset import preset

    table = read_table(lay_row(BIG_THREE.format("5z 5z> 5z", "6z> 6z 6z", "7z 7z 7z>"), 0))
    named = score_table(table, Context(seat_wind="S", tsumo=True, pao="left"))  # the referee says left
    assert payments(named) == [("left", 32000)] and not any(n.startswith("pao") for n in named["notes"])
    none = score_table(table, Context(seat_wind="S", tsumo=True, ruleset=preset("tenhou:pao=no")))
    assert len(payments(none)) == 3 and not any(n.startswith("pao") for n in none["notes"])


def test_chi_from_across_is_a_problem_and_no_score():
    out = score_table(read_table(lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z | 3m 4m> 5m")))
    assert out["readout"] is None
    assert any("only from the left" in p["message"] and len(p["tiles"]) == 3 for p in out["problems"])


def test_a_hand_of_the_wrong_size_is_a_problem():
    out = score_table(read_table(lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 2z 3z")))
    assert out["readout"] is None
    (problem,) = out["problems"]
    assert "12 concealed tiles" in problem["message"] and len(problem["tiles"]) == 12


def test_a_problem_says_whose_tiles_it_is_about():
    """A referee looks at the seat a problem names: the right seat's pon that is no pon, the read seat's hand
    refused; five copies shown across two seats belong to no one seat."""
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0))
    tiles += lay_row("9p 2m 4p 2s 9m> 6m", 0, origin=(280.0, 500.0))
    tiles += lay_row("# # # # # # # # # # | 5p> 6p 5p", -90, origin=(760.0, 760.0))
    tiles += lay_row("1m 9s 3p 6s 5z 5z 5z", 180, origin=(520.0, 280.0))  # the across seat's pond: 5z x3
    out = score_table(read_table(tiles))
    seat_of = {p["message"].split(":")[0]: p["seat"] for p in out["problems"]}
    assert seat_of == {"pon 556p is not 3 of the same tile": "right",
                       "5 copies of 5z are face up": None,
                       "the hand with the visible tiles shows 5 copies of 5z": "self"}
    assert "  problem (right): pon 556p is not 3 of the same tile" in format_table(out).splitlines()
    assert "  problem: 5 copies of 5z are face up: a set has only four, so one is misread" in \
        format_table(out).splitlines()


def draw_table(left_pond: str = "", across: bool = True) -> list[Tile]:
    """Four hands shown at the end of the wall: self tenpai on 1z and 5z, the right seat noten face up, the seat
    across with its 13 tiles face down (unless ``across`` is false: out of view), the left seat tenpai on 9m beside
    a pon; and, given, the left seat's pond, in rows of six from its hand toward the centre."""
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0))
    tiles += lay_row("1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z", -90, origin=(760.0, 760.0))
    if across:
        tiles += lay_row("# # # # # # # # # # # # #", 180, origin=(620.0, 120.0))
    tiles += lay_row("2m 3m 4m 5p 6p 7p 2s 3s 4s 9m | 7z> 7z 7z", 90, origin=(60.0, 160.0))
    pond = left_pond.split()
    for row in range(0, len(pond), 6):
        tiles += lay_row(" ".join(pond[row:row + 6]), 90, origin=(120.0 + H + 5 * (row // 6) * (H + 1), 260.0))
    return tiles


WHOLE_POND = "1m 9p 1z 5z 9s 2z 9m 1p 3z 4z 7z 6z"  # twelve discards, every one a terminal or an honour


def test_at_an_exhaustive_draw_each_seat_is_tenpai_or_noten_and_pays_so():
    """Two tenpai, two noten (one face up, one face down): the noten pay 1,500 each to the tenpai."""
    out = score_table(read_table(draw_table()))
    seats = {row["seat"]: row for row in out["draw"]["seats"]}
    assert [row["seat"] for row in out["draw"]["seats"]] == ["self", "right", "across", "left"]
    assert {n: (r["shown"], r["tenpai"], r["waits"], r["delta"]) for n, r in seats.items()} == {
        "self": ("hand", True, ["1z", "5z"], 1500), "right": ("hand", False, [], -1500),
        "across": ("hidden", False, [], -1500), "left": ("hand", True, ["9m"], 1500)}
    assert "    left    tenpai (9m) +1500" in format_table(out, draw=True).splitlines()


@pytest.mark.parametrize("seat_wind, deltas", [
    ("E", [-4000, -2000, -2000, 8000]),  # self deals: the left seat's mangan as a non-dealer's tsumo
    ("S", [-4000, -4000, -4000, 12000]),  # self sits south, so the left seat deals: 4,000 from each
])
def test_nagashi_mangan_at_the_draw_is_paid_as_a_tsumo_by_who_deals(seat_wind, deltas):
    out = score_table(read_table(draw_table(left_pond=WHOLE_POND)), Context(seat_wind=seat_wind))
    assert [row["delta"] for row in out["draw"]["seats"]] == deltas
    assert [row["nagashi"] for row in out["draw"]["seats"]] == [False, False, False, True]
    assert out["draw"]["notes"] == ["left: nagashi mangan, paid as a tsumo instead of the noten payments"]


def test_a_short_pond_of_terminals_is_no_nagashi_mangan_but_says_so():
    """Six discards, all terminals and honours: at the wall's end a player has discarded about seventeen times, so
    the rest of the pond is out of view or unread, and a mangan is not paid on it; the noten payments are."""
    out = score_table(read_table(draw_table(left_pond=WHOLE_POND[:17])))
    assert [row["delta"] for row in out["draw"]["seats"]] == [1500, -1500, -1500, 1500]
    assert out["draw"]["notes"] == ["left: the pond shows only terminals and honours, none called, but 6 discards: "
                                    "nagashi mangan needs the whole pond in view (at least 12)"]


def standing_backs(x: float, y0: float, n: int = 13, across: float = 21.0, along: float = 32.0) -> list[Tile]:
    """A hand standing with its back to the camera, down the photo's right side, as the detector boxes it: seen
    from above and behind, each back is foreshortened, longer along its row (32 px) than across it (21 px)."""
    ys = [y0 + k * (along + 1) for k in range(n)]
    return [Tile("back", ((x, y), (x + across, y), (x + across, y + along), (x, y + along))) for y in ys]


@pytest.mark.parametrize("degrees", [0, 90, 233])
def test_a_hand_standing_back_to_the_camera_is_one_hidden_hand_though_each_back_looks_across_it(degrees):
    """A face-down tile's row was guessed along its short side, right for a wall's lying tiles but across the row
    for standing ones seen from behind: each back stood alone, the seat had no hand, and a draw could not pay."""
    table = read_table(turn(lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + standing_backs(800.0, 150.0), degrees))
    assert table.seats["right"].hidden == 13 and table.problems == []
    assert [row["shown"] for row in draw_at(table)["seats"]] == ["hand", "hidden", "none", "none"]


def test_a_draw_with_a_hand_out_of_view_says_whose_and_pays_nothing_yet():
    out = score_table(read_table(whole_table()))
    seats = {row["seat"]: row for row in out["draw"]["seats"]}
    assert seats["self"]["tenpai"] is True and seats["right"]["shown"] == "hidden"
    assert seats["across"]["why"] == "no hand in view" and seats["across"]["tenpai"] is None
    assert all(row["delta"] is None for row in out["draw"]["seats"])


@pytest.mark.parametrize("declared, deltas", [
    ({"across": False}, [1500, -1500, -1500, 1500]),
    ({"across": True}, [1000, -3000, 1000, 1000]),  # three tenpai: the one noten pays 1,000 to each
])
def test_what_a_seat_out_of_view_declared_lets_the_draw_pay(declared, deltas):
    """The seat across is out of the photo: its hand cannot be read, so the draw paid nothing until a referee
    said what that player declared."""
    table = read_table(draw_table(across=False))
    assert [row["delta"] for row in draw_at(table)["seats"]] == [None] * 4
    seats = draw_at(table, declared=declared)["seats"]
    assert [row["delta"] for row in seats] == deltas
    assert (seats[2]["declared"], seats[2]["tenpai"], seats[2]["why"]) == (declared["across"], declared["across"],
                                                                          "no hand in view")
    out = score_table(table, draw_declared=declared)
    said = "tenpai (declared)" if declared["across"] else "noten (declared)"
    assert f"    across  {said} {deltas[2]:+d}" in format_table(out, draw=True).splitlines()


def test_a_tenpai_player_may_declare_noten_but_not_in_riichi_unremarked():
    """A tenpai hand declared noten pays as noten; where the seat's pond shows its riichi tile the notes say that a
    riichi hand noten at the draw is to be checked (a misread hand, or a false riichi)."""
    seats = draw_at(read_table(draw_table()), declared={"self": False})["seats"]
    assert [row["delta"] for row in seats] == [-1000, -1000, -1000, 3000]
    assert seats[0]["tenpai"] is False and seats[0]["waits"] == []
    riichi = read_table(draw_table(left_pond="2m 3m> 4m"))
    assert draw_at(riichi)["notes"] == []  # its hand is tenpai
    assert draw_at(riichi, declared={"left": False})["notes"] == [
        "left: in riichi (a tile lies sideways in its pond) but noten at the draw: check its hand, or the riichi was "
        "false (chombo under most rules)"]


@pytest.mark.parametrize("declared, ruleset, message", [
    ({"across": False}, TENHOU_SANMA, "no seat 'across' at this table (its seats: self, right, left)"),
    ({"north": False}, TENHOU, "no seat 'north' at this table"),
    ({"left": "noten"}, TENHOU, "left must be true (tenpai) or false (noten), not 'noten'"),
])
def test_a_declaration_for_no_seat_or_not_yes_or_no_is_refused(declared, ruleset, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        score_table(read_table(draw_table()), Context(ruleset=ruleset), draw_declared=declared)


def test_a_draw_is_read_though_the_photo_shows_too_many_dora_indicators():
    """Six face-up tiles in the wall are more dora indicators than a table has: the read hand's readout is a
    problem saying so, and the draw, which needs no dora, is still read: it takes the seats' discards alone,
    not the context the photo would give (whose check refuses the indicators)."""
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0))
    tiles += lay_row("# 4z # 1m # 2m # 3m # 5m # 6m #", 90, origin=(120.0, 150.0))
    out = score_table(read_table(tiles))
    assert [p["message"] for p in out["problems"]] == ["6 dora indicators: at most 5 (the first and one per kan)"]
    assert out["draw"]["seats"][0]["tenpai"] is True and out["draw"]["seats"][0]["waits"] == ["1z", "5z"]


def test_no_tiles_is_a_problem_not_a_crash():
    out = score_table(read_table([]))
    assert out["readout"] is None and out["problems"][0]["message"] == "no tiles found in the photo"


def test_a_photo_of_more_tiles_than_a_table_holds_keeps_the_surest_in_order_and_says_so(monkeypatch):
    """A mosaic of table photos gave 1,592 tiles, read whole, that /api/table (400 at most) then refused. The cap
    is lowered here so the test reads few tiles."""
    table = whole_table()
    limit = len(table) + 30
    monkeypatch.setattr(vision.table, "MAX_TILES", limit)
    scattered = [Tile("3s", ((x, y), (x + 30, y), (x + 30, y + 40), (x, y + 40)), 0.9 - i / 1000)
                 for i, (x, y) in enumerate((2000.0 + 90 * (i % 10), 2000.0 + 90 * (i // 10)) for i in range(60))]
    tiles = scattered[:20] + table + scattered[20:]
    read = read_table(tiles)
    kept = scattered[:20] + table + scattered[20:30]  # the surest, in the order given
    corners = lambda tiles: [sorted((float(x), float(y)) for x, y in t.polygon) for t in tiles]  # turned as read
    assert corners(read.tiles) == corners(kept)
    assert f"{len(tiles)} tiles found, more than a table holds: the {limit} surest were read" in read.notes
    assert [t.kind for t in read.tiles[20:20 + len(table)]] == [t.kind for t in table]


def test_quarter_symmetric_tile_takes_its_lie_from_the_row():
    """A called 5p lying sideways whose reading cannot tell its turn (its polygon says upright) is settled by
    its width along the row."""
    tiles = lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z | 5p> 5p 5p")
    called = next(i for i, t in enumerate(tiles) if t.kind == "5p" and t.lie == "sideways")
    c = tiles[called].corners
    tiles[called] = Tile("5p", tuple(map(tuple, np.roll(c, -1, axis=0))))  # read as upright
    assert tiles[called].lie == "upright"
    out = score_table(read_table(tiles))
    assert [(m["kind"], m["source"]) for m in out["hand"]["melds"]] == [("pon", "left")]


def test_a_tile_turned_by_hand_keeps_its_lie():
    """A 5p the user turned sideways stays sideways even though it is as narrow as its row's upright tiles."""
    tiles = lay_row("1m 2m 3m 4p 6p 7p 7s 8s 9s 1z | 2p 5p 2p")
    i = 11
    turned = Tile("5p", tuple(map(tuple, np.roll(tiles[i].corners, 1, axis=0))), fixed=True)
    assert turned.lie == "sideways"
    tiles[i] = turned
    table = read_table(tiles)
    assert table.tiles[i].lie == "sideways"
    tiles[i] = Tile("5p", turned.polygon)  # the same, not fixed: the row's widths say upright
    assert read_table(tiles).tiles[i].lie == "upright"


def test_a_row_of_more_face_down_tiles_than_a_hand_holds_is_a_wall():
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + lay_row("# " * 17, -90, origin=(760.0, 760.0))
    table = read_table(tiles)
    assert table.seats["right"].hidden == 0 and table.roles[-1] == "wall"
    tiles = lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + lay_row("# " * 13, -90, origin=(760.0, 760.0))
    assert read_table(tiles).seats["right"].hidden == 13


def _table_seen_from(camera) -> list[Tile]:
    """Four hands laid open at the four sides of a table (13 tiles each, glyphs away from their owners), seen
    through the generator's camera from a world point; each seat's hand is of one suit, so that it can be told."""
    from types import SimpleNamespace

    from datasets.scenes import look_at
    from datasets.tiles import lying

    style = SimpleNamespace(w=26.0, h=35.0, d=20.0)
    cam = look_at(camera, (0, 0, 0), 0, 900, 1280, 960)
    face = np.array([[-13, 17.5], [13, 17.5], [13, -17.5], [-13, -17.5]])
    tiles = []
    for seat, suit in enumerate("mpsz"):
        a = math.radians(90 * seat)
        owner, right = np.array([math.sin(a), -math.cos(a)]), np.array([math.cos(a), math.sin(a)])
        for k in range(13):
            x, y = owner * 330 + right * (k - 6) * 26.5  # a hand about 33 cm from the table's centre
            p = lying(f"{1 + k % 7}{suit}", x, y, 90 * seat, style)
            tiles.append(Tile(p.name, tuple(map(tuple, cam.project(p.points(style, face, 1.0))[0]))))
    return tiles


@pytest.mark.parametrize("camera", [(-150, -520, 260), (250, -480, 200), (-420, -420, 220)])
def test_far_seats_seen_aslant_keep_their_order_of_play(camera):
    """A phone snapshot from one's own corner: the far seats' rows are not a quarter turn apart in the photo
    (one can look turned by half that), yet each hand is its own seat, in the order of play."""
    table = read_table(_table_seen_from(camera))
    suit_of = {s.name: {table.tiles[i].kind[1] for i in s.concealed} for s in table.seats.values()}
    assert suit_of == {"self": {"m"}, "right": {"p"}, "across": {"s"}, "left": {"z"}}


def test_white_backs_read_as_haku_are_face_down_in_a_wall_but_a_haku_in_the_hand_stays():
    """A set with white backs: a wall's face-down tiles look like blank haku and are read so. More than the
    four haku of a set, so the ones in a row of blanks are face down; the two in the hand are haku."""
    wall = [replace(t, kind="5z") for t in lay_row("# " * 17, -90, origin=(760.0, 760.0))]
    table = read_table(lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + wall)
    assert kinds(table, table.seats["self"].concealed) == SELF_HAND.split()
    assert [t.kind for t in table.tiles[13:]] == ["back"] * 17 and set(table.roles[13:]) == {"wall"}
    assert table.problems == []
    # four or fewer blank tiles are what the reader says they are
    table = read_table(lay_row(SELF_HAND, 0, origin=(200.0, 700.0)) + wall[:2])
    assert [t.kind for t in table.tiles[13:]] == ["5z", "5z"]


@pytest.mark.parametrize("pon, source", [("5z> 5z 5z", "left"), ("5z 5z> 5z", "across"), ("5z 5z 5z>", "right")])
def test_a_pon_of_haku_laid_apart_in_a_set_with_white_backs_stays_haku(pon, source):
    """A pon of haku laid apart from its hand is a row of three blank faces, like a wall's piece in a set with
    white backs; but one lies across the others' row, as a wall's tiles never do: it is a pon, not face down."""
    wall = [replace(t, kind="5z") for t in lay_row("# " * 17, -90, origin=(760.0, 760.0))]
    hand = lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z | | " + pon, 0, origin=(200.0, 700.0))
    table = read_table(hand + wall)
    (meld,) = table.seats["self"].melds
    assert (meld.kind, meld.tiles, meld.source) == ("pon", ["5z"] * 3, source) and table.problems == []
    assert [t.kind for t in table.tiles[13:]] == ["back"] * 17
    # three blank faces lying alike beside the hand are still a wall's piece: face down, the hand's ten alone
    table = read_table(lay_row("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z | | 5z 5z 5z", 0, origin=(200.0, 700.0)) + wall)
    assert [t.kind for t in table.tiles[10:13]] == ["back"] * 3 and table.seats["self"].melds == []


def test_four_haku_among_faces_in_a_hand_stay_haku_when_a_fifth_blank_is_misread_elsewhere():
    """Five blank tiles read, so one is a misread or white backs show; but a hand row of seven with three faces
    is no wall (a wall, or a hand standing back to the camera, is blank but for its dora indicator): its four
    haku are haku (dev seed 18 scene 5, a 3p in a pon read as haku, had turned such a hand's haku face down)."""
    hand = lay_row("9m 9m 9m 5z 5z 5z 5z", 0, origin=(200.0, 700.0))
    table = read_table(hand + lay_row("5z", 0, origin=(200.0, 400.0)))
    assert [t.kind for t in table.tiles[:7]] == "9m 9m 9m 5z 5z 5z 5z".split()
    # a short wall fragment of white backs beside its dora indicator is still face down
    wall = [replace(t, kind="5z") if t.kind == "back" else t for t in lay_row("# # 6p", -90, origin=(760.0, 760.0))]
    table = read_table(hand + wall)
    assert [t.kind for t in table.tiles[7:]] == ["back", "back", "6p"]


@pytest.mark.parametrize("kan, kind", [("5z 8m 8m 5z", "8m"), ("0p 5z 5z 5p", "5p")])
def test_a_closed_kan_of_a_set_with_white_backs_reads_its_blank_pair_as_face_down(kan, kind):
    """White backs show a closed kan's face-down pair as two blank faces, read as haku: the kan's layout says
    they are face down, however few blank tiles the photo shows. Two haku side by side in the hand stay haku."""
    tiles = lay_row("1m 2m 3m 4s 5s 6s 7s 8s 9s 5z 5z | " + kan, 0, origin=(200.0, 700.0))
    table = read_table(tiles)
    me = table.seats["self"]
    (meld,) = me.melds
    assert meld.kind == "ankan" and meld.tiles[0] in (kind, "0p") and plain_kinds(meld.tiles) == [kind] * 4
    assert kinds(table, me.concealed) == "1m 2m 3m 4s 5s 6s 7s 8s 9s 5z 5z".split()
    assert sum(table.tiles[i].kind == "back" for i in meld.tile_indices) == 2 and table.problems == []
    assert any("white backs" in n for n in meld.notes)
    # the same with a fifth 1m in a pond, which has the table read twice: the kan is read so both times
    table = read_table(tiles + lay_row("1m 1m 1m 1m", 0, origin=(200.0, 500.0)))
    (meld,) = table.seats["self"].melds
    assert meld.kind == "ankan" and sum(table.tiles[i].kind == "back" for i in meld.tile_indices) == 2
    assert any("white backs" in n for n in meld.notes) and any("5 copies of 1m" in p.message for p in table.problems)


@pytest.mark.parametrize("spec, concealed", [
    # tsumo on haku: the drawn 5z set apart ends [5z, 1z, 1z, 5z], which read as a kan of 1z with white backs
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 1z 1z | 5z", "1m 2m 3m 4p 5p 6p 7s 8s 9s 5z 5z 1z 1z 5z"),
    # the same drawn touching the hand; and [1z, 5z, 5z, 1z] with a third 1z beside: a kan of 1z would be a fifth
    ("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 1z", "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 1z"),
])
def test_a_hands_pair_beside_its_haku_pair_with_the_drawn_tile_is_no_white_backed_kan(spec, concealed):
    """A sorted hand's pair and its haku pair, with the drawn tile after them, show the closed kan's layout of a
    set with white backs ([X, haku, haku, X]); but a kan's four touch, and it holds every X there is."""
    table = read_table(lay_row(spec, 0, origin=(200.0, 700.0), gap_between=0.5))
    me = table.seats["self"]
    assert me.melds == [] and kinds(table, me.concealed) == concealed.split() and table.problems == []
    assert "back" not in [t.kind for t in table.tiles]


def plain_kinds(codes):
    return ["5" + c[1] if c[0] == "0" else c for c in codes]


def test_tiles_lying_on_one_another_are_a_problem_naming_them():
    """Fourteen tiles sent on one spot were scored as a hand, and a tile added by hand on one already there was
    only "15 concealed tiles"; an added kan's stacked tile, a face's width off its called tile, is no such."""
    hand = lay_row(SELF_HAND, 0, origin=(200.0, 700.0))
    again = Tile("5z", hand[12].polygon)
    out = score_table(read_table(hand + [again]))
    assert [(p["message"], p["tiles"]) for p in out["problems"] if "one another" in p["message"]] == [
        ("2 tiles lie on one another (5z 5z): one tile found or added more than once; delete all but one", [12, 13])]
    heap = [Tile("1m", hand[0].polygon)] * 14
    heaped = score_table(read_table(heap))
    assert any(p["message"].startswith("14 tiles lie on one another (1m 1m") for p in heaped["problems"])
    kakan = lay_row("2m 3m 4m 6p 7p 8p 3s 4s 5s 1z | 5z^5z 5z 5z", 0, origin=(200.0, 700.0), gap_between=0.6)
    assert not [p for p in score_table(read_table(kakan))["problems"] if "one another" in p["message"]]


# three players: norths set aside lie apart at the right of the hand and its melds, as Tenhou draws them
SANMA_HAND = "1p 2p 3p 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z"  # tenpai on 1z and 5z


def test_three_players_norths_laid_apart_at_the_hands_right_are_set_aside_and_counted_as_dora():
    """Read as a 14th tile set apart, a north set aside made a 14-tile hand; two made 15 tiles; one after a pon was
    read into the pon (daiminkan 555s4z)."""
    sanma = Context(ruleset=TENHOU_SANMA)
    for spec, kita in [(SANMA_HAND + " | 4z", 1), (SANMA_HAND + " | 4z 4z", 2),
                       ("1p 2p 3p 4p 5p 6p 1z 1z 5z 5z | 5s> 5s 5s | 4z", 1)]:
        won_spec = spec.replace("5z 5z |", "5z 5z 5z |", 1)  # won on the third 5z
        tiles = lay_row(spec, 0, origin=(150.0, 700.0))
        table = read_table(tiles, TENHOU_SANMA)
        seat = table.seats["self"]
        assert kinds(table, seat.kita) == ["4z"] * kita and table.problems == []
        assert [table.roles[i] for i in seat.kita] == ["kita"] * kita
        out = score_table(table, sanma)
        assert out["problems"] == [] and out["readout"]["tenpai"] and out["seats"][0]["kita"] == seat.kita
        seen = vision.table.seen_context(table, sanma)
        assert seen.kita == kita and "4z" not in seen.visible  # the seat's own, as the rules count kita
        won = score_table(read_table(lay_row(won_spec, 0, origin=(150.0, 700.0)), TENHOU_SANMA),
                          replace(sanma, tsumo=True, seat_wind="S"))
        assert ("kita", kita) in [tuple(y) for y in won["readout"]["win"]["yaku"]]
    # four players set no north aside: the same north is the tile drawn
    four = read_table(lay_row(SANMA_HAND + " | 4z", 0, origin=(150.0, 700.0)))
    assert four.seats["self"].kita == [] and four.seats["self"].drawn is not None


def test_a_north_apart_is_set_aside_only_where_the_hand_left_counts_13_or_14_and_one_touching_is_the_hands():
    twelve = read_table(lay_row("1p 2p 3p 4p 5p 6p 7s 8s 9s 1z 1z 5z | 4z", 0, origin=(150.0, 700.0)), TENHOU_SANMA)
    assert twelve.seats["self"].kita == [] and len(twelve.seats["self"].concealed) == 13  # the north is the hand's
    touching = read_table(lay_row(SANMA_HAND + " 4z", 0, origin=(150.0, 700.0)), TENHOU_SANMA)
    assert touching.seats["self"].kita == [] and len(touching.seats["self"].concealed) == 14


def test_a_north_set_aside_marked_as_the_winning_tile_is_the_tile_drawn():
    """A north drawn and set apart to be won on (tanki) reads as set aside; the user's mark says otherwise."""
    table = read_table(lay_row("1p 2p 3p 4p 5p 6p 7s 8s 9s 5z 5z 5z 4z | 4z", 0, origin=(150.0, 700.0)), TENHOU_SANMA)
    north = table.seats["self"].kita[0]
    out = score_table(table, Context(ruleset=TENHOU_SANMA, tsumo=True, seat_wind="S"), won=north)
    assert out["readout"]["win"]["valid"] and out["hand"]["win_tile"] == "4z"
    assert out["seats"][0]["kita"] == [] and out["tiles"][north]["role"] == "concealed"


def test_the_printed_table_says_the_norths_set_aside():
    table = read_table(lay_row(SANMA_HAND + " | 4z 4z", 0, origin=(150.0, 700.0)), TENHOU_SANMA)
    printed = format_table(score_table(table, Context(ruleset=TENHOU_SANMA)))
    assert "  self    1p 2p 3p 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z | 2 norths set aside" in printed


def sanma_draw_table(empty: str) -> list[Tile]:
    """Three players at an exhaustive draw, the photographer's side at the bottom and the ``empty`` side ("right"
    or "left") with no one: self tenpai on 1z and 5z, the player across noten with a pon of 7z laid with its
    called tile at its left, the player beside tenpai on 9m (tanki) with a pon of 6z."""
    tiles = lay_row(SANMA_HAND, 0, origin=(200.0, 700.0))
    tiles += lay_row("1m 9m 9p 1s 4s 9s 2z 3z 9m 9p | 7z> 7z 7z", 180, origin=(620.0, 120.0))
    if empty == "right":
        tiles += lay_row("1p 2p 3p 4s 5s 6s 7p 8p 9p 9m | 6z> 6z 6z", 90, origin=(60.0, 160.0))
    else:
        tiles += lay_row("1p 2p 3p 4s 5s 6s 7p 8p 9p 9m | 6z> 6z 6z", -90, origin=(760.0, 760.0))
    return tiles


@pytest.mark.parametrize("empty, across_is", [("right", "right"), ("left", "left")])
def test_three_players_name_the_player_across_for_their_place_in_the_order_of_play(empty, across_is):
    """Three players leave one side of the table empty, so a player photographed across sits, in the order of
    play, where that side would: after the photographer where the right side is empty, before where the left is.
    Read as across, no seat of the table, their hand was "not in view" and the draw paid nothing."""
    table = read_table(sanma_draw_table(empty), TENHOU_SANMA)
    assert "across" not in table.seat_of and table.problems == []
    assert kinds(table, table.seats[across_is].concealed) == "1m 9m 9p 1s 4s 9s 2z 3z 9m 9p".split()
    draw = draw_at(table, Context(ruleset=TENHOU_SANMA))
    # two tenpai take 1000 each from the one noten (Tenhou's three-player noten payments: 2000 in all)
    deltas = {row["seat"]: row["delta"] for row in draw["seats"]}
    beside = "left" if across_is == "right" else "right"
    assert deltas == {"self": 1000, beside: 1000, across_is: -2000}
    # the across player's 7z came from its left, the player before it: self when it plays after self
    before_across = "self" if across_is == "right" else "right"
    assert "7z" in [d.tile for d in vision.table.seat_discards(table, before_across) if d.called]
    # four players: the player across stays across
    assert read_table(sanma_draw_table(empty)).seats["across"].concealed


def test_three_players_have_no_one_across_to_have_discarded_a_called_tile():
    """At three players a tile called from the right came from the next to play and one from the left from the
    one before: the four players' offsets had both read as across."""
    table = read_table(sanma_draw_table("left"), TENHOU_SANMA)
    assert [table.discarder("right", "right"), table.discarder("right", "left")] == ["left", "self"]
    assert [table.discarder("left", "right"), table.discarder("left", "left")] == ["self", "right"]
    assert table.discarder("self", "across") is None
    four = read_table(draw_table())
    assert [four.discarder("right", "right"), four.discarder("right", "left"), four.discarder("self", "across")] == [
        "across", "self", "across"]


@pytest.mark.parametrize("degrees", [0, 180])
def test_of_two_hands_alike_the_one_facing_the_camera_is_the_read_hand(degrees):
    """An overhead camera sees two hands of 13 face up, as wide: the read hand (self) had been whichever came
    first, so a live view flipped between them from frame to frame. It is the one whose glyphs stand up the photo."""
    near, far = SELF_HAND, "1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z"
    tiles = lay_row(near, 0, origin=(200.0, 700.0)) + lay_row(far, 180, origin=(620.0, 120.0))
    table = read_table(turn(tiles, degrees))
    facing = near if degrees == 0 else far  # turned a half, the far hand faces the camera
    assert kinds(table, table.seats["self"].concealed) == facing.split()
    assert kinds(table, table.seats["across"].concealed) == (far if degrees == 0 else near).split()

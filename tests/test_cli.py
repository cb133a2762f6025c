"""The riichi-lens command: hand readouts and the case runner."""
import json

import pytest

from server.cli import main


def test_hand_readout_text(capsys):
    # The example: 4 han 40 fu dealer tsumo = mangan, 4000 all.
    assert main(["hand", "123m456p789s11z 555z", "--win", "5z", "--tsumo", "--seat", "E", "--round", "E", "--dora", "4z"]) == 0
    out = capsys.readouterr().out
    assert "4 han 40 fu (mangan)" in out and "points: 12000" in out
    assert out.count("pays 4000") == 3


def test_hand_readout_json(capsys):
    assert main(["hand", "23m456p789s11z555z", "--discards", "4m", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tenpai"] and [w["tile"] for w in data["waits"]] == ["1m", "4m"]
    assert data["furiten"]["kind"] == "permanent"


def test_hand_not_complete_prints_its_draws_and_best_discards(capsys):
    # tests/test_readout.py's 1-shanten hand: 22 unseen draws; with a lone east, the east is the best discard
    assert main(["hand", "123m456p789s35m79p"]) == 0
    assert "  nearer on 3m 4m 5m 4p 7p 8p 9p (22 unseen)" in capsys.readouterr().out.splitlines()
    assert main(["hand", "123m456p789s35m79p1z"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == ["1-shanten", "  discard 1z -> 1-shanten, nearer on 3m 4m 5m 4p 7p 8p 9p (22 unseen)"]
    assert main(["hand", "23m456p789s11z555z9p"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["tenpai after a discard",
                                                        "  discard 9p -> tenpai on 1m 4m (8 unseen)"]


def test_bad_hand_is_a_clear_error_not_a_traceback(capsys):
    assert main(["hand", "11111m234p567s11z"]) == 2
    assert "5 copies of 1m" in capsys.readouterr().err
    for win in (" ", "", "5z1z"):
        assert main(["hand", "123m456p789s11z555z", "--win", win]) == 2
        assert "the winning tile must be one tile, like 5m" in capsys.readouterr().err


def test_hand_takes_house_rules_and_the_pao_player(capsys):
    # 34m456p678s88s with a 3'45s chi waits on 2m and 5m, all simples: open tanyao its only yaku. Tenhou allows
    # it (kuitan); with the house rule kuitan=no neither wait has a yaku.
    assert main(["hand", "34m456p678s88s 3'45s", "--ruleset", "tenhou:kuitan=no", "--json"]) == 0
    waits = json.loads(capsys.readouterr().out)["waits"]
    assert [(w["tile"], w["can_ron"], w["can_tsumo"]) for w in waits] == [("2m", False, False), ("5m", False, False)]
    assert main(["hand", "34m456p678s88s 3'45s", "--json"]) == 0
    waits = json.loads(capsys.readouterr().out)["waits"]
    assert [(w["tile"], w["can_ron"], w["can_tsumo"]) for w in waits] == [("2m", True, True), ("5m", True, True)]
    # pao: left fed the hatsu pon of a daisangen won by tsumo, and pays the dealer's 48000 alone
    assert main(["hand", "11m555z 6'66z 77'7z 1'23m", "--win", "1m", "--tsumo", "--pao", "left"]) == 0
    out = capsys.readouterr().out
    assert "left pays 48000" in out and "right pays" not in out and "across pays" not in out
    assert main(["hand", "34m456p678s88s 3'45s", "--ruleset", "tenhou:kuitan=maybe"]) == 2
    assert "ruleset option kuitan='maybe': yes or no" in capsys.readouterr().err


def test_check_cases_counts_and_fails(tmp_path, capsys):
    good = {"kind": "tenpai", "id": "a", "players": 4, "concealed": ["2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
            "1z", "1z", "5z", "5z", "5z"], "melds": [], "expected": {"tenpai": True}}
    bad = dict(good, id="b", expected={"tenpai": False})
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    assert main(["check-cases", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 1 failed"
    assert out[0].startswith("b: tenpai")


@pytest.mark.parametrize("text, words", [
    ("[]\n", "cases.jsonl:1: not a case: a JSON object with its 'kind'"),
    ("\n5\n", "cases.jsonl:2: not a case"),
    ('{"id": "x"}\n', "cases.jsonl:1: not a case"),
])
def test_check_cases_names_the_line_that_is_not_a_case(text, words, tmp_path, capsys):
    (tmp_path / "cases.jsonl").write_text(text)
    assert main(["check-cases", str(tmp_path / "cases.jsonl")]) == 2
    assert words in capsys.readouterr().err


def test_check_cases_says_plainly_a_file_it_cannot_read_and_passes_no_empty_one(tmp_path, capsys):
    """Python's '[Errno 2] No such file or directory' was printed as it is, and an empty file passed."""
    assert main(["check-cases", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.endswith("none.jsonl: no such file or directory\n")
    assert main(["check-cases", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text("\n")
    assert main(["check-cases", str(tmp_path / "empty.jsonl")]) == 2
    assert "empty.jsonl holds no records" in capsys.readouterr().err


def test_check_cases_says_a_binary_file_is_not_text_and_a_case_missing_a_field_fails(tmp_path, capsys):
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0 not text")
    assert main(["check-cases", str(tmp_path / "photo.jpg")]) == 2
    assert "photo.jpg:1: not text" in capsys.readouterr().err
    (tmp_path / "cases.jsonl").write_text(json.dumps({"kind": "agari", "id": "cut"}) + "\n")
    assert main(["check-cases", str(tmp_path / "cases.jsonl")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("cut: error: the case has no ") and out[-1] == "0 passed, 1 failed"


AGARI = {"kind": "agari", "id": "win", "players": 4, "rules": {"aka": True, "kuitan": True}, "round_wind": "E",
         "seat_wind": "S", "dealer": False, "honba": 0, "riichi_sticks": 0,
         "concealed": ["2m", "3m", "4m", "9m", "9m", "9m", "5p", "6p", "7p", "8p", "8p", "2s", "3s", "4s"], "melds": [],
         "win_tile": "9m", "tsumo": False, "from": "across", "dora_indicators": ["1z"], "ura_indicators": [], "kita": 0,
         "discards": [], "expected": {"han": 0, "yakuman": 0, "fu": 40, "points": 0, "limit": "", "yaku": [],
                                      "score_deltas": [0, 0, 0, 0]}}


@pytest.mark.parametrize("field, value, words", [
    ("honba", "3", "a field of the wrong type or shape (TypeError"), ("concealed", 5, "wrong type or shape"),
    ("melds", ["x"], "wrong type or shape"), ("expected", [1], "wrong type or shape"),
    ("discards", None, "wrong type or shape"),
    ("expected", dict(AGARI["expected"], score_deltas=[0, 0]), "score_deltas has 2 seats: a table has 3 or 4")])
def test_check_cases_says_a_field_of_the_wrong_type_and_goes_on_to_the_next_line(field, value, words, tmp_path,
                                                                              capsys):
    """A field of another type stopped the run with a traceback, no count of the lines passed."""
    bad = dict(AGARI, id="bad", **{field: value})
    (tmp_path / "cases.jsonl").write_text(json.dumps(bad) + "\n" + json.dumps(dict(AGARI, id="next")) + "\n")
    assert main(["check-cases", str(tmp_path / "cases.jsonl")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bad: error: ") and words in out[0]
    assert out[1:] == ["1 passed, 1 failed"]  # the next line still checked (no yaku: as its record says)


def test_check_cases_on_the_shared_records(shared, capsys):
    assert main(["check-cases", str(shared / "data/rules/tenhou-cases.jsonl")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "6878 passed, 0 failed"


def test_serve_refuses_a_negative_camera_index_before_opening_it(capsys):
    """-1 is OpenCV's "any camera"; on a machine with none, OpenCV 5 crashed the process there."""
    assert main(["serve", "--camera", "-1"]) == 2
    assert "camera -1 is no camera index: give 0 for the first camera" in capsys.readouterr().err


def test_serve_says_a_camera_that_cannot_be_opened_before_any_url_to_open(capsys):
    """The URL to open was printed first, as if the app were served, then the camera's failure."""
    import socket

    with socket.socket() as s:  # a port free now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main(["serve", "--camera", "7", "--port", str(port)]) == 2
    out = capsys.readouterr()
    assert "camera 7" in out.err and "open http" not in out.out


@pytest.mark.parametrize("port, words", [("99999", "99999 is not a port: give one from 1 to 65535"),
                                         ("-5", "-5 is not a port"), ("0", "0 is not a port"),
                                         ("http", "'http' is not a port number")])
def test_serve_refuses_a_port_that_cannot_be_listened_on(port, words, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_calibrate_says_a_bad_profile_name_before_reading_the_photos(tmp_path, capsys):
    assert main(["calibrate", str(tmp_path / "grid.jpg"), "--name", "../x"]) == 2
    assert "profile name '../x': use 1-40 letters, digits, '_' or '-'" in capsys.readouterr().err


class LaidOutFinder:
    """Stands in for the shipped models: the tiles of a daisangen laid out by hand, whatever the photo."""

    def __init__(self):
        from test_layout import lay_row

        self.tiles = lay_row("2m 3m 4m 1p 1p | 5z 5z> 5z | 6z> 6z 6z | 7z 7z 7z>", 0)

    def find(self, image, conf=0.35, profile=None):
        return list(self.tiles)


@pytest.fixture
def daisangen_photo(tmp_path, monkeypatch):
    import cv2
    import numpy as np

    monkeypatch.setattr("vision.tiles.TileFinder", LaidOutFinder)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((800, 1200, 3), 90, np.uint8))
    return str(photo)


def paid(table: dict) -> list[tuple[str, int]]:
    return sorted((p["payer"], p["total"]) for p in table["readout"]["win"]["payments"])


def test_read_score_takes_the_hands_context_as_hand_does(daisangen_photo, capsys):
    """`read --score` scored every photo with the default context (east, a ron from the left, no honba): a
    referee scoring a photo could not say tsumo, the seat's wind or the table's sticks."""
    assert main(["read", "--score", "--json", "--tsumo", "--seat-wind", "S", "--honba", "1", daisangen_photo]) == 0
    table = json.loads(capsys.readouterr().out)
    assert paid(table) == [("across", 32300)]  # the photo's melds make across liable (pao), honba and all
    assert main(["read", "--score", "--json", "--ron", "right", "--seat-wind", "S", "--pao", "left",
                 "--dora", "1m", daisangen_photo]) == 0
    table = json.loads(capsys.readouterr().out)
    assert paid(table) == [("left", 16000), ("right", 16000)] and table["context"]["dora_indicators"] == ["1m"]
    assert main(["read", "--score", daisangen_photo]) == 0  # told nothing: a ron from the left, as before
    assert "left pays 24000" in capsys.readouterr().out


def test_read_score_refuses_a_context_that_cannot_be_before_reading_a_photo(daisangen_photo, capsys, monkeypatch):
    monkeypatch.setattr("vision.tiles.TileFinder", None)  # not loaded: the context is refused first
    assert main(["read", "--score", "--ippatsu", daisangen_photo]) == 2
    assert "riichi-lens read: ippatsu needs riichi" in capsys.readouterr().err
    assert main(["read", "--score", "--ruleset", "nosuch", daisangen_photo]) == 2
    assert "nosuch" in capsys.readouterr().err
    # a seat the ruleset has not: refused as the API refuses it (it stopped the run with a traceback)
    assert main(["read", "--score", "--ruleset", "tenhou-sanma", "--seat", "across", daisangen_photo]) == 2
    assert "seat across: in tenhou-sanma three players sit self, right and left" in capsys.readouterr().err
    assert main(["read", "--score", "--draw", "--declared", "across=tenpai", "--ruleset", "tenhou-sanma",
                 daisangen_photo]) == 2
    assert "no seat 'across' at this table" in capsys.readouterr().err


def test_read_refuses_what_only_score_or_draw_uses_given_without_them(daisangen_photo, capsys, monkeypatch):
    """--riichi without --score, or --declared without --draw, was read past without a word."""
    monkeypatch.setattr("vision.tiles.TileFinder", None)  # refused before the models load
    assert main(["read", "--riichi", "--dora", "3m", daisangen_photo]) == 2
    assert "riichi-lens read: --dora, --riichi only with --score" in capsys.readouterr().err
    assert main(["read", "--seat", "left", "--draw", daisangen_photo]) == 2
    assert "--seat, --draw only with --score" in capsys.readouterr().err
    assert main(["read", "--score", "--declared", "left=noten", daisangen_photo]) == 2
    assert "--declared only with --draw" in capsys.readouterr().err


def test_hand_takes_the_tiles_let_pass_and_a_double_rons_farther_winner(capsys):
    """The API took both; the CLI had no flag for either."""
    assert main(["hand", "23m456p789s11z 555z", "--missed", "1m"]) == 0
    assert "furiten (temporary): let 1m pass" in capsys.readouterr().out
    assert main(["hand", "23m456p789s11z 555z", "--riichi", "--missed-in-riichi", "4m"]) == 0
    assert "furiten (riichi): let 4m pass after riichi" in capsys.readouterr().out
    # a non-dealer's haku, 1 han 50 fu: 1,600, and the 3 honba and the stick go to the nearer winner
    args = ["hand", "123m456p789s11z 555z", "--seat", "S", "--ron", "right", "--honba", "3", "--sticks", "1"]
    assert main(args) == 0
    assert "winner gains 3500" in capsys.readouterr().out
    assert main(args + ["--other-winner-nearer"]) == 0
    assert "winner gains 1600" in capsys.readouterr().out


def test_hand_takes_the_seat_wind_by_either_name(capsys):
    assert main(["hand", "123m456p789s11z 555z", "--win", "5z", "--tsumo", "--seat-wind", "S"]) == 0
    assert capsys.readouterr().out.count("pays") == 3
    assert main(["hand", "123m456p789s11z 555z", "--win", "5z", "--tsumo", "--seat", "S", "--round-wind", "S"]) == 0
    assert "points:" in capsys.readouterr().out


def test_hand_takes_the_winning_tile_by_the_apis_name_too(capsys):
    """The API and the page call it win_tile: ``--win-tile`` was refused as an unknown argument."""
    assert main(["hand", "123m456p789s11z 555z", "--win-tile", "1z", "--ron", "left"]) == 0
    out = capsys.readouterr().out
    assert "won on 1z" in out and "pair wait (tanki)" in out


def test_hand_says_a_ron_from_the_left_was_assumed_as_the_api_and_read_do(capsys):
    """A 14-tile hand told neither --tsumo nor --ron was scored as a ron from the left without a word, where the
    API's readout of the same hand (and read --score's) says so in a note."""
    from fastapi.testclient import TestClient

    from server.app import create_app

    api = TestClient(create_app()).post("/api/score", json={"hand": "123m456p789s11z 555z"}).json()
    assert main(["hand", "123m456p789s11z 555z", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["notes"] == api["notes"] and cli["win"]["payments"] == api["win"]["payments"]
    assert main(["hand", "123m456p789s11z 555z"]) == 0
    assert "note: scored as a ron on the left player's discard" in capsys.readouterr().out


def test_hand_and_read_take_the_context_by_the_apis_names_too(daisangen_photo, capsys):
    """The API's names for the context (win_from, dora_indicators, ura_indicators, riichi_sticks, visible) were
    refused by the CLI as unknown arguments, as win_tile was."""
    hand = ["hand", "123m456p789s11z 555z", "--seat", "S", "--riichi", "--json"]
    assert main(hand + ["--ron", "right", "--dora", "4z", "--ura", "1m", "--sticks", "2", "--seen", "1z"]) == 0
    by_cli_names = json.loads(capsys.readouterr().out)
    assert main(hand + ["--win-from", "right", "--dora-indicators", "4z", "--ura-indicators", "1m",
                        "--riichi-sticks", "2", "--visible", "1z"]) == 0
    assert json.loads(capsys.readouterr().out) == by_cli_names
    assert by_cli_names["win"]["payments"][0]["payer"] == "right"
    photo = ["read", "--score", "--json", daisangen_photo, "--seat-wind", "S"]
    assert main(photo + ["--ron", "right", "--sticks", "1", "--dora", "1m"]) == 0
    by_cli_names = json.loads(capsys.readouterr().out)
    assert main(photo + ["--win-from", "right", "--riichi-sticks", "1", "--dora-indicators", "1m"]) == 0
    assert json.loads(capsys.readouterr().out) == by_cli_names


def test_read_score_takes_the_tiles_let_pass_as_the_api_does(daisangen_photo, capsys):
    """POST /api/table and /api/recognize take the tiles let pass (context.missed), which no photo shows; read
    --score refused --missed and --missed-in-riichi as unknown arguments."""
    from fastapi.testclient import TestClient

    from server.app import create_app

    tiles = [{"kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in LaidOutFinder().tiles]
    missed = [{"tile": "2m"}, {"tile": "4m", "after_riichi": True}]
    api = TestClient(create_app()).post("/api/table", json={"tiles": tiles, "context": {"missed": missed}}).json()
    assert main(["read", "--score", "--json", daisangen_photo, "--missed", "2m", "--missed-in-riichi", "4m"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert read["readout"] == api["readout"]
    assert main(["read", "--score", "--json", daisangen_photo]) == 0
    assert json.loads(capsys.readouterr().out)["readout"] != read["readout"]  # the tiles let pass count
    assert main(["read", "--missed", "2m", daisangen_photo]) == 2
    assert "--missed only with --score" in capsys.readouterr().err


def test_read_refuses_a_seat_declared_twice_at_the_draw(daisangen_photo, capsys, monkeypatch):
    """Of --declared left=noten --declared left=tenpai the last was taken without a word."""
    monkeypatch.setattr("vision.tiles.TileFinder", None)  # refused before the models load
    assert main(["read", "--score", "--draw", "--declared", "left=noten", "--declared", "left=tenpai",
                 daisangen_photo]) == 2
    assert "riichi-lens read: --declared left given twice (noten, then tenpai): give each seat once" \
        in capsys.readouterr().err

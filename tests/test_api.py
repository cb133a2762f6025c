"""The web API through FastAPI's test client: scoring, and bad input answered with a 4xx a person can act on."""
import random

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from server.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_score_a_complete_hand(client):
    r = client.post("/api/score", json={"hand": "123m456p789s11z 555z", "win_tile": "5z",
                                        "context": {"tsumo": True, "dora_indicators": ["4z"]}})
    assert r.status_code == 200
    win = r.json()["win"]
    assert (win["han"], win["fu"], win["points"], win["limit"]) == (4, 40, 12000, "mangan")


def test_a_blank_winning_tile_is_none_given(client):
    r = client.post("/api/score", json={"hand": "123m456p789s11z555z", "win_tile": " ", "context": {"tsumo": True}})
    assert r.status_code == 200 and r.json()["win"]["han"] >= 1


def test_score_structured_hand_with_meld(client):
    body = {"concealed": ["2m", "3m", "4m", "6s", "6s", "7s", "8s", "9s", "2z", "2z"],
            "melds": [{"kind": "chi", "tiles": ["3p", "4p", "5p"], "called": "3p", "source": "left"}]}
    r = client.post("/api/score", json=body)
    assert r.status_code == 200
    assert [w["tile"] for w in r.json()["waits"]] == ["6s", "2z"]


@pytest.mark.parametrize("body, words", [
    ({"hand": "11111m234p567s11z"}, "5 copies of 1m"),
    ({"hand": "12x"}, "unexpected character"),
    ({"concealed": ["1m"] * 3, "melds": [{"kind": "chi", "tiles": ["1m", "2m", "3m"], "called": "1m", "source": "across"}]}, "only from the left"),
    # no called tile: said so (it was "the called tile must be one of its tiles"), a chi from across first
    ({"concealed": ["1m"] * 3, "melds": [{"kind": "chi", "tiles": ["1m", "2m", "3m"], "source": "across"}]}, "only from the left"),
    ({"concealed": ["1m"] * 3, "melds": [{"kind": "pon", "tiles": ["5z"] * 3, "source": "left"}]},
     "pon 555z: say which of its tiles was called"),
    ({"concealed": ["1m"] * 3, "melds": [{"kind": "pon", "tiles": ["5z"] * 3, "called": "5z", "source": "left",
                                          "added": "5z"}]}, "only an added kan (kakan) has an added tile"),
    # no added tile: said so, as for the called tile (it was "the added tile must be one of its tiles")
    ({"concealed": ["1m"], "melds": [{"kind": "kakan", "tiles": ["5z"] * 4, "called": "5z", "source": "left"}]},
     "kakan 5555z: say which of its tiles was added to the pon (added)"),
    ({"hand": "123m456p789s11z555z", "ruleset": "nope"}, "unknown ruleset"),
    ({}, "send the hand"),
    ({"hand": "123m456p789s11z555z", "win_tile": "1z5z"}, "the winning tile must be one tile, like 5m: '1z5z' is 2"),
])
def test_bad_hands_get_422_with_a_message(client, body, words):
    r = client.post("/api/score", json=body)
    assert r.status_code == 422 and words in r.json()["error"]
    assert client.get("/api/rulesets").status_code == 200  # and the server keeps serving


@pytest.mark.parametrize("body, part", [
    ({"hand": "12x"}, "hand"),
    ({"hand": "123m456p789s11z555z", "ruleset": "tenhou:kuitan=maybe"}, "ruleset"),
    ({"hand": "123m456p789s11z555z", "context": {"honba": -1}}, "context"),
    ({"hand": "123m456p789s11z555z", "context": {"ippatsu": True}}, "context"),
    ({"hand": "123m456p789s11z555z", "win_tile": "9x"}, "win_tile"),
    ({"hand": "123m456p789s11z555z", "win_tile": "9p"}, None),  # the hand and its winning tile together
])
def test_a_refused_score_names_the_part_refused_for_the_form_to_mark(client, body, part):
    r = client.post("/api/score", json=body)
    assert r.status_code == 422 and r.json().get("part") == part and r.json()["error"]


def test_a_photos_refusal_names_the_ruleset_or_context_refused_too(client):
    """The page marks the house rules field by it whichever tab scored: the photo's as the typed hand's."""
    tiles = _tiles_json("2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 5z 5z")
    r = client.post("/api/table", json={"tiles": tiles, "ruleset": "tenhou:kuitan=maybe"})
    assert r.status_code == 422 and r.json()["part"] == "ruleset"
    r = client.post("/api/table", json={"tiles": tiles, "context": {"ippatsu": True}})
    assert r.status_code == 422 and r.json() == {"error": "ippatsu needs riichi", "part": "context"}
    r = client.post("/api/recognize", files={"photo": ("grey.png", _png(320, 240), "image/png")},
                    data={"ruleset": "nosuch"})
    assert r.status_code == 422 and r.json()["part"] == "ruleset" and "nosuch" in r.json()["error"]


def test_malformed_json_is_a_4xx(client):
    r = client.post("/api/score", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_page_and_rulesets(client):
    assert "riichi-lens" in client.get("/").text
    assert set(client.get("/api/rulesets").json()) >= {"tenhou", "wrc", "ema", "mahjong-soul"}


def test_house_rules_say_what_each_option_takes(client):
    house = client.get("/api/house-rules").json()
    assert house["kuitan"] == "yes or no" and house["renhou"] == "none or mangan or strict-mangan or yakuman"
    assert house["red_fives"].startswith("0 or 1 red five a suit") and "name" not in house and "players" not in house
    hand = {"hand": "234m456p678s22s 6'78m", "win_tile": "2m", "context": {"win_from": "left"}}
    assert client.post("/api/score", json=hand | {"ruleset": "tenhou"}).json()["win"]["valid"]
    r = client.post("/api/score", json=hand | {"ruleset": "tenhou:kuitan=no"}).json()  # open tanyao alone: no yaku
    assert not r["win"]["valid"]


def _png(width: int, height: int) -> bytes:
    import cv2
    import numpy as np

    return cv2.imencode(".png", np.full((height, width, 3), 120, np.uint8))[1].tobytes()


def _bomb_png(width: int, height: int) -> bytes:
    """A valid PNG header that claims a huge size (what a decompression bomb looks like to the reader)."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(  # noqa: E731
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("data, status, words", [
    (b"", 422, "the file is empty"),
    (b"%PDF-1.7 not a photo", 422, "PDF"),
    (b"just some text", 422, "not an image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 100, 422, "header is damaged"),  # a segment of no length
    (_bomb_png(20000, 20000), 422, "megapixels"),
])
def test_recognize_refuses_what_is_not_a_usable_photo(client, data, status, words):
    r = client.post("/api/recognize", files={"photo": ("x.jpg", data, "image/jpeg")})
    assert r.status_code == status and words in r.json()["error"]
    assert client.get("/api/rulesets").status_code == 200  # and the server keeps serving


@pytest.mark.parametrize("width, height", [(320, 240), (20000, 10), (2, 3000), (1, 1)])
def test_recognize_a_photo_without_tiles(client, width, height):
    """A strip thinner than the detector's shrink factor (20000 x 10 shrinks 48 times) once failed inside OpenCV."""
    r = client.post("/api/recognize", files={"photo": ("grey.png", _png(width, height), "image/png")})
    assert r.status_code == 200
    out = r.json()
    assert (out["width"], out["height"], out["tiles"], out["readout"]) == (width, height, [], None)
    assert out["problems"][0]["message"] == "no tiles found in the photo"


@pytest.mark.parametrize("context, message", [
    ("{not json", "context: Invalid JSON: key must be a string at line 1 column 2"),
    ('{"seat_wind": "X"}', "context.seat_wind: Input should be 'E', 'S', 'W' or 'N'"),
    ("[]", "context: Input should be an object"),
])
def test_recognize_refuses_a_bad_context_naming_the_field_in_a_line(client, context, message):
    """Not pydantic's own text ('1 validation error for ContextIn ... https://errors.pydantic.dev/...')."""
    r = client.post("/api/recognize", files={"photo": ("grey.png", _png(320, 240), "image/png")},
                    data={"context": context})
    assert r.status_code == 422 and r.json() == {"error": message, "part": "context"}


def _tiles_json(spec):
    from test_layout import lay_row

    return [{"kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in lay_row(spec)]


def test_table_rescores_corrected_tiles(client):
    tiles = _tiles_json("2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 5z 5z")
    r = client.post("/api/table", json={"tiles": tiles})
    assert r.status_code == 200 and {w["tile"] for w in r.json()["readout"]["waits"]} == {"1z", "5z"}
    tiles[12]["kind"] = "6z"  # the user taps the last tile and says it is a hatsu: 5z 6z are two singles
    readout = client.post("/api/table", json={"tiles": tiles}).json()["readout"]
    assert not readout["tenpai"] and readout["shanten"] == 1


def test_a_count_or_a_flag_sent_as_another_type_is_refused_naming_it_not_taken_as_meant(client):
    """Until session 78 pydantic's lax mode scored "2" honba as 2, true honba as 1, and riichi 1 or "true" as a
    riichi: what a client's bug sent was scored as if meant."""
    hand = "123m456p789s11z 555z"
    for context, field in (({"honba": "2"}, "honba"), ({"honba": True}, "honba"), ({"riichi_sticks": 1.5},
                           "riichi_sticks"), ({"riichi": 1}, "riichi"), ({"tsumo": "true"}, "tsumo"),
                           ({"discards": [{"tile": "1m", "riichi": "yes"}]}, "riichi")):
        r = client.post("/api/score", json={"hand": hand, "context": context})
        assert r.status_code == 422 and r.json()["detail"][0]["loc"][-1] == field, context
    plain = client.post("/api/score", json={"hand": hand, "context": {"honba": 2, "riichi": True, "tsumo": True}})
    win = plain.json()["win"]  # riichi, tsumo, haku; two honba: 200 from each
    assert plain.status_code == 200 and win["han"] == 3 and {p["honba"] for p in win["payments"]} == {200}
    tile = {"kind": "5m", "polygon": [[0, 0], [30, 0], [30, 40], [0, 40]], "fixed": 1}
    r = client.post("/api/table", json={"tiles": [tile]})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "tiles", 0, "fixed"]
    r = client.post("/api/table", json={"tiles": [dict(tile, fixed=True)], "won_on": "0"})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "won_on"]
    jpeg = cv2.imencode(".jpg", np.full((100, 100, 3), 90, np.uint8))[1].tobytes()
    r = client.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")}, data={"context": '{"honba": "2"}'})
    assert r.status_code == 422 and r.json()["part"] == "context" and "honba" in r.json()["error"]


def test_a_number_too_long_to_read_is_refused_in_words(client):
    """A 5,000-digit honba got FastAPI's bare 400 "There was an error parsing the body": Python reads no integer
    past 4,300 digits, and its own message speaks to the server's programmer."""
    body = '{"hand": "123m456p789s11z 555z", "context": {"honba": ' + "9" * 5000 + "}}"
    r = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json() == {"error": "a number in the request has 5000 digits, more than are "
                                                          "read (4,300)"}
    r = client.post("/api/table", content='{"tiles": [], "won_on": ' + "1" * 4400 + "}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and "4400 digits" in r.json()["error"]
    r = client.post("/api/score", content='{"hand": ', headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"  # bad JSON: as FastAPI says it


def test_a_field_name_mistyped_is_refused_naming_it_not_dropped(client):
    """A context field the API did not know (other_winner_nearer, until session 75) was dropped without a word."""
    r = client.post("/api/score", json={"hand": "123m456p789s11z 555z", "context": {"honbaa": 2}})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "context", "honbaa"]
    tile = {"kind": "5m", "polygon": [[0, 0], [30, 0], [30, 40], [0, 40]], "confidnce": 0.5}
    r = client.post("/api/table", json={"tiles": [tile]})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "tiles", 0, "confidnce"]
    jpeg = cv2.imencode(".jpg", np.full((100, 100, 3), 90, np.uint8))[1].tobytes()
    r = client.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")}, data={"context": '{"honbaa": 2}'})
    assert r.status_code == 422 and r.json() == {"error": "context.honbaa: Extra inputs are not permitted", "part": "context"}
    # a form field mistyped scored the photo by the default rules; of two photos the last alone was read
    r = client.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")}, data={"rulset": "wrc"})
    assert r.status_code == 422 and r.json()["error"].startswith("unknown form field 'rulset': this endpoint takes photo")
    two = [("photo", ("a.jpg", jpeg, "image/jpeg")), ("photo", ("b.jpg", jpeg, "image/jpeg"))]
    r = client.post("/api/recognize", files=two)
    assert r.status_code == 422 and r.json() == {"error": "form field 'photo' sent more than once: send one"}
    r = client.post("/api/calibration", files={"photo": ("a.jpg", jpeg, "image/jpeg")},
                    data={"name": "mine", "grid": "[]", "nme": "x"})
    assert r.status_code == 422 and r.json()["error"].startswith("unknown form field 'nme'")
    r = client.post("/api/calibration/grid", files=two)
    assert r.status_code == 422 and "'photo' sent more than once" in r.json()["error"]


def test_a_hand_sent_both_ways_is_refused_not_half_dropped(client):
    r = client.post("/api/score", json={"hand": "123m456p789s11z 555z", "concealed": ["1m"] * 3})
    assert r.status_code == 422 and r.json()["error"].endswith("not both")


def test_score_of_a_double_rons_farther_winner_leaves_the_honba_and_sticks_to_the_nearer(client):
    ron = {"win_from": "left", "honba": 2, "riichi_sticks": 1}
    body = {"hand": "123m456p789s11z 555z", "win_tile": "5z"}
    alone = client.post("/api/score", json={**body, "context": ron}).json()["win"]
    farther = client.post("/api/score", json={**body, "context": {**ron, "other_winner_nearer": True}}).json()["win"]
    assert (alone["winner_gain"], farther["winner_gain"]) == (3600, 2000)  # 2,000 + 600 honba + 1,000 sticks
    r = client.post("/api/score", json={**body, "context": {"tsumo": True, "other_winner_nearer": True}})
    assert r.status_code == 422 and r.json() == {"error": "only a ron can be shared with another winner", "part": "context"}


def test_table_takes_the_tile_the_hand_won_on_and_refuses_one_not_sent(client):
    tiles = _tiles_json("2m 3m 4m 4p 5p 6p 6s 7s 8s 3p 4p 5p 8m 8m")
    ron = {"seat_wind": "S", "win_from": "left"}
    best = client.post("/api/table", json={"tiles": tiles, "context": ron}).json()["readout"]["win"]
    on_the_pair = client.post("/api/table", json={"tiles": tiles, "context": ron, "won_on": 13}).json()
    assert on_the_pair["hand"]["win_tile"] == "8m"
    assert (best["wait"], on_the_pair["readout"]["win"]["wait"]) == ("ryanmen", "tanki")
    r = client.post("/api/table", json={"tiles": tiles, "won_on": 14})
    assert r.status_code == 422 and r.json()["detail"][0]["msg"] == "won_on 14: there are 14 tiles, numbered from 0"
    assert client.post("/api/table", json={"tiles": tiles, "won_on": -1}).status_code == 422


def test_table_scores_no_dora_indicator_where_the_user_took_the_photos_away(client):
    """The photo takes the face-up tile in the wall for the dora indicator; the user says it is not one (a stray
    tile laid there) and the hand is scored with the context's indicators only: none here."""
    from test_layout import lay_row

    laid = lay_row("2m 3m 4m 6p 7p 8p 3s 4s 5s 1z 1z 5z 5z 5z", 0, origin=(40.0, 200.0)) + lay_row(
        "# 4z # #", 0, origin=(40.0, 60.0))
    tiles = [{"kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in laid]
    tsumo = {"tsumo": True}
    seen = client.post("/api/table", json={"tiles": tiles, "context": tsumo}).json()
    assert seen["context"]["dora_indicators"] == ["4z"] and seen["tiles"][15]["role"] == "dora"
    taken = client.post("/api/table", json={"tiles": tiles, "context": tsumo, "dora_from_photo": False}).json()
    assert taken["context"]["dora_indicators"] == [] and taken["dora_indicators"] == []
    assert taken["tiles"][15]["role"] == "stray"
    assert seen["readout"]["win"]["han"] - taken["readout"]["win"]["han"] == 2  # the pair of 1z were dora
    given = client.post("/api/table", json={"tiles": tiles, "dora_from_photo": False,
                                            "context": {**tsumo, "dora_indicators": ["1m"]}}).json()
    assert given["context"]["dora_indicators"] == ["1m"]


def test_table_takes_the_readers_candidates_and_keeps_a_kind_set_by_hand(client):
    """The page sends back each tile's candidates as /api/recognize gave them: a fifth 1m whose next likeliest
    kind is 4m is taken as 4m and the hand scores; once the user says it is 1m (sent without candidates), it
    stays 1m and the five copies are a problem."""
    tiles = _tiles_json("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s 1m")
    tiles[12]["candidates"] = [["1m", 0.6], ["4m", 0.3]]
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert out["tiles"][12]["kind"] == "4m" and out["tiles"][12]["candidates"] == [["1m", 0.6], ["4m", 0.3]]
    assert out["readout"] is not None and not out["problems"]
    assert out["check"]["tiles"] == [12]  # taken as another kind than read: one to check
    tiles[12]["candidates"] = []
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert out["tiles"][12]["kind"] == "1m" and out["readout"] is None
    assert any("5 copies of 1m" in p["message"] for p in out["problems"])


def test_a_tile_taken_as_a_likelier_candidate_than_its_kind_stays_at_most_sure_and_comes_back_accepted(client):
    """Live mode keeps a tile's kind until another wins its votes by a margin, so a likelier candidate may follow
    the first: a pon of 2m whose third tile reads 1m (0.1) or 2m (0.9) takes it as 2m, its confidence at most 1
    (it came back 9.0, and the page's next correction was refused)."""
    def up(kind, x, **extra):
        return {"kind": kind, "polygon": [[x, 600], [x + 40, 600], [x + 40, 656], [x, 656]], **extra}

    tiles = [up(k, 100 + 41 * i) for i, k in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z".split())]
    tiles += [{"kind": "2m", "polygon": [[600, 656], [600, 616], [656, 616], [656, 656]]}, up("2m", 657),
              up("1m", 698, candidates=[["1m", 0.1], ["2m", 0.9]])]
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert out["tiles"][-1]["kind"] == "2m" and out["tiles"][-1]["confidence"] == 1.0
    assert [m["kind"] for m in out["seats"][0]["melds"]] == ["pon"] and out["seats"][0]["seat"] == "self"
    again = [{k: t[k] for k in ("kind", "polygon", "confidence", "fixed", "candidates")} for t in out["tiles"]]
    assert client.post("/api/table", json={"tiles": again}).status_code == 200


def test_table_offers_the_unsure_reading_that_completes_a_fourteen_tile_hand_and_scores_it_once_taken(client):
    tiles = _tiles_json("1m 2m 3m 4p 5p 6p 1s 8s 9s 1z 1z 5z 5z 5z")
    tiles[6]["candidates"] = [["1s", 0.55], ["7s", 0.4]]
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert out["readout"]["win"] is None
    assert out["suggestions"] == [{"tile": 6, "read": "1s", "kind": "7s", "probability": 0.4}]
    tiles[6] = {**tiles[6], "kind": "7s", "candidates": []}  # the user takes it, as the page sends a tile set by hand
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert out["suggestions"] == [] and out["readout"]["win"]["valid"]


@pytest.mark.parametrize("tile", [{"kind": "x9", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]]},
                                  {"kind": "5m", "polygon": [[0, 0], [1, 0]]},
                                  {"kind": "5m", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "candidates": [["9z", 0.5]]},
                                  {"kind": "5m", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "candidates": [["5m", 2]]}])
def test_table_refuses_malformed_tiles(client, tile):
    r = client.post("/api/table", json={"tiles": [tile]})
    assert r.status_code == 422


def test_table_answers_for_as_many_tiles_as_it_takes_heaped_on_one_spot(client):
    """400 tiles (the request's limit) on one spot, as a script could send: every pair of them is near, and
    they make one long line. It is answered (no legal hand there), not left working: the line's ways to cut
    melds grew as 2 to the tiles' number."""
    kinds = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    jitter = random.Random(3)  # under a pixel: with seed 3 such a heap never finished (seeds 2 and 3 at 60 tiles)
    tiles = []
    for i in range(400):
        x, y = 100 + jitter.random(), 100 + jitter.random()
        tiles.append({"kind": kinds[i % len(kinds)], "polygon": [[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]]})
    r = client.post("/api/table", json={"tiles": tiles})
    assert r.status_code == 200 and len(r.json()["tiles"]) == 400
    r = client.post("/api/table", json={"tiles": tiles + tiles[:1]})  # a photo's reading never gives more
    assert r.status_code == 422 and "at most 400 items" in r.json()["detail"][0]["msg"], r.json()


@pytest.mark.parametrize("tile, where, words", [
    ('{"kind": "5m", "polygon": [[0, 0], [1, 0], [1, NaN], [0, 1]]}', ["polygon", 2, 1], "finite number"),
    ('{"kind": "5m", "polygon": [[0, 0], [1, 0], [1, 1e999], [0, 1]]}', ["polygon", 2, 1], "finite number"),
    # numbers that overflowed inside the grouping (NaN there), or put a tile a trillion pixels out in a pond
    ('{"kind": "5m", "polygon": [[1e300, 0], [1, 0], [1, 1], [0, 1]]}', ["polygon", 0, 0], "less than or equal to 100000000"),
    ('{"kind": "5m", "polygon": [[0, 0], [1, -1e12], [1, 1], [0, 1]]}', ["polygon", 1, 1], "greater than or equal to -100000000"),
    ('{"kind": "5m", "confidence": NaN, "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]]}', ["confidence"], "finite number"),
    ('{"kind": "5m", "confidence": 1.5, "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]]}', ["confidence"], "less than or equal to 1"),
    ('{"kind": "x9", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]]}', ["kind"], "unknown tile 'x9': expected a code like 5m"),
    ('{"kind": "5m", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "candidates": [["9z", 0.5]]}', ["candidates", 0, 0],
     "unknown tile '9z'"),
    # the rules weigh a candidate by its probability over the first's: 0 gave a 500 (a division)
    ('{"kind": "1m", "polygon": [[0, 0], [1, 0], [1, 1], [0, 1]], "candidates": [["1m", 0], ["2m", 0]]}',
     ["candidates"], "the first candidate (the tile's kind) must be above 0 likely")])
def test_table_refuses_bad_kinds_corners_and_confidences_saying_where(client, tile, where, words):
    """JSON as Python writes it may carry NaN and Infinity: refused with the field named, not read as garbage (nor
    a validation answer that cannot itself be written as JSON). A bad kind is said in words, not as a regex."""
    r = client.post("/api/table", content='{"tiles": [' + tile + "]}", headers={"content-type": "application/json"})
    assert r.status_code == 422
    (error,) = r.json()["detail"]
    assert error["loc"] == ["body", "tiles", 0, *where] and words in error["msg"]


@pytest.mark.parametrize("corners", [
    [[0, 0], [28, 0], [28, 0], [0, 0]],  # a line: the top and bottom edges on one another (gave a 500, a division)
    [[0, 0], [0, 0], [0, 40], [0, 40]],
    [[0, 0], [28, 0], [56, 0], [84, 0]],  # four corners in a line
    [[0, 0]] * 4])
def test_table_refuses_a_polygon_that_encloses_no_face_naming_the_tile(client, corners):
    kinds = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p".split()
    tiles = [{"kind": k, "polygon": [[30 * i, 0], [30 * i + 28, 0], [30 * i + 28, 40], [30 * i, 40]]}
             for i, k in enumerate(kinds)]
    tiles[3]["polygon"] = [[x + 90, y] for x, y in corners]  # in the row, where its neighbours measure it
    r = client.post("/api/table", json={"tiles": tiles})
    assert r.status_code == 422 and r.json()["error"].startswith("tile 3 (4m): its polygon"), r.text
    assert "no face" in r.json()["error"]
    tiles[3]["polygon"] = [[90, 0], [91, 0], [91, 1], [90, 1]]  # one square pixel is still a face
    assert client.post("/api/table", json={"tiles": tiles}).status_code == 200


def test_a_photo_sent_as_text_is_said_to_be_no_file_in_words(client):
    for sent in ({"data": {"photo": "hello"}}, {"files": {"photo": ("", b"abc", "image/jpeg")}}):
        r = client.post("/api/recognize", **sent)
        assert r.status_code == 422 and r.json()["detail"] == [{
            "type": "value_error", "loc": ["body", "photo"],
            "msg": "send the photo as a file part of a multipart form, with a file name (not as text)"}]


def test_recognize_without_a_file_is_a_4xx(client):
    assert client.post("/api/recognize").status_code == 422


def test_tile_faces_are_served_and_names_are_checked(client):
    r = client.get("/tiles/0p.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
    assert client.get("/tiles/5z.svg?theme=dark").status_code == 200
    assert client.get("/tiles/..%2Fx.svg").status_code == 404
    assert client.get("/tiles/9z.svg").status_code == 404


def test_an_uploaded_photo_is_never_spooled_to_disk(client, monkeypatch):
    """A 3 MiB upload stays in memory: no temporary file is created while it is read."""
    import tempfile

    made = []
    import io

    monkeypatch.setattr(tempfile, "TemporaryFile", lambda *a, **k: made.append(1) or io.BytesIO())  # a spool's disk file
    big = _png(320, 240) + b"\x00" * (3 * 2**20)  # a PNG followed by padding: over Starlette's 1 MiB spool
    r = client.post("/api/recognize", files={"photo": ("big.png", big, "image/png")})
    assert made == [] and r.status_code in (200, 422)


def test_table_takes_what_seats_declared_at_the_draw(client):
    """The seat across is out of the photo, so the draw pays nothing until the referee says it declared noten."""
    from test_table import draw_table

    tiles = [{"kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in draw_table(across=False)]
    out = client.post("/api/table", json={"tiles": tiles}).json()
    assert [row["delta"] for row in out["draw"]["seats"]] == [None] * 4
    out = client.post("/api/table", json={"tiles": tiles, "draw_declared": {"across": False}}).json()
    assert [(row["seat"], row["delta"]) for row in out["draw"]["seats"]] == [
        ("self", 1500), ("right", -1500), ("across", -1500), ("left", 1500)]
    r = client.post("/api/table", json={"tiles": tiles, "draw_declared": {"across": "noten"}})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "draw_declared", "across"]
    r = client.post("/api/table", json={"tiles": tiles, "ruleset": "tenhou-sanma", "draw_declared": {"across": False}})
    assert r.status_code == 422 and r.json()["error"].startswith("declared at the draw: no seat 'across'")


def test_recognize_takes_what_seats_declared_at_the_draw(client):
    """/api/table and live mode took the declarations; /api/recognize dropped them without a word."""
    jpeg = cv2.imencode(".jpg", np.full((100, 100, 3), 90, np.uint8))[1].tobytes()
    r = client.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")},
                    data={"draw_declared": '{"right": true}'})
    assert r.status_code == 200
    assert [(row["seat"], row["declared"]) for row in r.json()["draw"]["seats"]] == [
        ("self", None), ("right", True), ("across", None), ("left", None)]
    r = client.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")},
                    data={"draw_declared": '{"right": "yes"}'})
    assert r.status_code == 422 and r.json()["error"] == ("declared at the draw: right must be true (tenpai) or "
                                                          "false (noten), not 'yes'")


def test_seat_across_in_a_three_player_ruleset_is_refused_up_front(client):
    """Nobody sits across in sanma: the table was read and answered 'no face-up hand in view for seat across'."""
    tiles = _tiles_json("1p 2p 3p 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z")
    r = client.post("/api/table", json={"tiles": tiles, "ruleset": "tenhou-sanma", "seat": "across"})
    assert r.status_code == 422 and r.json()["error"] == ("seat across: in tenhou-sanma three players sit self, "
                                                          "right and left")
    r = client.post("/api/recognize", files={"photo": ("p.jpg", b"\xff\xd8\xff not read", "image/jpeg")},
                    data={"ruleset": "tenhou-sanma", "seat": "across"})
    assert r.status_code == 422 and r.json()["error"].startswith("seat across: in tenhou-sanma")
    assert client.post("/api/table", json={"tiles": tiles, "ruleset": "tenhou-sanma", "seat": "left"}).status_code == 200


def test_a_body_larger_than_the_app_reads_is_refused_before_it_is_parsed(client):
    """A 30 MiB JSON body took 790 MB to parse before it was refused, and a form past the photo limit was spooled to
    a file on disk; bodies sent without their length are counted as they come."""
    huge = b'{"hand": "' + b"1" * (3 * 2**20) + b'"}'
    r = client.post("/api/score", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "the request is too large (over 2 MiB)"
    r = client.post("/api/score", content=(huge[i:i + 65536] for i in range(0, len(huge), 65536)),
                    headers={"content-type": "application/json"})  # chunked: no length said
    assert r.status_code == 413
    assert client.post("/api/score", json={"hand": "123m456p789s11z 555z", "win_tile": "5z"}).status_code == 200


def test_an_upload_said_too_large_is_refused_unread():
    """The length the request says is enough: not a byte of the 50 MB is read."""
    import asyncio

    from server.access import BodyLimitMiddleware

    async def app(scope, receive, send):
        raise AssertionError("the app was called")

    async def receive():
        raise AssertionError("the body was read")

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/recognize",
             "headers": [(b"content-type", b"multipart/form-data; boundary=x"), (b"content-length", b"50000000")]}
    asyncio.run(BodyLimitMiddleware(app, photo_limit=40 * 2**20, other_limit=2**20)(scope, receive, send))
    assert sent[0]["status"] == 413
    assert b"send a smaller photo, at most 40 MiB" in sent[1]["body"]


def test_every_answer_forbids_framing_and_sniffing(client):
    """Another site could frame the page and have the user click in it unseen: the same-origin check sees no click."""
    for r in (client.get("/"), client.get("/api/rulesets"), client.post("/api/score", json={"hand": "x"})):
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"


def test_photos_are_decoded_in_the_photo_slots(client, monkeypatch):
    """A photo waiting for its turn holds its file's bytes, not the image they decode to (a 240 KB PNG can decode
    to 180 MB): the decoding happens in the slot, as the reading does."""
    import threading

    import vision.image

    state = {"in_slot": 0, "decoded_outside": 0}
    real = vision.image.load_image
    slots = []
    original = threading.Semaphore

    class Watched:
        def __init__(self, n):
            self.inner = original(n)
            slots.append(self)

        def __enter__(self):
            self.inner.acquire()
            state["in_slot"] += 1

        def __exit__(self, *exc):
            state["in_slot"] -= 1
            self.inner.release()

    def load(source):
        if isinstance(source, (bytes, bytearray)) and not state["in_slot"]:
            state["decoded_outside"] += 1
        return real(source)

    monkeypatch.setattr(threading, "Semaphore", Watched)
    monkeypatch.setattr(vision.image, "load_image", load)
    watched = TestClient(create_app())
    jpeg = cv2.imencode(".jpg", np.full((100, 100, 3), 90, np.uint8))[1].tobytes()
    assert watched.post("/api/recognize", files={"photo": ("a.jpg", jpeg, "image/jpeg")}).status_code == 200
    assert watched.post("/api/calibration/grid", files={"photo": ("a.jpg", jpeg, "image/jpeg")}).status_code in (200, 422)
    assert slots and state["decoded_outside"] == 0


def test_table_under_a_three_player_ruleset_reads_the_norths_set_aside(client):
    from test_layout import lay_row

    laid = lay_row("1p 2p 3p 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z | 4z", 0, origin=(150.0, 700.0))
    tiles = [{"kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in laid]
    sanma = client.post("/api/table", json={"tiles": tiles, "ruleset": "tenhou-sanma"}).json()
    assert sanma["seats"][0]["kita"] == [13] and sanma["tiles"][13]["role"] == "kita"
    assert sanma["readout"]["tenpai"] and len(sanma["hand"]["concealed"]) == 13
    four = client.post("/api/table", json={"tiles": tiles}).json()  # four players: the tile drawn
    assert four["seats"][0]["kita"] == [] and four["hand"]["win_tile"] == "4z"

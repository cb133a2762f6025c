"""Live mode over the WebSocket: options, frames read newest-first (stale ones dropped, never queued), errors."""
import json

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from rules.context import Context
from server.app import create_app


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def _jpeg(w=320, h=240) -> bytes:
    return cv2.imencode(".jpg", np.full((h, w, 3), 90, np.uint8))[1].tobytes()


def test_frames_are_read_and_stale_ones_dropped(client):
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"context": {"seat_wind": "S"}, "seat": "self"}))
        for _ in range(5):
            ws.send_bytes(_jpeg())
        answers = [ws.receive_json()]
        while answers[-1]["frame"] < 5:
            answers.append(ws.receive_json())
    assert answers[-1]["frame"] == 5 and answers[-1]["width"] == 320
    for k, a in enumerate(answers, 1):
        assert a["dropped"] == a["frame"] - k  # every frame not answered was dropped, none queued
        assert a["tiles"] == [] and a["readout"] is None and a["ms"] >= 0


def test_what_seats_declared_at_the_draw_is_in_every_answer_after(client):
    """Live mode reads a draw as a photo does: a seat the camera does not show, declared noten, is paid so."""
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"draw_declared": {"left": False, "across": True}}))
        ws.send_bytes(_jpeg())
        seats = {row["seat"]: row for row in ws.receive_json()["draw"]["seats"]}
    assert (seats["left"]["declared"], seats["left"]["tenpai"]) == (False, False)
    assert (seats["across"]["declared"], seats["across"]["tenpai"]) == (True, True)
    assert seats["self"]["declared"] is None and seats["self"]["why"] == "no hand in view"


def test_a_bad_frame_gets_an_error_and_the_stream_goes_on(client):
    with client.websocket_connect("/api/live") as ws:
        ws.send_bytes(b"not a jpeg")
        # the formats a frame may be: a photo's five had been named, and a WebP frame then refused
        assert ws.receive_json()["error"] == "not an image: send a JPEG or PNG photo"
        ws.send_text("{bad json")
        assert "options not applied" in ws.receive_json()["error"]
        ws.send_text(json.dumps({"context": {"seat_wind": "X"}}))
        assert "options not applied" in ws.receive_json()["error"]
        ws.send_bytes(_jpeg())
        answer = ws.receive_json()
        assert answer["frame"] == 2 and answer["dropped"] == 0  # the bad frame was answered, not dropped


def test_a_frame_must_be_a_video_frames_size_and_kind(client):
    """A photo may have 60 megapixels, a frame 12: a small PNG can decode to 180 MB. A frame's format must say its
    size in its header (a WebP's is not read before decoding)."""
    from test_api import _bomb_png

    with client.websocket_connect("/api/live") as ws:
        ws.send_bytes(_bomb_png(5000, 3000))
        assert ws.receive_json()["error"] == "image is 5000x3000 pixels; the limit is 12 megapixels"
        ws.send_bytes(cv2.imencode(".webp", np.full((20, 20, 3), 90, np.uint8))[1].tobytes())
        assert ws.receive_json()["error"] == "this is a WebP image: send JPEG or PNG"
        ws.send_bytes(cv2.imencode(".png", np.full((240, 320, 3), 90, np.uint8))[1].tobytes())
        assert ws.receive_json()["width"] == 320


@pytest.mark.parametrize("message, words", [
    ("[]", "JSON object"), ('"hi"', "JSON object"), ("5", "JSON object"), ("null", "JSON object"),
    ('{"ruleset": 5}', "ruleset must be text: one of tenhou"), ('{"ruleset": null}', "ruleset must be text"),
    ('{"ruleset": "tenhou:kuitan=perhaps"}', "ruleset option kuitan='perhaps': yes or no"),
    ('{"ruleset": "nope"}', "unknown ruleset 'nope'"),
    ('{"seat": "bogus"}', "seat must be one of self, right, across, left"), ('{"seat": 3}', "seat must be one of"),
    ('{"mirrored": "false"}', "mirrored must be true or false"), ('{"profile": 5}', "profile must be"),
    ('{"context": []}', "context must be a JSON object"),
    ('{"draw_declared": {"left": "noten"}}', "declared at the draw: left must be true (tenpai) or false (noten)"),
    ('{"draw_declared": ["left"]}', "send what seats declared at the draw as an object"),
    ('{"draw_declared": false}', "send what seats declared at the draw as an object"),  # was taken for none
    ('{"ruleset": "tenhou-sanma", "seat": "left", "draw_declared": {"across": false}}',
     "declared at the draw: no seat 'across' at this table (its seats: self, right, left)"),
    ('{"context": {"seat_wind": "X"}}', "options not applied: context.seat_wind: Input should be 'E', 'S', 'W' or 'N'"),
    ("[" * 100_000 + "]" * 100_000, "the JSON is nested too deeply"),
    ('{"ruleset": "tenhou-sanma", "seat": "across"}', "seat across: in tenhou-sanma three players sit self, right"),  # the parser's RecursionError ended the stream
    ('{"sseat": "left", "mirrorred": true}', "unknown option 'mirrorred', 'sseat': the options are context, ruleset"),
    ("", "options not applied: they are not JSON (expecting value at character 1)"),  # an empty one: silence
    ("{seat: left}", "they are not JSON (expecting property name enclosed in double quotes at character 2)"),
])
def test_a_bad_option_is_refused_saying_what_is_allowed_and_the_previous_ones_stay(client, message, words):
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"seat": "across", "mirrored": True}))
        ws.send_text(message)
        ws.send_bytes(_jpeg())  # sent at once: an option taken without a word must not leave the test waiting
        error = ws.receive_json().get("error") or ""
        assert error.startswith("options not applied: ") and words in error
        answer = ws.receive_json()
    assert answer["frame"] == 1 and answer["seat"] == "across" and answer["mirrored"] is True


def test_camera_source_without_a_camera_says_how_to_start_one(client):
    with client.websocket_connect("/api/live?source=camera") as ws:
        assert "--camera" in ws.receive_json()["error"]


def test_an_unknown_source_is_said_not_refused_without_a_reason(client):
    with client.websocket_connect("/api/live?source=bogus") as ws:
        assert ws.receive_json() == {"error": "source must be browser or camera, not 'bogus'"}


def test_a_refused_profile_keeps_the_stream_answering(client):
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"profile": "no-such-set"}))
        assert "no profile named" in ws.receive_json()["error"]
        ws.send_bytes(_jpeg())
        assert ws.receive_json()["frame"] == 1


def test_the_second_look_at_small_tiles_is_taken_on_every_other_frame():
    """The detector's second look at a far hand's small tiles costs a third of a frame where it runs; live mode
    takes it on alternate frames, the tracker keeping what it found in between."""
    from server.live import LiveReader

    class Finder:
        def __init__(self):
            self.looks = []

        def find(self, image, profile=None, small_pass=True):
            self.looks.append(small_pass)
            return []

    finder = Finder()
    reader = LiveReader(finder, {}, lambda context, ruleset: Context())
    for _ in range(5):
        reader.read(np.full((240, 320, 3), 90, np.uint8))
    assert finder.looks == [True, False, True, False, True]


def test_turning_mirrored_on_starts_the_tracks_again():
    """Mirrored, every tile lies elsewhere in the frame: the old tracks showed beside the new ones (109 tiles,
    then 199) until they timed out."""
    from server.live import LiveReader
    from vision.layout import Tile

    class Finder:
        def find(self, image, profile=None, small_pass=True):
            return [Tile("1m", ((10, 10), (40, 10), (40, 50), (10, 50)), 0.9)]  # at the frame's left, as flipped

    reader = LiveReader(Finder(), {}, lambda context, ruleset: Context())
    frame = np.full((240, 320, 3), 90, np.uint8)
    for _ in range(3):
        reader.read(frame)
    assert len(reader.tracker.tracks) == 1
    reader.set_options({"mirrored": True})
    assert reader.tracker.tracks == []
    reader.set_options({"mirrored": True})  # the same again: the tracks stay
    reader.read(frame)
    assert len(reader.tracker.tracks) == 1


def test_a_frame_of_another_size_starts_the_tracks_again():
    """A phone turned from landscape to portrait: the landscape frames' tiles showed beside the portrait ones, off
    its edge too (64 tiles of a 37-tile photo), until they timed out."""
    from server.live import LiveReader
    from vision.layout import Tile

    class Finder:
        def find(self, image, profile=None, small_pass=True):
            return [Tile("1m", ((200, 10), (230, 10), (230, 50), (200, 50)), 0.9)]

    reader = LiveReader(Finder(), {}, lambda context, ruleset: Context())
    for _ in range(3):
        reader.read(np.full((240, 320, 3), 90, np.uint8))
    assert len(reader.tracker.tracks) == 1
    track = reader.tracker.tracks[0]
    reader.read(np.full((320, 240, 3), 90, np.uint8))  # turned
    assert len(reader.tracker.tracks) == 1 and reader.tracker.tracks[0] is not track
    reader.read(np.full((320, 240, 3), 90, np.uint8))
    assert len(reader.tracker.tracks) == 1


def test_a_refused_ruleset_or_context_is_named_for_the_page_to_mark_its_field(client):
    with client.websocket_connect("/api/live") as ws:
        ws.send_text(json.dumps({"ruleset": "tenhou:kuitan=maybe"}))
        assert ws.receive_json()["part"] == "ruleset"
        ws.send_text(json.dumps({"context": {"ippatsu": True}}))
        assert ws.receive_json() == {"error": "options not applied: ippatsu needs riichi", "part": "context"}
        ws.send_text(json.dumps({"seat": "bogus"}))
        assert "part" not in ws.receive_json()


@pytest.mark.parametrize("prefix", ["data:image/jpeg;base64,", ""])
def test_a_frame_sent_as_text_is_told_to_go_as_binary(client, prefix):
    """A client sending the canvas's data URL (or its base64) was told its options were not JSON."""
    import base64

    with client.websocket_connect("/api/live") as ws:
        ws.send_text(prefix + base64.b64encode(_jpeg()).decode())
        error = ws.receive_json()["error"]
        assert "binary message" in error and "options not applied" not in error
        ws.send_bytes(_jpeg())
        assert ws.receive_json()["frame"] == 1


def test_a_camera_that_stops_sending_frames_is_said_not_left_silent():
    """A camera unplugged from the server sent no answer at all: the page went on showing its last frame and table
    as if live. Each wait for a frame that does not come is answered with why."""
    import asyncio
    import time

    from fastapi import WebSocketDisconnect

    from server.live import LiveReader, serve_camera_frames

    class Unplugged:
        def next_frame(self, after, timeout=2.0):
            time.sleep(0.01)  # waited the timeout: no frame
            return after, None

    class Socket:  # the viewer closes once it has had an answer
        def __init__(self):
            self.sent, self.answered = [], asyncio.Event()

        async def send_json(self, message):
            self.sent.append(message)
            self.answered.set()

        async def receive(self):
            await self.answered.wait()
            return {"type": "websocket.disconnect", "code": 1000}

    async def watch(ws):
        await asyncio.wait_for(serve_camera_frames(ws, LiveReader(None, {}, lambda c, r: Context()), Unplugged()), 3)

    ws = Socket()
    with pytest.raises(WebSocketDisconnect):
        asyncio.run(watch(ws))
    assert ws.sent[0]["frame"] == 0 and "camera has sent no frame" in ws.sent[0]["error"]

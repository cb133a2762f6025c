"""Live mode: camera frames in, a stable table and readout out, at the rate this CPU keeps up with.

The browser sends JPEG frames over the WebSocket ``/api/live`` (binary messages) and its options as JSON text
messages (``{"context": {...}, "ruleset": "tenhou", "seat": "self", "mirrored": false, "profile": null,
"draw_declared": {}}``, any time; ``draw_declared`` as in ``/api/table``; each such message sets every option,
those it leaves out to their defaults, and an option it does not know is refused). Frames are
never queued: the socket's reader keeps only the newest one, and the worker takes the newest when it is free,
so a slow machine drops frames instead of falling behind; each answer says how many were dropped. The page
sends its next frame when an answer arrives, so little is dropped in practice.

With ``riichi-lens serve --camera 0`` a camera attached to the server (an overhead referee camera) is read by one
thread that keeps the newest frame; ``/api/live?source=camera`` then streams its tables, each with the frame as
a small JPEG so the page can draw it.

Each connection has its own ``TileTracker``: a tile must be seen in a few frames before it shows, and a hand
passing over the tiles does not make them flicker away (``vision.tracker``). So the detector's second look at a
far hand's small tiles (``vision.detector.TileDetector``, a third of a frame's time where it runs) is taken on every
``SMALL_PASS_EVERY``-th frame only: the tracker keeps what it found between those frames.
"""
from __future__ import annotations

import asyncio
import base64
import contextlib
import threading
import time

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

MAX_FRAME_BYTES = 8 * 1024 * 1024  # a 4K JPEG frame is ~2 MiB
# a frame is a video's: 4000 x 3000 at most (a 4K frame is 8.3 megapixels), where a photo may have 60; a small PNG
# can decode to that many (a 240 KB one to 180 MB)
MAX_FRAME_PIXELS = 12_000_000
SMALL_PASS_EVERY = 2
CAMERA_SILENT_S = 2.0  # the server's camera sending no frame this long is said to the viewer


LIVE_OPTIONS = ("context", "ruleset", "seat", "mirrored", "profile", "draw_declared")


class LiveReader:
    """One viewer's tracker and options; ``read`` turns a frame into the stable table and readout."""

    def __init__(self, finder, options: dict, to_context, slots: threading.Semaphore | None = None):
        """``slots``: the server's photo slots (``server.app``), one taken to decode and read each frame."""
        from vision.tracker import TileTracker

        self.finder = finder
        self.slots = slots or contextlib.nullcontext()
        self.tracker = TileTracker()
        self.frames = 0
        self.to_context = to_context
        self.mirrored = False
        self.size = None  # the frames' (width, height): another (a phone turned) starts the tracks again
        self.set_options(options)

    def set_options(self, options) -> None:
        """Every option is checked before any is changed: a refused one (a wrong type or value, a missing profile,
        a context the rules refuse) raises ValueError saying what to send and leaves the previous ones in force, so
        the next frame is still read (a seat accepted unchecked would fail every frame after)."""
        from rules.ruleset import PRESETS
        from vision.table import SEATS, check_declared, check_seat
        from vision.tracker import TileTracker

        if not isinstance(options, dict):
            raise ValueError('send the options as a JSON object: {"context": {...}, "ruleset": "tenhou", '
                             '"seat": "self", "mirrored": false, "profile": null}')
        unknown = sorted(set(options) - set(LIVE_OPTIONS))
        if unknown:  # a mistyped name would leave its option at the default without a word
            raise ValueError(f"unknown option {', '.join(map(repr, unknown))}: the options are "
                             + ", ".join(LIVE_OPTIONS) + " (each message sets them all, those left out to their "
                             "defaults)")
        context, ruleset = options.get("context"), options.get("ruleset", "tenhou")
        seat, mirrored, profile = options.get("seat", "self"), options.get("mirrored", False), options.get("profile")
        if context is not None and not isinstance(context, dict):
            raise ValueError("context must be a JSON object as in /api/score, or null")
        if not isinstance(ruleset, str):
            raise ValueError(f"ruleset must be text: one of {', '.join(PRESETS)}, with house rules after a colon "
                             "(tenhou:kuitan=no)")
        if not isinstance(seat, str) or seat not in SEATS:
            raise ValueError(f"seat must be one of {', '.join(SEATS)}, not {seat!r}")
        if not isinstance(mirrored, bool):
            raise ValueError(f"mirrored must be true or false, not {mirrored!r}")
        if profile is not None and not isinstance(profile, str):
            raise ValueError("profile must be a profile's name (GET /api/profiles), or null")
        if profile:
            self.finder.profile(profile)
        ctx = self.to_context(context or {}, ruleset)
        check_seat(seat, ctx.ruleset)
        declared = options.get("draw_declared")
        declared = {} if declared is None else declared  # 0, false or "" are refused, not taken for none
        check_declared(declared, ctx.ruleset)
        if mirrored != self.mirrored:  # every tile moves: the old tracks would show beside
            self.tracker = TileTracker()  # the new ones for a second and a half
        self.ctx, self.profile, self.seat, self.mirrored = ctx, profile or None, seat, mirrored
        self.draw_declared = declared

    def read_frame(self, data: bytes) -> dict:
        """``read`` of a frame's JPEG or PNG bytes, decoded in the same photo slot (ImageError if they are not a
        frame: another kind of file, or more than ``MAX_FRAME_PIXELS``)."""
        from vision.image import ImageError, decode_image

        if len(data) > MAX_FRAME_BYTES:
            raise ImageError(f"frame is over {MAX_FRAME_BYTES // 2**20} MiB: send smaller JPEG frames")
        with self.slots:
            return self._read(decode_image(data, max_pixels=MAX_FRAME_PIXELS, formats=("JPEG", "PNG")))

    def read(self, image) -> dict:
        """The stable table and readout of a frame (a BGR array), in a photo slot."""
        with self.slots:
            return self._read(image)

    def _read(self, image) -> dict:
        import cv2

        from vision.pipeline import table_json
        from vision.table import read_table
        from vision.tracker import TileTracker

        h, w = image.shape[:2]
        if (w, h) != self.size:  # every tile lies elsewhere in a frame turned or resized: the old tracks would
            self.tracker = TileTracker()  # show beside the new ones, off the frame too, for a second and a half
            self.size = (w, h)
        if self.mirrored:
            image = cv2.flip(image, 1)
        small_pass = self.frames % SMALL_PASS_EVERY == 0
        self.frames += 1
        tiles = self.finder.find(image, profile=self.profile, small_pass=small_pass)
        stable = self.tracker.update(tiles, time.monotonic())
        return table_json(read_table(stable, self.ctx.ruleset), self.ctx, self.seat, w, h, self.mirrored,
                          self.draw_declared)


class Camera:
    """A camera on the server, read by one thread that keeps only the newest frame."""

    def __init__(self, index: int):
        import cv2

        if index < 0:  # OpenCV's "any camera": with none there, OpenCV 5 crashed the process
            raise RuntimeError(f"camera {index} is no camera index: give 0 for the first camera, 1 for the next")
        self.capture = cv2.VideoCapture(index)
        if not self.capture.isOpened():
            raise RuntimeError(f"camera {index} could not be opened")
        self.frame = None
        self.count = 0
        self.changed = threading.Condition()
        threading.Thread(target=self._run, daemon=True, name=f"camera-{index}").start()

    def _run(self) -> None:
        while True:
            ok, frame = self.capture.read()
            if not ok:
                time.sleep(0.05)
                continue
            with self.changed:
                self.frame, self.count = frame, self.count + 1
                self.changed.notify_all()

    def next_frame(self, after: int, timeout: float = CAMERA_SILENT_S):
        """The newest frame once it is newer than frame number ``after``: (number, frame), or (after, None)."""
        with self.changed:
            self.changed.wait_for(lambda: self.count > after, timeout)
            return (self.count, self.frame) if self.count > after else (after, None)


async def serve_browser_frames(ws: WebSocket, reader: LiveReader) -> None:
    """Frames from the page: the newest one is read whenever the worker is free; the rest are dropped."""
    newest: dict = {"number": 0}
    arrived = asyncio.Event()

    def keep_newest(frame: bytes) -> None:
        newest["frame"], newest["number"] = frame, newest["number"] + 1
        arrived.set()

    receiver = asyncio.create_task(listen(ws, reader, keep_newest))
    answered = 0  # frames read, or answered with why not: the rest were dropped
    try:
        while True:
            waiter = asyncio.create_task(arrived.wait())
            await asyncio.wait({receiver, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if receiver.done():
                waiter.cancel()
                receiver.result()  # raises the disconnect
                return
            arrived.clear()
            data, number = newest.pop("frame"), newest["number"]
            t0 = time.perf_counter()
            try:
                out = await run_in_threadpool(reader.read_frame, data)
            except ValueError as e:  # not an image, or a profile that went away: say so, keep the stream open
                answered += 1
                await ws.send_json({"frame": number, "error": str(e)})
                continue
            answered += 1
            await ws.send_json({"frame": number, "dropped": number - answered,
                                "ms": round(1000 * (time.perf_counter() - t0)), **out})
    finally:
        receiver.cancel()


async def serve_camera_frames(ws: WebSocket, reader: LiveReader, camera: Camera) -> None:
    """The server's camera: each newest frame is read and sent with a small JPEG of it to draw."""
    import cv2

    listener = asyncio.create_task(listen(ws, reader))
    number = 0
    try:
        while not listener.done():
            number, frame = await run_in_threadpool(camera.next_frame, number)
            if frame is None:  # said, or the page goes on showing the last frame and its table as if live
                await ws.send_json({"frame": number, "error": f"the server's camera has sent no frame for "
                                    f"{CAMERA_SILENT_S:.0f} s: is it unplugged, or taken by another program?"})
                continue
            t0 = time.perf_counter()
            try:
                out = await run_in_threadpool(reader.read, frame)
            except ValueError as e:
                await ws.send_json({"frame": number, "error": str(e)})
                continue
            scale = min(1.0, 960 / max(frame.shape[:2]))
            small = cv2.resize(frame, None, fx=scale, fy=scale) if scale < 1 else frame
            jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()
            await ws.send_json({"frame": number, "ms": round(1000 * (time.perf_counter() - t0)),
                                "image": "data:image/jpeg;base64," + base64.b64encode(jpeg).decode(), **out})
        listener.result()
    finally:
        listener.cancel()


async def listen(ws: WebSocket, reader: LiveReader, on_frame=None) -> None:
    """The socket's messages until it closes: options (JSON text) applied as they come, binary frames handed to
    ``on_frame`` (ignored when the frames come from the server's camera)."""
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(msg.get("code", 1000))
        if msg.get("bytes") is not None and on_frame is not None:
            on_frame(msg["bytes"])
        elif msg.get("text") is not None:  # an empty one too: it is answered, not met with silence
            await apply_options(ws, reader, msg["text"])


async def apply_options(ws: WebSocket, reader: LiveReader, text: str) -> None:
    import json

    if text.startswith(("data:", "/9j/", "iVBOR")):  # a frame sent as text (a data URL, a JPEG's or PNG's base64)
        await ws.send_json({"error": "not read: send each frame as a binary message (the JPEG or PNG file's bytes), "
                                     "not as text; text messages are the options, as JSON"})
        return
    try:
        reader.set_options(json.loads(text))
    except json.JSONDecodeError as e:  # not Python's words for it: 'Expecting value: line 1 column 1 (char 0)'
        await ws.send_json({"error": f"options not applied: they are not JSON ({e.msg.lower()} at character "
                                     f"{e.pos + 1})"})
    except (ValueError, TypeError) as e:  # an option of the wrong type or value, a context the rules refuse
        part = getattr(e, "part", None)  # the ruleset or the context, as the API names it (server.app.PartRefused)
        await ws.send_json({"error": f"options not applied: {e}", **({"part": part} if part else {})})
    except RecursionError:  # JSON nested deeper than the parser goes
        await ws.send_json({"error": "options not applied: the JSON is nested too deeply"})

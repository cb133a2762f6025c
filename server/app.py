"""The FastAPI app: JSON in, rules objects, JSON out. Routes only translate; the rules live in ``rules``."""
from __future__ import annotations

import re
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Literal

from fastapi import FastAPI, File, Form, Request, UploadFile, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, WithJsonSchema,
                      field_validator, model_validator)
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException

from rules.context import Context, Discard, Missed
from rules.readout import analyse
from rules.ruleset import PRESETS, house_options, preset
from rules.tiles import Hand, HandError, Meld, parse_hand, parse_tile, plain_notation
from vision.table import MAX_TILES, check_declared, check_seat

STATIC = Path(__file__).parent / "static"
Source = Literal["left", "across", "right"]
Wind = Literal["E", "S", "W", "N"]
SeatName = Literal["self", "right", "across", "left"]


class Strict(BaseModel):
    """A request's part whose every field is known: a name mistyped ("honbaa") is refused, naming it, not dropped."""

    model_config = ConfigDict(extra="forbid")


# A count or a flag as JSON writes it: pydantic's lax mode took "2" honba as 2 and true as 1, and 1 or "yes" for
# riichi as true, scoring what a client's bug sent as if meant
Count = Annotated[int, Field(strict=True)]
Flag = Annotated[bool, Field(strict=True)]


class MeldIn(Strict):
    kind: Literal["chi", "pon", "daiminkan", "kakan", "ankan"]
    tiles: list[str]
    called: str | None = None
    source: Source | None = None
    added: str | None = None


class DiscardIn(Strict):
    tile: str
    riichi: Flag = False
    called: Flag = False


class MissedIn(Strict):
    tile: str
    after_riichi: Flag = False
    drawn_since: Flag = False
    called_since: Flag = False


class ContextIn(Strict):
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    tsumo: Flag = False
    win_from: Source | None = None
    riichi: Flag = False
    double_riichi: Flag = False
    ippatsu: Flag = False
    haitei: Flag = False
    houtei: Flag = False
    rinshan: Flag = False
    chankan: Flag = False
    tenhou: Flag = False
    chiihou: Flag = False
    renhou: Flag = False
    dora_indicators: list[str] = Field(default_factory=list)
    ura_indicators: list[str] = Field(default_factory=list)
    kita: Count = 0
    honba: Count = 0
    riichi_sticks: Count = 0
    discards: list[DiscardIn] = Field(default_factory=list)
    missed: list[MissedIn] = Field(default_factory=list)
    visible: list[str] = Field(default_factory=list)
    pao: Source | None = None
    other_winner_nearer: Flag = Field(False, description="a double ron whose other winner sits nearer the "
                                                         "discarder: that winner takes the honba and the sticks")


TILE_KIND = r"[0-9][mps]|[1-7]z|back"  # a tile in rules notation, or face down


def tile_kind(kind: str) -> str:
    """A tile kind checked by TILE_KIND, said in words when wrong (pydantic's own message quotes the regex); typed
    as hand notation may be ('５m'), it is taken as such."""
    kind = plain_notation(kind)
    if not re.fullmatch(TILE_KIND, kind):
        raise PydanticCustomError("tile_kind", "unknown tile '{kind}': expected a code like 5m, 0p or 7z, or back "
                                  "for a face-down tile", {"kind": kind})
    return kind


TileKind = Annotated[str, AfterValidator(tile_kind),
                     WithJsonSchema({"type": "string", "pattern": rf"^({TILE_KIND})$", "examples": ["5m"]})]
# a NaN corner would pass through grouping as garbage, one at 1e300 overflow its squares; no photo's tile lies a
# hundred million pixels out (a photo has at most 60 megapixels)
Pixel = Annotated[float, Field(allow_inf_nan=False, ge=-1e8, le=1e8)]
Probability = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class TileIn(Strict):
    kind: TileKind
    polygon: list[tuple[Pixel, Pixel]] = Field(min_length=4, max_length=4,
                                               description="corners TL, TR, BR, BL as the glyph reads, in pixels")
    confidence: Probability = 1.0
    fixed: Flag = Field(False, description="set by hand: its lie (the polygon's corner order) is kept as given")
    candidates: list[tuple[TileKind, Probability]] = Field(
        default_factory=list, max_length=5,
        description="the reader's likeliest kinds, its kind first, as /api/recognize gave them: where the rules rule "
                    "out a tile's kind (a meld that is no meld, a fifth copy) another of them is taken. Send none "
                    "for a kind set by hand, which then stays as set")

    @field_validator("candidates")
    @classmethod
    def first_above_zero(cls, candidates: list) -> list:
        """The rules weigh another candidate against the first (a ratio of their probabilities). The first need
        not be the likeliest: live mode keeps a tile's kind until another wins its votes by a margin."""
        if candidates and candidates[0][1] <= 0:
            raise PydanticCustomError("candidates_first", "the first candidate (the tile's kind) must be above 0 "
                                                          "likely")
        return candidates


RULESET_HELP = ("a preset (GET /api/rulesets), with house rules after a colon: tenhou:kuitan=no,atozuke=no "
                "(the options: GET /api/house-rules)")


class TableRequest(Strict):
    tiles: list[TileIn] = Field(max_length=MAX_TILES)  # a photo's reading keeps as many
    context: ContextIn = Field(default_factory=ContextIn)
    ruleset: str = Field("tenhou", description=RULESET_HELP)
    seat: SeatName = "self"
    draw_declared: dict[SeatName, Flag] = Field(
        default_factory=dict, examples=[{"left": False}],
        description="at an exhaustive draw, what a seat declared: true tenpai, false noten. It stands over the "
                    "photo: a seat out of view, a hand misread, a tenpai player who declared noten")
    won_on: Count | None = Field(
        None, ge=0, description="the index in tiles of the tile the scored hand won on, as the user says: it stands "
                                "over the tile the photo sets apart (a note says where it cannot be one)")
    dora_from_photo: Flag = Field(
        True, description="false: none of the tiles is a dora indicator (the user took away those the photo "
                          "showed): the context's are scored, or none")

    @model_validator(mode="after")
    def won_on_a_tile_sent(self):
        if self.won_on is not None and self.won_on >= len(self.tiles):
            raise PydanticCustomError("won_on_a_tile", "won_on {won_on}: there are {count} tiles, numbered from 0",
                                      {"won_on": self.won_on, "count": len(self.tiles)})
        return self


class ScoreRequest(Strict):
    """A hand in notation (``hand``) or as tiles and melds (``concealed`` + ``melds``), and its context."""

    hand: str | None = Field(None, examples=["123m456p789s11z 555z"])
    concealed: list[str] | None = None
    melds: list[MeldIn] = Field(default_factory=list)
    win_tile: str | None = None
    context: ContextIn = Field(default_factory=ContextIn)
    ruleset: str = Field("tenhou", description=RULESET_HELP)


class PartRefused(ValueError):
    """A request refused for one of its parts (``part``: its field's name), named so that a form marks that field."""

    def __init__(self, message: str, part: str):
        super().__init__(message)
        self.part = part


@contextmanager
def refused_as(part: str):
    try:
        yield
    except ValueError as e:  # HandError too
        raise PartRefused(str(e), part) from None


def to_hand(req: ScoreRequest) -> Hand:
    if req.hand is not None:
        if req.concealed is not None or req.melds:  # one would be dropped without a word
            raise HandError("send the hand as notation in 'hand', or as 'concealed' tiles and 'melds', not both")
        return parse_hand(req.hand)
    if req.concealed is None:
        raise HandError("send the hand as notation in 'hand', or as 'concealed' tiles and 'melds'")
    return Hand(tuple(req.concealed), tuple(Meld(**m.model_dump()) for m in req.melds))


def to_context(c: ContextIn, ruleset: str) -> Context:
    data = c.model_dump()
    data["discards"] = tuple(Discard(**d) for d in data["discards"])
    data["missed"] = tuple(Missed(**m) for m in data["missed"])
    for key in ("dora_indicators", "ura_indicators", "visible"):
        data[key] = tuple(data[key])
    return Context(**data, ruleset=preset(ruleset))


CONTEXT, GRID = TypeAdapter(ContextIn), TypeAdapter(list[TileIn])
DECLARED = TypeAdapter(dict)  # its seats and values checked by check_declared, which says what to send


def checked(adapter: TypeAdapter, field: str, data):
    """A field sent as JSON text (a form field) or parsed JSON (a live option), as the adapter's type; else a
    ValueError (a 422, or the live stream's error) naming the field and the problems in a line, not pydantic's
    own text with its inputs and links: 'context.seat_wind: Input should be 'E', 'S', 'W' or 'N''."""
    try:
        return adapter.validate_json(data) if isinstance(data, (str, bytes)) else adapter.validate_python(data)
    except ValidationError as e:
        errors = e.errors()
        lines = [f"{'.'.join(str(p) for p in (field, *err['loc']))}: {err['msg']}" for err in errors[:3]]
        more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
        raise ValueError("; ".join(lines) + more) from None


def checked_context(c: ContextIn | str, ruleset: str) -> Context:
    """The context of a request (parsed, or JSON text as a form sends it) under its ruleset, a refusal naming the
    part: the ruleset (a house rule mistyped) or the context."""
    with refused_as("ruleset"):
        preset(ruleset)
    with refused_as("context"):
        return to_context(c if isinstance(c, ContextIn) else checked(CONTEXT, "context", c), ruleset)


class UploadTooLarge(ValueError):
    pass


async def read_upload(photo: UploadFile) -> bytes:
    """An uploaded photo's bytes, read into memory (never to disk) up to the byte limit (too large: 413); whether
    they are an image is seen when they are decoded (``vision.image``, 422 ImageError), in a photo slot."""
    from vision.image import MAX_BYTES

    data = await photo.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise UploadTooLarge(f"the photo is over {MAX_BYTES // 2**20} MiB: send a smaller JPEG")
    return data


async def refuse_unknown_parts(request: Request) -> None:
    """A form part the endpoint does not take (its ``File`` and ``Form`` parameters), or one sent twice, is refused
    naming it, as an unknown JSON field is (``Strict``): a mistyped ``rulset`` would score the photo by the default
    rules without a word, and of two photos only the last was read."""
    known = [param.alias for param in request.scope["route"].dependant.body_params]
    names = [name for name, _ in (await request.form()).multi_items()]
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise ValueError(f"unknown form field {', '.join(map(repr, unknown))}: this endpoint takes "
                         + ", ".join(known))
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"form field {', '.join(map(repr, twice))} sent more than once: send one")


def tile_art(name: str, theme: str = "light") -> Path | None:
    from importlib.resources import files

    if not re.fullmatch(TILE_KIND, name):
        return None
    path = Path(str(files("pymdownx_mahjong") / "assets" / theme / f"{name}.svg"))
    return path if path.is_file() else None


FORM_FIELDS = 2**20  # bytes of a photo form's other fields (a calibration grid of 37 tiles is about 4 KB)
JSON_LIMIT = 2 * 2**20  # bytes of a JSON body (a whole table's tiles with their candidates are about 60 KB)


def keep_uploads_in_memory() -> None:
    """Starlette spools an uploaded file of over 1 MiB to a temporary file on disk; photos must never touch the
    disk, so the spool holds a whole form as ``server.access.BodyLimitMiddleware`` lets it in."""
    from starlette.formparsers import MultiPartParser

    from vision.image import MAX_BYTES

    MultiPartParser.spool_max_size = MAX_BYTES + FORM_FIELDS + 1


def create_app(access_code: str | None = None, camera: int | None = None, names_refused: bool = False) -> FastAPI:
    """The app; with ``access_code`` every request (page, static files, API, docs, websockets) must carry it,
    see ``server.access``; with ``camera`` (an OpenCV camera index) /api/live?source=camera streams its tables;
    with ``names_refused`` it answers only requests addressed to an IP address or localhost
    (``server.access.SameOriginMiddleware``, which also refuses, always, what another site's page sends)."""
    # docs=None: FastAPI's Swagger UI and ReDoc load their scripts from a CDN, blank offline; /docs is the page's own
    app = FastAPI(title="riichi-lens", description="Read a riichi mahjong table and score it.", version="0.1.0",
                  docs_url=None, redoc_url=None)
    keep_uploads_in_memory()

    @app.exception_handler(HandError)
    async def hand_error(_: Request, exc: HandError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": str(exc)})

    @app.exception_handler(ValueError)
    async def value_error(_: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": str(exc)})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer less each error's input, which cannot always be written back (a NaN sent as a corner)
        errors = [{k: v for k, v in e.items() if k != "input"} for e in exc.errors()]
        for e in errors:  # a photo sent as a text field, or as a file part with no file name: not pydantic's words
            if "Expected UploadFile" in str(e.get("msg")):
                e["msg"] = "send the photo as a file part of a multipart form, with a file name (not as text)"
                e.pop("ctx", None)
        return JSONResponse(status_code=422, content={"detail": jsonable_encoder(errors)})

    @app.exception_handler(HTTPException)
    async def unreadable_body(request: Request, exc: HTTPException) -> JSONResponse:
        # FastAPI answers a body json.loads raised on with a bare "error parsing the body": said here in words.
        # What it raises on in valid JSON is a number past Python's 4,300 digits (its message speaks to the server).
        cause = exc.__cause__
        if exc.status_code == 400 and isinstance(cause, ValueError) and "integer string conversion" in str(cause):
            digits = re.search(r"value has (\d+) digits", str(cause))
            return JSONResponse(status_code=422, content={"error": f"a number in the request has "
                                f"{digits[1] if digits else 'too many'} digits, more than are read (4,300)"})
        return await http_exception_handler(request, exc)

    @app.exception_handler(PartRefused)
    async def part_refused(_: Request, exc: PartRefused) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": str(exc), "part": exc.part})

    @app.post("/api/score")
    def score(req: ScoreRequest) -> dict:
        """Hand + context -> readout: shanten, waits with unseen counts, furiten, and the score when complete. A
        refusal names the part refused (``part``: hand, ruleset, context or win_tile) where it is that part alone;
        one that takes them together (a winning tile the hand does not hold) names none."""
        with refused_as("hand"):
            hand = to_hand(req)
        ctx = checked_context(req.context, req.ruleset)
        with refused_as("win_tile"):
            win_tile = parse_tile(req.win_tile) if req.win_tile and req.win_tile.strip() else None  # blank: none
        return analyse(hand, ctx, win_tile).to_dict()

    @app.exception_handler(UploadTooLarge)
    async def too_large(_: Request, exc: UploadTooLarge) -> JSONResponse:
        return JSONResponse(status_code=413, content={"error": str(exc)})

    finder = {}  # the vision models, loaded on the first photo (the rules endpoints never need them)
    loading = threading.Lock()
    # Photos are decoded and read two at a time (this is a 2-core laptop's app): more at once only queue inside
    # onnxruntime and each holds its own buffers. The slot is taken before the photo is decoded, so a photo waiting
    # holds only its file's bytes: a 240 KB PNG decodes to 60 megapixels (180 MB, more with its transparency), and
    # four such decoded at once, then waiting, had taken the server from 0.2 to 2.5 GB. Live frames take the same
    # slots (``server.live.LiveReader``).
    photo_slots = threading.Semaphore(2)

    def in_a_photo_slot(work, data: bytes):
        """``work(image)`` on the photo ``data`` decodes to, both in one of the photo slots."""
        from vision.image import load_image

        with photo_slots:
            return work(load_image(data))


    def tile_finder():
        with loading:
            if "tiles" not in finder:
                from vision.tiles import TileFinder

                finder["tiles"] = TileFinder()
        return finder["tiles"]

    @app.post("/api/recognize")
    async def recognize(
        request: Request,
        photo: UploadFile = File(..., description="a JPEG, PNG, WebP, BMP or TIFF photo"),
        context: str = Form("{}", description="the context as JSON, as in /api/score (seat wind, tsumo, ...)"),
        ruleset: str = Form("tenhou", description=RULESET_HELP),
        seat: SeatName = Form("self", description="whose hand to score, from the hand nearest the camera"),
        mirrored: bool = Form(False, description="the photo is mirrored (a selfie camera)"),
        profile: str | None = Form(None, description="a calibration profile of the user's set (GET /api/profiles)"),
        draw_declared: str = Form("{}", description='what seats declared at an exhaustive draw, as JSON: '
                                  '{"left": false} (true tenpai, false noten), as in /api/table'),
    ) -> dict:
        """Photo (multipart) -> the table: every tile (kind, confidence, polygon as the glyph reads, lie, seat,
        role), each seat's hand, melds with their source, pond, the dora indicators, problems found (each with
        its tiles and, where they are one seat's, that seat), the rules readout of the chosen seat's hand, and
        each seat as an exhaustive draw would leave it (tenpai or noten, the noten payments). The upload is read
        into memory (never written to disk) up to the byte limit, then checked to be an image; the work runs off
        the event loop."""
        await refuse_unknown_parts(request)
        ctx = checked_context(context, ruleset)
        check_seat(seat, ctx.ruleset)
        declared = check_declared(checked(DECLARED, "draw_declared", draw_declared), ctx.ruleset)
        from vision.pipeline import read_photo

        data = await read_upload(photo)
        return await run_in_threadpool(in_a_photo_slot, lambda image: read_photo(
            tile_finder(), image, ctx, seat, mirrored, 0.35, profile or None, declared), data)

    @app.post("/api/table")
    def table(req: TableRequest) -> dict:
        """Tiles (as /api/recognize gave them, corrected by hand: a kind changed, a tile added, deleted or turned)
        -> the table and readout again, rebuilt from the tiles' polygons. Of a mirrored photo, send the polygons
        flipped back (x -> width - x), as the page does: the table is read as the tiles lie, not as shown. A refusal
        of the ruleset or the context names it (``part``), as /api/score's does."""
        from vision.layout import Tile
        from vision.table import read_table, score_table, without_dora

        tiles = [Tile(t.kind, tuple((x, y) for x, y in t.polygon), t.confidence, t.fixed, tuple(t.candidates))
                 for t in req.tiles]
        ctx = checked_context(req.context, req.ruleset)
        table = read_table(tiles, ctx.ruleset)
        table = table if req.dora_from_photo else without_dora(table)
        return score_table(table, ctx, check_seat(req.seat, ctx.ruleset), req.draw_declared, req.won_on)

    feed = None
    if camera is not None:
        from server.live import Camera

        feed = Camera(camera)

    @app.websocket("/api/live")
    async def live(ws: WebSocket, source: str = "browser") -> None:
        """Live mode (see ``server.live``): JPEG frames in as binary messages and options as JSON text, or with
        ``?source=camera`` the server's camera; each answer is the stable table and readout of the newest frame."""
        from server.live import LiveReader, serve_browser_frames, serve_camera_frames

        await ws.accept()
        if source not in ("browser", "camera"):  # said, where a refused handshake gives no reason
            await ws.send_json({"error": f"source must be browser or camera, not {source!r}"})
            await ws.close()
            return
        reader = LiveReader(await run_in_threadpool(tile_finder), {}, checked_context, photo_slots)
        try:
            if source == "camera":
                if feed is None:
                    await ws.send_json({"error": "this server has no camera: start it with riichi-lens serve --camera 0"})
                    await ws.close()
                    return
                await serve_camera_frames(ws, reader, feed)
            else:
                await serve_browser_frames(ws, reader)
        except WebSocketDisconnect:
            pass

    @app.get("/api/profiles")
    def profiles() -> dict:
        """The calibration profiles saved on this machine (``riichi-lens calibrate`` or the page's calibration)."""
        from vision.calibrate import list_profiles

        return {"profiles": list_profiles()}

    @app.delete("/api/profiles/{name}")
    def delete_profile(name: str) -> dict:
        """Forget a calibration profile: photos are read with the shipped reader again (or another profile).
        Answers the profiles left."""
        from vision.calibrate import delete_profile, list_profiles

        delete_profile(name)
        return {"profiles": list_profiles()}

    @app.post("/api/calibration/grid")
    async def calibration_grid(request: Request,
                               photo: UploadFile = File(..., description="one of each tile laid out in the grid")) -> dict:
        """The grid found in a calibration photo: each tile's polygon and the kind its place in the grid gives,
        for the user to confirm or fix before POST /api/calibration."""
        from vision.calibrate import grid_tiles

        await refuse_unknown_parts(request)
        data = await read_upload(photo)
        models = await run_in_threadpool(tile_finder)
        (h, w), grid = await run_in_threadpool(
            in_a_photo_slot, lambda image: (image.shape[:2], grid_tiles(image, models.detector, models.reader)), data)
        return {"width": w, "height": h,
                "tiles": [{"kind": k, "polygon": [[round(float(x), 1), round(float(y), 1)] for x, y in c]}
                          for k, c in grid]}

    @app.post("/api/calibration")
    async def calibration(
        request: Request,
        photo: UploadFile = File(...),
        name: str = Form(..., description="the profile's name: letters, digits, '_' or '-'"),
        grid: str = Form(..., description='the confirmed grid as JSON: [{"kind": "1z", "polygon": [[x, y] x 4]}, ...]'),
    ) -> dict:
        """Learn the user's set from the grid photo and its confirmed tiles; the profile is saved and can be
        used at once (``profile`` on /api/recognize), no restart."""
        import time

        import numpy as np

        from vision.calibrate import calibrate, writable_profile_path

        await refuse_unknown_parts(request)
        writable_profile_path(name)  # a bad name or a data folder that cannot be written, said before the work
        data = await read_upload(photo)
        confirmed = checked(GRID, "grid", grid)  # as /api/table checks tiles: kind, 4 corners
        tiles = [(t.kind, np.array(t.polygon, dtype=np.float64)) for t in confirmed]
        t0 = time.perf_counter()
        profile = await run_in_threadpool(in_a_photo_slot, lambda image: calibrate([(image, tiles)], name,
                                                                                  tile_finder().reader), data)
        profile.save()
        return {"name": profile.name, "faces": list(profile.kinds), "seconds": round(time.perf_counter() - t0, 1),
                "face_down_unsure": profile.advice is not None}

    @app.get("/api/rulesets")
    def rulesets() -> dict:
        return {name: r.to_dict() for name, r in PRESETS.items()}

    @app.get("/api/house-rules")
    def house_rules() -> dict:
        """The options a ruleset's house rules may change, each with the values it takes."""
        return house_options()

    @app.get("/tiles/{name}.svg", include_in_schema=False)
    def tile_face(name: str, theme: Literal["light", "dark"] = "light") -> FileResponse:
        """A tile face (``5m``, ``0p`` a red five, ``7z``...), the CC0 FluffyStuff art that the package
        pymdownx-mahjong ships (no back: the page draws face-down tiles itself); a week in the browser's cache."""
        path = tile_art(name, theme)
        if path is None:
            return JSONResponse(status_code=404, content={"error": f"no tile named {name!r}: use 1m..9s, 0m/0p/0s, 1z..7z"})
        return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "max-age=604800"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        """Every endpoint, drawn from /openapi.json by a page that fetches nothing from outside."""
        return FileResponse(STATIC / "docs.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    from server.access import (AccessCodeMiddleware, BodyLimitMiddleware, SameOriginMiddleware,
                               SecurityHeadersMiddleware, check_code)
    from vision.image import MAX_BYTES

    # the last added runs first: the headers on every answer, then the code, the origin, the body's size
    app.add_middleware(BodyLimitMiddleware, photo_limit=MAX_BYTES, other_limit=JSON_LIMIT, form_fields=FORM_FIELDS)
    app.add_middleware(SameOriginMiddleware, names_refused=names_refused)
    if access_code is not None:
        app.add_middleware(AccessCodeMiddleware, code=check_code(access_code))
    app.add_middleware(SecurityHeadersMiddleware)
    return app

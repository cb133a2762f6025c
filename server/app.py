"""The FastAPI app: JSON in, rules objects, JSON out. Routes only translate; the rules live in ``rules``."""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from fastapi import FastAPI, File, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from rules.context import Context, Discard, Missed
from rules.readout import analyse
from rules.ruleset import PRESETS, preset
from rules.tiles import Hand, HandError, Meld, parse_hand, parse_tiles

STATIC = Path(__file__).parent / "static"
Source = Literal["left", "across", "right"]
Wind = Literal["E", "S", "W", "N"]


class MeldIn(BaseModel):
    kind: Literal["chi", "pon", "daiminkan", "kakan", "ankan"]
    tiles: list[str]
    called: str | None = None
    source: Source | None = None
    added: str | None = None


class DiscardIn(BaseModel):
    tile: str
    riichi: bool = False
    called: bool = False


class MissedIn(BaseModel):
    tile: str
    after_riichi: bool = False
    drawn_since: bool = False
    called_since: bool = False


class ContextIn(BaseModel):
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    tsumo: bool = False
    win_from: Source | None = None
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: list[str] = Field(default_factory=list)
    ura_indicators: list[str] = Field(default_factory=list)
    kita: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    discards: list[DiscardIn] = Field(default_factory=list)
    missed: list[MissedIn] = Field(default_factory=list)
    visible: list[str] = Field(default_factory=list)
    pao: Source | None = None


class ScoreRequest(BaseModel):
    """A hand in notation (``hand``) or as tiles and melds (``concealed`` + ``melds``), and its context."""

    hand: str | None = Field(None, examples=["123m456p789s11z 555z"])
    concealed: list[str] | None = None
    melds: list[MeldIn] = Field(default_factory=list)
    win_tile: str | None = None
    context: ContextIn = Field(default_factory=ContextIn)
    ruleset: str = "tenhou"


def to_hand(req: ScoreRequest) -> Hand:
    if req.hand is not None:
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


def create_app(access_code: str | None = None) -> FastAPI:
    """The app; with ``access_code`` every request (page, static files, API, docs, websockets) must carry it,
    see ``server.access``."""
    app = FastAPI(title="riichi-lens", description="Read a riichi mahjong table and score it.", version="0.1.0")

    @app.exception_handler(HandError)
    async def hand_error(_: Request, exc: HandError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": str(exc)})

    @app.exception_handler(ValueError)
    async def value_error(_: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": str(exc)})

    @app.post("/api/score")
    def score(req: ScoreRequest) -> dict:
        """Hand + context -> readout: shanten, waits with unseen counts, furiten, and the score when complete."""
        hand = to_hand(req)
        ctx = to_context(req.context, req.ruleset)
        win_tile = parse_tiles(req.win_tile)[0] if req.win_tile else None
        return analyse(hand, ctx, win_tile).to_dict()

    finder = {}  # the vision models, loaded on the first photo (the rules endpoints never need them)

    @app.post("/api/recognize")
    async def recognize(photo: UploadFile = File(..., description="a JPEG, PNG, WebP, BMP or TIFF photo")) -> dict:
        """Photo (multipart) -> the tiles found: kind, confidence, polygon (as the glyph reads), lie.
        The upload is read into memory (never written to disk) up to the byte limit, then checked to be an image."""
        from vision.image import MAX_BYTES, ImageError, load_image
        from vision.tiles import TileFinder, tiles_json

        data = await photo.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return JSONResponse(status_code=413, content={
                "error": f"the photo is over {MAX_BYTES // 2**20} MiB: send a smaller JPEG"})
        try:
            image = load_image(data)
        except ImageError as e:
            return JSONResponse(status_code=422, content={"error": str(e)})
        if "tiles" not in finder:
            finder["tiles"] = TileFinder()
        h, w = image.shape[:2]
        return {"width": w, "height": h, **tiles_json(finder["tiles"].find(image))}

    @app.get("/api/rulesets")
    def rulesets() -> dict:
        return {name: r.to_dict() for name, r in PRESETS.items()}

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if access_code is not None:
        from server.access import AccessCodeMiddleware, check_code

        app.add_middleware(AccessCodeMiddleware, code=check_code(access_code))
    return app

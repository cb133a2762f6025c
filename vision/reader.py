"""The tile reader at run time: a small ONNX CNN that reads tile crops (onnxruntime only).

A crop is the tile turned so that its long side is vertical; the reader says which tile it is and how many
quarter turns clockwise its glyph is from the crop's up (a tile lying upright seen at a low angle has a box wider
than tall, so its crop comes a quarter turned). Kinds in ``SYMMETRIC`` look alike both ways up and those in
``QUARTER_SYMMETRIC`` a quarter turned, so for them the reading gives every turn that fits.

The reader's face-down class means a *coloured* back: a set with white backs shows its face-down tiles as blank
faces, which no crop can tell from a blank haku, so training reads them as haku (``datasets.crops``) and the table
decides by count (``vision.table``). A colourless crop (``colourless``) therefore cannot be face down, and what
the reader saw as face down in it, a face without a glyph, is counted as haku: the set of real photos' blank haku,
four of its twelve crops read face down by reader v6, read as haku.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from .classes import BLANK_FACES, CLASSES, QUARTER_SYMMETRIC, SYMMETRIC
from .models import cpu_session

INPUT_H, INPUT_W = 64, 48  # the first reader's input; a model file states its own (``TileReader.size``)
REREAD_BELOW = 0.8  # a reading less sure than this of the kind is read again, the crop turned a half turn
BACK, HAKU = CLASSES.index("back"), CLASSES.index("5z")
# a reading keeps its likeliest kinds, at least CANDIDATE_FLOOR likely, for the table to choose from: five from 1 %
# (three from 2 % before session 29: generated scenes end to end, dev 612 -> 613 of 763 hands, held-out 446 -> 449
# of 531, the table's retakes of a sorted hand's or a meld's tile finding the truth further down; ``python
# bench/bench_tables.py ... --pixels``, HISTORY.md session 29)
CANDIDATES = 5
CANDIDATE_FLOOR = 0.01
# a crop whose middle is less saturated than this (OpenCV's 0-255 HSV scale, the median pixel) shows no coloured
# back; on tiles of dev seeds 9 and 10 cut from their true polygons, coloured backs were all at least 118 (1st
# percentile 125) and blank haku at most 74 (99th percentile 59)
COLOURLESS_BELOW = 90
# ...and whose middle is not tinted toward magenta (Lab a*): a pale pink back's saturation falls under
# COLOURLESS_BELOW. On dev seeds 95 and 96 (tiles from 20 px wide cut from their true polygons), blank haku and white
# backs were at most +6 over their photo's faces (99th percentile +4), the pink backs under 90 saturation +23 or
# more: 77 of those had read as haku, the commonest misreading there (session 36).
MAGENTA_FROM = 15
# Both are measured in the photo's own white (``face_white``): the light can tint a white face pink, and a bulb's
# warm light saturates it as much as a yellow back (the real set's haku under a tungsten cast read face down in
# every photo: ``bench/bench_real_conditions.py``, 324 -> 333 of 333, session 65), so a crop is first balanced so that the photo's faces are grey.
# the faces that show the photo's light (``sure_faces``): read at least this surely as a kind neither face down
# nor blank, and at least LIGHT_FACES of them (else the light is taken as neutral)
LIGHT_FACE_SURE = 0.9
LIGHT_FACES = 3
LIGHT_FACES_MOST = 12  # ...of which the first this many are enough (each costs 0.03 ms)
# the faces that show how bright the photo's faces are (``face_brightness``): read at least this surely, however
# few; a photo of one tile reads it 0.8-0.86 sure (the real single-tile photos), and a scrap read as a face only
# lowers the bar that a blank must pass (``vision.tiles.DARK_BLANK_BELOW``)
BRIGHT_FACE_SURE = 0.5
FACE_DOWN_CHECK = 0.01  # a crop's colour is looked at only where its first reading gives face down this likely
# an unsure reading of a colourless crop whose middle shows no ink at all (``inkless``: its grey 98th percentile
# less than this fraction above its 2nd) reads haku first, whatever kind the network put first. The real set's
# haku, a plain white face brightly lit, is flatter than any blank the generator draws (its crops 0.8-2.7 %, the
# generator's blank haku 10th percentile 3.1 %) and read as a bamboo (6s / 9s). On dev seeds 18, 20, 95, 96
# (77,649 tiles cut from their true polygons) 224 colourless crops are under 3 %: 221 blank haku or white backs,
# 3 faces hidden but for a sliver, all read as haku already (session 61; the model card has the figures)
NO_INK_BELOW = 0.03
# ...and at least this sure: a face without ink can be no glyph's, yet the network, which had never seen so flat a
# face, spreads itself over the bamboos (the real haku far from sure), so it fell under ``vision.tiles``'
# LEAST_SURE_BLANK first whenever the photo was compressed, small or turned (``bench/bench_real_conditions.py``:
# JPEG 20, 480 px wide, turned 135 degrees, 330 / 331 / 332 -> 333 of 333 tiles; session 65). Not surer: a box on a
# blank scrap stays as unsure as its detector box (kept only from 0.4 sure; the single-tile photos' 51 false tiles
# and the dev hands end to end unchanged; at 0.99, three more extra boxes on the real photos)
INKLESS_SURE = 0.5


def preprocess(crop: np.ndarray, size: tuple[int, int] = (INPUT_H, INPUT_W)) -> np.ndarray:
    """BGR crop of any size -> float32 (3, H, W) in [0, 1]; the network standardises contrast itself."""
    return preprocess_batch([crop], size)[0]


def resize_crop(crop: np.ndarray, size: tuple[int, int] = (INPUT_H, INPUT_W),
                dst: np.ndarray | None = None) -> np.ndarray:
    """A crop resized to (H, W) = size, its type kept: the one resize the reader's input gets, at run time and in
    training (``vision.training.classifier.load_split`` keeps its crops so, as bytes)."""
    return cv2.resize(crop, (size[1], size[0]), dst=dst, interpolation=cv2.INTER_AREA)


def preprocess_batch(crops: Sequence[np.ndarray], size: tuple[int, int] = (INPUT_H, INPUT_W)) -> np.ndarray:
    """BGR crops of any size -> float32 (n, 3, H, W) in [0, 1], as ``preprocess`` each: resized into one array and
    turned to float a colour plane at a time (a photo's 40-50 crops: about a third of a millisecond less than one
    by one)."""
    resized = np.empty((len(crops), size[0], size[1], 3), np.result_type(*crops))  # uint8 from the photo
    for k, crop in enumerate(crops):
        resize_crop(crop.astype(resized.dtype, copy=False), size, dst=resized[k])
    batch = np.empty((len(crops), 3, size[0], size[1]), np.float32)
    for k in range(3):
        np.divide(resized[..., k], np.float32(255), out=batch[:, k], casting="unsafe")
    return batch


def colourless(crop: np.ndarray, white: np.ndarray | None = None) -> bool:
    """Whether a BGR tile crop's middle is white or grey rather than a back's colour (yellow, blue, green, orange,
    pink...) in the photo's light (``white``: ``face_white``; None, neutral): little saturated and not magenta once
    balanced so that the photo's faces are grey."""
    middle = _middle(crop)
    if middle.size == 0:
        return False
    if white is not None:
        middle = balanced(middle, white)
    if float(np.median(cv2.cvtColor(middle, cv2.COLOR_BGR2HSV)[..., 1])) >= COLOURLESS_BELOW:
        return False
    return _magenta(middle) < MAGENTA_FROM


def balanced(pixels: np.ndarray, white: np.ndarray) -> np.ndarray:
    """BGR pixels as they would look if the light made ``white`` grey (a von Kries gain per channel, at most 3x
    either way, the mean brightness kept)."""
    gains = np.clip(float(np.mean(white)) / np.maximum(white, 1.0), 1 / 3, 3)
    return np.clip(pixels * gains.astype(np.float32), 0, 255).astype(np.uint8)


def inkless(crop: np.ndarray) -> bool:
    """Whether a BGR crop's middle shows no ink: its grey 98th percentile is less than ``NO_INK_BELOW`` above its
    2nd (a glyph, a frame or a back's edge shows more, JPEG noise less)."""
    middle = _middle(crop)
    if middle.size == 0:
        return False
    low, high = np.percentile(cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY), (2, 98))
    return high - low < NO_INK_BELOW * high


def face_white(crops: list[np.ndarray], kinds: Sequence[str], confidences: Sequence[float]) -> np.ndarray | None:
    """The colour the photo's light gives its faces: the median BGR of the brighter half of the middle of each face
    read surely (``sure_faces``; the face, not the glyph's ink); None, neutral, where fewer than ``LIGHT_FACES``
    are."""
    faces = sure_faces(crops, kinds, confidences)
    if len(faces) < LIGHT_FACES:
        return None
    return np.median([np.median(_brighter_half(_middle(c)), axis=0) for c in faces], axis=0)


def face_brightness(crops: list[np.ndarray], kinds: Sequence[str], confidences: Sequence[float]) -> float | None:
    """How bright the photo's faces are: the median HSV value (0-255) of the brighter half of the middle of each
    face read at least ``BRIGHT_FACE_SURE`` surely (``sure_faces``); None where none is."""
    values = [_value(_middle(c), brighter=True) for c in sure_faces(crops, kinds, confidences, BRIGHT_FACE_SURE)]
    return float(np.median(values)) if values else None


def sure_faces(crops: list[np.ndarray], kinds: Sequence[str], confidences: Sequence[float],
               sure: float = LIGHT_FACE_SURE) -> list[np.ndarray]:
    """The crops that show the photo's light: read at least ``sure`` surely as a kind neither face down nor blank,
    the first ``LIGHT_FACES_MOST`` of them."""
    faces = [c for c, k, p in zip(crops, kinds, confidences) if p >= sure and k not in BLANK_FACES and c.size]
    return faces[:LIGHT_FACES_MOST]


class Light:
    """A photo's light (``face_white``, ``face_brightness``): its crops and their first readings (kinds and
    confidences; a reader given a Light without them takes its batch's), each worked out only when needed."""

    def __init__(self, crops: list[np.ndarray], kinds: Sequence[str] | None = None,
                 confidences: Sequence[float] | None = None):
        self.crops, self.kinds, self.confidences = crops, kinds, confidences

    @cached_property
    def white(self) -> np.ndarray | None:
        return face_white(self.crops, self.kinds, self.confidences)

    @cached_property
    def brightness(self) -> float | None:
        """None where the crops have no readings yet (no reader was given this Light)."""
        return None if self.kinds is None else face_brightness(self.crops, self.kinds, self.confidences)


def middle_value(crop: np.ndarray) -> float:
    """How bright a crop's middle is: its median HSV value (0-255)."""
    return _value(_middle(crop))


def _middle(crop: np.ndarray) -> np.ndarray:
    """A crop's inner 60 %, inside the face, every other pixel (as good, four times cheaper)."""
    h, w = crop.shape[:2]
    return crop[h // 5:h - h // 5:2, w // 5:w - w // 5:2]


def _value(pixels: np.ndarray, brighter: bool = False) -> float:
    """The median HSV value (brightness, 0-255) of BGR pixels, of the brighter half only if asked."""
    value = cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV)[..., 2].ravel()
    if brighter:
        value = value[value >= np.median(value)]
    return float(np.median(value))


def _magenta(pixels: np.ndarray) -> float:
    """The median Lab a* of BGR pixels (0 neutral, on OpenCV's 8-bit scale)."""
    return float(np.median(cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB)[..., 1])) - 128


def _brighter_half(pixels: np.ndarray) -> np.ndarray:
    """(n, 3): the BGR pixels at least as light (Lab L) as their median."""
    flat = pixels.reshape(-1, 3)
    lightness = cv2.cvtColor(flat[None], cv2.COLOR_BGR2LAB)[0, :, 0]
    return flat[lightness >= np.median(lightness)]


def quarter_turned(image: np.ndarray, turns: int) -> np.ndarray:
    """An (H, W, C) crop turned ``turns`` quarter turns clockwise and squeezed back to (H, W): what the run time
    cuts from a tile whose box is wider than tall. Training and calibration show the reader such crops."""
    if turns % 4 == 0:
        return image
    h, w = image.shape[:2]
    return cv2.resize(np.ascontiguousarray(np.rot90(image, -turns)), (w, h), interpolation=cv2.INTER_AREA)


@dataclass(frozen=True)
class Reading:
    kind: str  # rules notation: 1m..7z, 0m/0p/0s red fives, back
    confidence: float
    turns: tuple[int, ...]  # the quarter turns clockwise from the crop's up to the glyph's up that fit, best first
    candidates: tuple[tuple[str, float], ...] = ()  # the likeliest kinds and their probability, best (kind) first


class TileReader:
    """The reader on onnxruntime. ``read`` with a calibration ``profile`` (``vision.calibrate``): the set's own
    face classifier says which face a tile is; the shipped heads still say face down or not, and the turn."""

    def __init__(self, model_path: str | Path, second: str | Path | None = None):
        self.path = Path(model_path)
        self.session = cpu_session(model_path)
        h, w = self.session.get_inputs()[0].shape[2:]
        self.size = (int(h), int(w))
        self.outputs = [o.name for o in self.session.get_outputs()]
        # a second reader, trained apart, that looks again at unsure readings (``read``)
        self.second = TileReader(second) if second is not None else None

    @cached_property
    def sha256(self) -> str:
        """The model file's hash: a calibration profile is valid for this reader only."""
        import hashlib

        return hashlib.sha256(self.path.read_bytes()).hexdigest()

    def _run(self, crops: list[np.ndarray]) -> dict[str, np.ndarray]:
        return dict(zip(self.outputs, self.session.run(None, {"crops": preprocess_batch(crops, self.size)})))

    def features_and_face_down(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The pooled features the heads read, (n, d), and the probability that each crop is face down, (n,):
        a calibration profile is fitted on the first and learns from the second how face down the set's own
        faces can look."""
        if "features" not in self.outputs:
            raise ValueError(f"{self.path.name} has no features output: add it with python -m "
                             "vision.training.classifier --add-features " + str(self.path))
        out = self._run(crops)
        return out["features"], _softmax(out["kind_logits"])[:, BACK]

    def read(self, crops: list[np.ndarray], profile=None, light: Light | None = None) -> list[Reading]:
        """``light``: the photo's (``Light``), for crops that are not all of its tiles; one without first readings
        is given this batch's (the photo's first look at every tile). None: the light of these crops alone."""
        if not crops:
            return []
        out = self._run(crops)
        probs, turn_probs = _kind_probabilities(out, profile), _turn_probabilities(out)
        blank = np.zeros(len(crops), dtype=bool)
        maybe_down = np.flatnonzero(probs[:, BACK] >= FACE_DOWN_CHECK)
        light = light or Light(crops)
        if light.kinds is None:
            light.kinds, light.confidences = [CLASSES[k] for k in probs.argmax(axis=1)], probs.max(axis=1)
        if len(maybe_down):
            blank[maybe_down] = [colourless(crops[k], light.white) for k in maybe_down]
        _face_down_as_haku(probs, blank)
        # an unsure reading is averaged, kind and turn, with the reading of the crop turned a half turn: a second
        # look that sees the glyph's pixels fall differently on the small input (dev scenes of seeds 9 / 10 cut
        # from their true polygons: kinds 93.7 -> 94.2 % / 94.5 -> 94.8 %, the same as turning every crop; turns
        # of seed 9 at 1024 / 2048 px 96.3 -> 97.1 % / 97.9 -> 98.1 %). Reading again the tiles whose turn alone
        # is unsure gained 0.1-0.2 points more but read a quarter of the real photos' tiles twice, not an eighth
        unsure = np.flatnonzero(probs.max(1) < REREAD_BELOW)
        if len(unsure):
            if self.second is not None and profile is None:
                # the second look by a reader trained apart (its own seed and data), which errs elsewhere: dev
                # tiles of seeds 18-20 cut from their true polygons 60,623 -> 60,842 of 62,719 for the same one
                # more run (models/README.md, session 27). A profile fits this reader's features only: it keeps
                # the turned look
                other = self.second._run([crops[k] for k in unsure])
                again, turns_again = _kind_probabilities(other, None), _turn_probabilities(other)
            else:
                turned = self._run([np.ascontiguousarray(crops[k][::-1, ::-1]) for k in unsure])
                # the turned crop's glyph is a half turn further round from its up
                again = _kind_probabilities(turned, profile)
                turns_again = np.roll(_turn_probabilities(turned), 2, axis=1)
            probs[unsure] = (probs[unsure] + _face_down_as_haku(again, blank[unsure])) / 2
            turn_probs[unsure] = (turn_probs[unsure] + turns_again) / 2
        _blank_where_inkless(probs, crops, light)
        readings = []
        for p, t in zip(probs, turn_probs):
            likeliest = np.argsort(-p)[:CANDIDATES]
            kind = CLASSES[int(likeliest[0])]
            candidates = tuple((CLASSES[int(c)], round(float(p[c]), 4)) for c in likeliest
                               if c == likeliest[0] or p[c] >= CANDIDATE_FLOOR)
            readings.append(Reading(kind, float(p[likeliest[0]]), fitting_turns(kind, int(t.argmax())), candidates))
        return readings


def fitting_turns(kind: str, best: int) -> tuple[int, ...]:
    """The quarter turns that fit a kind whose likeliest turn is ``best``: every turn for a kind alike a quarter
    turned, ``best`` and its half turn for one alike both ways up, else ``best`` alone."""
    if kind in QUARTER_SYMMETRIC:
        return (0, 1, 2, 3)
    if kind in SYMMETRIC:
        return (best % 2, best % 2 + 2)
    return (best,)


def averaged(a: Reading, b: Reading, weight: float = 0.5) -> Reading:
    """Two readings of one tile by two readers, their kinds' probabilities averaged, ``b``'s by ``weight`` (a kind
    under ``CANDIDATE_FLOOR`` for one reader counts as 0 there); the turn is that of the surer of the two readings
    that read the kind first (else give it at all: a reading's turns fit its own first kind)."""
    given = [dict(r.candidates or ((r.kind, r.confidence),)) for r in (a, b)]
    p: dict[str, float] = {}
    for probs, share in zip(given, (1 - weight, weight)):
        for kind, q in probs.items():
            p[kind] = p.get(kind, 0.0) + share * q
    order = sorted(p, key=lambda k: -p[k])[:CANDIDATES]
    kind = order[0]
    _, _, source = max(((r.kind == kind, probs[kind], r) for r, probs in zip((a, b), given) if kind in probs),
                       key=lambda x: x[:2])
    return Reading(kind, p[kind], fitting_turns(kind, source.turns[0]),
                   tuple((k, round(p[k], 4)) for k in order if k == kind or p[k] >= CANDIDATE_FLOOR))


def _kind_probabilities(out: dict[str, np.ndarray], profile) -> np.ndarray:
    """(n, classes): the reader's, or with a calibration profile the set's own faces'."""
    probs = _softmax(out["kind_logits"])
    if profile is not None and "back" in profile.kinds:
        probs = profile.face_probabilities(out["features"])
    elif profile is not None:  # the shipped reader says face down or not, the profile which face
        back = probs[:, BACK]
        probs = (1 - back)[:, None] * profile.face_probabilities(out["features"])
        # face down only when more so than any of the set's own faces looked in calibration (a blank haku)
        probs[:, BACK] = np.where(back > profile.back_floor, back, 0.0)
    return probs


def _face_down_as_haku(probs: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """``probs`` with the face-down probability of each ``blank`` (colourless) crop counted as haku's, in place:
    the module's docstring says why."""
    probs[blank, HAKU] += probs[blank, BACK]
    probs[blank, BACK] = 0.0
    return probs


def _blank_where_inkless(probs: np.ndarray, crops: list[np.ndarray], light: Light) -> None:
    """An unsure reading of a colourless crop without ink reads haku first, at least ``INKLESS_SURE`` sure, in
    place: haku's probability and the likeliest kind's change places, then the other kinds give up what haku needs
    (``NO_INK_BELOW`` and ``INKLESS_SURE`` say why). The table tells a white back from a haku."""
    for k in np.flatnonzero(probs.max(1) < REREAD_BELOW):
        if not (inkless(crops[k]) and colourless(crops[k], light.white)):
            continue
        top = probs[k].argmax()
        probs[k, [top, HAKU]] = probs[k, [HAKU, top]]
        haku = probs[k, HAKU]
        if haku < INKLESS_SURE:
            probs[k] *= (1 - INKLESS_SURE) / (1 - haku)
            probs[k, HAKU] = INKLESS_SURE


def _turn_probabilities(out: dict[str, np.ndarray]) -> np.ndarray:
    """(n, 4): how likely the glyph is each number of quarter turns clockwise from the crop's up."""
    turn_logits = out.get("turn_logits")
    if turn_logits is None:  # the first reader: one logit, upside down or not
        flip = out["flip_logit"]
        turn_logits = np.stack([-flip, np.full_like(flip, -1e9), flip, np.full_like(flip, -1e9)], axis=1)
    return _softmax(turn_logits)


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max(1, keepdims=True))
    return p / p.sum(1, keepdims=True)

"""One physical tile set's look (style), its face sprites, and drawing a tile as a 3D box seen by a camera.

A scene uses one set: one back colour, face shade, size, and one glyph family per suit, inked in that set's
palette. Faces are rendered once per scene into a small sprite pyramid and then warped onto every tile.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from . import glyphs
from .classes import CLASSES
from .glyphs import FACE_H, FACE_W, R_BLUE, R_GOLD, R_GREEN, R_INK, R_LIGHT, R_RED

BACK_COLOURS = {  # RGB of the back layer in common sets
    "yellow": (228, 182, 40), "blue": (38, 92, 172), "green": (38, 128, 72), "orange": (232, 118, 34),
    "white": (236, 235, 228), "teal": (30, 120, 130), "pink": (220, 120, 150), "dark-blue": (25, 40, 90),
}
FACE_COLOURS = {"white": (246, 246, 242), "ivory": (241, 234, 212), "cream": (236, 226, 196),
                "cool": (236, 240, 244)}
INKS = {"ink": [(18, 18, 22), (22, 28, 62), (16, 34, 30), (40, 32, 30), (30, 30, 34), (70, 72, 78)],
        "red": [(196, 32, 36), (210, 40, 30), (170, 25, 40), (220, 60, 60), (200, 110, 120)],  # last: faded pink
        "green": [(22, 110, 58), (30, 130, 70), (20, 90, 70), (60, 120, 40)],
        "blue": [(28, 58, 150), (22, 48, 110), (40, 80, 170), (20, 70, 120)],
        "gold": [(214, 160, 40), (226, 140, 40)]}


@dataclass
class SetStyle:
    """Everything that is the same for every tile of one physical set."""
    w: float  # face width, mm
    h: float  # face height, mm
    d: float  # thickness, mm
    radius: float  # corner radius, fraction of w
    back_layer: float  # fraction of the thickness in back colour
    back_rgb: tuple
    face_rgb: tuple
    glyph_source: dict  # suit letter ("m","p","s","z") -> "Regular" | "Black" | "font" | "procedural"
    font: tuple | None
    inks: dict  # "m","p","s","z" -> (len(ROLES), 3) float RGB
    red_ink: tuple
    glyph_blur: float
    glyph_scale: float
    glyph_shift: tuple
    haku_frame: bool
    pin_style: dict = field(default_factory=dict)
    sou_style: dict = field(default_factory=dict)
    ink_alpha: float = 1.0

    @property
    def blank_back(self) -> bool:
        """A colourless (white) back: a face-down tile then looks like a blank haku, and only the table tells
        them apart (by count: ``vision.table``)."""
        rgb = np.array(self.back_rgb)
        return float(rgb.max() - rgb.min()) < 0.2 * float(rgb.max())


def _jitter(rgb, rng, amount):
    return tuple(float(np.clip(c + rng.normal(0, amount), 0, 255)) for c in rgb)


def sample_style(rng: np.random.Generator, shared: Path) -> SetStyle:
    """A random physical set: size, colours, and glyph family per suit."""
    w = rng.uniform(24, 29)
    fonts = glyphs.available_fonts()
    font = fonts[rng.integers(len(fonts))] if fonts else None
    art = ["Regular", "Regular", "Black"]
    src = {s: str(rng.choice(art + (["font", "font"] if font else []))) for s in "mz"}
    src.update({s: str(rng.choice(art + ["procedural", "procedural"])) for s in "ps"})
    back = list(BACK_COLOURS)[rng.choice(len(BACK_COLOURS), p=[.24, .26, .17, .13, .04, .06, .04, .06])]
    face = list(FACE_COLOURS)[rng.choice(4, p=[.45, .25, .15, .15])]
    pick = lambda k: _jitter(INKS[k][rng.integers(len(INKS[k]))], rng, 10)  # noqa: E731
    base = np.array([pick("ink"), pick("red"), pick("green"), pick("blue"), pick("gold"), (0, 0, 0)], np.float32)
    inks = {s: base.copy() for s in "mpsz"}
    for s in "mz":  # winds and numerals: black in many sets, navy in others
        if rng.random() < 0.6:
            inks[s][R_BLUE] = base[R_INK]
    for s in "ps":  # pins/bamboos: classic blue-green-red, all dark + red (many Japanese sets), or blue + red
        mode = rng.choice(["classic", "dark", "blue", "green"], p=[.4, .3, .15, .15])
        if mode == "dark":
            inks[s][R_BLUE] = inks[s][R_GREEN] = base[R_INK]
        elif mode == "blue":
            inks[s][R_GREEN] = base[R_BLUE]
        elif mode == "green":
            inks[s][R_BLUE] = base[R_GREEN]
    face_rgb = _jitter(FACE_COLOURS[face], rng, 4)
    for s in inks:
        inks[s][R_LIGHT] = np.array(face_rgb) * rng.uniform(0.93, 1.0)
    return SetStyle(
        w=w, h=w * rng.uniform(1.3, 1.42), d=w * rng.uniform(0.62, 0.85), radius=rng.uniform(0.05, 0.15),
        back_layer=rng.uniform(0.3, 0.6), back_rgb=_jitter(BACK_COLOURS[back], rng, 12), face_rgb=face_rgb,
        glyph_source=src, font=font, inks=inks, red_ink=_jitter(INKS["red"][rng.integers(4)], rng, 12),
        glyph_blur=rng.uniform(0.0, 1.3), glyph_scale=rng.uniform(0.86, 1.04),
        glyph_shift=(rng.normal(0, 2), rng.normal(0, 3)), haku_frame=bool(rng.random() < 0.35),
        pin_style=glyphs.sample_pin_style(rng), sou_style=glyphs.sample_sou_style(rng),
        ink_alpha=rng.uniform(0.85, 1.0))


def glyph_layers(style: SetStyle, name: str, shared: Path, rng: np.random.Generator) -> np.ndarray:
    """The ink-role layers of one class in this set's glyph family (red fives: the five, all in red)."""
    kind = "5" + name[1] if name[0] == "0" else name
    suit, n = kind[1], int(kind[0])
    src = style.glyph_source[suit]
    if src == "font" and style.font is not None:
        return glyphs.font_glyph(style.font, kind, rng, style.haku_frame)
    if src == "procedural" and not (suit == "s" and n == 1):
        return glyphs.pin_glyph(n, rng, style.pin_style) if suit == "p" else glyphs.sou_glyph(n, rng, style.sou_style)
    variant = "Regular" if src == "procedural" else src
    if src == "font":
        variant = "Regular"
    return glyphs.art_glyph(str(shared), variant, kind)


@functools.lru_cache(maxsize=8)
def _rounded_mask(w: int, h: int, r: float) -> np.ndarray:
    """Anti-aliased rounded-rectangle coverage (float 0..1) and a bevel shade that darkens toward the edge."""
    s = 4
    m = np.zeros((h * s, w * s), np.uint8)
    rr = int(r * s)
    cv2.rectangle(m, (rr, 0), (w * s - rr - 1, h * s - 1), 255, -1)
    cv2.rectangle(m, (0, rr), (w * s - 1, h * s - rr - 1), 255, -1)
    for cx, cy in ((rr, rr), (w * s - rr - 1, rr), (rr, h * s - rr - 1), (w * s - rr - 1, h * s - rr - 1)):
        cv2.circle(m, (cx, cy), rr, 255, -1)
    m = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    dist = cv2.distanceTransform((m > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / (0.07 * w), 0, 1) ** 0.5
    return np.dstack([m, 0.8 + 0.2 * bevel])


def _pyramid(rgba: np.ndarray) -> list[np.ndarray]:
    levels = [rgba]
    while levels[-1].shape[1] > 24:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def face_sprite(style: SetStyle, name: str, shared: Path, rng: np.random.Generator) -> np.ndarray:
    """RGBA uint8 face of one class: shaded face colour, rounded corners, inked and slightly blurred glyph."""
    mask = _rounded_mask(FACE_W, FACE_H, style.radius * FACE_W)
    if name == "back":
        base = np.array(style.back_rgb, np.float32)
        rgb = np.broadcast_to(base, (FACE_H, FACE_W, 3)).copy()
    else:
        layers = glyph_layers(style, name, shared, rng) * style.ink_alpha
        inks = style.inks[name[1]].copy()
        if name[0] == "0":  # a physical red five: every stroke red
            for r in (R_INK, R_GREEN, R_BLUE, R_GOLD, R_RED):
                inks[r] = style.red_ink
        # premultiplied ink colour + coverage, then one warp and one blur for all roles
        ink = np.tensordot(layers, inks, axes=(0, 0))
        glyph = np.dstack([ink, layers.sum(0)])
        M = cv2.getRotationMatrix2D((FACE_W / 2, FACE_H / 2), 0, style.glyph_scale)
        M[:, 2] += style.glyph_shift
        glyph = cv2.warpAffine(glyph, M, (FACE_W, FACE_H))
        if style.glyph_blur > 0.2:
            glyph = cv2.GaussianBlur(glyph, (0, 0), style.glyph_blur)
        cover = np.clip(glyph[..., 3:], 0, 1)
        rgb = np.array(style.face_rgb, np.float32) * (1 - cover) + glyph[..., :3]
    grad = np.linspace(1.02, 0.97, FACE_H, dtype=np.float32)[:, None, None]
    rgb = rgb * grad * mask[..., 1:2]
    out = np.dstack([np.clip(rgb, 0, 255), mask[..., :1] * 255]).astype(np.uint8)
    return out


def face_atlas(style: SetStyle, shared: Path, rng: np.random.Generator, names=CLASSES) -> dict:
    """Class name -> sprite pyramid (RGBA uint8 levels, largest first), rendered once per scene."""
    return {n: _pyramid(face_sprite(style, n, shared, rng)) for n in names}


# ---------------------------------------------------------------- 3D tile geometry and drawing

def outline(w: float, h: float, r: float, per_corner: int = 4) -> np.ndarray:
    """Rounded-rectangle outline in the tile's (x right, y up) plane, centred, as (N, 2)."""
    pts = []
    for (cx, cy, a0) in ((w / 2 - r, h / 2 - r, 0), (-w / 2 + r, h / 2 - r, 90),
                         (-w / 2 + r, -h / 2 + r, 180), (w / 2 - r, -h / 2 + r, 270)):
        for t in np.linspace(a0, a0 + 90, per_corner):
            pts.append((cx + r * np.cos(np.radians(t)), cy + r * np.sin(np.radians(t))))
    return np.array(pts)


@dataclass
class Placed:
    """A tile in the world: class, centre, axes (ex = glyph right, ey = glyph up, ez = face normal)."""
    name: str  # the class drawn when the face shows (a face-down tile keeps its real kind here)
    centre: np.ndarray
    ex: np.ndarray
    ey: np.ndarray
    ez: np.ndarray
    role: str = ""  # what it is in the table: concealed, meld, pond, dora, wall, stray
    seat: int = -1
    face_down: bool = False

    def points(self, style: SetStyle, local: np.ndarray, z: float) -> np.ndarray:
        """World points of local (x, y) at height z across the thickness (0 = back, 1 = face)."""
        zz = (z - 0.5) * style.d
        return self.centre + local[:, :1] * self.ex + local[:, 1:2] * self.ey + zz * self.ez


def lying(name, x, y, up_angle_deg, style, face_down=False, z0=0.0, **kw) -> Placed:
    """A tile lying on the table; its glyph's up points at up_angle (0 = world +y) seen from above."""
    a = np.radians(up_angle_deg)
    ey = np.array([-np.sin(a), np.cos(a), 0.0])
    ez = np.array([0, 0, -1.0 if face_down else 1.0])
    ex = np.cross(ey, ez)
    return Placed(name, np.array([x, y, z0 + style.d / 2]), ex, ey, ez, face_down=face_down, **kw)


def standing(name, x, y, facing_deg, style, **kw) -> Placed:
    """A standing tile whose face looks toward facing_deg (0 = world -y, toward seat 0's player)."""
    a = np.radians(facing_deg)
    ez = np.array([np.sin(a), -np.cos(a), 0.0])
    ey = np.array([0, 0, 1.0])
    ex = np.cross(ey, ez)
    return Placed(name, np.array([x, y, style.h / 2]), ex, ey, ez, **kw)

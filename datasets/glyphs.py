"""Glyph drawings for tile faces, as ink-role layers so each generated set can ink them in its own colours.

A glyph is a float32 array (len(ROLES), FACE_H, FACE_W) of coverages in 0..1, one layer per ink role, drawn on the
whole face (margins included). Three families, so the model never learns one drawing:
- the CC0 FluffyStuff art (Regular, and Black with its light strokes turned into ink);
- characters from the CJK fonts found on the machine (manzu, winds, dragons);
- pins and bamboos drawn procedurally with varied ring and stick styles.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import cv2
import numpy as np

FACE_W, FACE_H = 150, 200  # face sprite size (3:4, about a real face's 26 x 35 mm)
ROLES = ("ink", "red", "green", "blue", "gold", "light")  # "light" = pale parts (the bird's body), not ink
R_INK, R_RED, R_GREEN, R_BLUE, R_GOLD, R_LIGHT = range(len(ROLES))

ART_NAMES = {**{f"{n}m": f"Man{n}" for n in range(1, 10)}, **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
             **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
             "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun"}

# Debian font files tried in order (fonts-arphic-ukai, fonts-ipafont-*, fonts-ipaexfont-mincho, fonts-noto-cjk,
# fonts-wqy-microhei, fonts-vlgothic); (path, face index). RIICHI_LENS_FONTS adds more, separated by ':'.
FONT_CANDIDATES = (
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 2),  # AR PL UKai TW: brush (kaisho) strokes, traditional forms
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 2),
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),
    ("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", 0),
)
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"


def art_dir(shared: Path) -> Path:
    return Path(shared) / "data" / "tile-art" / "fluffystuff" / "Export"


@functools.lru_cache(maxsize=None)
def _art_rgba(shared: str, variant: str, name: str) -> np.ndarray:
    """An art PNG at sprite size, RGBA float in 0..1 (read once per process)."""
    path = art_dir(Path(shared)) / variant / f"{name}.png"
    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if im is None or im.ndim != 3 or im.shape[2] != 4:
        raise FileNotFoundError(f"tile art missing or not RGBA: {path} (set --shared / RIICHI_LENS_SHARED)")
    im = cv2.resize(im, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    return im[..., [2, 1, 0, 3]].astype(np.float32) / 255.0


@functools.lru_cache(maxsize=None)
def art_glyph(shared: str, variant: str, kind: str) -> np.ndarray:
    """The FluffyStuff drawing of a kind, split into ink roles by hue.

    Black-variant art is drawn for black faces, so its light strokes become ink (green for hatsu) and its dark
    fills become face-coloured; that gives a second, bolder drawing of every kind.
    """
    rgba = _art_rgba(shared, variant, ART_NAMES[kind])
    a = rgba[..., 3]
    hsv = cv2.cvtColor(np.ascontiguousarray(rgba[..., :3]), cv2.COLOR_RGB2HSV)  # H in 0..360 for float input
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sat = s > 0.35
    role = np.full(a.shape, R_INK, np.int8)
    role[~sat & (v > 0.7)] = R_LIGHT
    role[sat & ((h < 20) | (h >= 320))] = R_RED
    role[sat & (h >= 20) & (h < 70)] = R_GOLD
    role[sat & (h >= 70) & (h < 170)] = R_GREEN
    role[sat & (h >= 170) & (h < 320)] = R_BLUE
    if variant == "Black":
        light, dark = role == R_LIGHT, role == R_INK
        role[light] = R_GREEN if kind == "6z" else R_INK
        role[dark] = R_LIGHT
        role[role == R_GOLD] = R_GREEN if kind == "1s" else R_RED  # its orange strokes are red on white sets
    out = np.zeros((len(ROLES),) + a.shape, np.float32)
    for r in range(len(ROLES)):
        out[r] = np.where(role == r, a, 0.0)
    return out


# The Debian packages of the fonts above. Which of them are installed changes what a seed draws (a set's glyph
# family is picked among the fonts found), so the model card's data and the dev and eval scenes need all of them.
FONT_PACKAGES = ("fonts-arphic-ukai", "fonts-arphic-uming", "fonts-ipafont-mincho", "fonts-ipafont-gothic",
                 "fonts-ipaexfont-mincho", "fonts-noto-cjk", "fonts-wqy-microhei", "fonts-vlgothic")


def fonts_warning() -> str | None:
    """What a generator prints when fonts of FONT_CANDIDATES are missing: its scenes then differ from the
    documented ones for the same seed, and show fewer glyph styles."""
    found = {path for path, _ in available_fonts()}
    missing = [path for path, _ in FONT_CANDIDATES if path not in found]
    if not missing:
        return None
    return (f"warning: {len(missing)} of {len(FONT_CANDIDATES)} CJK fonts are missing ({', '.join(missing)}); "
            f"the scenes drawn will differ from the documented ones for the same seed. "
            f"Install them with: apt-get install {' '.join(FONT_PACKAGES)}")


def available_fonts() -> list[tuple[str, int]]:
    """CJK fonts on this machine that draw every character the tiles need."""
    extra = [(p, 0) for p in os.environ.get("RIICHI_LENS_FONTS", "").split(":") if p]
    present = tuple(f for f in FONT_CANDIDATES + tuple(extra) if Path(f[0]).is_file())  # outside the cache: a
    return list(_usable_fonts(present))  # font installed while running counts


@functools.lru_cache(maxsize=None)
def _usable_fonts(cands: tuple) -> tuple:
    ok = []
    for path, index in cands:
        try:
            if all(_char_mask(path, index, ch).any() for ch in NUMERALS + WINDS + "伍萬中發"):
                ok.append((path, index))
        except OSError:
            continue
    return tuple(ok)


@functools.lru_cache(maxsize=None)
def _char_mask(path: str, index: int, ch: str) -> np.ndarray:
    """One character drawn large and cropped to its ink, float 0..1."""
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.truetype(path, 160, index=index)
    im = Image.new("L", (220, 220), 0)
    ImageDraw.Draw(im).text((30, 10), ch, font=font, fill=255)
    m = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(m > 0.2)
    if len(xs) == 0:
        return np.zeros((1, 1), np.float32)
    return m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _paste(layer: np.ndarray, mask: np.ndarray, box: tuple[float, float, float, float]) -> None:
    """Stretch a mask into box (x0, y0, x1, y1) of a layer, keeping the darkest coverage."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA if mask.shape[1] > w else cv2.INTER_LINEAR)
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(layer.shape[1], x0 + w), min(layer.shape[0], y0 + h)
    np.maximum(layer[ya:yb, xa:xb], m[ya - y0:yb - y0, xa - x0:xb - x0], out=layer[ya:yb, xa:xb])


def font_glyph(font: tuple[str, int], kind: str, rng: np.random.Generator, frame_haku: bool) -> np.ndarray:
    """Manzu, winds and dragons as font characters, in a layout with jittered proportions."""
    out = np.zeros((len(ROLES), FACE_H, FACE_W), np.float32)
    mx, my = rng.uniform(0.13, 0.2) * FACE_W, rng.uniform(0.09, 0.14) * FACE_H
    x0, x1, y0, y1 = mx, FACE_W - mx, my, FACE_H - my
    n, suit = kind[0], kind[1]
    if suit == "m":
        split = rng.uniform(0.4, 0.5)
        ym = y0 + (y1 - y0) * split
        ch = "伍" if n == "5" and rng.random() < 0.5 else NUMERALS[int(n) - 1]
        sx = rng.uniform(0.0, 0.12) * (x1 - x0)
        top = _char_mask(*font, ch)
        # flat numerals (一二三) keep their own height rather than fill the half
        th = min(ym - y0, (x1 - x0 - 2 * sx) * top.shape[0] / max(1, top.shape[1]) * 1.3)
        yc = (y0 + ym) / 2
        _paste(out[R_INK], top, (x0 + sx, yc - max(th, 6) / 2, x1 - sx, yc + max(th, 6) / 2))
        _paste(out[R_RED], _char_mask(*font, "萬"), (x0, ym + 3, x1, y1))
    elif kind in ("1z", "2z", "3z", "4z"):
        _paste(out[R_INK], _char_mask(*font, WINDS[int(n) - 1]), (x0, y0 + 10, x1, y1 - 10))
    elif kind == "6z":
        _paste(out[R_GREEN], _char_mask(*font, "發"), (x0, y0 + 8, x1, y1 - 8))
    elif kind == "7z":
        _paste(out[R_RED], _char_mask(*font, "中"), (x0, y0, x1, y1))
    elif kind == "5z" and frame_haku:  # drawn in the blue role; winds sets may ink blue as black
        t = rng.uniform(3, 7)
        fx, fy = rng.uniform(0.18, 0.26) * FACE_W, rng.uniform(0.14, 0.2) * FACE_H
        layer = np.zeros((FACE_H, FACE_W), np.uint8)
        cv2.rectangle(layer, (int(fx), int(fy)), (int(FACE_W - fx), int(FACE_H - fy)), 255, int(t), cv2.LINE_AA)
        if rng.random() < 0.6:
            g = int(t + rng.uniform(3, 6))
            cv2.rectangle(layer, (int(fx) + g, int(fy) + g), (int(FACE_W - fx) - g, int(FACE_H - fy) - g), 255,
                          max(1, int(t / 2)), cv2.LINE_AA)
        out[R_BLUE] = layer / 255.0
    return out


# Pin layouts: (x, y) centres in face fractions, radius fraction of face width, and the colour role of each circle.
_B, _G, _RD = R_BLUE, R_GREEN, R_RED
PIN_LAYOUTS = {
    2: ([(0.5, 0.3), (0.5, 0.7)], 0.24, [_G, _B]),
    3: ([(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)], 0.2, [_B, _RD, _G]),
    4: ([(0.29, 0.3), (0.71, 0.3), (0.29, 0.7), (0.71, 0.7)], 0.2, [_B, _G, _G, _B]),
    5: ([(0.27, 0.24), (0.73, 0.24), (0.5, 0.5), (0.27, 0.76), (0.73, 0.76)], 0.18, [_B, _G, _RD, _G, _B]),
    6: ([(0.3, 0.2), (0.7, 0.2), (0.3, 0.52), (0.7, 0.52), (0.3, 0.8), (0.7, 0.8)], 0.16,
        [_G, _G, _RD, _RD, _RD, _RD]),
    7: ([(0.22, 0.15), (0.5, 0.25), (0.78, 0.35), (0.3, 0.58), (0.7, 0.58), (0.3, 0.83), (0.7, 0.83)], 0.13,
        [_G, _G, _G, _RD, _RD, _RD, _RD]),
    8: ([(x, y) for y in (0.16, 0.39, 0.62, 0.85) for x in (0.3, 0.7)], 0.13, [_B] * 8),
    9: ([(x, y) for y in (0.2, 0.5, 0.8) for x in (0.2, 0.5, 0.8)], 0.14, [_B] * 3 + [_RD] * 3 + [_G] * 3),
}


def _pin(layers: np.ndarray, c: tuple[float, float], r: float, role: int, st: dict) -> None:
    """One circle: outer ring, optional ring of dots, inner ring and centre, in the set's pin style."""
    s = 4  # sub-pixel bits for cv2 drawing
    L = np.zeros(layers.shape[1:], np.uint8)
    cx, cy = int(c[0] * (1 << s)), int(c[1] * (1 << s))
    ring = max(1, int(r * st["ring"]))
    cv2.circle(L, (cx, cy), int((r - ring / 2) * (1 << s)), 255, ring, cv2.LINE_AA, s)
    if st["dots"] and r > 12:
        for k in range(st["dots"]):
            a = 2 * np.pi * k / st["dots"]
            p = (int((c[0] + 0.64 * r * np.cos(a)) * (1 << s)), int((c[1] + 0.64 * r * np.sin(a)) * (1 << s)))
            cv2.circle(L, p, int(max(1.0, r * 0.09) * (1 << s)), 255, -1, cv2.LINE_AA, s)
    if st.get("petals") and r > 8:  # the flower of many Japanese sets: spokes from the centre to the ring
        for k in range(st["petals"]):
            a = 2 * np.pi * (k + 0.5) / st["petals"]
            u = np.array([np.cos(a), np.sin(a)])
            p0, p1 = np.array(c) + u * r * st["inner"] * 0.8, np.array(c) + u * (r - ring) * 0.92
            cv2.line(L, (int(p0[0] * (1 << s)), int(p0[1] * (1 << s))), (int(p1[0] * (1 << s)), int(p1[1] * (1 << s))),
                     255, max(1, int(r * st["petal_w"])), cv2.LINE_AA, s)
    inner = r * st["inner"]
    cv2.circle(L, (cx, cy), int(inner * (1 << s)), 255, max(1, int(ring * 0.7)), cv2.LINE_AA, s)
    if st.get("holes") and r > 8:  # the "gear" of many Japanese sets: an inked band pierced by a ring of holes
        band_r, band_w = r * (inner / r + 0.78) / 2, r * (0.78 - inner / r)
        cv2.circle(L, (cx, cy), int(band_r * (1 << s)), 255, max(1, int(band_w)), cv2.LINE_AA, s)
        holes = np.zeros_like(L)
        for k in range(st["holes"]):
            a = 2 * np.pi * k / st["holes"]
            p = (int((c[0] + band_r * np.cos(a)) * (1 << s)), int((c[1] + band_r * np.sin(a)) * (1 << s)))
            cv2.circle(holes, p, int(max(1.0, band_w * 0.3) * (1 << s)), 255, -1, cv2.LINE_AA, s)
        L = np.minimum(L, 255 - holes)
    np.maximum(layers[role], L / 255.0, out=layers[role])
    C = np.zeros_like(L)
    cv2.circle(C, (cx, cy), int(max(1.0, inner * st["centre"]) * (1 << s)), 255, -1, cv2.LINE_AA, s)
    crole = R_RED if st["red_centre"] else role
    np.maximum(layers[crole], C / 255.0, out=layers[crole])


def pin_glyph(n: int, rng: np.random.Generator, st: dict) -> np.ndarray:
    """Procedural pinzu with the classic blue/green/red roles (the set's palette decides the final colours)."""
    out = np.zeros((len(ROLES), FACE_H, FACE_W), np.float32)
    mx, my = st["margin"]
    W, H = FACE_W - 2 * mx, FACE_H - 2 * my
    if n == 1:
        r = 0.42 * W
        c = (FACE_W / 2, FACE_H / 2)
        big = dict(st, dots=max(st["dots"], 12), inner=0.55, centre=0.55, red_centre=True)
        _pin(out, c, r, R_BLUE, big)
        _pin(out, c, r * 0.38, R_RED, dict(st, dots=0, inner=0.5, centre=0.5, red_centre=True))
        return out
    centres, rf, roles = PIN_LAYOUTS[n]
    pts = [(mx + fx * W, my + fy * H) for fx, fy in centres]
    gap = min(np.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(pts) for b in pts[i + 1:])
    r = min(rf * W * st["size"], 0.46 * gap)  # big circles come close (as in many real sets), never touch
    for c, role in zip(pts, roles):
        _pin(out, c, r, role, st)
    return out


# Bamboo layouts: sticks as (x, y_top, y_bottom) in face fractions (or (x0, y0, x1, y1) for tilted ones) + role.
SOU_LAYOUTS = {
    2: [((0.5, 0.05, 0.45), _G), ((0.5, 0.55, 0.95), _B)],
    3: [((0.5, 0.05, 0.45), _B), ((0.28, 0.55, 0.95), _G), ((0.72, 0.55, 0.95), _G)],
    4: [((0.28, 0.05, 0.45), _G), ((0.72, 0.05, 0.45), _B), ((0.28, 0.55, 0.95), _B), ((0.72, 0.55, 0.95), _G)],
    5: [((0.2, 0.05, 0.45), _G), ((0.8, 0.05, 0.45), _B), ((0.5, 0.3, 0.7), _RD), ((0.2, 0.55, 0.95), _B),
        ((0.8, 0.55, 0.95), _G)],
    6: [((x, 0.05, 0.45), _G) for x in (0.2, 0.5, 0.8)] + [((x, 0.55, 0.95), _B) for x in (0.2, 0.5, 0.8)],
    7: [((0.5, 0.02, 0.3), _RD)] + [((x, y0, y0 + 0.3), _G) for y0 in (0.35, 0.68) for x in (0.2, 0.5, 0.8)],
    8: [((0.08, 0.06, 0.2, 0.44), _G), ((0.32, 0.44, 0.44, 0.06), _G), ((0.56, 0.06, 0.68, 0.44), _G),
        ((0.8, 0.44, 0.92, 0.06), _G), ((0.08, 0.94, 0.2, 0.56), _B), ((0.32, 0.56, 0.44, 0.94), _B),
        ((0.56, 0.94, 0.68, 0.56), _B), ((0.8, 0.56, 0.92, 0.94), _B)],
    9: [((x, y0, y0 + 0.28), _RD if x == 0.5 else _G) for y0 in (0.03, 0.36, 0.69) for x in (0.2, 0.5, 0.8)],
}


def _stick(layers: np.ndarray, p0, p1, w: float, role: int, st: dict) -> None:
    """One bamboo stick: a rounded bar with nodes at the ends and middle, hollow or solid."""
    s = 4
    L = np.zeros(layers.shape[1:], np.uint8)
    p0, p1 = np.array(p0, float), np.array(p1, float)
    d = p1 - p0
    length = np.hypot(*d)
    u = d / max(length, 1e-6)
    nrm = np.array([-u[1], u[0]])
    P = lambda q: (int(q[0] * (1 << s)), int(q[1] * (1 << s)))  # noqa: E731
    body_w = w * st["stick_w"]
    nodes = [0.0, 0.5, 1.0] if st["nodes"] == 3 else [0.0, 0.33, 0.67, 1.0]
    if st.get("bone"):
        _bone(layers, p0 + u * w * 0.3, p1 - u * w * 0.3, w * st["bone_w"], nodes[1:-1], role, st)
        return
    cv2.line(L, P(p0 + u * w * 0.3), P(p1 - u * w * 0.3), 255, max(1, int(body_w)), cv2.LINE_AA, s)
    for t in nodes:
        q = p0 + d * min(max(t, 0.06), 0.94)
        half = nrm * w * st["node_w"] / 2
        cv2.line(L, P(q - half), P(q + half), 255, max(1, int(w * 0.22)), cv2.LINE_AA, s)
    np.maximum(layers[role], L / 255.0, out=layers[role])
    if st["hollow"] and body_w >= 5:
        H = np.zeros_like(L)
        for a, b in zip(nodes[:-1], nodes[1:]):
            qa, qb = p0 + d * (a + 0.1), p0 + d * (b - 0.1)
            cv2.line(H, P(qa), P(qb), 255, max(1, int(body_w * 0.3)), cv2.LINE_AA, s)
        layers[role] *= 1 - H / 255.0
        np.maximum(layers[R_LIGHT], H / 255.0, out=layers[R_LIGHT])


def _bone(layers: np.ndarray, p0, p1, body_w: float, waist: list[float], role: int, st: dict) -> None:
    """A bone-shaped stick, as many Japanese sets draw them: a narrow shaft with a knob on each side of both
    ends and a swelling at each node between, drawn as an outline (light inside) or solid."""
    s = 4
    L = np.zeros(layers.shape[1:], np.uint8)
    d = p1 - p0
    u = d / max(np.hypot(*d), 1e-6)
    nrm = np.array([-u[1], u[0]])
    P = lambda q: (int(q[0] * (1 << s)), int(q[1] * (1 << s)))  # noqa: E731
    R = lambda r: max(1, int(r * (1 << s)))  # noqa: E731
    shaft = body_w * st["bone_shaft"]
    cv2.line(L, P(p0), P(p1), 255, max(1, int(shaft)), cv2.LINE_AA, s)
    knob = body_w * st["bone_knob"]
    for end in (p0, p1):
        for side in (-1, 1):
            cv2.circle(L, P(end + side * nrm * shaft * 0.45), R(knob / 2), 255, -1, cv2.LINE_AA, s)
    for t in waist:
        q = p0 + d * t
        angle = float(np.degrees(np.arctan2(u[1], u[0])))
        cv2.ellipse(L, P(q), (R(body_w * 0.3), R(body_w * 0.42)), angle, 0, 360, 255, -1, cv2.LINE_AA, s)
    mask = L / 255.0
    if st["hollow"] and shaft >= 3:
        k = max(1, int(round(body_w * st["bone_line"])))
        inner = cv2.erode(L, np.ones((2 * k + 1, 2 * k + 1), np.uint8)) / 255.0
        mask = mask - inner
        np.maximum(layers[R_LIGHT], inner, out=layers[R_LIGHT])
    np.maximum(layers[role], mask, out=layers[role])


def sou_glyph(n: int, rng: np.random.Generator, st: dict) -> np.ndarray:
    """Procedural souzu 2..9 (1s, the bird, comes from the art)."""
    out = np.zeros((len(ROLES), FACE_H, FACE_W), np.float32)
    mx, my = st["margin"]
    W, H = FACE_W - 2 * mx, FACE_H - 2 * my
    w = W * (0.16 if n in (5, 6, 7, 9) else 0.2) * st["size"]
    for geom, role in SOU_LAYOUTS[n]:
        if len(geom) == 3:
            x, ya, yb = geom
            p0, p1 = (mx + x * W, my + ya * H), (mx + x * W, my + yb * H)
        else:
            p0, p1 = (mx + geom[0] * W, my + geom[1] * H), (mx + geom[2] * W, my + geom[3] * H)
        _stick(out, p0, p1, w * (0.8 if n == 8 else 1.0), role, st)
    return out


def sample_pin_style(rng: np.random.Generator) -> dict:
    """Ring, dots, petals or a pierced band, and circles up to nearly touching (as in many real sets)."""
    petals = int(rng.choice([0, 0, 6, 8, 8, 10]))
    holes = 0 if petals or rng.random() < 0.6 else int(rng.choice([8, 10, 12]))
    return dict(ring=rng.uniform(0.12, 0.4), dots=0 if petals or holes else int(rng.choice([0, 0, 8, 10, 12])),
                petals=petals, holes=holes, petal_w=rng.uniform(0.1, 0.2), inner=rng.uniform(0.25, 0.5),
                centre=rng.uniform(0.25, 0.6), red_centre=bool(rng.random() < 0.3), size=rng.uniform(0.9, 1.25),
                margin=(rng.uniform(0.08, 0.16) * FACE_W, rng.uniform(0.06, 0.12) * FACE_H))


def sample_sou_style(rng: np.random.Generator) -> dict:
    """Sticks solid or hollow with 3 or 4 nodes, or bone-shaped (knobbed ends, a swelling at each node)."""
    return dict(stick_w=rng.uniform(0.35, 0.6), node_w=rng.uniform(0.7, 1.0), nodes=int(rng.choice([3, 4])),
                hollow=bool(rng.random() < 0.6), size=rng.uniform(0.9, 1.1), bone=bool(rng.random() < 0.3),
                bone_w=rng.uniform(0.75, 1.05), bone_shaft=rng.uniform(0.45, 0.65), bone_knob=rng.uniform(0.5, 0.7),
                bone_line=rng.uniform(0.1, 0.2),
                margin=(rng.uniform(0.12, 0.18) * FACE_W, rng.uniform(0.08, 0.12) * FACE_H))

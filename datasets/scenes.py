"""Table scenes with known structure: a plausible deal laid out in 3D, a phone camera, photo effects, labels.

World frame (mm): the table is z = 0, x to the right of seat 0's player, y away from them (toward seat 2).
Seats: 0 = the photographer's seat, 1 = right (shimocha), 2 = across (toimen), 3 = left (kamicha); seat k's layout
is seat 0's rotated by k * 90 degrees about the table centre, so each seat's rows face it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .classes import kind_of, lie_of
from .tiles import Placed, SetStyle, face_atlas, lying, outline, sample_style, standing

SOURCES = ("left", "across", "right")
MELD_P = {"chi": 0.42, "pon": 0.33, "daiminkan": 0.07, "kakan": 0.08, "ankan": 0.10}


# ---------------------------------------------------------------- the deal

class Wall:
    """The 136 tiles (with one red five per suit, or none), drawn without replacement; of three players' set, the
    108 without 2m-8m (red fives of pins and bamboos)."""

    def __init__(self, rng: np.random.Generator, red_fives: bool, players: int = 4):
        self.rng = rng
        self.left = {f"{n}{s}": [f"{n}{s}"] * 4 for s in "mps" for n in range(1, 10)
                     if players == 4 or s != "m" or n in (1, 9)}
        self.left.update({f"{n}z": [f"{n}z"] * 4 for n in range(1, 8)})
        if red_fives:
            for s in ("mps" if players == 4 else "ps"):
                self.left[f"5{s}"][0] = f"0{s}"

    def take(self, kind: str) -> str:
        copies = self.left[kind]
        return copies.pop(int(self.rng.integers(len(copies))))

    def count(self, kind: str) -> int:
        return len(self.left.get(kind, ()))  # none of a kind the set has not (three players' 2m-8m)

    def random(self) -> str | None:
        """Any tile left, or None when the wall is used up."""
        kinds = [k for k, v in self.left.items() for _ in v]
        return self.take(kinds[int(self.rng.integers(len(kinds)))]) if kinds else None


def sort_key(name: str) -> tuple:
    n = 5 if name[0] == "0" else int(name[0])
    return ("mpsz".index(name[1]), n, name[0] == "0")


def deal_meld(wall: Wall, rng: np.random.Generator, players: int = 4) -> dict | None:
    """One called or concealed set drawn from the wall: a real chi, pon or kan, with where the called tile came from
    (three players: no chi, no one across)."""
    kind = str(rng.choice(list(MELD_P), p=list(MELD_P.values())))
    if players == 3 and kind == "chi":
        kind = "pon"
    for _ in range(30):
        if kind == "chi":
            s, n = "mps"[rng.integers(3)], int(rng.integers(1, 8))
            ks = [f"{n + i}{s}" for i in range(3)]
            if all(wall.count(k) for k in ks):
                tiles = [wall.take(k) for k in ks]
                called = int(rng.integers(3))  # which of the three was called; it is laid first (from the left)
                tiles = [tiles[called]] + tiles[:called] + tiles[called + 1:]
                return dict(type="chi", tiles=tiles, called=0, source="left")
            continue
        k = f"{rng.integers(1, 10)}{'mps'[rng.integers(3)]}" if rng.random() < 0.8 else f"{rng.integers(1, 8)}z"
        need = 3 if kind == "pon" else 4
        if wall.count(k) < need:
            continue
        tiles = [wall.take(k) for _ in range(need)]
        if kind == "ankan":
            return dict(type="ankan", tiles=tiles, called=None, source=None,
                        down=[0, 3] if rng.random() < 0.6 else [1, 2])
        source = SOURCES[rng.integers(3)] if players == 4 else ("left", "right")[rng.integers(2)]
        n_row = 4 if kind == "daiminkan" else 3
        called = {"left": 0, "across": 1, "right": n_row - 1}[source]
        meld = dict(type=kind, tiles=tiles[:n_row], called=called, source=source)
        if kind == "kakan":
            meld["added"] = tiles[3]
        return meld
    return None


def deal_complete(wall: Wall, rng: np.random.Generator, n: int) -> list[str] | None:
    """``n`` concealed tiles (2 mod 3) that are a complete hand's: sets (runs and triplets) and a pair, sorted,
    the winning tile (any of them) set last. None when the wall cannot give one."""
    for _ in range(30):
        taken: list[str] = []
        for _ in range((n - 2) // 3):
            if rng.random() < 0.6:
                s, k = "mps"[rng.integers(3)], int(rng.integers(1, 8))
                need = [f"{k + i}{s}" for i in range(3)]
            else:
                k = f"{rng.integers(1, 10)}{'mps'[rng.integers(3)]}" if rng.random() < 0.8 else f"{rng.integers(1, 8)}z"
                need = [k] * 3
            if all(wall.count(t) >= need.count(t) for t in set(need)):
                taken += [wall.take(t) for t in need]
        pairs = [k for k, v in wall.left.items() if len(v) >= 2]
        if len(taken) == n - 2 and pairs:
            k = pairs[int(rng.integers(len(pairs)))]
            taken += [wall.take(k), wall.take(k)]
            win = taken.pop(int(rng.integers(len(taken))))
            return sorted(taken, key=sort_key) + [win]
        for t in taken:  # put back and try again
            wall.left[kind_of(t)].append(t)
    return None


@dataclass
class Layout:
    tiles: list  # Placed
    table: dict  # structure, items refer to indices into tiles


def build_spread(rng: np.random.Generator, style: SetStyle) -> Layout:
    """Tiles laid face up side by side in a few rows, rows touching or nearly: a set or a hand spread out to be
    photographed (the real evaluation photos are such a grid), hard because tile edges meet on every side."""
    w, h = style.w, style.h
    wall = Wall(rng, red_fives=rng.random() < 0.85)
    n_rows = int(rng.integers(1, 6))
    per_row = int(rng.integers(4, 13))
    row_gap, gap = rng.uniform(0, 3) if rng.random() < 0.7 else rng.uniform(3, 12), rng.uniform(0, 0.8)
    sideways = rng.random() < 0.2  # now and then the whole spread lies across the camera
    tiles: list[Placed] = []
    for r in range(n_rows):
        n = per_row - (int(rng.integers(0, 3)) if rng.random() < 0.4 else 0)
        x0 = (rng.integers(0, 2) * (w + gap)) if rng.random() < 0.3 else 0.0  # a row starting one tile in
        y = (n_rows / 2 - r - 0.5) * (h + row_gap)
        for k in range(n):
            name = wall.random()
            if name is None:
                break
            x = x0 + (k - per_row / 2 + 0.5) * (w + gap) + rng.normal(0, 0.3)
            up = rng.normal(0, 1.5) + (180.0 if rng.random() < 0.05 else 0.0)
            p = lying(name, x, y + rng.normal(0, 0.3), up, style, face_down=rng.random() < 0.04, role="stray")
            if sideways:
                M = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1.0]])
                p.centre, p.ex, p.ey, p.ez = M @ p.centre, M @ p.ex, M @ p.ey, M @ p.ez
            p.seat = 0
            tiles.append(p)
    span = max(per_row * (w + gap), n_rows * (h + row_gap))
    table = dict(seats=[], dora_indicators=[], wall=[], stray=list(range(len(tiles))), y_hand=-span / 2, tile_w=w)
    return Layout(tiles, table)


def build_table(rng: np.random.Generator, style: SetStyle, framing: str, win: bool = False,
                draw: bool = False, players: int = 4) -> Layout:
    """Four seats' hands, melds and ponds, walls with dora indicators, and stray tiles, placed in the world.
    ``win``: the first seat's hand (the photographer's, in a snapshot) is a complete 14-tile hand, its winning tile
    set apart, as a photo taken to score a win shows it. ``draw``: the wall's end, every hand 13 tiles, each seat
    tenpai with its hand laid face up (six in ten) or noten with its hand standing, as an exhaustive draw shows
    them; otherwise hands are dealt at random. ``players``: 3 leaves the seat across empty, deals from the
    three-player set, and some seats lay norths aside at the right of their melds (kita), as players do."""
    if framing == "spread":
        return build_spread(rng, style)
    w, h, d = style.w, style.h, style.d
    gap = rng.uniform(0.2, 1.2)
    wall = Wall(rng, red_fives=rng.random() < 0.85, players=players)
    tiles: list[Placed] = []
    seats = []
    c0 = rng.uniform(1.6, 2.8) * h  # from the table centre to the first pond row
    y_wall = -(c0 + 3.6 * h + rng.uniform(5, 25))
    y_hand = y_wall - h - rng.uniform(25, 60)
    with_walls = rng.random() < 0.5
    dead_seat = int(rng.integers(4))
    seat_numbers = range(4) if players == 4 else (0, 1, 3)  # self, right, (across,) left
    if dead_seat not in seat_numbers:
        dead_seat = 0
    dora_ids: list[int] = []
    pond_base = int(rng.integers(0, 19))  # turns played: ponds are about equally long
    if draw:  # the wall's end: every player has discarded about 17 times, fewer when calls skipped their turns
        pond_base = int(rng.integers(14, 19))

    def add(p: Placed, seat: int) -> int:
        rot = seat * 90.0
        c, s = np.cos(np.radians(rot)), np.sin(np.radians(rot))
        M = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
        p.centre, p.ex, p.ey, p.ez = M @ p.centre, M @ p.ex, M @ p.ey, M @ p.ez
        p.seat = seat
        tiles.append(p)
        return len(tiles) - 1

    for seat in seat_numbers:
        melds = [m for m in (deal_meld(wall, rng, players) for _ in range(rng.choice(5, p=[.35, .3, .2, .1, .05])))
                 if m]
        n_conc = 13 - 3 * len(melds)
        drawn = rng.random() < 0.4
        complete = deal_complete(wall, rng, n_conc + 1) if win and seat == 0 else None
        tenpai = draw and rng.random() < 0.6
        if draw:
            drawn = False
            complete = deal_complete(wall, rng, n_conc + 1) if tenpai else None
            tenpai = complete is not None  # the wall could not give one: a hand dealt at random, noten
        if complete and draw:  # a complete hand less one tile, which goes back to the wall: tenpai
            conc = complete[:-1]
            wall.left[kind_of(complete[-1])].append(complete[-1])
        elif complete:
            conc, drawn = complete, True
        else:
            conc = [wall.random() for _ in range(n_conc + drawn)]
            if rng.random() < 0.85:
                conc[:n_conc] = sorted(conc[:n_conc], key=sort_key)
        pond = [t for t in (wall.random() for _ in range(max(0, pond_base + int(rng.integers(-1, 2))))) if t]
        riichi = int(rng.integers(len(pond))) if pond and rng.random() < 0.35 else None

        # concealed row: standing toward its player, or laid face up (an open hand)
        stand = rng.random() < (0.7 if (seat == 0 and framing == "corner") else 0.5)
        if draw:  # the tenpai show their hands, the noten keep theirs standing
            stand = not tenpai
        widths = [w if (m_i != m.get("called") or m["type"] == "ankan") else h
                  for m in melds for m_i in range(len(m["tiles"]))]
        melds_w = sum(widths) + gap * len(widths) + 6 * len(melds)
        hand_w = (n_conc + drawn) * (w + gap) + (w * 0.5 if drawn else 0)
        x = -(hand_w + 15 + melds_w) / 2 + rng.normal(0, 15)
        conc_ids = []
        for i, name in enumerate(conc):
            if drawn and i == n_conc:
                x += w * rng.uniform(0.3, 0.8)
            cx = x + w / 2
            if stand:
                p = standing(name, cx, y_hand, rng.normal(0, 1.5), style, role="concealed")
                p.centre[1] += rng.normal(0, 0.4)
            else:
                p = lying(name, cx, y_hand - d / 2 + h / 2, rng.normal(0, 1.0), style, role="concealed")
            conc_ids.append(add(p, seat))
            x += w + gap
        # melds to the right, the first call right-most; tiles lie face up with near edges aligned
        x = x + 15 + rng.uniform(0, 10)
        y_near = y_hand - d / 2
        meld_recs = []
        for m in reversed(melds):
            rec = dict(type=m["type"], source=m["source"], tiles=[], called=None, added=None)
            for i, name in enumerate(m["tiles"]):
                side = m["type"] != "ankan" and i == m["called"]
                tw = h if side else w
                cx = x + tw / 2
                if side:
                    turn = 90.0 if rng.random() < 0.85 else -90.0
                    p = lying(name, cx, y_near + w / 2, turn + rng.normal(0, 1), style, role="meld")
                    rec["called"] = add(p, seat)
                    rec["tiles"].append(rec["called"])
                    if m["type"] == "kakan":
                        q = lying(m["added"], cx + rng.normal(0, 0.8), y_near + 1.5 * w + gap, turn + rng.normal(0, 1),
                                  style, role="meld")
                        rec["added"] = add(q, seat)
                        rec["tiles"].append(rec["added"])
                else:
                    down = m["type"] == "ankan" and i in m["down"]
                    p = lying(name, cx, y_near + h / 2, rng.normal(0, 1), style, face_down=down, role="meld")
                    rec["tiles"].append(add(p, seat))
                x += tw + gap
            x += rng.uniform(3, 9)
            meld_recs.append(rec)
        kita_ids = []
        if players == 3:  # norths set aside, laid apart at the right of the melds
            x += rng.uniform(0.4, 1.2) * w
            for _ in range(min(int(rng.choice([0, 0, 0, 1, 1, 2, 3])), wall.count("4z"))):
                p = lying(wall.take("4z"), x + w / 2, y_near + h / 2, rng.normal(0, 1), style, role="kita")
                kita_ids.append(add(p, seat))
                x += w + gap
        # pond: rows of six from the centre toward the player, the riichi tile turned sideways
        pond_recs = []
        x0 = -3 * (w + gap) + rng.normal(0, 4)
        x, row = x0, 0
        for i, name in enumerate(pond):
            r = min(i // 6, 2)
            if r != row:
                row, x = r, x0
            y_near = -(c0 + (row + 1) * (h + gap))
            if i == riichi:
                p = lying(name, x + h / 2, y_near + w / 2, 90.0 + rng.normal(0, 2), style, role="pond")
                x += h + gap
            else:
                p = lying(name, x + w / 2 + rng.normal(0, 0.7), y_near + h / 2 + rng.normal(0, 0.7),
                          rng.normal(0, 2.0), style, role="pond")
                x += w + gap
            pond_recs.append(dict(tile=add(p, seat), riichi=i == riichi))
        seats.append(dict(seat=seat, rotation=seat * 90, concealed=conc_ids, standing=bool(stand),
                          drawn=conc_ids[-1] if drawn else None, melds=meld_recs, pond=pond_recs, kita=kita_ids))

    # walls (stacks two high, part taken) with the dead wall's dora indicators, or indicators laid aside
    n_dora = int(rng.choice([1, 1, 1, 2, 3]))
    wall_ids = []
    if with_walls:
        for seat in seat_numbers:
            n = int(rng.integers(0, 18)) if seat != dead_seat else int(rng.integers(7, 18))
            start = int(rng.integers(0, 18 - n + 1))
            for k in range(start, start + n):
                cx = (k - 8.5) * (w + 0.4)
                for tier in range(2):
                    is_dora = seat == dead_seat and tier == 1 and k - start in range(2, 2 + n_dora)
                    name = wall.random()
                    if name is None:
                        break
                    p = lying(name, cx, y_wall + h / 2, 180.0 if rng.random() < 0.5 else 0.0, style,
                              face_down=not is_dora, z0=tier * d, role="dora" if is_dora else "wall")
                    i = add(p, seat)
                    (dora_ids if is_dora else wall_ids).append(i)
    else:
        seat = 0 if framing == "corner" else dead_seat
        x = rng.uniform(-0.9, 0.2) * abs(y_hand)
        y = y_wall + rng.uniform(-0.3, 0.6) * h
        for k in range(n_dora + int(rng.integers(0, 3))):
            is_dora = k < n_dora
            name = wall.random()
            if name is None:  # the wall is used up: no fifth copy of anything
                break
            p = lying(name, x + k * (w + gap) + w / 2, y + h / 2, rng.normal(0, 2), style,
                      face_down=not is_dora, role="dora" if is_dora else "wall")
            i = add(p, seat)
            (dora_ids if is_dora else wall_ids).append(i)
    # stray tiles anywhere near the middle, any angle, some face down
    stray = []
    for _ in range(int(rng.choice([0, 0, 1, 2, 3]))):
        r = rng.uniform(0, abs(y_hand) * 0.8)
        a = rng.uniform(0, 2 * np.pi)
        name = wall.random()
        if name is None:
            break
        p = lying(name, r * np.cos(a), r * np.sin(a), rng.uniform(0, 360), style,
                  face_down=rng.random() < 0.3, role="stray")
        stray.append(add(p, 0))
    table = dict(seats=seats, dora_indicators=dora_ids, wall=wall_ids, stray=stray, y_hand=float(y_hand), tile_w=w,
                 players=players)
    return Layout(tiles, table)


# ---------------------------------------------------------------- camera

@dataclass
class Camera:
    f: float
    cx: float
    cy: float
    R: np.ndarray  # world -> camera rows: right, down, forward
    C: np.ndarray
    width: int
    height: int

    def project(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q = (P - self.C) @ self.R.T
        z = q[:, 2]
        zs = np.maximum(z, 1e-3)
        return np.stack([self.f * q[:, 0] / zs + self.cx, self.f * q[:, 1] / zs + self.cy], 1), z

    def plane_homography(self) -> np.ndarray:
        """Table plane (x, y, 1) in mm -> image pixels."""
        K = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]])
        t = -self.R @ self.C
        return K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])


def look_at(C, T, roll_deg, f, width, height) -> Camera:
    C, T = np.asarray(C, float), np.asarray(T, float)
    fwd = (T - C) / np.linalg.norm(T - C)
    hint = np.array([0, 0, 1.0]) if abs(fwd[2]) < 0.97 else np.array([0, 1.0, 0])
    right = np.cross(fwd, hint)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    a = np.radians(roll_deg)
    right, down = np.cos(a) * right + np.sin(a) * down, -np.sin(a) * right + np.cos(a) * down
    return Camera(f, width / 2, height / 2, np.stack([right, down, fwd]), C, width, height)


def sample_camera(rng, framing: str, width: int, height: int, layout: Layout) -> Camera:
    """A phone: a snapshot of the photographer's corner, or the whole table from above; any roll."""
    fov = np.radians(rng.uniform(52, 72))  # across the long side
    f = max(width, height) / 2 / np.tan(fov / 2)
    y_hand = layout.table["y_hand"]
    if framing == "spread":  # from above or a little aslant, the whole spread in view, tiles >= ~19 px
        half = abs(y_hand) + 20
        short = min(width, height) / 2
        z = min(f * half / short * rng.uniform(0.55, 1.3), f * layout.table["tile_w"] / 19)
        tilt = rng.uniform(0, 0.45) * z
        a = rng.uniform(0, 2 * np.pi)
        C = (tilt * np.cos(a), tilt * np.sin(a), z)
        T = (rng.normal(0, 0.05 * half), rng.normal(0, 0.05 * half), 0)
        roll = rng.normal(0, 6) if rng.random() < 0.6 else rng.uniform(0, 360)
    elif framing == "table":
        half = abs(y_hand) + 30
        short = min(width, height) / 2
        z = min(f * half / short * rng.uniform(0.8, 1.25), f * layout.table["tile_w"] / 19)  # tiles >= ~19 px
        C = (rng.normal(0, 0.08 * half), rng.normal(0, 0.08 * half) - rng.uniform(0, 0.35) * z, z)
        T = (rng.normal(0, 0.05 * half), rng.normal(0, 0.05 * half), 0)
        roll = rng.uniform(0, 360)
    else:
        seat0 = layout.table["seats"][0]
        hand = np.mean([layout.tiles[i].centre for i in seat0["concealed"]], 0)
        keep = [hand] + [layout.tiles[m["tiles"][0]].centre for m in seat0["melds"][:1]]
        for _ in range(20):  # a snapshot that shows the photographer's hand and at least the nearest meld
            xt = hand[0] + rng.normal(0, 70)
            T = (xt, y_hand + rng.uniform(20, 170), 0)
            dist = rng.uniform(220, 650)
            pitch = np.radians(rng.uniform(35, 70))
            yaw = np.radians(rng.normal(0, 15))
            C = (xt + dist * np.cos(pitch) * np.sin(yaw), T[1] - dist * np.cos(pitch) * np.cos(yaw),
                 dist * np.sin(pitch))
            roll = rng.normal(0, 8) if rng.random() < 0.65 else rng.uniform(0, 360)
            cam = look_at(C, T, roll, f, width, height)
            uv, z = cam.project(np.array(keep))
            if (z > 0).all() and ((uv > [-20, -20]) & (uv < [width + 20, height + 20])).all():
                return cam
    return look_at(C, T, roll, f, width, height)


# ---------------------------------------------------------------- background and photo effects

def _noise(rng, h, w, cells, smooth=True):
    small = rng.normal(0, 1, (cells, cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC if smooth else cv2.INTER_NEAREST)


def texture(rng, n=512, light: bool = False) -> np.ndarray:
    """A table surface, RGB float: felt, wood, cloth or a plain light/dark top (light: a white or pale top,
    where white tiles stand out by their edges and shadows alone)."""
    kind = "plain" if light else rng.choice(["felt", "wood", "cloth", "plain"], p=[.45, .2, .15, .2])
    if kind == "felt":
        base = [(32, 104, 62), (28, 72, 122), (90, 92, 96), (120, 36, 40), (30, 30, 34), (40, 120, 110)]
    elif kind == "wood":
        base = [(150, 100, 60), (110, 70, 40), (190, 150, 105), (80, 50, 30)]
    elif kind == "cloth":
        base = [(180, 170, 150), (60, 70, 110), (140, 60, 50), (70, 110, 80)]
    else:
        base = ([(235, 235, 232), (244, 243, 240), (225, 222, 214), (205, 200, 190)] if light else
                [(235, 235, 232), (205, 200, 190), (160, 160, 165), (60, 58, 56)])
    col = np.array(base[rng.integers(len(base))], np.float32) + rng.normal(0, 10, 3)
    img = np.broadcast_to(col, (n, n, 3)).astype(np.float32).copy()
    low = _noise(rng, n, n, 6) * rng.uniform(3, 12)
    if kind == "wood":
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        warp = _noise(rng, n, n, 5) * rng.uniform(10, 40)
        grain = np.sin((yy + warp) * rng.uniform(0.1, 0.35)) * 0.5 + 0.5
        img *= (0.8 + 0.25 * grain)[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(img))
    elif kind == "cloth":
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        p = rng.uniform(0.8, 2.0)
        img *= (0.9 + 0.1 * np.sin(xx * p) * np.sin(yy * p))[..., None]
    fine = rng.normal(0, rng.uniform(2, 8), (n, n, 1)).astype(np.float32)
    if kind == "felt":
        fine = cv2.GaussianBlur(fine, (0, 0), 0.8)[..., None]
    return np.clip(img + low[..., None] + fine, 0, 255)


PRINTED_SHARE = 0.5  # of the cloths (``_printed``)
# RGB of what stands about a table and is not a tile: wallpaper and curtain browns and beiges, a blue cloth, greys
CLUTTER_COLOURS = [(150, 120, 90), (120, 95, 70), (190, 170, 140), (90, 70, 55), (70, 90, 150), (110, 130, 170),
                   (128, 128, 128), (60, 60, 64), (170, 60, 50), (200, 190, 160)]


def clutter(rng, img: np.ndarray, px_per_mm: float) -> None:
    """Things that are not tiles, drawn in place on a table texture (RGB float, ``px_per_mm`` pixels a mm): sheets
    of paper (some printed), cloths in folds (some printed), dark things (a phone, a cup), point sticks, plain
    boards. Real photos showed false tiles on such things (``bench/bench_single_tiles.py``); a scene with them
    teaches what is not a tile. None is the size and colour of a tile: they are larger, darker or thinner."""
    n = img.shape[0]
    for _ in range(int(rng.integers(2, 7))):
        kind = rng.choice(list(CLUTTER_THINGS), p=[.3, .3, .15, .1, .15])
        centre = rng.uniform(0, n, 2)
        angle = rng.uniform(0, np.pi)
        CLUTTER_THINGS[kind](rng, img, centre, angle, px_per_mm)
    np.clip(img, 0, 255, out=img)


def turn_matrix(angle: float) -> np.ndarray:
    """The 2 x 2 matrix turning a point by ``angle`` radians counterclockwise (about the table's vertical, in x-y)."""
    return np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def _paper(rng, img: np.ndarray, centre: np.ndarray, angle: float, px_per_mm: float) -> None:
    """A sheet of white paper, half of them printed with lines of text."""
    rot = turn_matrix(angle)
    w, h = rng.uniform(90, 300), rng.uniform(60, 210)
    corners = (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ rot.T * px_per_mm + centre
    colour = np.array([rng.uniform(215, 250)] * 3) * rng.uniform(0.96, 1.0, 3)
    cv2.fillPoly(img, [np.int32(np.round(corners))], colour.tolist(), cv2.LINE_AA)
    if rng.random() < 0.5:
        for k in range(int(rng.integers(3, 12))):
            y = -h / 2 + (k + 1) * h / 14
            a, b = np.array([-w * 0.4, y]) @ rot.T, np.array([w * rng.uniform(-0.2, 0.4), y]) @ rot.T
            cv2.line(img, tuple(np.int32(a * px_per_mm + centre)), tuple(np.int32(b * px_per_mm + centre)),
                     [rng.uniform(20, 90)] * 3, max(1, int(round(1.5 * px_per_mm))), cv2.LINE_AA)


def _cloth(rng, img: np.ndarray, centre: np.ndarray, angle: float, px_per_mm: float) -> None:
    """A cloth of one colour, shaded in parallel folds."""
    n = img.shape[0]
    size = rng.uniform(120, 450) * px_per_mm
    hull = cv2.convexHull(np.float32(centre + rng.normal(0, size / 3, (8, 2))))
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.int32(hull)], 1.0, cv2.LINE_AA)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    folds = 0.85 + 0.15 * np.sin((xx * np.cos(angle) + yy * np.sin(angle)) * rng.uniform(0.05, 0.3))
    colour = np.array(CLUTTER_COLOURS[rng.integers(len(CLUTTER_COLOURS))], np.float32)
    cloth = colour * folds[..., None]
    if rng.random() < PRINTED_SHARE:
        cloth = _printed(rng, cloth, colour, px_per_mm)
    img[:] = img * (1 - mask[..., None]) + cloth * mask[..., None]


def _printed(rng, cloth: np.ndarray, colour: np.ndarray, px_per_mm: float) -> np.ndarray:
    """A cloth's print: blotches of a second tone, some 1-6 cm across, and small flowers of a third. Real
    photos showed false face-down tiles on a printed blue cloth (``bench/bench_single_tiles.py``)."""
    n = cloth.shape[0]
    cells = int(np.clip(n / (rng.uniform(15, 60) * px_per_mm), 2, n // 4))
    field = _noise(rng, n, n, cells)
    blotch = np.clip((field - np.quantile(field, rng.uniform(0.5, 0.8))) * 4, 0, 1)[..., None]
    second = np.clip(colour * rng.uniform(1.25, 1.8), 0, 255)
    out = cloth * (1 - blotch) + second * (cloth / np.maximum(colour, 1)) * blotch
    third = np.array(CLUTTER_COLOURS[rng.integers(len(CLUTTER_COLOURS))], np.float32)
    radius = rng.uniform(3, 12) * px_per_mm
    for x, y in rng.uniform(0, n, (int(rng.integers(0, 40)), 2)):
        cv2.ellipse(out, (int(x), int(y)), (max(1, int(radius)), max(1, int(radius * rng.uniform(0.4, 1)))),
                    float(rng.uniform(0, 180)), 0, 360, third.tolist(), -1, cv2.LINE_AA)
    return out


def _board(rng, img: np.ndarray, centre: np.ndarray, angle: float, px_per_mm: float) -> None:
    """A flat board (a box's lid, a book, a tray) of one colour, lit unevenly, its rim a shade darker: a plain
    face larger than a tile's, as walls and boxes are where real photos showed false tiles."""
    rot = turn_matrix(angle)
    w, h = rng.uniform(90, 350), rng.uniform(70, 250)
    corners = np.int32(np.round((np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ rot.T * px_per_mm + centre))
    colour = np.array(CLUTTER_COLOURS[rng.integers(len(CLUTTER_COLOURS))], np.float32) * rng.uniform(0.8, 1.2)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillPoly(mask, [corners], 1.0, cv2.LINE_AA)
    shade = 1 + 0.15 * _noise(rng, img.shape[0], img.shape[1], 3)
    img[:] = img * (1 - mask[..., None]) + np.clip(colour * shade[..., None], 0, 255) * mask[..., None]
    cv2.polylines(img, [corners], True, (colour * 0.7).tolist(), max(1, int(round(2 * px_per_mm))), cv2.LINE_AA)


def _dark(rng, img: np.ndarray, centre: np.ndarray, angle: float, px_per_mm: float) -> None:
    """A dark rounded thing (a phone, a cup) with a highlight along part of its rim."""
    axes = tuple(int(v) for v in rng.uniform(35, 90, 2) * px_per_mm)
    centre_px = tuple(int(v) for v in centre)
    cv2.ellipse(img, centre_px, axes, float(np.degrees(angle)), 0, 360, [rng.uniform(15, 70)] * 3, -1,
                cv2.LINE_AA)
    cv2.ellipse(img, centre_px, axes, float(np.degrees(angle)), 200, 250, [rng.uniform(120, 200)] * 3,
                max(1, int(3 * px_per_mm)), cv2.LINE_AA)


def _sticks(rng, img: np.ndarray, centre: np.ndarray, angle: float, px_per_mm: float) -> None:
    """Point sticks: thin white sticks with a coloured dot, a few side by side."""
    rot = turn_matrix(angle)
    for k in range(int(rng.integers(1, 5))):
        offset = np.array([0, k * 6]) @ rot.T
        ends = np.array([[-52, 0], [52, 0]]) @ rot.T + offset
        a, b = (np.int32(e * px_per_mm + centre) for e in ends)
        cv2.line(img, tuple(a), tuple(b), [rng.uniform(220, 250)] * 3, max(1, int(round(4 * px_per_mm))),
                 cv2.LINE_AA)
        if px_per_mm * 4 >= 2:
            dot = CLUTTER_COLOURS[rng.integers(len(CLUTTER_COLOURS))]
            cv2.circle(img, tuple(np.int32((a + b) / 2)), max(1, int(1.5 * px_per_mm)), dot, -1, cv2.LINE_AA)


CLUTTER_THINGS = {"paper": _paper, "cloth": _cloth, "dark": _dark, "sticks": _sticks, "board": _board}


def background(rng, cam: Camera, half_table: float, light: bool = False,
               clutter_rng: np.random.Generator | None = None) -> np.ndarray:
    """The mat and what lies beyond it, seen through the camera (RGB float32); with ``clutter_rng``, things that
    are not tiles lie on both and a curtain hangs beyond (``clutter``)."""
    n = 512
    span = 2 * (half_table + rng.uniform(40, 180))  # the mat, mm
    mat = texture(rng, n, light)
    outside = texture(rng, n // 2)
    if clutter_rng is not None:
        clutter(clutter_rng, mat, n / span)
        clutter(clutter_rng, outside, (n // 2) / (6 * span))
    Hp = cam.plane_homography()
    # mat texture pixel -> world mm -> image
    S = np.array([[span / n, 0, -span / 2], [0, -span / n, span / 2], [0, 0, 1]])
    img = cv2.warpPerspective(mat, Hp @ S, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(-1, -1, -1))
    S2 = np.array([[6 * span / (n // 2), 0, -3 * span], [0, -6 * span / (n // 2), 3 * span], [0, 0, 1]])
    far = cv2.warpPerspective(outside, Hp @ S2, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    # beyond the horizon or behind the camera nothing is table: replace with a dim wall colour
    hinv = np.linalg.inv(Hp)
    ys, xs = np.mgrid[0:cam.height:16, 0:cam.width:16]
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    wz = (hinv @ pts)[2].reshape(xs.shape)
    sky = cv2.resize((wz <= 0).astype(np.uint8), (cam.width, cam.height), interpolation=cv2.INTER_NEAREST) > 0
    far[sky] = np.array([rng.uniform(40, 200)] * 3, np.float32) * rng.uniform(0.8, 1.1, 3)
    if clutter_rng is not None and clutter_rng.random() < 0.7:  # a curtain in folds, or a papered wall
        folds = np.sin(np.arange(cam.width, dtype=np.float32) * clutter_rng.uniform(0.02, 0.12)
                       + clutter_rng.uniform(0, 6.3))
        wall = np.array(CLUTTER_COLOURS[clutter_rng.integers(len(CLUTTER_COLOURS))], np.float32)
        far[sky] = (wall * (0.8 + 0.2 * folds[:, None]))[np.nonzero(sky)[1]]
    out = np.where(img[..., :1] < 0, far, img)
    return out.astype(np.float32)


@dataclass
class Photo:
    """Camera and lighting degradations; `clean()` turns all off (for tests that compare pixels)."""
    shadow_strength: float
    light_dir: tuple
    gain_amp: float
    cast: tuple
    glare: int
    blob_shadow: bool
    defocus: float
    motion: int
    motion_angle: float
    noise: float
    gamma: float
    vignette: float
    jpeg_quality: int

    @staticmethod
    def sample(rng) -> "Photo":
        return Photo(shadow_strength=rng.uniform(0.15, 0.5), light_dir=tuple(rng.normal(0, 1, 2)),
                     gain_amp=rng.uniform(0.0, 0.35), cast=tuple(rng.normal(1, 0.035, 3)),
                     glare=int(rng.choice([0, 0, 0, 1, 2])), blob_shadow=bool(rng.random() < 0.3),
                     defocus=rng.uniform(0.3, 1.6) if rng.random() < 0.4 else 0.0,
                     motion=int(rng.integers(3, 12)) if rng.random() < 0.25 else 0,
                     motion_angle=rng.uniform(0, 180), noise=rng.uniform(1, 7) if rng.random() < 0.75 else 0.0,
                     gamma=rng.uniform(0.8, 1.25), vignette=rng.uniform(0, 0.4) if rng.random() < 0.4 else 0.0,
                     jpeg_quality=int(rng.integers(40, 96)))

    @staticmethod
    def clean() -> "Photo":
        return Photo(0.0, (1.0, 1.0), 0.0, (1.0, 1.0, 1.0), 0, False, 0.0, 0, 0.0, 0.0, 1.0, 0.0, 95)


@dataclass
class Lamp:
    """One strong light over the table, a bulb or a low sun through a window, besides the room's soft light.

    Real photos taken under one lamp show what the soft lighting of ``Photo`` never draws: each tile casts a hard,
    long shadow of its own shape onto the table (the real whole-set photos' shadows at row ends were read as
    face-down tiles), faces turned to the lamp are brighter than those turned away, and the lamp's white is far from
    daylight's (a tungsten bulb's warmth, a cold LED's blue; ``bench/bench_real_conditions.py``'s casts are
    inside this range, not beyond it). Shadows fall on the table only: a tile is never drawn in another's shadow.
    """
    toward: tuple  # unit vector from the table toward the lamp (world frame, z up)
    darkness: float  # the share of the light a shadow takes away
    softness: float  # px: the shadow edge's blur (a small lamp near the table: sharp)
    cast: tuple  # RGB gains of the lamp's white

    @staticmethod
    def sample(rng) -> "Lamp":
        elevation, azimuth = np.radians(rng.uniform(22, 65)), rng.uniform(0, 2 * np.pi)
        toward = (np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth), np.sin(elevation))
        warmth = rng.uniform(-1, 1)  # -1: a cold LED, 0: daylight, 1: a tungsten bulb
        if warmth >= 0:
            r, g, b = 1 + 0.14 * warmth, 1 - 0.1 * warmth, 1 - 0.4 * warmth
        else:
            r, g, b = 1 + 0.22 * warmth, 1.0, 1 - 0.16 * warmth
        g *= 1 + rng.normal(0, 0.03)  # a green or magenta tint (fluorescent tubes, phone white balance)
        return Lamp(toward=tuple(float(v) for v in toward), darkness=float(rng.uniform(0.3, 0.65)),
                    softness=float(rng.uniform(0.4, 2.0)), cast=(float(r), float(g), float(b)))

    def face_gain(self, normal: np.ndarray) -> float:
        """How bright a face of this normal is against the open table: as dark as a shadow when it is turned
        away, brighter than the table when it is turned to a low lamp (capped, as the camera's exposure is)."""
        lit = max(0.0, float(np.dot(normal, self.toward))) / self.toward[2]
        return (1 - self.darkness) + self.darkness * min(lit, 1.6)

    def to_dict(self) -> dict:
        return dict(toward=[round(v, 4) for v in self.toward], darkness=round(self.darkness, 3),
                    softness=round(self.softness, 2), cast=[round(v, 3) for v in self.cast])


def cast_shadows(img: np.ndarray, world: list, cam: "Camera", lamp: Lamp) -> np.ndarray:
    """The lamp's hard shadows on the table: each tile's body (``world``: its points, or None out of view) cast
    along the light onto z = 0, so its shadow starts at its foot and is as long as the tile is tall."""
    H, W = img.shape[:2]
    m = np.zeros((H, W), np.float32)
    toward = np.array(lamp.toward)
    for P in world:
        if P is None:
            continue
        uv, z = cam.project(P - toward * (P[:, 2:3] / toward[2]))
        if z.min() < 30:  # the shadow reaches behind the camera: not drawn rather than drawn wrong
            continue
        _fill(m, cv2.convexHull(uv.astype(np.float32))[:, 0], (1.0,))
    m = cv2.GaussianBlur(m, (0, 0), lamp.softness)
    return (img * (1 - lamp.darkness * np.clip(m, 0, 1))[..., None]).astype(np.uint8)


def _low_res_field(h, w, fn, scale=8):
    """Compute a smooth full-size field at 1/scale resolution (fast), then upsample."""
    hs, ws = max(2, h // scale), max(2, w // scale)
    return cv2.resize(fn(hs, ws).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def apply_photo(img: np.ndarray, ph: Photo, rng) -> np.ndarray:
    """Uneven light, vignette, hand shadow, glare, colour cast, gamma, blur, noise (RGB float in, uint8 out).

    Smooth fields are made at low resolution: a 1024-px photo costs a few tens of milliseconds.
    """
    h, w = img.shape[:2]

    def gain_field(hs, ws):
        yy, xx = np.mgrid[0:hs, 0:ws].astype(np.float32)
        g = np.ones((hs, ws), np.float32)
        if ph.gain_amp:
            d = np.array(ph.light_dir) / (np.linalg.norm(ph.light_dir) + 1e-6)
            ramp = (xx / ws - 0.5) * d[0] + (yy / hs - 0.5) * d[1]
            g *= 1 + ph.gain_amp * (ramp + 0.3 * _noise(rng, hs, ws, 3))
        if ph.vignette:
            g *= 1 - ph.vignette * 2 * (((xx - ws / 2) / ws) ** 2 + ((yy - hs / 2) / hs) ** 2)
        if ph.blob_shadow:
            m = np.zeros((hs, ws), np.float32)
            pts = (rng.uniform(-0.3, 1.3, (5, 2)) * [ws, hs]).astype(np.int32)
            cv2.fillConvexPoly(m, cv2.convexHull(pts), 1.0)
            g *= 1 - rng.uniform(0.2, 0.45) * cv2.GaussianBlur(m, (0, 0), max(hs, ws) * 0.03)
        return g

    def glare_field(hs, ws):
        m = np.zeros((hs, ws), np.float32)
        for _ in range(ph.glare):
            one = np.zeros((hs, ws), np.float32)
            c = (int(rng.uniform(0, ws)), int(rng.uniform(0, hs)))
            ax = (max(1, int(rng.uniform(0.02, 0.12) * ws)), max(1, int(rng.uniform(0.01, 0.06) * hs)))
            cv2.ellipse(one, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
            m += rng.uniform(40, 140) * cv2.GaussianBlur(one, (0, 0), max(ax) * 0.5 + 1)
        return m

    if ph.gain_amp or ph.vignette or ph.blob_shadow:
        img = img * _low_res_field(h, w, gain_field)[..., None]
    if ph.glare:
        img = img + _low_res_field(h, w, glare_field)[..., None]
    img = img * np.array(ph.cast, np.float32)
    if ph.gamma != 1.0:
        lut = (255.0 * (np.arange(256) / 255.0) ** ph.gamma).astype(np.uint8)
        img = cv2.LUT(np.clip(img + 0.5, 0, 255).astype(np.uint8), lut).astype(np.float32)
    if ph.defocus:
        img = cv2.GaussianBlur(img, (0, 0), ph.defocus)
    if ph.motion:
        k = np.zeros((ph.motion, ph.motion), np.float32)
        c = (ph.motion - 1) / 2
        a = np.radians(ph.motion_angle)
        cv2.line(k, (int(round(c - c * np.cos(a))), int(round(c - c * np.sin(a)))),
                 (int(round(c + c * np.cos(a))), int(round(c + c * np.sin(a)))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    if ph.noise:
        lum = rng.standard_normal((h, w, 1), dtype=np.float32) * ph.noise
        chroma = rng.standard_normal((h // 2, w // 2, 3), dtype=np.float32) * (ph.noise * 0.5)
        img = img + lum + cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- drawing tiles and labelling them

def _fill(img, pts, colour):
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), tuple(float(c) for c in colour), cv2.LINE_AA, 4)


def _blend_sprite(img, levels, quad, gain):
    """Warp a face sprite (pyramid) onto an image quad (TL, TR, BR, BL) with its alpha."""
    H, W = img.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if xb <= xa or yb <= ya:
        return
    side = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]) * 0.75)
    lv = levels[0]
    for cand in levels:
        if cand.shape[1] >= side * 1.2:
            lv = cand
    sh, sw = lv.shape[:2]
    src = np.float32([[0, 0], [sw, 0], [sw, sh], [0, sh]])
    M = cv2.getPerspectiveTransform(src, (quad - [xa, ya]).astype(np.float32))
    warped = cv2.warpPerspective(lv, M, (xb - xa, yb - ya), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = warped[..., 3:4].astype(np.float32) / 255.0
    roi = img[ya:yb, xa:xb].astype(np.float32)
    img[ya:yb, xa:xb] = np.clip(roi * (1 - a) + warped[..., :3] * gain * a + 0.5, 0, 255).astype(np.uint8)


def render(tiles: list[Placed], style: SetStyle, cam: Camera, atlas: dict, base: np.ndarray,
           shadow: float = 0.3, light=(1.0, 1.0), rng=None, lamp: Lamp | None = None) -> tuple[np.ndarray, list]:
    """Draw tiles far to near onto base (RGB uint8) and label each visible one; with a ``lamp``, its hard shadows
    on the table and its light on the faces too (the labels are the same either way).

    Returns the image and, per tile, None (not in view) or a dict with class, polygon of the visible face or back
    (TL, TR, BR, BL as the glyph reads), box hugging the tile's body, lie, and visibility.
    """
    img = base.copy()
    H, W = img.shape[:2]
    w, h = style.w, style.h
    O = outline(w, h, style.radius * w)
    face_c = np.array([[-w / 2, h / 2], [w / 2, h / 2], [w / 2, -h / 2], [-w / 2, -h / 2]])
    back_c = face_c * [-1, 1]  # seen from behind, the tile's right is the viewer's left
    side_face = np.array(style.face_rgb) * 0.86
    side_back = np.array(style.back_rgb) * 0.86
    geo, world = [], []
    for p in tiles:
        body = np.concatenate([p.points(style, O, z) for z in (0.0, style.back_layer, 1.0)])
        uv, z = cam.project(body)
        if z.min() < 30:
            geo.append(None)
            world.append(None)
            continue
        geo.append((uv.reshape(3, len(O), 2), z.mean()))
        world.append(body)
    order = sorted((i for i, g in enumerate(geo) if g is not None), key=lambda i: -geo[i][1])
    if shadow > 0:  # soft contact shadows, cast away from the light
        m = np.zeros((H, W), np.float32)
        ld = np.array(light, float) / (np.linalg.norm(light) + 1e-9)
        for i in order:
            uv = geo[i][0]
            size = np.linalg.norm(uv[2, 0] - uv[2, len(O) // 2])
            _fill(m, cv2.convexHull(uv.reshape(-1, 2).astype(np.float32))[:, 0] + ld * size * 0.2, (1.0,))
        m = cv2.GaussianBlur(m, (0, 0), 2.5)
        img = (img * (1 - shadow * np.clip(m, 0, 1))[..., None]).astype(np.uint8)
    if lamp is not None:
        img = cast_shadows(img, world, cam, lamp)
    ids = np.zeros((H, W), np.uint16)
    anns: list = [None] * len(tiles)
    image_rect = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    for i in order:
        p, (uv, _) = tiles[i], geo[i]
        sil = cv2.convexHull(uv.reshape(-1, 2).astype(np.float32))[:, 0]
        full = cv2.contourArea(sil)
        inside, _ = cv2.intersectConvexConvex(sil, image_rect)
        if inside <= 0 or full <= 0:
            continue
        face_seen = np.dot(cam.C - (p.centre + p.ez * style.d / 2), p.ez) > 0
        if face_seen:
            _fill(img, cv2.convexHull(np.concatenate([uv[0], uv[1]]).astype(np.float32))[:, 0], side_back)
            _fill(img, cv2.convexHull(np.concatenate([uv[1], uv[2]]).astype(np.float32))[:, 0], side_face)
            name, corners, zc = p.name, face_c, 1.0
        else:
            _fill(img, cv2.convexHull(np.concatenate([uv[2], uv[1]]).astype(np.float32))[:, 0], side_face)
            _fill(img, cv2.convexHull(np.concatenate([uv[1], uv[0]]).astype(np.float32))[:, 0], side_back)
            name, corners, zc = "back", back_c, 0.0
        quad, _ = cam.project(p.points(style, corners, zc))
        normal = p.ez if face_seen else -p.ez
        gain = 0.9 + 0.12 * normal[2] + (rng.normal(0, 0.015) if rng is not None else 0.0)
        if lamp is not None:
            gain *= lamp.face_gain(normal)
        _blend_sprite(img, atlas[name], quad, gain)
        cv2.fillConvexPoly(ids, np.round(sil * 16).astype(np.int32), i + 1, cv2.LINE_8, 4)
        up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
        # labels use pixel-edge coordinates (the image spans 0..W), drawing used pixel centres: shift by half
        quad, sil = quad + 0.5, sil + 0.5
        x0, y0 = np.clip(sil.min(0), 0, [W, H])
        x1, y1 = np.clip(sil.max(0), 0, [W, H])
        anns[i] = dict(cls=name, polygon=quad.round(2).tolist(), box=[round(float(v), 2) for v in (x0, y0, x1, y1)],
                       lie=lie_of(up[0], up[1]), cap_area=float(cv2.contourArea(quad.astype(np.float32))),
                       area=float(full), in_image=float(inside))
    counts = np.bincount(ids.ravel(), minlength=len(tiles) + 1)
    for i, a in enumerate(anns):
        if a is None:
            continue
        vis = counts[i + 1] / max(a["in_image"], 1.0)
        a["visible"] = round(float(min(1.0, counts[i + 1] / max(a["area"], 1.0))), 3)
        a["cap_visible"] = round(_cap_visible(ids, i + 1, np.array(a["polygon"]) - 0.5), 3)
        a["occluded"] = bool(vis < 0.85)
        a["truncated"] = bool(a["in_image"] < 0.97 * a["area"])
        # label it when enough shows, its face/back is not seen edge-on (the top of a standing tile from above)
        # and not hidden (the lower tier of a wall, under the upper one, shows only its side)
        a["labelled"] = bool(a["visible"] >= 0.4 and a["cap_area"] >= 0.2 * a["area"] and a["cap_visible"] >= 0.4)
    return img, anns


def _cap_visible(ids: np.ndarray, tile_id: int, quad: np.ndarray) -> float:
    """The fraction of a tile's face or back (a quad in pixel-centre coordinates) not hidden by nearer tiles."""
    H, W = ids.shape
    x0, y0 = np.clip(np.floor(quad.min(0)).astype(int), 0, [W, H])
    x1, y1 = np.clip(np.ceil(quad.max(0)).astype(int) + 1, 0, [W, H])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    inside = int(mask.sum())
    return float((ids[y0:y1, x0:x1][mask > 0] == tile_id).sum() / inside) if inside else 0.0


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8, ready for cv2.imwrite
    annotations: list  # labelled or not, every tile in view
    table: dict
    jpeg_quality: int


_SETS: dict = {}


def tile_set(style_seed, shared: Path) -> tuple[SetStyle, dict]:
    """A set's style and all its face sprites, from its own seed; kept for the next scenes that use the same set."""
    key = (tuple(np.atleast_1d(style_seed).tolist()), str(shared))
    if key not in _SETS:
        srng = np.random.default_rng(style_seed)
        style = sample_style(srng, shared)
        _SETS.clear()
        _SETS[key] = (style, face_atlas(style, shared, srng))
    return _SETS[key]


def render_scene(rng: np.random.Generator, shared: Path, framing: str = "corner", width: int = 1024,
                 height: int = 768, clean: bool = False, bg_rgb=None, style_seed=None,
                 clutter_rng: np.random.Generator | None = None, win: bool = False, lamp: Lamp | None = None,
                 draw: bool = False, players: int = 4) -> Scene:
    """One photo of a table.

    style_seed picks the tile set (scenes that share it show the same set, like one photo session; faces are then
    drawn once); None draws a fresh set from rng. clean=True: no photo degradations and no shadows; bg_rgb: a flat
    background colour instead of a textured table; clutter_rng: things that are not tiles about the table, drawn
    from their own generator so the tiles and the photo are the same as without them (``clutter``); win: the first
    seat shows a complete hand (``build_table``); lamp: one strong light besides the room's (``Lamp``, drawn by the
    caller from its own generator: the same tiles, labels and camera as without it; not drawn with clean=True);
    draw: the hands as an exhaustive draw shows them (``build_table``).
    """
    if style_seed is None:
        style = sample_style(rng, shared)
        atlas = None
    else:
        style, atlas = tile_set(style_seed, shared)
    layout = build_table(rng, style, framing, win, draw, players)
    cam = sample_camera(rng, framing, width, height, layout)
    if atlas is None:
        atlas = face_atlas(style, shared, rng, sorted({p.name for p in layout.tiles} | {"back"}))
    photo = Photo.clean() if clean else Photo.sample(rng)
    lamp = None if clean else lamp
    if lamp is not None:
        photo = replace(photo, cast=tuple(float(a * b) for a, b in zip(photo.cast, lamp.cast)))
    if bg_rgb is not None:
        base = np.full((height, width, 3), bg_rgb, np.uint8)
    else:
        light = framing == "spread" and rng.random() < 0.5
        base = np.clip(background(rng, cam, abs(layout.table["y_hand"]) + 40, light, clutter_rng), 0, 255)
        base = base.astype(np.uint8)
    img, anns = render(layout.tiles, style, cam, atlas, base, shadow=photo.shadow_strength,
                       light=photo.light_dir, rng=rng, lamp=lamp)
    if not clean:
        img = apply_photo(img.astype(np.float32), photo, rng)
    annotations, index = [], {}
    for i, a in enumerate(anns):
        if a is None:
            continue
        p = layout.tiles[i]
        index[i] = len(annotations)
        annotations.append(dict(
            cls=a["cls"], polygon=a["polygon"], box=a["box"], lie=a["lie"], occluded=a["occluded"],
            truncated=a["truncated"], visible=a["visible"], labelled=a["labelled"], role=p.role, seat=p.seat,
            kind=p.name, face_up=a["cls"] != "back"))
    table = table_json(layout, index, framing)
    if lamp is not None:
        table["lamp"] = lamp.to_dict()
    if draw:  # the hands as an exhaustive draw shows them: the table evaluation reads the draw's payments too
        table["deal"] = "draw"
    return Scene(cv2.cvtColor(img, cv2.COLOR_RGB2BGR), annotations, table, photo.jpeg_quality)


def table_json(layout: Layout, index: dict, framing: str) -> dict:
    """The true structure; every tile item gives its class and its annotation index (None when out of view)."""
    T, tiles = layout.table, layout.tiles

    def item(i):
        return None if i is None else dict(cls=tiles[i].name, tile=index.get(i),
                                           face_down=bool(tiles[i].face_down))

    seats = []
    for s in T["seats"]:
        seats.append(dict(
            seat=s["seat"], rotation=s["rotation"], standing=s["standing"],
            concealed=[item(i) for i in s["concealed"]], drawn=item(s["drawn"]),
            melds=[dict(type=m["type"], source=m["source"], tiles=[item(i) for i in m["tiles"]],
                        called=item(m["called"]), added=item(m["added"])) for m in s["melds"]],
            pond=[dict(item(r["tile"]), riichi=r["riichi"]) for r in s["pond"]],
            kita=[item(i) for i in s.get("kita", [])]))
    return dict(framing=framing, seats=seats, dora_indicators=[item(i) for i in T["dora_indicators"]],
                stray=[item(i) for i in T["stray"]], players=T.get("players", 4))

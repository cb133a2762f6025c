"""Calibrate the tile reader to the user's own set from a photo of one of each tile laid out in a grid.

The grid, read left to right and top to bottom (the order of the whole-set photos in
``../shared/data/real-tiles/photos/group_*.jpg``), rows touching or apart, the photo roughly upright:

    row 1: the red fives the set has (0m 0p 0s, or none), then 1z 2z 3z 4z 5z 6z 7z (E S W N haku hatsu chun),
           then, if you like, one face-down tile
    row 2: 1p ... 9p      row 3: 1s ... 9s      row 4: 1m ... 9m

What is fitted: the shipped reader stays as it is; its pooled features (``features`` output) of every grid tile,
each seen in many augmented forms (the detector's jitter of the corners and of the box's size, a quarter or half
turn, light, blur, noise, JPEG), train a ridge classifier over the set's own kinds. When reading, the shipped
reader still says which way a tile is turned; the profile says which face it is, among the kinds the set has (a
set without red fives is never read as having one). Whether a tile is face down: the profile says so when the
grid had a face-down tile (recommended: a set's back and its blank haku can look alike), else the shipped reader
does, and only when the tile looks more face down to it than any of the set's own faces did in calibration,
seen in many lights and cuts. A colourless face (a blank haku) sets no such bar: the run time never takes a
colourless crop as face down (``vision.reader``), and the bar its crops set kept coloured backs from being read
face down (a green back read 0.90 face down, under the haku's 0.915, was read as a haku; session 79). Seconds on 2
cores, no torch.

A profile is saved as ``NAME.npz`` in the user's data folder (``$RIICHI_LENS_DATA`` or
``$XDG_DATA_HOME/riichi-lens``, else ``~/.local/share/riichi-lens``), never in the repository, and is tied to the
reader it was made with (a profile from another reader is refused: calibrate again).
"""
from __future__ import annotations

import os
import re
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .classes import CLASSES
from .reader import colourless

RED_FIVES = ("0m", "0p", "0s")
HONOURS = tuple(f"{n}z" for n in range(1, 8))
SUITED_ROWS = tuple(tuple(f"{n}{s}" for n in range(1, 10)) for s in "psm")
MIN_TILE_PX = 28  # shorter tiles than this (on their long side) carry too little detail to learn a face from
MIN_BRIGHTNESS = 45  # mean grey level of the tiles, 0-255
# The detector's boxes are 0.87-1.30 times the size of the face they find (1st-99th percentile, median 1.03:
# matched boxes of the generated scenes of seeds 9 and 10), so calibration cuts its crops at such sizes too
BOX_SCALE = (0.85, 1.2)
# A grid has 38 tiles at most (34 faces, 3 red fives, a face-down tile); more backs are allowed, but each tile
# costs ~96 crops of work, so a grid of thousands would hold the server for minutes
MAX_GRID_TILES = 50
# A tile smaller than this has no face to learn (straighten's smallest crop is 8 x 10 px), and a polygon with no
# area (its corners in one point or on a line) would be cut as edge pixels
MIN_TILE_AREA = 64.0  # px²
# A tile lies in the photo: its centre inside, its box at most twice the photo's size (a tile cut by the edge
# may reach past it, a bigger one is a mistake and would have OpenCV cut a crop of gigabytes)
MAX_TILE_SPAN = 2.0


class CalibrationError(ValueError):
    """The calibration photo cannot be used; the message says what to change."""


def grid_order(first_row: int) -> list[str]:
    """The kinds of the documented grid, given how many tiles the first row has (7, 8, 10 or 11)."""
    reds = first_row in (10, 11)
    back = first_row in (8, 11)
    row1 = (RED_FIVES if reds else ()) + HONOURS + (("back",) if back else ())
    return list(row1) + [k for row in SUITED_ROWS for k in row]


def grid_rows(corners: list[np.ndarray]) -> list[list[int]]:
    """Tile boxes (upright corners) -> rows of indices, top to bottom, each left to right. Rows are split where
    the tiles' centres, seen along the tiles' own up, jump by more than half a tile."""
    if not corners:
        return []
    ups = np.array([(c[0] + c[1] - c[2] - c[3]) / 2 for c in corners])
    up = np.median(ups, axis=0)
    height = float(np.linalg.norm(up))
    up = up / (height + 1e-9)
    right = np.array([-up[1], up[0]])
    centres = np.array([c.mean(axis=0) for c in corners])
    depth = -(centres @ up)  # grows down the photo
    order = np.argsort(depth)
    rows, current = [], [int(order[0])]
    for a, b in zip(order, order[1:]):
        if depth[b] - depth[a] > 0.5 * height:
            rows.append(current)
            current = []
        current.append(int(b))
    rows.append(current)
    return [sorted(r, key=lambda i: float(centres[i] @ right)) for r in rows]


def grid_tiles(image: np.ndarray, detector, reader=None) -> list[tuple[str, np.ndarray]]:
    """The grid's tiles with their kinds by position, or a CalibrationError saying what is wrong. ``reader`` (the
    shipped one): a box at a row's end that is no tile (``_strays_dropped``) is told by what the tiles read as."""
    from .tiles import straighten, upright_corners

    found = detector.detect(image)
    areas = [d.size[0] * d.size[1] for d in found]
    # a box much smaller than the others is a part of a tile (a glyph, a reflection), not a tile of the grid
    corners = [upright_corners(d) for d, a in zip(found, areas) if a >= 0.6 * np.median(areas)]
    if not corners:
        raise CalibrationError("no tiles found in the calibration photo: lay the tiles face up on a plain table")
    rows = grid_rows(corners)
    if reader is not None:
        read = [r.kind for r in reader.read([straighten(image, c) for c in corners])]
        rows = _strays_dropped(rows, read)
    if error := _grid_shape_error(rows):
        raise CalibrationError(error)
    long_sides = [np.linalg.norm(c[0] - c[3]) for c in corners]
    if np.median(long_sides) < MIN_TILE_PX:
        raise CalibrationError(f"the tiles are only {np.median(long_sides):.0f} px tall in this photo: come closer "
                               f"(at least {MIN_TILE_PX} px; a grid filling the photo is best)")
    kinds = grid_order(len(rows[0]))
    return [(k, corners[i]) for k, i in zip(kinds, [i for r in rows for i in r])]


def _strays_dropped(rows: list[list[int]], read: list[str]) -> list[list[int]]:
    """The rows less boxes at a row's end that are no tile of the grid: a shadow or the bare table beside a row
    begun further out (the real set's group_8 and group_9: a shadow read face down, a bare patch read as haku, each
    taken as row 1's first tile, so that every label of the row was its neighbour's; group_4's, 0.31 sure, made
    row 2 ten tiles long), where dropping one makes the grid's order agree clearly better (two tiles more) with what
    the shipped reader reads at each place."""
    def agreement(trial: list[list[int]]) -> int:
        if _grid_shape_error(trial):
            return -1
        return sum(read[i] == kind for kind, i in zip(grid_order(len(trial[0])), (i for r in trial for i in r)))

    best, score = rows, agreement(rows)
    for _ in range(2):  # a stray at each end at most
        trials = [best[:k] + [cut] + best[k + 1:] for k, row in enumerate(best) for cut in (row[1:], row[:-1])]
        better_score, better = max(((agreement(t), t) for t in trials), key=lambda scored: scored[0])
        if better_score < score + 2:
            break
        best, score = better, better_score
    return best


def _grid_shape_error(rows: list[list[int]]) -> str | None:
    """What is wrong with the rows as the documented grid's, or None."""
    counts = [len(r) for r in rows]
    if len(rows) != 4:
        return (f"found {len(rows)} rows of tiles ({counts}); the grid has 4 rows: the honours (after the red fives, "
                "if any), then 1p-9p, 1s-9s, 1m-9m")
    if counts[0] not in (7, 8, 10, 11) or counts[1:] != [9, 9, 9]:
        wrong = [f"row {k + 1} has {n}" for k, n in enumerate(counts) if (n != 9 if k else n not in (7, 8, 10, 11))]
        return ("the grid is not complete: " + ", ".join(wrong) + " tiles (row 1: 7 honours, after 3 red fives if "
                "the set has them, then optionally a face-down tile; rows 2-4: 9)")
    return None


def _augmented_crops(image: np.ndarray, corners: np.ndarray, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """n crops of one tile as the run time might cut them: corners jittered and the box scaled like a
    detector's, turned a quarter or half round, lit, blurred, noisy and JPEG-compressed differently."""
    from .reader import quarter_turned
    from .tiles import straighten

    size = np.linalg.norm(corners[0] - corners[3])
    centre = corners.mean(axis=0)
    out = []
    for k in range(n):
        c = centre + (corners - centre) * rng.uniform(*BOX_SCALE) + rng.normal(0, 0.03 * size, corners.shape) \
            if k else corners
        crop = straighten(image, c).astype(np.float32)
        crop = crop * rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3) + rng.uniform(-25, 25)
        crop = 255 * (np.clip(crop, 0, 255) / 255) ** rng.uniform(0.75, 1.35)
        if rng.random() < 0.5:
            crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.5))
        crop = np.clip(crop + rng.normal(0, rng.uniform(0, 8), crop.shape), 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            crop = cv2.imdecode(cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])[1], 1)
        out.append(quarter_turned(crop, int(rng.integers(4))))  # as the run time sees a tile lying turned
    return out


@dataclass
class Profile:
    """A set's own face classifier over the reader's features."""

    name: str
    kinds: tuple[str, ...]  # the faces the set has, and "back" when the grid had a face-down tile
    weights: np.ndarray  # (features + 1, len(kinds)): a ridge classifier on standardised features
    mean: np.ndarray
    scale: np.ndarray
    reader: str  # the sha256 of the reader model it was made with
    back_floor: float = 0.0  # without a face-down tile in the grid: the most face down a coloured face looked

    @property
    def advice(self) -> str | None:
        """What the user should know about this profile: a coloured face of the set that the shipped reader takes
        for a face-down tile makes face-down tiles harder to tell, unless the grid shows one."""
        if self.back_floor <= 0.5:
            return None
        return ("one of this set's coloured faces can look face down to the reader, so a tile is read as "
                "face down only when it looks more so; to teach the set's back, calibrate again with a face-down "
                "tile at the end of the first row")

    def face_probabilities(self, features: np.ndarray) -> np.ndarray:
        """(n, features) -> (n, len(CLASSES)) probabilities over the set's faces (zero for the others)."""
        x = (features - self.mean) / self.scale
        scores = np.hstack([x, np.ones((len(x), 1))]) @ self.weights
        p = np.exp(8.0 * (scores - scores.max(1, keepdims=True)))
        p /= p.sum(1, keepdims=True)
        out = np.zeros((len(x), len(CLASSES)), np.float32)
        out[:, [CLASSES.index(k) for k in self.kinds]] = p
        return out

    def save(self, folder: Path | None = None) -> Path:
        """Written whole to a file beside it, then put in its place: a save cut short, or a photo read while it
        is written, never leaves half a profile."""
        path = writable_profile_path(self.name, folder)
        part = path.with_name(f".{path.name}.part")
        try:
            with open(part, "wb") as f:
                np.savez(f, kinds=np.array(self.kinds), weights=self.weights, mean=self.mean, scale=self.scale,
                         reader=np.array(self.reader), back_floor=np.array(self.back_floor))
            os.replace(part, path)
        except OSError as e:
            raise CalibrationError(f"profile {self.name!r} could not be saved to {path} ({e.strerror})") from None
        return path


def data_folder() -> Path:
    if os.environ.get("RIICHI_LENS_DATA"):
        return Path(os.environ["RIICHI_LENS_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "riichi-lens"


PROFILE_NAME = r"[A-Za-z0-9_-]{1,40}"


def profile_path(name: str, folder: Path | None = None) -> Path:
    if not re.fullmatch(PROFILE_NAME, name):
        shown = name if len(name) <= 50 else name[:40] + "..."
        raise CalibrationError(f"profile name {shown!r}: use 1-40 letters, digits, '_' or '-'")
    return (folder or data_folder() / "profiles") / f"{name}.npz"


def writable_profile_path(name: str, folder: Path | None = None) -> Path:
    """``profile_path``, its folder made if need be: said before a calibration's work when it cannot be."""
    path = profile_path(name, folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CalibrationError(f"profiles cannot be saved in {path.parent} ({e.strerror}): set RIICHI_LENS_DATA "
                               "to a folder that can be written") from None
    return path


def list_profiles(folder: Path | None = None) -> list[str]:
    folder = folder or data_folder() / "profiles"
    if not folder.is_dir():
        return []
    # not a folder so named, nor a file put there by hand under a name no profile can have
    return sorted(p.stem for p in folder.glob("*.npz") if p.is_file() and re.fullmatch(PROFILE_NAME, p.stem))


def delete_profile(name: str, folder: Path | None = None) -> None:
    """The profile forgotten (its file removed); a name with no profile is said so."""
    path = profile_path(name, folder)
    if not path.is_file():
        known = ", ".join(list_profiles(folder)) or "none yet"
        raise CalibrationError(f"no profile named {name!r} to delete (profiles: {known})")
    try:
        path.unlink()
    except OSError as e:
        raise CalibrationError(f"profile {name!r} could not be deleted from {path.parent} ({e.strerror})") from None


def load_profile(name: str, reader_sha: str, folder: Path | None = None) -> Profile:
    path = profile_path(name, folder)
    if not path.is_file():
        known = ", ".join(list_profiles(folder)) or "none yet"
        raise CalibrationError(f"no profile named {name!r} (profiles: {known}); make one in the page's My set tab or "
                               "with riichi-lens calibrate")
    try:
        with np.load(path) as z:
            profile = Profile(name, tuple(str(k) for k in z["kinds"]), z["weights"], z["mean"], z["scale"],
                              str(z["reader"]), float(z["back_floor"]) if "back_floor" in z.files else 0.0)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:  # BadZipFile: a file cut short
        raise CalibrationError(f"profile {name!r} is damaged ({type(e).__name__}): calibrate again") from None
    n = profile.mean.size
    if (not set(profile.kinds) <= set(CLASSES) or profile.weights.shape != (n + 1, len(profile.kinds))
            or profile.scale.shape != (n,) or not all(np.isfinite(a).all() for a in (profile.weights, profile.mean,
                                                                                    profile.scale))):
        raise CalibrationError(f"profile {name!r} is damaged (its faces or weights do not fit): calibrate again")
    if profile.reader != reader_sha:
        raise CalibrationError(f"profile {name!r} was made with another tile reader: calibrate again")
    return profile


def check_grid(grid: list[tuple[str, np.ndarray]], size: tuple[int, int]) -> None:
    """A confirmed grid of a photo of ``size`` (height, width), checked before any crop is cut: at most
    MAX_GRID_TILES tiles, known kinds, each face once (a second face-down tile is allowed), each polygon a tile
    lying in the photo (``check_polygon``), no tile's centre within another's polygon. A refusal numbers the tiles
    from 0, as the grid's JSON array and pydantic's refusals of it ("grid.4.kind") and /api/table's tiles do."""
    if len(grid) > MAX_GRID_TILES:
        raise CalibrationError(f"the grid has {len(grid)} tiles; a set's grid has at most 38 (one of each face, "
                               f"the red fives, a face-down tile): send at most {MAX_GRID_TILES}")
    seen: dict[str, int] = {}
    for i, (kind, corners) in enumerate(grid):
        if kind not in CLASSES:
            raise CalibrationError(f"unknown tile {kind!r}: use 1m..9m, 1p..9p, 1s..9s, 1z..7z, 0m/0p/0s, back")
        check_polygon(f"grid tile {i} ({kind})", corners, size)  # numbered as sent, from 0
        seen[kind] = seen.get(kind, 0) + 1
    twice = [k for k, n in seen.items() if n > 1 and k != "back"]
    if twice:
        raise CalibrationError(f"{', '.join(twice)} appear{'s' if len(twice) == 1 else ''} twice in the grid: "
                               "each face once, please fix the grid")
    missing = [k for k in CLASSES if k not in seen and k not in RED_FIVES and k != "back"]
    if missing:
        raise CalibrationError(f"the grid lacks {' '.join(missing)}: lay out one of each tile")
    polygons = [np.asarray(c, dtype=np.float32) for _, c in grid]
    for i, a in enumerate(polygons):  # every face on one tile's polygon made a profile that misread every tile
        for j, b in enumerate(polygons[:i]):
            if cv2.pointPolygonTest(b, tuple(map(float, a.mean(axis=0))), False) >= 0:
                raise CalibrationError(f"grid tiles {j} ({grid[j][0]}) and {i} ({grid[i][0]}) lie on one "
                                       "another: each grid tile is a tile of its own")


def check_polygon(name: str, corners: np.ndarray, size: tuple[int, int]) -> None:
    """Four finite corners enclosing at least MIN_TILE_AREA, the centre inside the photo, the box at most
    MAX_TILE_SPAN times the photo's size; else a CalibrationError naming the tile."""
    h, w = size
    c = np.asarray(corners, dtype=np.float64)
    if c.shape != (4, 2) or not np.isfinite(c).all():
        raise CalibrationError(f"{name}: its polygon must be 4 corners [x, y] of finite numbers")
    x, y = c[:, 0], c[:, 1]
    area = abs(cv2.contourArea(c.astype(np.float32)))
    if area < MIN_TILE_AREA:
        raise CalibrationError(f"{name}: its polygon encloses {area:.0f} px² (at least {MIN_TILE_AREA:.0f}): "
                               "give its corners in order TL, TR, BR, BL around the tile")
    cx, cy = c.mean(axis=0)
    if not (0 <= cx < w and 0 <= cy < h):
        raise CalibrationError(f"{name}: its centre ({cx:.0f}, {cy:.0f}) is outside the {w} x {h} photo: "
                               "its polygon must lie on the tile in the photo")
    if np.ptp(x) > MAX_TILE_SPAN * w or np.ptp(y) > MAX_TILE_SPAN * h:
        raise CalibrationError(f"{name}: its polygon spans {np.ptp(x):.0f} x {np.ptp(y):.0f} px, more than "
                               f"{MAX_TILE_SPAN:g} times the {w} x {h} photo: its polygon must lie on the tile")


def _photo_white(image: np.ndarray, grid: list[tuple[str, np.ndarray]]) -> np.ndarray | None:
    """The colour the grid photo's light gives its faces (``vision.reader.face_white``), its tiles' kinds known."""
    from .reader import face_white
    from .tiles import straighten

    return face_white([straighten(image, c) for _, c in grid], [k for k, _ in grid], [1.0] * len(grid))


def calibrate(photos: list[tuple[np.ndarray, list[tuple[str, np.ndarray]]]], name: str, reader, per_tile: int = 96,
              seed: int = 0, progress=lambda done, total: None) -> Profile:
    """Fit a profile from grid photos, each with its tiles (kind, upright corners) as ``grid_tiles`` found them
    or the user confirmed them. Raises CalibrationError with what to change when a photo cannot be used."""
    from .tiles import straighten

    profile_path(name)  # check the name before the work (its folder: where it is saved, ``Profile.save``)
    rng = np.random.default_rng(seed)
    for image, grid in photos:
        check_grid(grid, image.shape[:2])  # every photo's grid, before any crop is cut
    faces = []
    for k, (image, grid) in enumerate(photos):
        brightness = np.mean([cv2.cvtColor(straighten(image, c), cv2.COLOR_BGR2GRAY).mean() for _, c in grid])
        if brightness < MIN_BRIGHTNESS:
            raise CalibrationError(f"photo {k + 1} is too dark (tiles average {brightness:.0f} of 255): add light")
        faces += [(kind, image, c) for kind, c in grid]
    whites = {id(image): _photo_white(image, grid) for image, grid in photos}
    features, labels, face_down = [], [], [0.0]
    for done, (kind, image, c) in enumerate(faces):
        crops = _augmented_crops(image, c, per_tile, rng)
        f, down = reader.features_and_face_down(crops)
        features.append(f)
        labels += [kind] * len(crops)
        # a colourless face (a blank haku) is never face down at run time (``vision.reader``): it sets no bar
        if kind != "back" and not colourless(straighten(image, c), whites[id(image)]):
            face_down.append(float(down.max()))
        progress(done + 1, len(faces))
    x = np.vstack(features)
    kinds = tuple(sorted(set(labels), key=CLASSES.index))
    mean, scale = x.mean(0), x.std(0) + 1e-3
    xs = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    y = np.zeros((len(x), len(kinds)))
    y[np.arange(len(x)), [kinds.index(k) for k in labels]] = 1.0
    weights = np.linalg.solve(xs.T @ xs + 0.01 * len(x) * np.eye(xs.shape[1]), xs.T @ y)
    back_floor = 0.0 if "back" in kinds else float(max(face_down))
    return Profile(name, kinds, weights.astype(np.float32), mean.astype(np.float32), scale.astype(np.float32),
                   reader.sha256, back_floor)


def calibrate_photos(paths: list[Path], name: str, finder) -> tuple[Profile, float]:
    """Calibrate from grid photo files (the grids as found), printing a progress bar; the profile and seconds."""
    from .image import load_image

    writable_profile_path(name)  # a bad name or folder is said before the photos are read and their grids found
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        bar = "#" * (30 * done // total)
        print(f"\r  learning the faces [{bar:<30}] {done}/{total}", end="" if done < total else "\n", flush=True)

    photos = []
    for path in paths:
        image = load_image(path)
        photos.append((image, grid_tiles(image, finder.detector, finder.reader)))
    profile = calibrate(photos, name, finder.reader, progress=progress)
    return profile, time.perf_counter() - t0

"""Keeping a live reading stable across video frames.

Each physical tile becomes a *track*: detections in a new frame are matched to tracks by position, and each
track keeps decaying votes for what it reads as. Before matching, every track, seen in this frame or not, is
moved by the camera's motion since the last frame, a shift, turn and zoom fitted to the detections and the tracks
read alike (``TileTracker._follow_camera``): so a handheld phone may drift, turn and come nearer, and a tile
covered for a moment is still drawn where it lies now. Where the tracks then hardly agree with the frame, the camera
shows another view (carried to another side of the table) and the tracks start again (``_another_view``). A track
is shown only once it has been seen in ``confirm_frames`` frames; its reading changes only when another kind
out-votes the current one by a margin; a track not seen is kept for ``keep_seconds`` (a hand passing over the
tiles does not make them flicker away).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .layout import Tile


@dataclass
class Track:
    tile: Tile  # the latest detection (its polygon follows the tile)
    votes: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    seen: int = 0
    last_seen: float = 0.0


class TileTracker:
    def __init__(self, confirm_frames: int = 3, keep_seconds: float = 1.5, decay: float = 0.75, margin: float = 1.0,
                 match_radius: float = 0.6):
        self.confirm_frames = confirm_frames
        self.keep_seconds = keep_seconds
        self.decay = decay
        self.margin = margin
        self.match_radius = match_radius
        self.tracks: list[Track] = []

    def update(self, tiles: list[Tile], now: float) -> list[Tile]:
        """Feed one frame's detections; returns the stable tiles (kind = the track's settled reading)."""
        self._follow_camera(tiles)
        if self._another_view(tiles):  # the old tracks would take the new view's tiles, showing their old kinds
            self.tracks = []  # there until out-voted (84 of 99 tiles wrong for three frames)
        order = sorted(self.tracks, key=lambda t: -t.seen)
        # every track's distance to every detection, in its own tile's smaller size (one array: a frame's cost
        # was tracks x tiles steps of Python)
        far = np.full((len(order), len(tiles)), np.inf)
        if order and tiles:
            centers = np.array([t.center for t in tiles])
            tracked = np.array([t.tile.center for t in order])
            sizes = np.array([min(t.tile.size) for t in order])
            far = np.linalg.norm(centers[None] - tracked[:, None], axis=2) / sizes[:, None]
        far[far >= self.match_radius] = np.inf
        matched = np.zeros(len(tiles), dtype=bool)
        for row, track in zip(far, order):
            for k in track.votes:
                track.votes[k] *= self.decay
            best = int(row.argmin()) if tiles else None
            if best is not None and row[best] < np.inf:
                far[:, best] = np.inf  # no other track takes it
                matched[best] = True
                self._observe(track, tiles[best], now)
        for tile, taken in zip(tiles, matched):
            if not taken:
                track = Track(tile)
                self._observe(track, tile, now)
                self.tracks.append(track)
        self.tracks = [t for t in self.tracks if now - t.last_seen <= self.keep_seconds]
        return [self._settled(t) for t in self.tracks if t.seen >= self.confirm_frames]

    def _another_view(self, tiles: list[Tile]) -> bool:
        """Whether the frame shows another view than the tracks (moved by the camera's motion) hold: under
        ``CUT_AGREE`` of its face-up tiles lie on a face-up track read alike (with ``CUT_LEAST`` of each at least,
        or a misread or two would be a cut). A table turned a quarter or half shows tiles where tiles were, and a
        wall's backs agree from any side: the kinds of the faces tell."""
        faces = [t for t in tiles if t.kind != "back"]
        held = [t for t in self.tracks if t.kind != "back"]
        if min(len(faces), len(held)) < CUT_LEAST:
            return False
        centers = np.array([t.center for t in faces])
        far = np.linalg.norm(centers[:, None] - np.array([t.tile.center for t in held])[None], axis=2)
        on = far < 0.3 * np.array([max(t.size) for t in faces])[:, None]
        alike = np.array([t.kind for t in faces])[:, None] == np.array([t.kind for t in held])[None]
        return int((on & alike).any(axis=1).sum()) < CUT_AGREE * min(len(faces), len(held))

    @staticmethod
    def _settled(track: Track) -> Tile:
        """The track's tile as settled: its kind, that kind's share of the votes as the confidence, and the
        likeliest kinds by their shares as the candidates a meld's reading may choose from."""
        total = sum(track.votes.values()) or 1.0  # every vote 0 (the reader gave its kind 0): none to share
        shares = sorted(((k, v / total) for k, v in track.votes.items() if k != track.kind), key=lambda kv: -kv[1])
        candidates = ((track.kind, track.votes[track.kind] / total),) + tuple(shares[:2])
        return replace(track.tile, kind=track.kind, confidence=round(candidates[0][1], 4),
                       candidates=tuple((k, round(p, 4)) for k, p in candidates))

    def _observe(self, track: Track, tile: Tile, now: float) -> None:
        track.tile = tile
        track.seen += 1
        track.last_seen = now
        # each frame votes for the kind read and, as the reader weighed them, for its other candidates
        read = dict(tile.likely_kinds) or {tile.kind: 1.0}
        weight = max(tile.confidence, 1e-6) / max(read[tile.kind], 1e-6)  # a tile said 0 sure still votes a little
        for kind, p in read.items():
            track.votes[kind] = track.votes.get(kind, 0.0) + weight * p
        leader = max(track.votes, key=track.votes.get)
        if not track.kind or track.votes[leader] > track.votes.get(track.kind, 0.0) + self.margin:
            track.kind = leader

    def _follow_camera(self, tiles: list[Tile]) -> None:
        """Move every track onto this frame by the camera's motion, a similarity (shift, turn, zoom) fitted by
        RANSAC two ways: to each detection and its nearest track once their median shift is taken out (right for
        small motions), and to every pair of a detection and a track read alike within ``PAIR_REACH`` tile lengths
        of it (rows of tiles side by side make many pairs a tile off; alike readings make the true pairs agree
        most). The fit that brings more detections onto a track read alike is taken, the first on a tie (a row of
        backs, alike whichever way it slips). A fit turning more than ``MAX_TURN`` or zooming more than
        ``MAX_ZOOM`` is not the camera's."""
        if not self.tracks or not tiles:
            return
        tracked = np.array([t.tile.center for t in self.tracks])
        centers = np.array([t.center for t in tiles])
        sizes = np.array([max(t.size) for t in tiles])
        d = np.linalg.norm(centers[:, None] - tracked[None], axis=2)  # detection x track
        alike = np.array([t.kind for t in tiles])[:, None] == np.array([t.kind for t in self.tracks])[None]
        shift = _nearest_shift(d, centers, tracked, 2.0 * sizes)
        nearest = np.linalg.norm(centers[:, None] - (tracked + shift)[None], axis=2).argmin(axis=1)
        close = np.linalg.norm(centers - tracked[nearest] - shift, axis=1) < 0.5 * sizes
        found, held = np.nonzero(alike & (d < PAIR_REACH * sizes[:, None]))
        best, most = np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]]]), -1
        for motion in (_similarity(tracked[nearest[close]], centers[close], sizes),
                       _similarity(tracked[held], centers[found], sizes)):
            if motion is None:
                continue
            moved = tracked @ motion[:, :2].T + motion[:, 2]
            landed = np.linalg.norm(centers[:, None] - moved[None], axis=2) < 0.3 * sizes[:, None]
            if (agree := int((landed & alike).any(axis=1).sum())) > most:
                best, most = motion, agree
        if np.allclose(best, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]):
            return
        for track in self.tracks:
            moved = track.tile.corners @ best[:, :2].T + best[:, 2]
            track.tile = replace(track.tile, polygon=tuple((float(x), float(y)) for x, y in moved))


def _similarity(src: np.ndarray, dst: np.ndarray, sizes: np.ndarray) -> np.ndarray | None:
    """A shift, turn and zoom taking ``src`` onto ``dst`` (RANSAC, within a quarter tile); None with under three
    pairs or where it turns or zooms more than a camera does between two frames."""
    if len(src) < 3:
        return None
    fitted, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC,
                                            ransacReprojThreshold=0.25 * float(np.median(sizes)))
    if fitted is None:
        return None
    zoom = float(np.hypot(fitted[0, 0], fitted[1, 0]))
    turn = abs(float(np.degrees(np.arctan2(fitted[1, 0], fitted[0, 0]))))
    return fitted if turn <= MAX_TURN and 1 / MAX_ZOOM <= zoom <= MAX_ZOOM else None


PAIR_REACH = 2.5  # tile lengths: the camera's motion from one frame to the next is looked for this far
MAX_TURN = 20.0  # degrees between two frames: more is a wrong fit (a live frame comes every third of a second)
MAX_ZOOM = 1.25
# Another view: under this share of a frame's face-up tiles agree with the tracks (at least CUT_LEAST of each). On
# three generated tables seen by a 640 x 480 camera (the shipped models reading) carried a quarter or half round the
# table between two frames, 0 to 5 % agreed; a frame blurred (Gaussian of 3 to 5 px, or 25 px of motion), 28 % or
# more; dimmed to a tenth, 89 %; a hand over a third of the frame, or it shaking 5 px, 78 % or more.
CUT_AGREE = 0.15
CUT_LEAST = 8


def _nearest_shift(d: np.ndarray, centers: np.ndarray, tracked: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """The median displacement from each detection to its nearest track (``d``: their distances) within ``reach``
    of it; zero if none is."""
    nearest = d.argmin(axis=1)
    rows = np.arange(len(centers))
    near = d[rows, nearest] < reach
    return np.median(centers[near] - tracked[nearest[near]], axis=0) if near.any() else np.zeros(2)

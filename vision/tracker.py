"""Keeping a live reading stable across video frames.

Each physical tile becomes a *track*: detections in a new frame are matched to tracks by position (after
removing the camera's overall shift, so a handheld phone may drift), and each track keeps decaying votes for
what it reads as. A track is shown only once it has been seen in ``confirm_frames`` frames; its reading changes
only when another kind out-votes the current one by a margin; a track not seen is kept for ``keep_seconds``
(a hand passing over the tiles does not make them flicker away).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

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
        shift = self._camera_shift(tiles)
        order = sorted(self.tracks, key=lambda t: -t.seen)
        # every track's distance to every detection, in its own tile's smaller size (one array: a frame's cost
        # was tracks x tiles steps of Python)
        far = np.full((len(order), len(tiles)), np.inf)
        if order and tiles:
            centers = np.array([t.center for t in tiles]) - shift
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

    def _camera_shift(self, tiles: list[Tile]) -> np.ndarray:
        """The median displacement from each detection to its nearest track: how far the camera moved."""
        if not self.tracks or not tiles:
            return np.zeros(2)
        tracked = np.array([t.tile.center for t in self.tracks])
        centers = np.array([t.center for t in tiles])
        moves = centers[:, None] - tracked[None]  # detection x track
        d = np.linalg.norm(moves, axis=2)
        nearest = d.argmin(axis=1)
        rows = np.arange(len(tiles))
        near = d[rows, nearest] < 2.0 * np.array([max(t.size) for t in tiles])
        return np.median(moves[rows, nearest][near], axis=0) if near.any() else np.zeros(2)

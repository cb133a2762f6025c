"""Live smoothing: a reading changes only when the camera sees it consistently."""
import math
from dataclasses import replace

import numpy as np

from vision.layout import Tile
from vision.tracker import TileTracker


def row(kinds, dx=0.0, skip=()):
    return [Tile(k, ((i * 32 + dx, 0), (i * 32 + 30 + dx, 0), (i * 32 + 30 + dx, 40), (i * 32 + dx, 40)), 0.9)
            for i, k in enumerate(kinds) if i not in skip]


def kinds(tiles):
    return [t.kind for t in sorted(tiles, key=lambda t: t.center[0])]


HAND = ["1m", "2m", "3m", "4p", "5p", "6p"]


def test_new_tiles_appear_only_after_being_seen_in_three_frames():
    tr = TileTracker(confirm_frames=3)
    assert tr.update(row(HAND), 0.0) == []
    assert tr.update(row(HAND), 0.1) == []
    assert kinds(tr.update(row(HAND), 0.2)) == HAND


def test_one_misread_frame_does_not_change_the_reading():
    tr = TileTracker()
    for t in range(5):
        tr.update(row(HAND), t * 0.1)
    misread = HAND[:2] + ["8m"] + HAND[3:]
    assert kinds(tr.update(row(misread), 0.5)) == HAND
    assert kinds(tr.update(row(HAND), 0.6)) == HAND


def test_a_real_change_wins_after_a_few_frames():
    tr = TileTracker()
    for t in range(5):
        tr.update(row(HAND), t * 0.1)
    changed = HAND[:5] + ["7p"]
    readings = [kinds(tr.update(row(changed), 0.5 + t * 0.1))[-1] for t in range(6)]
    assert readings[0] == "6p" and readings[-1] == "7p"


def test_covered_tiles_stay_for_a_moment_then_go():
    tr = TileTracker(keep_seconds=1.0)
    for t in range(5):
        tr.update(row(HAND), t * 0.1)
    assert kinds(tr.update(row(HAND, skip={2, 3}), 0.5)) == HAND  # a hand passes over two tiles
    assert kinds(tr.update(row(HAND, skip={2, 3}), 2.0)) == ["1m", "2m", "5p", "6p"]  # really gone


def test_camera_drift_keeps_the_tracks():
    tr = TileTracker()
    for t in range(5):
        tr.update(row(HAND, dx=t * 12.0), t * 0.1)  # the phone moves a third of a tile each frame
    assert kinds(tr.update(row(HAND, dx=60.0), 0.5)) == HAND
    assert len(tr.tracks) == len(HAND)


def test_a_settled_tile_keeps_the_readers_other_candidates_for_the_melds_reading():
    """Each frame votes for the reader's candidates as it weighed them, so a tile steadily read 1m with 2m a
    close second settles as 1m with 2m its next candidate: a pon of 2m 2m 1m can still be read as 2m."""
    tr = TileTracker()
    for t in range(4):
        frame = row(HAND)
        frame[1] = Tile("1m", frame[1].polygon, 0.6, candidates=(("1m", 0.6), ("2m", 0.3)))
        settled = tr.update(frame, t * 0.1)
    tile = sorted(settled, key=lambda t: t.center[0])[1]
    (first, p1), (second, p2) = tile.candidates
    assert (first, second) == ("1m", "2m") and tile.kind == "1m"
    assert abs(p1 - 2 / 3) < 1e-3 and abs(p2 - 1 / 3) < 1e-3 and tile.confidence == p1
    # a tile read with no candidates keeps the one kind it was read as
    assert sorted(settled, key=lambda t: t.center[0])[0].candidates == (("1m", 1.0),)


def test_tiles_said_zero_sure_are_tracked_without_failing():
    """A tile of confidence 0 (or whose own kind's candidate is 0 likely) gave the votes a sum of 0: a division by
    zero on settling it."""
    from dataclasses import replace

    tr = TileTracker()
    zero = [replace(t, confidence=0.0) for t in row(HAND)]
    zero[0] = replace(zero[0], candidates=(("1m", 0.0), ("7m", 0.0)))
    for t in range(3):
        settled = tr.update(zero, t * 0.1)
    assert kinds(settled) == HAND


def seen_turned(tiles, degrees, zoom=1.0, shift=(0.0, 0.0), about=(500.0, 375.0)):
    """The tiles as a camera turned by ``degrees`` and zoomed about ``about``, then shifted, sees them."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

    def move(x, y):
        x, y = x - about[0], y - about[1]
        return (about[0] + shift[0] + zoom * (c * x - s * y), about[1] + shift[1] + zoom * (s * x + c * y))

    return [replace(t, polygon=tuple(move(x, y) for x, y in t.polygon)) for t in tiles]


ROWS = ["1m 1m 2m 3m 4p 4p 5p 6p 7s 7s 7s 8s 9s 1z", "2m 3m 4m 5m 5m 6m 7m 3p 3p 4s 5s 6s 6z 6z",
        "1p 2p 3p 4p 5p 6p 7p 8p 9p 9p 9p 5z 5z 5z"]  # sorted as hands are: alike tiles side by side
TABLE = [replace(t, polygon=tuple((x + 250, y + 150 + 120 * r) for x, y in t.polygon))
         for r, spec in enumerate(ROWS) for t in row(spec.split())]


def test_a_camera_turning_and_coming_nearer_keeps_each_tile_its_track():
    """A phone turning 3 degrees and coming 3 % nearer each frame moves a tile 250 px from the middle of the frame
    by 20 px more than its neighbours: matched by the frame's median shift alone, the rows slipped a tile and each
    track took its neighbour's tile and reading."""
    tr = TileTracker()
    for f in range(10):
        stable = tr.update(seen_turned(TABLE, 3.0 * f, 1.0 + 0.03 * f, (12.0 * f, -8.0 * f)), f / 3)
    assert len(tr.tracks) == len(TABLE)
    now = seen_turned(TABLE, 27.0, 1.27, (108.0, -72.0))
    shown = {tuple(np.round(t.center)): t.kind for t in stable}
    assert shown == {tuple(np.round(t.center)): t.kind for t in now}


def test_a_covered_tile_moves_with_the_camera():
    """A tile covered while the phone drifts is still shown, where it lies in the newest frame, not where it was
    last seen."""
    tr = TileTracker(keep_seconds=2.0)
    for f in range(4):
        tr.update(row(HAND, dx=10.0 * f), f / 3)
    for f in range(4, 8):
        stable = tr.update(row(HAND, dx=10.0 * f, skip={2}), f / 3)
    covered = [t for t in stable if t.kind == "3m"]
    assert len(covered) == 1 and abs(covered[0].center[0] - (2 * 32 + 15 + 70.0)) < 1.0


def test_a_camera_carried_to_another_side_of_the_table_shows_no_old_kinds():
    """A table turned half round lies where it lay, tile for tile: the tracks took the new view's tiles and showed
    their old kinds there until out-voted (42 of 42 tiles wrong for three frames). The tracks start again: nothing
    is shown until the new view's tiles have been seen in three frames, then every one as it lies."""
    tr = TileTracker()
    for f in range(5):
        tr.update(TABLE, f / 3)
    other_side = seen_turned(TABLE, 180.0, about=(473.0, 290.0))  # about the table's middle
    lying = {tuple(np.round(t.center)): t.kind for t in other_side}
    for f in range(5, 8):
        stable = tr.update(other_side, f / 3)
        assert all(lying[tuple(np.round(t.center))] == t.kind for t in stable)  # no tile shown as the old view's
    assert len(stable) == len(TABLE)


def test_a_badly_blurred_frame_keeps_the_table():
    """A blurred frame finds half the tiles and misreads two in three of those: still the tracks' view (a third
    agree), not another, so every tile stays shown as it was read."""
    tr = TileTracker()
    for f in range(5):
        settled = tr.update(TABLE, f / 3)
    blurred = [t for i, t in enumerate(TABLE) if i % 2 == 0]
    blurred = [t if i % 3 == 0 else replace(t, kind="7z") for i, t in enumerate(blurred)]
    assert kinds(tr.update(blurred, 5 / 3)) == kinds(settled)

"""Tile crops cut from generated scenes the way the run time cuts them, for the tile reader.

    python -m datasets.scene_crops --src data/synth-obb --out data/scrops-0 --per-scene 16 [--seed 0]

Why: the reader learnt on near-frontal crops of short rows (``datasets.crops``) reads 99.6 % of those, but only
about 90 % of the tiles of generated table scenes even when cut from their true polygons (seed 9 snapshots,
``python bench/bench_scenes.py --data data/dev-corner --true-boxes`` with reader v5):
small far tiles, tiles seen at a low angle, sideways and upside-down tiles, tiles partly hidden by their
neighbours. Here each labelled tile of a scene is cut as ``vision.tiles`` cuts a detection: its face polygon,
each corner moved by a few percent of the tile's size (a detector's box is not exact), made a rotated rectangle
(of its part inside the photo, for a tile cut by the photo's edge),
turned long side vertical, warped by ``straighten``; then turned back so its glyph stands upright, as the crops
of ``datasets.crops`` are (training turns it again at random, ``TURN_P``). Same folder layout:
``DIR/{train,val}/{class}/NAME.jpg``; a scene's val/train split is the one ``generate`` gave it.
Face-down tiles of sets with white backs are left out, as in ``datasets.crops``. A whole table shows dozens of
face-down tiles (walls, the other hands): ``--max-backs`` keeps at most that many of a scene's picks face down,
so the picks go to faces instead (reader v7). Deterministic for
(seed, scene index); existing crops are kept.

``--at-frame`` cuts only the tiles the photo's edge cuts or touches (their face within ``FRAME_PX`` of it, as the
run time marks a box cut by the frame, ``vision.tiles.edges_reached``), all of them with a high ``--per-scene``:
the data of the reader of such tiles (``vision.models.CUT_READER``), which the shipped readers never learnt as the
run time cuts them.

``--narrower-than PX`` cuts only the whole tiles (not at the frame) whose face is narrower than PX
(``vision.tiles.face_width``): the data of a reader of small far tiles, where a 1024 px snapshot's hands
are misread (session 35).

``--unsure-below P`` cuts only the tiles the shipped reader pair (``vision.models.shipped_reader``) reads under P
sure from their cut: the data of a reader of the tiles the pair is unsure of, whatever makes them hard (blur, a
neighbour hiding part of the face, a glyph style), where most of its misreadings lie (session 42).

``--boxes detector`` cuts the shipped detector's own boxes instead (``vision.detector``, its larger second pass
included), each paired with the labelled tile it overlaps (IoU at least ``MATCH_IOU``): the crops the run time
reads, with the detector's real errors (a box across a standing tile's face and side, an angle between a sheared
face's edges) rather than a jitter. Why: readers refined on jittered true polygons read those as well as v6 but
lost hands end to end on 2048 px snapshots (v9, v9b, v10 in ``models/README.md``), on the detector's boxes.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from vision.detector import Detection
from vision.reader import quarter_turned
from vision.tiles import edges_reached, face_width, faces, straighten, upright_corners

from .evaluate import in_frame
from .generate import _atomic_write, default_shared, run_jobs, scene_style

CORNER_JITTER = 0.03  # of the tile's short side: a detector's corner error on generated scenes
MATCH_IOU = 0.5  # a detector's box is cut as the labelled tile it overlaps at least this much
_detector = None  # the shipped detector, loaded once per worker process for --boxes detector
_reader = None  # the shipped reader pair, likewise for --unsure-below


def glyph_turn(corners: np.ndarray, polygon: np.ndarray) -> int:
    """How many quarter turns clockwise the glyph is from the crop's up: the k for which the cut's corners
    rolled by k best fit the face polygon in glyph order (as ``vision.tiles.TileFinder.find`` rolls them)."""
    return int(np.argmin([np.abs(np.roll(corners, -k, axis=0) - polygon).sum() for k in range(4)]))


def detection_cut(image: np.ndarray, polygon: np.ndarray) -> tuple[np.ndarray, int]:
    """The crop the run time reads for a detection of exactly this face polygon, and its glyph's turn: its
    rectangle (a sheared face in a row the run time cuts as ``vision.tiles.face_corners``, from its neighbours).
    A face cut by the photo's edge is cut as the detector boxes it, its part inside the photo (``in_frame``, as the
    detector's labels clip it), not whole with the photo's edge pixels repeated beyond it (before session 32)."""
    corners = detection_corners(polygon, image.shape)
    return straighten(image, corners), glyph_turn(corners, polygon)


def detection_corners(polygon: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The corners the run time cuts for a detection of exactly this face polygon (``detection_cut``)."""
    centre, size, angle = cv2.minAreaRect(in_frame(polygon, shape))
    return upright_corners(Detection(centre, size, angle, 1.0))


def cut(image: np.ndarray, polygon: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A tile cut as the run time cuts a detection of it, turned back to stand upright."""
    short = min(np.linalg.norm(polygon[1] - polygon[0]), np.linalg.norm(polygon[3] - polygon[0]))
    crop, turn = detection_cut(image, polygon + rng.normal(0, CORNER_JITTER * short, polygon.shape))
    return quarter_turned(crop, -turn)


def detector_cuts(image: np.ndarray, tiles: list[dict]) -> list[tuple[int, np.ndarray]]:
    """The shipped detector's boxes in ``image``, each paired with the index in ``tiles`` of the labelled tile it
    overlaps most (at least ``MATCH_IOU``, each tile once) and cut as the run time cuts it, turned back upright."""
    global _detector
    from vision.detector import TileDetector
    from vision.models import DETECTOR, model_file

    from .evaluate import pair_by_overlap

    if _detector is None:
        _detector = TileDetector(model_file(DETECTOR))
    found, _ = faces(_detector.detect(image))  # surest first
    return [(k, quarter_turned(straighten(image, corners), -glyph_turn(corners, np.array(tiles[k]["polygon"]))))
            for corners, k in zip(found, pair_by_overlap(found, [t["polygon"] for t in tiles], MATCH_IOU))
            if k is not None]


def unsure_reader():
    """The shipped reader pair, loaded once per worker process."""
    global _reader
    if _reader is None:
        from vision.models import shipped_reader

        _reader = shipped_reader()
    return _reader


def at_frame(polygon, shape: tuple[int, ...]) -> bool:
    """Whether a face reaches within ``vision.tiles.FRAME_PX`` of the photo's edge or beyond it."""
    return bool(edges_reached([np.asarray(polygon, dtype=np.float64)], shape).any())


def write_scene(job: tuple) -> int:
    src, out, table_path, per_scene, max_backs, seed, shared, boxes, frame_only, narrower_than, unsure_below = job
    done = out / ".done" / table_path.parent.name / table_path.stem
    if done.exists():
        return 0
    cv2.setNumThreads(1)
    table = json.loads(table_path.read_text())
    rng = np.random.default_rng([seed, table["index"], 5])
    style = scene_style(table, shared)
    tiles = [t for t in table["tiles"] if t["labelled"] and not (t["cls"] == "back" and style.blank_back)]
    image = cv2.imread(str(src / table["image"]))
    if frame_only:
        tiles = [t for t in tiles if at_frame(t["polygon"], image.shape)]
    if narrower_than:
        tiles = [t for t in tiles
                 if face_width(t["polygon"]) < narrower_than and not at_frame(t["polygon"], image.shape)]
    if boxes == "detector":
        found = dict(detector_cuts(image, tiles))
        picks = [k for k in rng.permutation(len(tiles)) if k in found]
    else:
        picks = list(rng.permutation(len(tiles)))
    if max_backs is not None:
        backs = set([k for k in picks if tiles[k]["cls"] == "back"][:max_backs])
        picks = [k for k in picks if tiles[k]["cls"] != "back" or k in backs]
    if unsure_below is None:
        picks = picks[:per_scene]
    crops = [found[k] if boxes == "detector" else cut(image, np.array(tiles[k]["polygon"], dtype=np.float64), rng)
             for k in picks]
    if unsure_below is not None:  # every pick read as one batch (its light the scene's), the unsure kept
        unsure = [i for i, r in enumerate(unsure_reader().read(crops)) if r.confidence < unsure_below][:per_scene]
        picks, crops = [picks[i] for i in unsure], [crops[i] for i in unsure]
    for k, crop in zip(picks, crops):
        t = tiles[k]
        folder = out / table_path.parent.name / t["cls"]
        folder.mkdir(parents=True, exist_ok=True)
        ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
        _atomic_write(folder / f"{table['index']:06d}_{k}.jpg", buf.tobytes())
    done.parent.mkdir(parents=True, exist_ok=True)
    done.touch()
    return len(tiles)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True, help="scenes written by datasets.generate")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-scene", type=int, default=16, help="at most this many tiles per scene, picked at random")
    ap.add_argument("--max-backs", type=int, default=None, help="at most this many face-down tiles per scene")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--boxes", choices=("jittered", "detector"), default="jittered",
                    help="cut each true polygon jittered (default) or the shipped detector's boxes")
    ap.add_argument("--at-frame", action="store_true", help="only the tiles the photo's edge cuts or touches")
    ap.add_argument("--narrower-than", type=float, default=None, metavar="PX",
                    help="only the whole tiles (not at the frame) narrower than this many pixels")
    ap.add_argument("--unsure-below", type=float, default=None, metavar="P",
                    help="only the tiles the shipped reader pair reads under P sure from their cut")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--shared", type=Path, default=None)
    args = ap.parse_args(argv)
    shared = (args.shared or default_shared()).resolve()
    tables = sorted(args.src.glob("tables/*/*.json"))
    if not tables:
        ap.error(f"no scenes under {args.src}/tables: make them with python -m datasets.generate")
    jobs = [(args.src, args.out, p, args.per_scene, args.max_backs, args.seed, shared, args.boxes,
             args.at_frame, args.narrower_than, args.unsure_below) for p in tables]
    run_jobs(write_scene, jobs, args.workers, "scenes cut")


if __name__ == "__main__":
    main()

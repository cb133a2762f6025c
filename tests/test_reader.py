"""The shipped tile reader loads with onnxruntime alone and reads generated crops of a seed never trained on."""
from pathlib import Path

import cv2
import pytest

from vision.classes import CLASSES
from vision.reader import TileReader

MODEL = Path(__file__).resolve().parents[1] / "models/tile_reader.onnx"


def test_reader_reads_unseen_generated_crops(shared, tmp_path):
    from datasets import crops

    crops.main(["--out", str(tmp_path), "--n", "400", "--seed", "99", "--workers", "1", "--shared", str(shared)])
    files = sorted(tmp_path.glob("*/*/*.jpg"))
    assert len(files) > 150
    readings = TileReader(MODEL).read([cv2.imread(str(p)) for p in files])
    correct = sum(r.kind == p.parent.name for r, p in zip(readings, files))
    assert correct / len(files) >= 0.95, f"{correct}/{len(files)}"
    assert all(r.kind in CLASSES and 0 < r.confidence <= 1 for r in readings)


def test_reader_answers_nothing_for_no_crops():
    assert TileReader(MODEL).read([]) == []


def test_reader_refuses_a_missing_model(tmp_path):
    with pytest.raises(Exception):
        TileReader(tmp_path / "missing.onnx")

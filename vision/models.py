"""Where the shipped weights are: ``models/`` of the repo, installed as the package ``riichi_lens_models``.

``RIICHI_LENS_MODELS`` (a folder) overrides it, to try other weights without reinstalling.
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

READER = "tile_reader.onnx"
DETECTOR = "tile_detector.onnx"


def model_file(name: str) -> Path:
    folder = os.environ.get("RIICHI_LENS_MODELS")
    path = Path(folder) / name if folder else Path(str(resources.files("riichi_lens_models") / name))
    if not path.is_file():
        raise FileNotFoundError(f"model {name} not found at {path}: reinstall riichi-lens, or set "
                                f"RIICHI_LENS_MODELS to a folder holding {name}")
    return path

"""`pip install .` (not only an editable install) must carry the weights and the web page."""
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_the_models_and_the_page(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(REPO)], check=True, cwd=tmp_path)
    wheel = next(tmp_path.glob("riichi_lens-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("riichi_lens_models/tile_reader.onnx", "riichi_lens_models/tile_reader_second.onnx",
                   "riichi_lens_models/tile_detector.onnx",
                   "server/static/index.html", "vision/tiles.py", "rules/readout.py"):
        assert needed in names, f"{needed} missing from {wheel.name}"
    assert not any(n.startswith(("tests/", "bench/", "data/")) for n in names)

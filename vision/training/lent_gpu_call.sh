#!/usr/bin/env bash
# The command a `device` call runs on a lent GPU machine (session 23), from the repo's root there, with .gpu/ carried
# (vision/training/lent_gpu_pack.sh makes it; its header has the call): installs the carried wheels, finds the
# image's Python with torch and cv2, runs lent_gpu.sh for the detector only (clutter in half the scenes by default)
# within BUDGET seconds, and leaves in $OUT the run's weights (optimizer stripped), its logs, and both the shipped
# and the new weights validated on the run's own validation windows (val.txt).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .gpu/whl/*.whl || exit 1
PY=$(command -v python3)
for c in /opt/torch/.venv/bin/python3 $(command -v python3) /usr/bin/python3; do
    [ -x "$c" ] && "$c" -c "import cv2, torch" 2>/dev/null && { PY=$c; break; }; done
echo "python: $PY"
"$PY" -c "import cv2" || { echo "no cv2: stopping"; exit 2; }
export PATH=$(dirname "$PY"):$PATH  # the venv's own bin: a symlink elsewhere loses the venv
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 YOLO_OFFLINE=1
export RIICHI_LENS_SHARED=$PWD/.gpu/shared RIICHI_LENS_FONTS=$(ls .gpu/fonts/*.ttf | tr '\n' ':')
nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1 | tail -1; nproc
W=${WORK:-/root/job}
SECONDS=0
timeout "${BUDGET:-500}" env WORK=$W READ_HOURS=0 EXPORT=0 CLUTTER=${CLUTTER:-0.5} bash vision/training/lent_gpu.sh \
    2>&1 | tee "$OUT/job.log"
echo "job ended after $SECONDS s"
cp "$W/detector.log" "$W/runs/detector/results.csv" "$OUT/" 2>/dev/null
python - "$W/runs/detector/weights" "$OUT" <<'PY'
import sys
from pathlib import Path
from ultralytics.utils.torch_utils import strip_optimizer
src, out = Path(sys.argv[1]), Path(sys.argv[2])
for name in ("best.pt", "last.pt"):
    if (src / name).exists():
        strip_optimizer(src / name, str(out / name))
PY
ls -la "$OUT"
[ -f "$OUT/best.pt" ] && timeout "${VAL_S:-60}" python - "$W" "$OUT" <<'PY' 2>&1 | grep -v "^ " | tee "$OUT/val.txt"
import sys
from ultralytics import YOLO
w = sys.argv[1]
for pt in ("models/tile_detector.pt", sys.argv[2] + "/best.pt"):
    m = YOLO(pt).val(data=f"{w}/runs/detector-data.yaml", imgsz=416, batch=64, plots=False, verbose=False, workers=8)
    print(f"VAL {pt}: mAP50 {m.box.map50:.4f} mAP50-95 {m.box.map:.4f}")
PY
echo "all done after $SECONDS s"

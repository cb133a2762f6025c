#!/usr/bin/env bash
# The command a `device` call runs on a lent GPU machine (session 23), from the repo's root there, with .gpu/ carried
# (vision/training/lent_gpu_pack.sh makes it; its header has the call): installs the carried wheels, finds the
# image's Python with torch and cv2, runs lent_gpu.sh (the detector only unless READ_HOURS, below; clutter in half
# the scenes by default) within BUDGET seconds, and leaves in $OUT the run's weights (optimizer stripped), its logs,
# and both the shipped and the new weights validated on the run's own validation windows (val.txt). With
# MORE_HOURS, the run then goes on from its last.pt at MORE_LR0 (default 0.0002) on the same windows for that long,
# within MORE_BUDGET seconds (sessions 23, 35 and 58 ran that second part as a second call on the still-warm
# machine); its weights come back as det2-best.pt and det2-last.pt. With READ_HOURS (and DET_HOURS=0 for the reader
# alone) the reader is trained too, from scratch unless READ_WEIGHTS; it comes back as reader-v8.onnx (float:
# quantize it here, as the model card says), reader-v8.pt, reader-v8.train.json and reader.log.
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
timeout "${BUDGET:-500}" env WORK=$W READ_HOURS=${READ_HOURS:-0} EXPORT=0 CLUTTER=${CLUTTER:-0.5} \
    bash vision/training/lent_gpu.sh 2>&1 | tee "$OUT/job.log"
echo "job ended after $SECONDS s"
cp "$W/detector.log" "$W/runs/detector/results.csv" "$W"/reader.log "$W"/reader-v8.* "$OUT/" 2>/dev/null
strip_weights() {  # a run's best.pt and last.pt into $OUT, optimizer stripped, each name prefixed with $2
    python - "$W/runs/$1/weights" "$OUT" "$2" <<'PY'
import sys
from pathlib import Path
from ultralytics.utils.torch_utils import strip_optimizer
src, out, prefix = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
for name in ("best.pt", "last.pt"):
    if (src / name).exists():
        strip_optimizer(src / name, str(out / (prefix + name)))
PY
}
strip_weights detector ""
if [ "${MORE_HOURS:-0}" != 0 ] && [ -f "$W/runs/detector/weights/last.pt" ]; then
    echo "going on from last.pt at ${MORE_LR0:-0.0002} for $MORE_HOURS h"
    timeout "${MORE_BUDGET:-300}" python -m vision.training.detector --data "$W/runs/detector-data.yaml" \
        --weights "$W/runs/detector/weights/last.pt" --lr0 "${MORE_LR0:-0.0002}" \
        --hours "$MORE_HOURS" --batch 64 --workers 14 --device "${DEVICE:-0}" --project "$W/runs" --name det2 \
        --no-export >"$OUT/det2.log" 2>&1
    cp "$W/runs/det2/results.csv" "$OUT/det2-results.csv" 2>/dev/null
    strip_weights det2 det2-
fi
ls -la "$OUT"
[ -f "$OUT/best.pt" ] && timeout "${VAL_S:-60}" python - "$W" "$OUT" <<'PY' 2>&1 | grep -v "^ " | tee "$OUT/val.txt"
import sys
from pathlib import Path
from ultralytics import YOLO
w, out = sys.argv[1], Path(sys.argv[2])
for pt in ["models/tile_detector.pt"] + [str(out / n) for n in ("best.pt", "det2-best.pt") if (out / n).exists()]:
    m = YOLO(pt).val(data=f"{w}/runs/detector-data.yaml", imgsz=416, batch=64, plots=False, verbose=False, workers=8)
    print(f"VAL {pt}: mAP50 {m.box.map50:.4f} mAP50-95 {m.box.map:.4f}")
PY
echo "all done after $SECONDS s"

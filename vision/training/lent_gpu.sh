#!/usr/bin/env bash
# Both models' training in one fixed-time job, for a lent GPU machine (one GPU, 16 cores; nothing fetched).
#
#   WORK=/root/job DET_HOURS=0.28 READ_HOURS=0.2 bash vision/training/lent_gpu.sh
#   # detector only, on other seeds, at a lower rate:
#   WORK=/root/job DET_HOURS=0.07 READ_HOURS=0 SEED_MIXED=42 SEED_CORNER=43 LR0=0.0003 bash vision/training/lent_gpu.sh
#   # the reader refined from the shipped file instead of trained from scratch (session 17's runs on a CPU):
#   WORK=/root/job READ_WEIGHTS=models/tile_reader.onnx READ_LR=0.0005 bash vision/training/lent_gpu.sh
#   # half the training scenes with clutter about the table (paper, cloth plain or printed, a phone, point sticks,
#   # boards: session 20's real single-tile photos showed false tiles on such things; bench/bench_single_tiles.py
#   # measures them):
#   WORK=/root/job CLUTTER=0.5 bash vision/training/lent_gpu.sh
#   # the reader's scene tiles cut from the shipped detector's own boxes rather than jittered true polygons
#   # (datasets.scene_crops --boxes detector; session 21's CPU refinement v11 on them: models/README.md):
#   WORK=/root/job SCENE_BOXES=detector bash vision/training/lent_gpu.sh
#   # half the detector's windows around partly hidden tiles, its usual miss (datasets.windows --hidden; a one-hour
#   # CPU fine-tune on such windows alone did not help, session 40: models/README.md):
#   WORK=/root/job HIDDEN=0.5 bash vision/training/lent_gpu.sh
#   # the reader alone, from scratch, with more tiles cut from each scene (its batches made on 14 threads, session
#   # 59: session 13's reader on a GPU waited on one core's augmentation, 65 s an epoch):
#   WORK=/root/job DET_HOURS=0 READ_HOURS=0.08 PER_SCENE=40 bash vision/training/lent_gpu.sh
#   # ...with standing rows seen from up to YAW degrees aside as well (datasets.crops --yaw; the real set's crops of
#   # whole tiles seen aslant, which session 60's reader f3 learned from CPU-made ones: models/README.md):
#   WORK=/root/job DET_HOURS=0 READ_HOURS=0.08 PER_SCENE=40 CROPS_YAW=40000 YAW=45 bash vision/training/lent_gpu.sh
#   # ...a wider reader (blocks' channels; from a narrower READ_WEIGHTS it is widened first, as w1 was, session 63):
#   WORK=/root/job DET_HOURS=0 READ_HOURS=0.08 PER_SCENE=40 READ_WIDTHS=48,96,192,384 bash vision/training/lent_gpu.sh
#   # a share of the scenes under one strong lamp (hard tile-shaped shadows, faces lit by their turn, a bulb's or an
#   # LED's white; datasets.generate --harsh-light, session 66: the real photos' row-end shadows read as face-down):
#   WORK=/root/job HARSH_LIGHT=0.3 bash vision/training/lent_gpu.sh
#
# Needs the generator's inputs (RIICHI_LENS_SHARED with data/tile-art; CJK fonts, RIICHI_LENS_FONTS on a machine
# without Debian's) and ultralytics importable. It makes fresh scenes with seeds no dev or eval set uses (40:
# mixed framings, 41: corner snapshots, by default), then, at once:
#   - the detector goes on from the shipped weights on 416-px windows of them (GPU, 12 loader processes);
#   - the reader is trained from scratch (or from READ_WEIGHTS, a .pt or an exported .onnx, at peak rate READ_LR)
#     on generated crops (seeds 30, 31; with CROPS_YAW, that many more of seed 32 seen from aside) plus 16 tiles
#     cut from each scene.
# Progress: $WORK/detector.log and $WORK/reader.log; weights: $WORK/runs/detector/weights/{last,best}.pt and
# $WORK/reader-v8.pt (saved after every epoch), $WORK/reader-v8.onnx at the end.
#
# Through the `device` tool (nothing can be fetched there; the repo travels, ../shared does not):
# vision/training/lent_gpu_pack.sh packs here, into .gpu/, the ultralytics wheels, the tile art and the fonts cut to
# the characters drawn; vision/training/lent_gpu_call.sh runs there, from the repo's root, with .gpu carried, and
# brings the weights back in $OUT (session 23's call is in the pack script's header). A run that must outlive one
# call (up to 10 minutes) starts this script with `setsid nohup` and later calls, each within 30 s of the last,
# wait and copy its weights (session 13).
set -euo pipefail
WORK=${WORK:-/root/job}
DET_HOURS=${DET_HOURS:-0.28}
READ_HOURS=${READ_HOURS:-0.2}
READ_WEIGHTS=${READ_WEIGHTS:-}
READ_LR=${READ_LR:-0.003}
READ_WIDTHS=${READ_WIDTHS:-}
READ_EPOCHS=${READ_EPOCHS:-60}
PER_SCENE=${PER_SCENE:-16}
SCENES_MIXED=${SCENES_MIXED:-4000}
SCENES_CORNER=${SCENES_CORNER:-3000}
CROPS=${CROPS:-40000}
CROPS_YAW=${CROPS_YAW:-0}
YAW=${YAW:-45}
SEED_MIXED=${SEED_MIXED:-40}
SEED_CORNER=${SEED_CORNER:-41}
LR0=${LR0:-0.0007}
CLUTTER=${CLUTTER:-0}
HARSH_LIGHT=${HARSH_LIGHT:-0}
SCENE_BOXES=${SCENE_BOXES:-jittered}
HIDDEN=${HIDDEN:-0}
DEVICE=${DEVICE:-0}
EXPORT=${EXPORT:-1}  # 0: keep the detector's weights only (export them here: the machine may lack onnxslim)
mkdir -p "$WORK"
stamp() { echo "[$(date +%T)] $*"; }

stamp "scenes"
G1=$WORK/g$SEED_MIXED G2=$WORK/g$SEED_CORNER W1=$WORK/w$SEED_MIXED W2=$WORK/w$SEED_CORNER
python -m datasets.generate --out "$G1" --n "$SCENES_MIXED" --seed "$SEED_MIXED" --format obb --classes tile \
    --workers 16 --clutter "$CLUTTER" --harsh-light "$HARSH_LIGHT"
python -m datasets.generate --out "$G2" --n "$SCENES_CORNER" --seed "$SEED_CORNER" --framing corner --format obb \
    --classes tile --workers 16 --clutter "$CLUTTER" --harsh-light "$HARSH_LIGHT"

detector=
if [ "$DET_HOURS" != 0 ]; then
    python -m datasets.windows --src "$G1" --out "$W1" --size 416 --per-image 3 --hidden "$HIDDEN" --workers 16
    python -m datasets.windows --src "$G2" --out "$W2" --size 416 --per-image 3 --hidden "$HIDDEN" --workers 16
    stamp "detector: from models/tile_detector.pt for $DET_HOURS h"
    python -m vision.training.detector --data "$W1" "$W2" --weights models/tile_detector.pt \
        --lr0 "$LR0" --hours "$DET_HOURS" --batch 64 --workers 12 --device "$DEVICE" --project "$WORK/runs" \
        --name detector --out "$WORK/detector.onnx" $([ "$EXPORT" = 0 ] && echo --no-export) \
        >"$WORK/detector.log" 2>&1 &
    detector=$!
fi

if [ "$READ_HOURS" != 0 ]; then
    # with the detector training beside it, the crops are made on half the cores; alone, on all of them
    cores=$([ -n "$detector" ] && echo 8 || echo 16)
    stamp "reader crops"
    python -m datasets.crops --out "$WORK/c30" --n "$CROPS" --seed 30 --workers "$cores"
    python -m datasets.crops --out "$WORK/c31" --n "$CROPS" --seed 31 --workers "$cores"
    crops="$WORK/c30 $WORK/c31"
    if [ "$CROPS_YAW" != 0 ]; then
        python -m datasets.crops --out "$WORK/c32" --n "$CROPS_YAW" --seed 32 --yaw "$YAW" --workers "$cores"
        crops="$crops $WORK/c32"
    fi
    python -m datasets.scene_crops --src "$G1" --out "$WORK/sc1" --per-scene "$PER_SCENE" --seed "$SEED_MIXED" \
        --workers "$cores" --boxes "$SCENE_BOXES"
    python -m datasets.scene_crops --src "$G2" --out "$WORK/sc2" --per-scene "$PER_SCENE" --seed "$SEED_CORNER" \
        --workers "$cores" --boxes "$SCENE_BOXES"
    stamp "reader: from ${READ_WEIGHTS:-scratch} for $READ_HOURS h"
    reader_device=$([ "$DEVICE" = cpu ] && echo cpu || echo "cuda:$DEVICE")
    python -m vision.training.classifier --data $crops "$WORK/sc1" "$WORK/sc2" \
        --out "$WORK/reader-v8.onnx" --epochs "$READ_EPOCHS" --batch 256 --device "$reader_device" \
        --hours "$READ_HOURS" --lr "$READ_LR" --loaders "$((cores - 2))" --bf16 \
        ${READ_WEIGHTS:+--weights "$READ_WEIGHTS"} ${READ_WIDTHS:+--widths "$READ_WIDTHS"} \
        >"$WORK/reader.log" 2>&1 || stamp "reader failed: see $WORK/reader.log"
fi
if [ -n "$detector" ]; then
    wait $detector || stamp "detector ended with an error (its weights are saved each epoch): see $WORK/detector.log"
fi
stamp "done"

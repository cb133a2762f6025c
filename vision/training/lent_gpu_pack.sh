#!/usr/bin/env bash
# Pack, on this machine, what a lent GPU machine needs for vision/training/lent_gpu_call.sh and cannot fetch: the
# ultralytics wheels, a copy of the tile art, and the generator's CJK fonts cut to the 17 characters it draws
# (fonttools' pyftsubset, in the generator's order; the cut fonts draw the same masks as the whole files but for a
# few edge pixels of 南 in ukai and of 南萬發 in VL Gothic). The folder .gpu/ (ignored by git) is then named in the
# `device` call's carry:
#
#   bash vision/training/lent_gpu_pack.sh            # once: .gpu/, about 7 MB
#   # device run, carry [".gpu"], timeout_s 590 (session 58's first call, detector v7: 518 s on an H200):
#   HIDDEN=0.5 CLUTTER=0.5 OUT=$OUT SCENES_MIXED=2000 SCENES_CORNER=2000 SEED_MIXED=160 SEED_CORNER=161 \
#       LR0=0.0005 DET_HOURS=0.1 BUDGET=500 VAL_S=45 bash vision/training/lent_gpu_call.sh
#   # its second part ran as a second call on the still-warm machine, 8 epochs more at lr0 0.0002 (196 s; the
#   # model card has it). MORE_HOURS does both in one call, but a call is at most 600 s: the first call's parts
#   # took 75 s (data), 408 s (training for 0.1 h, with its loading and last validation) and 28 s (validation),
#   # so both in one call need shorter runs, e.g. DET_HOURS=0.07 BUDGET=380 MORE_HOURS=0.03 MORE_BUDGET=150.
#   # the reader alone, from scratch (session 59's plan, not yet run on a GPU): fresh scenes' tiles, 40 cut from each,
#   # and 80,000 generated crops, 40,000 more seen from up to 45 degrees aside (session 60's --yaw); its batches
#   # made on 14 threads; back as reader-v8.onnx (float; quantize it here); since session 71 with a share of the
#   # scenes under the harsh lamp (on this CPU lamp-lit tiles taught w1 the lamp but cost it the rest: model card):
#   HARSH_LIGHT=0.3 DET_HOURS=0 READ_HOURS=0.08 PER_SCENE=40 SCENES_MIXED=1500 SCENES_CORNER=1500 SEED_MIXED=190 \
#       SEED_CORNER=191 CROPS_YAW=40000 YAW=45 BUDGET=540 OUT=$OUT bash vision/training/lent_gpu_call.sh
#   # next (sessions 66-68's plan, not yet run): the detector on from v7 with a share of the scenes under one harsh
#   # lamp as well (datasets.generate --harsh-light; the shipped models under it: models/README.md), fresh seeds,
#   # both parts in one call:
#   HARSH_LIGHT=0.3 HIDDEN=0.5 CLUTTER=0.5 OUT=$OUT SCENES_MIXED=2000 SCENES_CORNER=2000 SEED_MIXED=210 \
#       SEED_CORNER=211 LR0=0.0005 DET_HOURS=0.07 BUDGET=380 MORE_HOURS=0.03 MORE_BUDGET=150 VAL_S=45 \
#       bash vision/training/lent_gpu_call.sh
#
# Judge what comes back against the shipped models here, in a copy of models/ with the new weights in place:
#   python bench/judge_models.py COPY      # the model card's rows, both sides, about 30 minutes on this CPU
#
# The machine's image has torch, onnx and opencv-python-headless in /opt/torch/.venv; not polars (the training
# reads its results with the csv module instead).
set -euo pipefail
SHARED=${RIICHI_LENS_SHARED:-../shared}
mkdir -p .gpu/whl .gpu/fonts .gpu/shared/data
mkdir -p .git/info && { grep -qx "/.gpu/" .git/info/exclude 2>/dev/null || echo "/.gpu/" >> .git/info/exclude; }
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux2014_x86_64 -d .gpu/whl ultralytics==8.4.190 ultralytics-thop==2.2.3 ultralytics-platform==0.1.99
rm -rf .gpu/shared/data/tile-art && cp -r "$SHARED/data/tile-art" .gpu/shared/data/
i=0
python3 -c "from datasets.glyphs import available_fonts
for path, index in available_fonts(): print(path, index)" | while read -r path index; do
    i=$((i + 1)); name=$(basename "$path"); name=${name%.*}
    pyftsubset "$path" --font-number="$index" --text=一二三四五六七八九東南西北伍萬中發 \
        --output-file=".gpu/fonts/$i-$name.ttf"
done
du -sh .gpu

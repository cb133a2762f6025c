"""Train the tile detector (stage 1): an oriented-box YOLO with one class, `tile` (training stack only).

It only finds tiles, face up or face down, as rotated rectangles; the crop reader (stage 2) says what each is and
which way up it lies. One class keeps the detector small and quick to train on a CPU. The model is built from
ultralytics' `yolo11n-obb.yaml` (no download: weights start from scratch or from our own checkpoint), trained on
416-px windows of generated scenes (`datasets.windows`), and exported to ONNX for onnxruntime.

    python -m datasets.generate --out data/synth-obb --n 3000 --seed 0 --format obb --classes tile
    python -m datasets.windows --src data/synth-obb --out data/win416 --size 416 --per-image 3
    python -m vision.training.detector --data data/win416/data.yaml --epochs 5 --out models/tile_detector.onnx
    # resume a stopped run, or go on from a checkpoint on more data (several folders train together):
    python -m vision.training.detector --data ... --weights runs/detector/weights/last.pt --resume
    python -m vision.training.detector --data data/win416 data/spread416 --weights models/tile_detector.pt
    # go on from the shipped weights at a low rate, for a fixed time:
    python -m vision.training.detector --data data/win416 data/win-corner --weights models/tile_detector.pt \
        --lr0 0.0003 --hours 0.9 --out data/detector-v2.onnx --name detector-v2
    # a run's weights to ONNX (and .pt beside it), e.g. those a lent GPU trained (vision/training/lent_gpu.sh):
    python -m vision.training.detector --export data/gpu13/det-best.pt --out models/tile_detector.onnx
"""
from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")  # never fetch weights or fonts


def train(data: Path, epochs: int, imgsz: int, batch: int, weights: Path | None, resume: bool, project: Path,
          name: str, workers: int, device: str, fraction: float = 1.0, lr0: float | None = None,
          hours: float | None = None):
    from ultralytics import YOLO
    from ultralytics.utils import torch_utils

    # ultralytics trains on a CPU with cores - 1 threads and no loader workers: on 2 cores that is one core idle.
    torch_utils.NUM_THREADS = os.cpu_count() or 1
    _read_results_without_polars()

    def keep_workers(trainer):  # it also forces workers=0 on a CPU; put back what was asked for
        trainer.args.workers = workers

    if resume and weights is not None:
        model = YOLO(str(weights))
        model.add_callback("on_pretrain_routine_start", keep_workers)
        return model.train(resume=True)
    model = YOLO("yolo11n-obb.yaml") if weights is None else YOLO(str(weights))
    model.add_callback("on_pretrain_routine_start", keep_workers)
    options = {"warmup_epochs": min(3.0, epochs / 8)}
    if lr0 is not None:  # going on from our own weights: a low rate and no warm-up, or the restart undoes them
        options.update(optimizer="AdamW", lr0=lr0, warmup_epochs=0.0)
    if hours is not None:
        options["time"] = hours  # ultralytics fits the epochs, and the rate's decay, into this many hours
    return model.train(
        data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers, device=device,
        # pretrained=False would make ultralytics drop the weights just loaded and start from scratch
        project=str(project), name=name, exist_ok=True, fraction=fraction, pretrained=weights is not None,
        amp=False, plots=False, cache="ram", patience=0, close_mosaic=max(1, epochs // 10), **options,
        # tiles lie at any angle and either way up: rotate and flip freely; colour jitter for lighting and sets
        degrees=180, fliplr=0.5, flipud=0.5, scale=0.5, translate=0.1, mosaic=1.0,
        hsv_h=0.03, hsv_s=0.6, hsv_v=0.45)


def _read_results_without_polars() -> None:
    """ultralytics reads its results.csv back with polars, a 40 MB wheel; a lent GPU machine has no index to
    fetch it from, so where it is missing the csv module reads the file instead."""
    try:
        import polars  # noqa: F401
        return
    except ImportError:
        import csv

        from ultralytics.engine.trainer import BaseTrainer

    def read_results_csv(self):
        try:
            rows = list(csv.DictReader(self.csv.read_text().splitlines()))
        except OSError:
            return {}
        return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

    BaseTrainer.read_results_csv = read_results_csv


def merged_yaml(folders: list[Path], out: Path) -> Path:
    """One dataset YAML that trains and validates on several ``datasets.generate``/``windows`` folders."""
    if len(folders) == 1 and folders[0].suffix == ".yaml":
        return folders[0]
    folders = [f.parent if f.suffix == ".yaml" else f for f in folders]
    lines = ["train:"] + [f"  - {f.resolve()}/images/train" for f in folders]
    lines += ["val:"] + [f"  - {f.resolve()}/images/val" for f in folders] + ["names:", "  0: 'tile'"]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    return out


def export(weights: Path, out: Path, imgsz: int) -> Path:
    """ONNX with a dynamic input size, so the run time picks the resolution from the photo, and the weights
    beside it as ``.pt``."""
    from ultralytics import YOLO

    path = YOLO(str(weights)).export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True, opset=17)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    shutil.copyfile(weights, out.with_suffix(".pt"))  # the checkpoint the next training run starts from
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, nargs="+",
                    help="data.yaml of a --classes tile OBB dataset, or several dataset folders to train on together")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--workers", type=int, default=1, help="loader processes (default 1: augment while training)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--fraction", type=float, default=1.0, help="train on this share of the training images")
    ap.add_argument("--weights", type=Path, default=None, help="start from this checkpoint instead of scratch")
    ap.add_argument("--resume", action="store_true", help="resume the interrupted run of --weights")
    ap.add_argument("--lr0", type=float, default=None,
                    help="AdamW rate with no warm-up, for going on from --weights (default: ultralytics' choice)")
    ap.add_argument("--hours", type=float, default=None, help="stop after this many hours (epochs are fitted)")
    ap.add_argument("--project", type=Path, default=Path("runs"))
    ap.add_argument("--name", default="detector")
    ap.add_argument("--out", type=Path, default=Path("models/tile_detector.onnx"))
    ap.add_argument("--no-export", action="store_true",
                    help="keep the run's weights only (a lent GPU machine lacks the exporter's packages; export here)")
    ap.add_argument("--export", type=Path, metavar="PT",
                    help="only export these weights (a run's best.pt) to --out and beside it as .pt, and stop")
    args = ap.parse_args()
    if not args.export and not args.data:
        ap.error("--data is required")
    if args.export:
        export(args.export, args.out, args.imgsz)
        return print(f"wrote {args.out} from {args.export}")
    t0 = time.time()
    data = merged_yaml(args.data, args.project.resolve() / f"{args.name}-data.yaml")
    train(data.resolve(), args.epochs, args.imgsz, args.batch, args.weights, args.resume,
          args.project.resolve(), args.name, args.workers, args.device, args.fraction, args.lr0, args.hours)
    best = args.project.resolve() / args.name / "weights" / "best.pt"
    if args.no_export:
        return print(f"trained {best} in {time.time() - t0:.0f} s")
    export(best, args.out, args.imgsz)
    print(f"wrote {args.out} from {best} in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()

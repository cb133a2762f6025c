"""Train the box refiner (``vision.refiner``): a small CNN that says where a box's face corners are (training
stack only: torch).

    python -m datasets.box_samples --src data/train110-corner --out data/boxes-110 --n 1500
    python -m vision.training.refiner --data data/boxes-110 [more folders] --out data/refiner.onnx --epochs 5

Input: folders of ``datasets.box_samples`` (one ``.npz`` per scene). One scene in ``VAL_EVERY`` is kept for
validation. Each batch is mirrored left-right and top-bottom at random (the corners' order mirrored with it) and
its light scaled and shifted; the loss is a smooth L1 on the eight coordinates (shares of the cut's width and
height). Output: an ONNX file (input ``cuts``, output ``corners``), its torch weights beside it (``.pt``) and
``.train.json`` (each epoch's mean corner error on the validation scenes, and the detector's own).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision.refiner import FRAME_MARGIN, INPUT_H, INPUT_W, standardise

VAL_EVERY = 20
MAX_LR = 3e-3
MIRROR_X = [1, 0, 3, 2]  # the corners TL TR BR BL mirrored left-right: TR TL BL BR
MIRROR_Y = [3, 2, 1, 0]


def box_corners() -> np.ndarray:
    """Where the box's own corners lie in its cut (shares of width and height): the detector's answer."""
    lo, hi = FRAME_MARGIN / (1 + 2 * FRAME_MARGIN), (1 + FRAME_MARGIN) / (1 + 2 * FRAME_MARGIN)
    return np.float32([lo, lo, hi, lo, hi, hi, lo, hi])


def load(folders: list[Path]) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(cuts, corners) of the training scenes and of the validation ones."""
    parts: dict[bool, list] = {True: [], False: []}
    for folder in folders:
        files = sorted(folder.glob("*.npz"))
        if not files:
            raise SystemExit(f"no samples under {folder}: make them with python -m datasets.box_samples")
        for i, path in enumerate(files):
            with np.load(path) as f:
                parts[i % VAL_EVERY == 0].append((f["cuts"], f["corners"]))
    return tuple((np.concatenate([c for c, _ in parts[val]]), np.concatenate([t for _, t in parts[val]]))
                 for val in (False, True))


def build_model():
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(*block(3, 24), nn.MaxPool2d(2), *block(24, 48), nn.MaxPool2d(2), *block(48, 64),
                         *block(64, 64), nn.MaxPool2d(2), *block(64, 96), nn.Flatten(),
                         nn.Linear(96 * (INPUT_H // 8) * (INPUT_W // 8), 128), nn.ReLU(inplace=True), nn.Linear(128, 8))


def augmented(cuts: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A batch mirrored and relit at random: (cuts in [0, 1], corners)."""
    x = cuts.astype(np.float32) / 255.0
    y = corners.reshape(-1, 4, 2).copy()
    for axis, order in ((2, MIRROR_X), (1, MIRROR_Y)):
        flip = rng.random(len(x)) < 0.5
        x[flip] = np.flip(x[flip], axis=axis)
        y[flip] = y[flip][:, order]
        y[flip, :, 2 - axis] = 1 - y[flip, :, 2 - axis]
    x = x * rng.uniform(0.6, 1.4, (len(x), 1, 1, 1)).astype(np.float32)
    x = x + rng.uniform(-0.15, 0.15, (len(x), 1, 1, 1)).astype(np.float32)
    return x, y.reshape(-1, 8)


def mean_error(model, cuts: np.ndarray, corners: np.ndarray) -> float:
    """The mean distance of the predicted coordinates from the true ones (shares of the cut's width and height)."""
    import torch

    model.eval()
    errors = []
    with torch.no_grad():
        for s in range(0, len(cuts), 1024):
            x = torch.from_numpy(standardise(cuts[s:s + 1024].astype(np.float32) / 255.0))
            errors.append(np.abs(model(x).numpy() - corners[s:s + 1024]).mean(axis=1))
    return float(np.concatenate(errors).mean())


def train(folders: list[Path], out: Path, epochs: int, batch: int, seed: int) -> dict:
    import torch
    import torch.nn as nn

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    (x, y), (vx, vy) = load(folders)
    report = {"train_boxes": len(x), "val_boxes": len(vx),
              "detector_error": float(np.abs(vy - box_corners()).mean()), "history": []}
    print(f"{len(x)} boxes to learn from, {len(vx)} to validate on; the detector's own corner error "
          f"{report['detector_error']:.4f}", flush=True)
    model = build_model()
    steps = epochs * (len(x) // batch)
    opt = torch.optim.AdamW(model.parameters(), MAX_LR, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, MAX_LR, total_steps=steps)
    start = time.time()
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(x))
        for s in range(len(x) // batch):
            idx = np.sort(order[s * batch:(s + 1) * batch])
            cuts, corners = augmented(x[idx], y[idx], rng)
            loss = nn.functional.smooth_l1_loss(model(torch.from_numpy(standardise(cuts))),
                                                torch.from_numpy(corners), beta=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        error = mean_error(model, vx, vy)
        report["history"].append({"epoch": epoch + 1, "loss": loss.item(), "val_error": error,
                                  "seconds": round(time.time() - start)})
        print(f"epoch {epoch + 1}/{epochs}: loss {loss.item():.4f}, validation corner error {error:.4f} "
              f"({time.time() - start:.0f} s)", flush=True)
        torch.save(model.state_dict(), out.with_suffix(".pt"))
    report["seconds"] = round(time.time() - start)
    export(model, out)
    return report


def export(model, out: Path) -> None:
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, INPUT_H, INPUT_W), str(out), input_names=["cuts"],
                      output_names=["corners"], dynamic_axes={"cuts": {0: "n"}, "corners": {0: "n"}},
                      opset_version=17, dynamo=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, nargs="+", required=True, help="folders of datasets.box_samples")
    ap.add_argument("--out", type=Path, default=Path("models/tile_refiner.onnx"))
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    report = train(args.data, args.out, args.epochs, args.batch, args.seed)
    report["command"] = "python -m vision.training.refiner " + " ".join(
        ["--data", *map(str, args.data), "--out", str(args.out), "--epochs", str(args.epochs)])
    args.out.with_suffix(".train.json").write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out} in {report['seconds']} s")


if __name__ == "__main__":
    main()

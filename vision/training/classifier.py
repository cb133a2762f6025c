"""Train the tile reader: a small CNN that reads one upright-ish tile crop (training stack only: torch).

Input: a crop folder ``DIR/{train,val}/{class}/*.jpg`` (``python -m datasets.generate --crops``). Each crop is
also shown upside down during training, so the network learns two things: the kind (38 classes: 34 kinds,
3 red fives, a face-down tile) and whether the tile is upside down (ignored for kinds that look the same
both ways up). Output: an ONNX file with two outputs, ``kind_logits`` and ``flip_logit``.

    python -m vision.training.classifier --data data/crops --out models/tile_reader.onnx --epochs 12
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES, SYMMETRIC
from vision.reader import INPUT_H, INPUT_W, preprocess

SYMMETRIC_INDEX = [CLASSES.index(c) for c in SYMMETRIC]


def load_split(root: Path) -> tuple[np.ndarray, np.ndarray]:
    """All crops of a split, preprocessed, with their class index."""
    images, labels = [], []
    for ci, name in enumerate(CLASSES):
        folder = root / name
        if not folder.is_dir():
            continue
        for p in sorted(folder.glob("*.jpg")) + sorted(folder.glob("*.png")):
            img = cv2.imread(str(p))
            if img is not None:
                images.append(preprocess(img))
                labels.append(ci)
    if not images:
        raise SystemExit(f"no crops under {root}: expected {root}/<class>/*.jpg with classes like 1m, 0p, back")
    return np.stack(images), np.array(labels, dtype=np.int64)


def build_model(n_classes: int = len(CLASSES)):
    import torch.nn as nn

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                             nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                             nn.MaxPool2d(2))

    class TileReader(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(block(3, 24), block(24, 48), block(48, 96), block(96, 160),
                                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.kind = nn.Linear(160, n_classes)
            self.flip = nn.Linear(160, 1)

        def forward(self, x):
            # standardise each crop's contrast, so light and exposure matter less than the glyph
            mean = x.mean(dim=(1, 2, 3), keepdim=True)
            std = x.std(dim=(1, 2, 3), keepdim=True)
            f = self.features((x - mean) / (std + 1e-3))
            return self.kind(f), self.flip(f).squeeze(1)

    return TileReader()


def augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Photometric jitter on preprocessed float crops (N, 3, H, W): light, contrast, colour cast, noise."""
    n = batch.shape[0]
    gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)).astype(np.float32)
    cast = rng.uniform(0.85, 1.15, (n, 3, 1, 1)).astype(np.float32)
    bias = rng.uniform(-0.2, 0.2, (n, 1, 1, 1)).astype(np.float32)
    noise = rng.normal(0, rng.uniform(0, 0.08), batch.shape).astype(np.float32)
    return np.clip(batch * gain * cast + bias + noise, 0.0, 1.0)


def train(data: Path, out: Path, epochs: int, batch: int, seed: int, log=print) -> dict:
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x_train, y_train = load_split(data / "train")
    x_val, y_val = load_split(data / "val")
    log(f"{len(y_train)} training crops, {len(y_val)} validation crops")
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * ((len(y_train) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    symmetric = torch.zeros(len(CLASSES), dtype=torch.bool)
    symmetric[SYMMETRIC_INDEX] = True
    history = []
    for epoch in range(epochs):
        model.train()
        t0 = time.time()
        order = rng.permutation(len(y_train))
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            xb = augment(x_train[idx], rng)
            flip = rng.random(len(idx)) < 0.5
            xb[flip] = xb[flip][:, :, ::-1, ::-1]
            xb_t, yb = torch.from_numpy(np.ascontiguousarray(xb)), torch.from_numpy(y_train[idx])
            flip_t = torch.from_numpy(flip.astype(np.float32))
            kind_logits, flip_logit = model(xb_t)
            weight = (~symmetric[yb]).float()
            loss = F.cross_entropy(kind_logits, yb, label_smoothing=0.05)
            loss = loss + (F.binary_cross_entropy_with_logits(flip_logit, flip_t, reduction="none") * weight).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        acc = evaluate(model, x_val, y_val)
        history.append({"epoch": epoch + 1, "loss": total / len(y_train), "val_acc": acc, "seconds": time.time() - t0})
        log(f"epoch {epoch + 1}/{epochs} loss {total / len(y_train):.4f} val acc {acc:.4f} ({time.time() - t0:.0f} s)")
    export(model, out)
    return {"train_crops": int(len(y_train)), "val_crops": int(len(y_val)), "history": history}


def evaluate(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(y), 256):
            logits, _ = model(torch.from_numpy(x[i:i + 256]))
            correct += int((logits.argmax(1).numpy() == y[i:i + 256]).sum())
    return correct / max(1, len(y))


def export(model, out: Path) -> None:
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(model, dummy, str(out), input_names=["crops"], output_names=["kind_logits", "flip_logit"],
                      dynamic_axes={"crops": {0: "n"}, "kind_logits": {0: "n"}, "flip_logit": {0: "n"}},
                      opset_version=17, dynamo=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=Path("models/tile_reader.onnx"))
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.time()
    report = train(args.data, args.out, args.epochs, args.batch, args.seed)
    report["seconds"] = round(time.time() - t0)
    (args.out.with_suffix(".train.json")).write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out} in {report['seconds']} s")


if __name__ == "__main__":
    main()

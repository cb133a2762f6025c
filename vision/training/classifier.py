"""Train the tile reader: a small CNN that reads one upright-ish tile crop (training stack only: torch).

Input: one or more crop folders ``DIR/{train,val}/{class}/*.jpg`` (``python -m datasets.crops``). Half the
time a crop is shown turned by one to three quarter turns (``TURN_P``), squeezed back into the portrait input as
the run time does with a tile whose box is wider than tall (a tile lying upright seen at a low angle, or one
lying sideways), so the network learns two things: the kind (38 classes: 34 kinds, 3 red fives, a face-down
tile) and how many quarter turns clockwise the glyph is from the crop's up (half-turns are not counted for kinds
that look the same both ways up, turns not at all for ``QUARTER_SYMMETRIC``). Output: an ONNX file with outputs
``kind_logits``, ``turn_logits`` (4) and ``features``, and the torch weights beside it (``.pt``).

    python -m vision.training.classifier --data data/crops-s6 data/crops-s7 data/scrops-0 data/scrops-3 \
        --out data/reader-v6.onnx --epochs 10 [--weights data/reader-PREVIOUS.pt]
    python -m vision.training.classifier --data ... --weights models/tile_reader.onnx --lr 1e-3 --epochs 3 \
        --out data/reader-v9.onnx    # refine the shipped reader (its torch weights were not kept)
    python -m vision.training.classifier --data ... --weights data/reader-f4.pt --widths 32,64,128,256 \
        --lr 1e-3 --hours 1.85 --bf16 --out data/reader-w1.onnx    # a wider network, started as the narrow one
"""
from __future__ import annotations

import argparse
import collections
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.classes import CLASSES, QUARTER_SYMMETRIC, SYMMETRIC
from vision.reader import INPUT_H, INPUT_W, quarter_turned, resize_crop

SYMMETRIC_INDEX = [CLASSES.index(c) for c in SYMMETRIC]
STD_FLOOR = 0.03  # in [0, 1] pixel units: a blank face's shading spreads 0.03-0.1 in real photos
SMALL_P = 0.3  # crops shown at a small tile's resolution
TURN_P = (0.5, 0.15, 0.2, 0.15)  # quarter turns clockwise shown in training: mostly upright, as most crops are
CHROMA_GAIN = 4.0  # the crop's mean colour minus its grey, scaled to about the features' range
QUARTER_INDEX = [CLASSES.index(c) for c in QUARTER_SYMMETRIC]
MAX_LR = 3e-3
CALIBRATION_CROPS = 2048  # training crops that set the batch norms of a reader started from an exported file
WIDTHS = (32, 48, 96, 160)  # each block's channels by default: every reader's network until w1 (session 63)
BLOCK_ENDS = (0, 2, 4, 6)  # among the network's convs, each block's last: its channels are the block's width
COLOUR_INPUTS = 6  # the heads' inputs beside the features: the crop's chroma per channel, and its absolute value


def load_split(root: Path, size: tuple[int, int], threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """All crops of a split, resized to (H, W) = size as the run time resizes them (``resize_crop``) but kept uint8
    (N, 3, H, W), made float a batch at a time (``as_floats``): as float32, 320,000 crops filled this machine's
    24 GiB (session 64). With their class index; read on ``threads`` threads (a lent GPU's 150,000 crops take
    minutes on one core)."""
    files = [(ci, p) for ci, name in enumerate(CLASSES) if (root / name).is_dir()
             for p in sorted((root / name).glob("*.jpg")) + sorted((root / name).glob("*.png"))]

    def read(item: tuple[int, Path]) -> np.ndarray | None:
        img = cv2.imread(str(item[1]))
        if img is None:
            return None
        return resize_crop(img, size).transpose(2, 0, 1)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        crops = list(pool.map(read, files, chunksize=256))
    images = [c for c in crops if c is not None]
    labels = [ci for (ci, _), c in zip(files, crops) if c is not None]
    if not images:
        raise SystemExit(f"no crops under {root}: expected {root}/<class>/*.jpg with classes like 1m, 0p, back")
    return np.stack(images), np.array(labels, dtype=np.int64)


def shown_batches(x: np.ndarray, order: np.ndarray, batch: int, key: tuple[int, ...], loaders: int = 1):
    """The batches of one epoch as training shows them: (indices, quarter turns, crops augmented and turned). Each
    batch draws from its own generator (``key`` and the batch's number), so the batches are the same whatever the
    number of ``loaders``: threads that make up to twice their number ahead (cv2 and numpy's array work let go of
    the GIL), so that a GPU does not wait on one core's augmentation (session 13's reader: 65 s an epoch, bound by
    it)."""
    starts = range(0, len(order), batch)

    def make(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rng = np.random.default_rng([*key, k])
        idx = order[starts[k]:starts[k] + batch]
        turns = rng.choice(4, len(idx), p=TURN_P)
        return idx, turns, np.ascontiguousarray(turn_batch(augment(as_floats(x[idx]), rng), turns))

    if loaders <= 1:
        yield from map(make, range(len(starts)))
        return
    with ThreadPoolExecutor(loaders) as pool:
        ahead = collections.deque(pool.submit(make, k) for k in range(min(len(starts), 2 * loaders)))
        for k in range(len(ahead), len(starts) + len(ahead)):
            done = ahead.popleft().result()
            if k < len(starts):
                ahead.append(pool.submit(make, k))
            yield done


def as_floats(crops: np.ndarray) -> np.ndarray:
    """Crops as ``load_split`` keeps them (uint8) -> float32 in [0, 1], the values ``preprocess`` gives."""
    return crops.astype(np.float32) / np.float32(255) if crops.dtype == np.uint8 else crops


def _concat(splits: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate([x for x, _ in splits]), np.concatenate([y for _, y in splits])


def build_model(n_classes: int = len(CLASSES), widths: tuple[int, ...] = WIDTHS):
    """The reader network; ``widths`` are its four blocks' channels (``WIDTHS`` as shipped, wider by ``widen``)."""
    import torch
    import torch.nn as nn

    def conv(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    def block(cin, cout, convs=2):
        return nn.Sequential(*conv(cin, cout), *(conv(cout, cout) if convs == 2 else []), nn.MaxPool2d(2))

    class TileReader(nn.Module):
        def __init__(self):
            super().__init__()
            # one conv at full resolution (the costliest layer of a second one, for little gain), two after
            w = widths
            self.features = nn.Sequential(block(3, w[0], convs=1), block(w[0], w[1]), block(w[1], w[2]),
                                          block(w[2], w[3]), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.kind = nn.Linear(w[3] + COLOUR_INPUTS, n_classes)
            self.turn = nn.Linear(w[3] + COLOUR_INPUTS, 4)

        def forward(self, x):
            # standardise each crop's contrast, so light and exposure matter less than the glyph; the floor keeps
            # a blank face (haku) blank instead of blowing its faint shading up to full contrast
            mean = x.mean(dim=(1, 2, 3), keepdim=True)
            std = x.std(dim=(1, 2, 3), keepdim=True)
            f = self.features((x - mean) / (std + STD_FLOOR))
            # that standardising makes a faint colour cast as strong as a saturated back; the crop's colour at
            # its real strength goes to the heads beside the features (a white haku vs a coloured back)
            colour = x.mean(dim=(2, 3))
            chroma = CHROMA_GAIN * (colour - colour.mean(dim=1, keepdim=True))
            f = torch.cat([f, chroma, chroma.abs()], dim=1)
            return self.kind(f), self.turn(f)

    return TileReader()


def widths_of(model) -> tuple[int, ...]:
    """The four blocks' channels of a ``build_model`` network."""
    import torch

    convs = [m for m in model.features.modules() if isinstance(m, torch.nn.Conv2d)]
    return tuple(convs[k].out_channels for k in BLOCK_ENDS)


def weights_widths(path: Path) -> tuple[int, ...]:
    """The block widths of saved weights (a run's ``.pt`` or an exported ``.onnx``), to build their network."""
    if path.suffix == ".onnx":
        import onnx

        graph = onnx.load(str(path)).graph
        shapes = {i.name: tuple(i.dims) for i in graph.initializer}
        outs = [shapes.get(n.input[1], (None,))[0] for n in graph.node if n.op_type == "Conv"]
        if None in outs:  # int8: the weight comes from a DequantizeLinear of a quantized initializer
            made_by = {o: n for n in graph.node for o in n.output}
            outs = [shapes[made_by[n.input[1]].input[0]][0] for n in graph.node if n.op_type == "Conv"]
    else:
        import torch

        state = torch.load(path, map_location="cpu")
        outs = [v.shape[0] for k, v in state.items() if k.startswith("features.") and v.ndim == 4]
    return tuple(outs[k] for k in BLOCK_ENDS)


def widen(model, widths: tuple[int, ...], seed: int = 0, noise: float = 0.01):
    """A wider network that computes what ``model`` does (Net2WiderNet, Chen et al. 2016): each new channel copies
    one of its layer's channels (its conv row and batch norm), and the next layer's weights on the copies are
    shared among them, so a trained reader's accuracy is the wider one's start, and a CPU run refines a reader
    with more room rather than training one from scratch. ``noise`` (a share of each copied row's spread) lets
    the copies part once training starts."""
    import torch

    rng = np.random.default_rng(seed)
    wide = build_model(model.kind.out_features, widths)
    old = [m for m in model.features.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d))]
    new = [m for m in wide.features.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d))]
    with torch.no_grad():
        source = np.arange(3)  # the input's channels: not widened
        for k in range(0, len(old), 2):
            (conv, bn), (wconv, wbn) = old[k:k + 2], new[k:k + 2]
            c, wc = conv.out_channels, wconv.out_channels
            if wc < c:
                raise ValueError(f"cannot narrow a layer from {c} to {wc} channels")
            pick = np.concatenate([np.arange(c), rng.integers(0, c, wc - c)])
            share = np.bincount(source, minlength=conv.in_channels)[source]  # copies of each input channel
            w = conv.weight[pick][:, source] / torch.from_numpy(share).float()[None, :, None, None]
            if wc > c:
                w[c:] += noise * w[c:].std() * torch.randn_like(w[c:])
            wconv.weight.copy_(w)
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(wbn, name).copy_(getattr(bn, name)[pick])
            source = pick
        share = torch.from_numpy(np.bincount(source)[source]).float()
        features = len(source)
        for name in ("kind", "turn"):
            head, whead = getattr(model, name), getattr(wide, name)
            whead.weight[:, :features].copy_(head.weight[:, source] / share)
            whead.weight[:, features:].copy_(head.weight[:, -COLOUR_INPUTS:])
            whead.bias.copy_(head.bias)
    return wide


def augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Jitter on preprocessed float crops (N, 3, H, W): some shown as a small tile is (a whole table from above:
    14-40 px tall), then saturation (faded or vivid inks; hues are kept, as they tell a red five), light,
    contrast, colour cast, noise."""
    n = batch.shape[0]
    batch = batch.copy()
    h, w = batch.shape[2:]
    for k in np.flatnonzero(rng.random(n) < SMALL_P):
        th = int(rng.integers(14, 41))
        tiny = cv2.resize(batch[k].transpose(1, 2, 0), (max(8, round(th * w / h)), th), interpolation=cv2.INTER_AREA)
        batch[k] = cv2.resize(tiny, (w, h), interpolation=cv2.INTER_AREA).transpose(2, 0, 1)  # as preprocess does
    grey = batch.mean(axis=1, keepdims=True)
    batch = grey + (batch - grey) * rng.uniform(0.4, 1.3, (n, 1, 1, 1)).astype(np.float32)
    gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)).astype(np.float32)
    cast = rng.uniform(0.85, 1.15, (n, 3, 1, 1)).astype(np.float32)
    bias = rng.uniform(-0.2, 0.2, (n, 1, 1, 1)).astype(np.float32)
    noise = rng.normal(0, rng.uniform(0, 0.08), batch.shape).astype(np.float32)
    return np.clip(batch * gain * cast + bias + noise, 0.0, 1.0)


def turn_batch(batch: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """Each crop (3, H, W) turned ``turns`` quarter turns clockwise and squeezed back to (H, W)."""
    out = batch.copy()
    for k in np.flatnonzero(turns):
        out[k] = quarter_turned(batch[k].transpose(1, 2, 0), int(turns[k])).transpose(2, 0, 1)
    return out


def turn_targets(labels: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """(N, 4) mask of the turns that count as right: the true one; also the opposite one for kinds that look
    the same both ways up; any for kinds that look the same a quarter turned."""
    mask = np.zeros((len(labels), 4), dtype=bool)
    mask[np.arange(len(labels)), turns] = True
    half = np.isin(labels, SYMMETRIC_INDEX)
    mask[half, (turns[half] + 2) % 4] = True
    mask[np.isin(labels, QUARTER_INDEX)] = True
    return mask


def train(data: Path | list[Path], out: Path, epochs: int, batch: int, seed: int,
          size: tuple[int, int] = (INPUT_H, INPUT_W), log=print, weights: Path | None = None,
          device: str = "cpu", hours: float | None = None, max_lr: float = MAX_LR, loaders: int = 1,
          bf16: bool = False, widths: tuple[int, ...] | None = None) -> dict:
    """Train, export ``out`` (ONNX) and save the torch weights beside it (``out`` with ``.pt``, also after each
    epoch): the next run can go on from them (``weights``) instead of starting from scratch.

    With ``hours`` the run stops when the time is up (after at most ``epochs``), and the rate follows the share of
    the time spent rather than of the steps, so a lent GPU's fixed time ends with a fully decayed rate. A run that
    goes on from a trained reader takes a lower peak rate (``max_lr``), so it refines rather than relearns.
    ``loaders`` threads make the batches ahead (``shown_batches``); the run is the same whatever their number.
    ``bf16`` runs the network's forward pass in bfloat16 (autocast; the weights and the loss stay float32): on a
    CPU with AVX-512 BF16 (this one's) an epoch takes about half the time at the same accuracy (model card).
    ``widths`` wider than the weights' make the network wider first (``widen``)."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    folders = [data] if isinstance(data, Path) else list(data)
    x_train, y_train = _concat([load_split(d / "train", size, loaders) for d in folders])
    x_val, y_val = _concat([load_split(d / "val", size, loaders) for d in folders])
    log(f"{len(y_train)} training crops, {len(y_val)} validation crops")
    model = build_model(widths=weights_widths(weights) if weights is not None else widths or WIDTHS)
    if weights is not None and weights.suffix == ".onnx":
        load_exported(model, weights, as_floats(x_train[rng.permutation(len(y_train))[:CALIBRATION_CROPS]]))
    elif weights is not None:
        model.load_state_dict(torch.load(weights, map_location="cpu"))
    if widths is not None and widths != widths_of(model):
        model = widen(model, widths, seed)
        log(f"widened to {widths}")
    model.to(device, memory_format=torch.channels_last)  # NHWC: about a sixth faster on this CPU, the same numbers
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    steps = epochs * ((len(y_train) + batch - 1) // batch)
    sched = None if hours is not None else torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    start, history = time.time(), []
    for epoch in range(epochs):
        model.train()
        t0 = time.time()
        order = rng.permutation(len(y_train))
        total, seen = 0.0, 0
        for idx, turns, xb in shown_batches(x_train, order, batch, (seed, epoch), loaders):
            if hours is not None:
                spent = min(1.0, (time.time() - start) / (3600 * hours))
                if spent >= 1 and (epoch or seen):  # one batch at least, however short the time (the first
                    break  # may wait on its loader threads longer than a test's time: it learnt nothing then)
                for group in opt.param_groups:
                    group["lr"] = one_cycle_rate(spent, max_lr)
            xb_t = torch.from_numpy(xb).to(device).contiguous(memory_format=torch.channels_last)
            yb = torch.from_numpy(y_train[idx]).to(device)
            right = torch.from_numpy(turn_targets(y_train[idx], turns)).to(device)
            with torch.autocast(device.split(":")[0], dtype=torch.bfloat16, enabled=bf16):
                kind_logits, turn_logits = model(xb_t)
            log_p = F.log_softmax(turn_logits.float(), dim=1)
            loss = F.cross_entropy(kind_logits.float(), yb, label_smoothing=0.05)
            loss = loss - torch.logsumexp(log_p.masked_fill(~right, -1e9), dim=1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched is not None:
                sched.step()
            total += loss.item() * len(idx)
            seen += len(idx)
        acc, turn_acc = evaluate(model, x_val, y_val, rng, device)
        history.append({"epoch": epoch + 1, "loss": total / max(1, seen), "val_acc": acc, "val_turn_acc": turn_acc,
                        "seconds": time.time() - t0, "crops": seen})
        log(f"epoch {epoch + 1}/{epochs} loss {total / max(1, seen):.4f} val acc {acc:.4f} "
            f"(turned crops: turn right {turn_acc:.4f}) ({time.time() - t0:.0f} s, {seen} crops)")
        torch.save(model.state_dict(), out.with_suffix(".pt"))
        if hours is not None and time.time() - start >= 3600 * hours:
            break
    model.to("cpu", memory_format=torch.contiguous_format)
    export(model, out, size)
    return {"train_crops": int(len(y_train)), "val_crops": int(len(y_val)), "history": history}


def load_exported(model, path: Path, crops: np.ndarray) -> None:
    """Start from an exported reader (``--weights models/tile_reader.onnx``, float or int8): the shipped readers'
    torch weights were not all kept. Export folds each batch norm into its conv, so the conv takes the folded
    weights and its batch norm is set to give back the folded bias at the batch statistics those weights meet on
    ``crops`` (training crops): gamma = the outputs' spread, beta = their mean plus the bias. The network then
    computes what the file does (int8: up to its rounding) and trains on with batch statistics as usual."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}

    def value(name: str) -> np.ndarray:  # an initializer, dequantized where the file is int8 (per channel)
        if name in init:
            return init[name].astype(np.float32)
        node = made_by[name]
        if node.op_type != "DequantizeLinear":
            raise ValueError(f"{path.name}: cannot read weight {name} made by {node.op_type}")
        q, scale, zero = (value(i) for i in node.input)
        shape = [-1] + [1] * (q.ndim - 1) if scale.ndim else []
        return (q - zero.reshape(shape)) * scale.reshape(shape)

    convs = [n for n in graph.node if n.op_type == "Conv"]
    heads = {n.output[0].split("_")[0]: n for n in graph.node if n.op_type == "Gemm"}
    layers = list(model.features.modules())
    pairs = [(conv, bn) for conv, bn in zip(layers, layers[1:]) if isinstance(conv, torch.nn.Conv2d)]
    if len(pairs) != len(convs) or set(heads) != {"kind", "turn"}:
        raise ValueError(f"{path.name} is not a reader of this architecture")
    with torch.no_grad():
        for name, node in heads.items():
            getattr(model, name).weight.copy_(torch.from_numpy(value(node.input[1])))
            getattr(model, name).bias.copy_(torch.from_numpy(value(node.input[2])))
        model.eval()
        x = torch.from_numpy(crops)
        for (conv, bn), node in zip(pairs, convs):  # in order: each layer's statistics need the ones before set
            conv.weight.copy_(torch.from_numpy(value(node.input[1])))
            seen = []
            hook = conv.register_forward_hook(lambda _m, _i, out: seen.append(out))
            model(x)
            hook.remove()
            mean, var = seen[0].mean(dim=(0, 2, 3)), seen[0].var(dim=(0, 2, 3))
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + torch.from_numpy(value(node.input[2])))


def one_cycle_rate(spent: float, max_lr: float = MAX_LR) -> float:
    """The rate at a share of a fixed time spent: warm up over its first 30 %, then a cosine down to zero (the
    shape ``OneCycleLR`` gives a fixed number of steps)."""
    if spent < 0.3:
        return max_lr / 25 + (max_lr - max_lr / 25) * (1 - np.cos(np.pi * spent / 0.3)) / 2
    return max_lr * (1 + np.cos(np.pi * (spent - 0.3) / 0.7)) / 2


def evaluate(model, x: np.ndarray, y: np.ndarray, rng: np.random.Generator,
             device: str = "cpu") -> tuple[float, float]:
    """Kind accuracy on the crops as they are, and turn accuracy on the crops randomly turned."""
    import torch

    model.eval()
    correct = turn_right = 0
    with torch.no_grad():
        for i in range(0, len(y), 256):
            xb = as_floats(x[i:i + 256])
            logits, _ = model(torch.from_numpy(xb).to(device))
            correct += int((logits.argmax(1).cpu().numpy() == y[i:i + 256]).sum())
            turns = rng.integers(0, 4, len(y[i:i + 256]))
            _, turn_logits = model(torch.from_numpy(turn_batch(xb, turns)).to(device))
            mask = turn_targets(y[i:i + 256], turns)
            turn_right += int(mask[np.arange(len(turns)), turn_logits.argmax(1).cpu().numpy()].sum())
    return correct / max(1, len(y)), turn_right / max(1, len(y))


def export(model, out: Path, size: tuple[int, int]) -> None:
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, *size)  # the file states its input size; the run time reads it
    torch.onnx.export(model, dummy, str(out), input_names=["crops"], output_names=["kind_logits", "turn_logits"],
                      dynamic_axes={"crops": {0: "n"}, "kind_logits": {0: "n"}, "turn_logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    add_features_output(out)


def add_features_output(path: Path) -> None:
    """Expose the pooled features the two heads read as a third output, ``features``: calibration to a user's
    set (``vision.calibrate``) fits its own head on them. Also run on a file exported without it:
    ``python -m vision.training.classifier --add-features models/tile_reader.onnx``."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    if any(o.name == "features" for o in model.graph.output):
        return
    head = next(n for n in model.graph.node if "kind_logits" in n.output)
    model.graph.node.append(helper.make_node("Identity", [head.input[0]], ["features"], name="features"))
    model.graph.output.append(helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", None]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, nargs="+", help="crop folders, trained on together")
    ap.add_argument("--add-features", type=Path, metavar="ONNX",
                    help="only add the features output to an exported reader, and stop")
    ap.add_argument("--out", type=Path, default=Path("models/tile_reader.onnx"))
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weights", type=Path, default=None,
                    help="start from these weights: a run's .pt, or an exported reader's .onnx (float or int8)")
    ap.add_argument("--lr", type=float, default=MAX_LR, help="peak learning rate (lower to refine a trained reader)")
    ap.add_argument("--size", default=f"{INPUT_H}x{INPUT_W}", help="input height x width, e.g. 80x60")
    ap.add_argument("--widths", default=None,
                    help=f"the four blocks' channels, e.g. 32,64,128,256 (default {','.join(map(str, WIDTHS))}; "
                         "wider than --weights widens them)")
    ap.add_argument("--device", default="cpu", help="torch device, e.g. cuda on a lent GPU")
    ap.add_argument("--hours", type=float, default=None,
                    help="stop after this many hours (at most --epochs), the rate decayed over that time")
    ap.add_argument("--bf16", action="store_true",
                    help="the forward pass in bfloat16 (autocast): twice as fast on a CPU with AVX-512 BF16 or a GPU")
    ap.add_argument("--loaders", type=int, default=1,
                    help="threads that read the crops and make the batches ahead (lent_gpu.sh: its cores less 2)")
    args = ap.parse_args()
    if args.add_features:
        return add_features_output(args.add_features)
    if args.data is None:
        ap.error("--data is required")
    size = tuple(int(v) for v in args.size.lower().split("x"))
    t0 = time.time()
    report = train(args.data, args.out, args.epochs, args.batch, args.seed, size, weights=args.weights,
                   device=args.device, hours=args.hours, max_lr=args.lr, loaders=args.loaders, bf16=args.bf16,
                   widths=tuple(int(v) for v in args.widths.split(",")) if args.widths else None)
    report["input_size"] = list(size)
    report["seconds"] = round(time.time() - t0)
    (args.out.with_suffix(".train.json")).write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out} in {report['seconds']} s")


if __name__ == "__main__":
    main()

"""Quantize an exported model to int8 for the CPU (onnxruntime static quantization, QDQ, per-channel weights).

    python -m vision.training.quantize --model data/reader.onnx --images data/crops-s1/val --out models/tile_reader.onnx
    python -m vision.training.quantize --model data/detector.onnx --images data/win416/images/val --detector \
        --out models/tile_detector.onnx
    python -m vision.training.quantize --model models/tile_reader.onnx --seven-bit --out models/tile_reader.onnx

Why: on 2 cores the reader's convolutions dominate the time per photo (a photo has 15-140 tiles); int8 runs
them about twice as fast. Activations are calibrated on generated images only (never the real photos), and
the model card records the accuracy after quantization, measured by the same benches as before it.

Weights are 7-bit (-64 to 64, onnxruntime's ``reduce_range``), activations uint8. On an x86 CPU with AVX2 and no
VNNI (AMD Zen 2 and 3, Intel before Ice Lake: many laptops) onnxruntime's fast uint8 x int8 kernel adds pairs of
products in 16 bits, which full 8-bit weights overflow (255 x 127 x 2): there the shipped int8 readers read 87 of
293 generated crops right (session 78). 7-bit weights fit (255 x 64 x 2 < 32,768), so that kernel is exact and
every CPU computes the same scores. ``--seven-bit`` turns a model quantized with 8-bit weights (the readers up to
session 78, whose float weights were not all kept) into 7-bit: each weight halved and rounded, its scale doubled,
the bias's integer halved with its scale. The run time asks onnxruntime for exact arithmetic besides
(``vision.models.cpu_session``), which costs time only for a model with 8-bit weights.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

import cv2


def calibration_feeds(model: Path, images: list[Path], detector: bool) -> list[dict]:
    """The model's inputs for each image, made as the run time makes them."""
    import onnxruntime as ort

    from vision.detector import BASE_SIZE, letterbox
    from vision.reader import preprocess

    inp = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).get_inputs()[0]
    if detector:
        return [{inp.name: letterbox(cv2.imread(str(p)), BASE_SIZE)[0]} for p in images]
    size = (int(inp.shape[2]), int(inp.shape[3]))
    return [{inp.name: preprocess(cv2.imread(str(p)), size)[None]} for p in images]


def quantize(model: Path, images: list[Path], out: Path, detector: bool = False) -> None:
    """Write the int8 model; onnxruntime's scratch files go to a temporary folder, not the current one."""
    import contextlib
    import tempfile

    model, out, images = model.resolve(), out.resolve(), [p.resolve() for p in images]
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        _quantize(model, images, out, detector)


def _quantize(model: Path, images: list[Path], out: Path, detector: bool) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    feeds = calibration_feeds(model, images, detector)

    class Feeds(CalibrationDataReader):
        def __init__(self):
            self.it = iter(feeds)

        def get_next(self):
            return next(self.it, None)

    out.parent.mkdir(parents=True, exist_ok=True)
    pre = out.with_suffix(".pre.onnx")
    quant_pre_process(str(model), str(pre), skip_symbolic_shape=True)
    # The detector's head (the last block: box, angle and class branches) needs float: its outputs mix box
    # coordinates in pixels with scores in 0-1, and the boxes must stay precise. Its backbone and neck are int8.
    head = []
    if detector:
        import onnx

        graph = onnx.load(str(pre)).graph
        last = max(int(n.name.split("/")[1].split(".")[1]) for n in graph.node if n.name.startswith("/model."))
        head = [n.name for n in graph.node if n.name.startswith(f"/model.{last}/")]
    quantize_static(str(pre), str(out), Feeds(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, reduce_range=True,
                    op_types_to_quantize=["Conv"] if detector else None, nodes_to_exclude=head)
    pre.unlink()


def seven_bit(model: Path, out: Path) -> int:
    """Write ``model`` (QDQ, int8 weights) with every 8-bit weight tensor made 7-bit; returns how many were."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(model))
    init = {i.name: i for i in m.graph.initializer}
    made_by = {o: n for n in m.graph.node for o in n.output}

    def dequantizer(name: str):
        node = made_by.get(name)
        return node if node is not None and node.op_type == "DequantizeLinear" and node.input[0] in init else None

    def halve(node, dtype) -> None:  # the integers halved, the scale doubled: the same values, one bit fewer
        values, scale = (numpy_helper.to_array(init[n]) for n in node.input[:2])
        halved = np.round(values.astype(np.float64) / 2)
        if dtype == np.int8:
            halved = np.clip(halved, -64, 64)
        init[node.input[0]].CopyFrom(numpy_helper.from_array(halved.astype(dtype), node.input[0]))
        init[node.input[1]].CopyFrom(numpy_helper.from_array((scale * 2).astype(scale.dtype), node.input[1]))

    made = 0
    for node in m.graph.node:
        if node.op_type not in ("Conv", "Gemm") or len(node.input) < 2:
            continue
        weights = dequantizer(node.input[1])
        if weights is None or numpy_helper.to_array(init[weights.input[0]]).dtype != np.int8:
            continue
        if np.abs(numpy_helper.to_array(init[weights.input[0]]).astype(int)).max() <= 64:
            continue
        halve(weights, np.int8)
        bias = dequantizer(node.input[2]) if len(node.input) > 2 and node.input[2] else None
        if bias is not None:  # its scale is the input's times the weights', which the fused kernel checks
            halve(bias, np.int32)
        made += 1
    onnx.save(m, str(out))
    return made


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--images", type=Path, help="a folder of generated images or crops (searched deep)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--detector", action="store_true", help="the model is the detector (default: the reader)")
    ap.add_argument("--n", type=int, default=300, help="calibration images (a random sample, seed 0)")
    ap.add_argument("--seven-bit", action="store_true",
                    help="the model is quantized already, with 8-bit weights: make them 7-bit (no images needed)")
    args = ap.parse_args(argv)
    if args.seven_bit:
        print(f"wrote {args.out}: {seven_bit(args.model, args.out)} weight tensors made 7-bit")
        return
    if args.images is None:
        ap.error("--images is needed to calibrate a float model's activations")
    images = sorted(p for p in args.images.rglob("*") if p.suffix.lower() in (".jpg", ".png"))
    if not images:
        ap.error(f"no .jpg or .png under {args.images}")
    random.Random(0).shuffle(images)
    quantize(args.model, images[:args.n], args.out, args.detector)
    print(f"wrote {args.out} ({args.out.stat().st_size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()

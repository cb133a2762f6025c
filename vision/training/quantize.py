"""Quantize an exported model to int8 for the CPU (onnxruntime static quantization, QDQ, per-channel weights).

    python -m vision.training.quantize --model data/reader.onnx --images data/crops-s1/val --out models/tile_reader.onnx
    python -m vision.training.quantize --model data/detector.onnx --images data/win416/images/val --detector \
        --out models/tile_detector.onnx

Why: on 2 cores the reader's convolutions dominate the time per photo (a photo has 15-140 tiles); int8 runs
them about twice as fast. Activations are calibrated on generated images only (never the real photos), and
the model card records the accuracy after quantization, measured by the same benches as before it. The weights
are int8 and the activations uint8: on an AVX2 CPU without VNNI onnxruntime computes that pair exactly only when
asked (``vision.models.cpu_session``), so a model is judged through that session.
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
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    op_types_to_quantize=["Conv"] if detector else None, nodes_to_exclude=head)
    pre.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--images", type=Path, required=True, help="a folder of generated images or crops (searched deep)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--detector", action="store_true", help="the model is the detector (default: the reader)")
    ap.add_argument("--n", type=int, default=300, help="calibration images (a random sample, seed 0)")
    args = ap.parse_args()
    images = sorted(p for p in args.images.rglob("*") if p.suffix.lower() in (".jpg", ".png"))
    if not images:
        ap.error(f"no .jpg or .png under {args.images}")
    random.Random(0).shuffle(images)
    quantize(args.model, images[:args.n], args.out, args.detector)
    print(f"wrote {args.out} ({args.out.stat().st_size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()

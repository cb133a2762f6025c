"""The training commands run end to end on a few generated images and export models the run time loads.

They need the training stack (torch, ultralytics, onnx): the fixture installs the `train` extra when it is
missing, as the README says to, so CI checks that the documented training path still works.
"""
import fcntl
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def training_stack():
    # pytest -n 2 runs this in each worker: the lock lets one install while the other waits, then finds it there
    with open(Path(tempfile.gettempdir()) / "riichi-lens-train-extra.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        importlib.invalidate_caches()
        if not all(importlib.util.find_spec(m) for m in ("torch", "ultralytics", "onnx")):
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-e", f"{REPO}[train]"], check=True)
        importlib.invalidate_caches()


def test_detector_trains_on_generated_windows_and_exports_an_onnx_the_run_time_loads(training_stack, shared,
                                                                                       tmp_path, monkeypatch):
    from datasets import generate, windows
    from vision.detector import TileDetector
    from vision.training import detector as training

    monkeypatch.chdir(tmp_path)
    generate.main(["--out", "scenes", "--n", "10", "--seed", "7", "--format", "obb", "--classes", "tile",
                   "--workers", "1", "--shared", str(shared), "--imgsz", "640"])
    windows.main(["--src", "scenes", "--out", "win", "--size", "256", "--per-image", "1", "--workers", "1"])
    assert any(Path("win/labels/train").glob("*.txt")) and any(Path("win/labels/val").glob("*.txt"))
    data = training.merged_yaml([Path("win")], tmp_path / "data.yaml")
    training.train(data, epochs=1, imgsz=256, batch=4, weights=None, resume=False, project=tmp_path / "runs",
                   name="d", workers=0, device="cpu")
    # going on from those weights starts from them (ultralytics drops loaded weights when pretrained=False):
    # at a vanishing rate the first layer's weights come out as they went in, not freshly initialised
    first = tmp_path / "runs/d/weights/last.pt"
    training.train(data, epochs=1, imgsz=256, batch=4, weights=first, resume=False, project=tmp_path / "runs",
                   name="again", workers=0, device="cpu", lr0=1e-12)
    from ultralytics import YOLO

    before, after = (YOLO(str(p)).model.model[0].conv.weight.detach() for p in (first, tmp_path /
                                                                               "runs/again/weights/last.pt"))
    assert float((before - after).abs().max()) < 1e-4 * float(before.abs().max())
    onnx = training.export(tmp_path / "runs/d/weights/last.pt", tmp_path / "det.onnx", 256)
    assert (tmp_path / "det.pt").read_bytes() == first.read_bytes()  # the checkpoint beside it, to go on from
    out = TileDetector(onnx).session.run(None, {"images": np.zeros((1, 3, 256, 320), np.float32)})[0]
    assert out.shape[:2] == (1, 6)  # cx, cy, w, h, the tile score, the angle
    assert isinstance(TileDetector(onnx).detect(cv2.imread(str(next(Path("scenes/images/train").glob("*.jpg"))))),
                      list)


def test_reader_trains_on_generated_crops_and_exports_an_onnx_the_run_time_loads(training_stack, shared, tmp_path):
    from datasets import crops
    from vision.reader import TileReader
    from vision.training import classifier

    crops.main(["--out", str(tmp_path / "crops"), "--n", "200", "--seed", "8", "--workers", "1", "--shared", str(shared)])
    report = classifier.train(tmp_path / "crops", tmp_path / "reader.onnx", epochs=1, batch=32, seed=0, log=lambda *_: None)
    assert report["train_crops"] > 50 and 0 <= report["history"][0]["val_acc"] <= 1
    files = sorted((tmp_path / "crops").glob("val/*/*.jpg"))[:5]
    readings = TileReader(tmp_path / "reader.onnx").read([cv2.imread(str(p)) for p in files])
    assert len(readings) == len(files) and all(0 < r.confidence <= 1 for r in readings)
    # the torch weights saved beside the ONNX are the trained model: the next run can go on from them
    import torch

    from vision.reader import preprocess

    model = classifier.build_model()
    model.load_state_dict(torch.load(tmp_path / "reader.pt", map_location="cpu"))
    model.eval()
    batch = np.stack([preprocess(cv2.imread(str(p)), TileReader(tmp_path / "reader.onnx").size) for p in files])
    with torch.no_grad():
        torch_logits = model(torch.from_numpy(batch))[0].numpy()
    onnx_logits = TileReader(tmp_path / "reader.onnx")._run(list(batch.transpose(0, 2, 3, 1) * 255))["kind_logits"]
    assert np.allclose(torch_logits, onnx_logits, atol=1e-3)
    # an exported reader is a starting point too (the shipped readers' torch weights were not all kept): its
    # batch norms, folded into the convs by export, are set again from crops, and it computes what the file does
    unfolded = classifier.build_model()
    classifier.load_exported(unfolded, tmp_path / "reader.onnx", batch)
    unfolded.eval()
    with torch.no_grad():
        assert np.allclose(unfolded(torch.from_numpy(batch))[0].numpy(), onnx_logits, atol=1e-3)
    # the shipped int8 reader as well, up to its rounding: the same kinds of generated crops
    shipped_path = REPO / "models" / "tile_reader.onnx"
    val = [cv2.imread(str(p)) for p in sorted((tmp_path / "crops").glob("val/*/*.jpg"))]
    val_batch = np.stack([preprocess(c, TileReader(shipped_path).size) for c in val])
    shipped = classifier.build_model(widths=classifier.weights_widths(shipped_path))
    classifier.load_exported(shipped, shipped_path, val_batch)
    shipped.eval()
    with torch.no_grad():
        torch_kinds = shipped(torch.from_numpy(val_batch))[0].numpy().argmax(1)
    onnx_kinds = TileReader(shipped_path)._run(val)["kind_logits"].argmax(1)
    assert len(val) >= 10 and np.mean(torch_kinds == onnx_kinds) >= 0.9
    # quantized as the model card says, its weights 7-bit (exact on every CPU), reading as the float file does
    import onnx

    from vision.training.quantize import quantize

    quantize(tmp_path / "reader.onnx", sorted((tmp_path / "crops").glob("train/*/*.jpg"))[:20], tmp_path / "q.onnx")
    weights = [w for _, w in conv_weights(onnx.load(str(tmp_path / "q.onnx")))]
    assert len(weights) >= 7 and all(w.dtype == np.int8 and -64 <= w.min() and w.max() <= 64 for w in weights)
    quantized = TileReader(tmp_path / "q.onnx")._run(val)["kind_logits"].argmax(1)
    assert np.mean(quantized == TileReader(tmp_path / "reader.onnx")._run(val)["kind_logits"].argmax(1)) >= 0.8
    with pytest.raises(FileNotFoundError):  # --weights is read, not ignored
        classifier.train(tmp_path / "crops", tmp_path / "again.onnx", epochs=1, batch=32, seed=0,
                         log=lambda *_: None, weights=tmp_path / "missing.pt")
    # a fixed time (a lent GPU's, batches made ahead on threads, bfloat16): the run stops inside its first epoch and
    # still exports what it learnt, in float32
    timed = classifier.train(tmp_path / "crops", tmp_path / "timed.onnx", epochs=5, batch=4, seed=0,
                             log=lambda *_: None, hours=0.02 / 3600, loaders=3, bf16=True)
    assert len(timed["history"]) == 1 and 0 < timed["history"][0]["crops"] < report["train_crops"]
    assert len(TileReader(tmp_path / "timed.onnx").read([cv2.imread(str(files[0]))])) == 1


def test_a_reader_made_wider_computes_what_it_did_and_its_file_says_how_wide_it_is(training_stack, tmp_path):
    import torch

    from vision.reader import TileReader
    from vision.training import classifier

    crops = np.random.default_rng(3).random((64, 3, 64, 48), dtype=np.float32)
    shipped = REPO / "models" / "tile_reader.onnx"
    widths = classifier.weights_widths(shipped)  # read through the int8 file's dequantizing
    assert len(widths) == 4 and all(a <= b for a, b in zip(classifier.WIDTHS, widths))
    model = classifier.build_model(widths=widths)
    classifier.load_exported(model, shipped, crops)
    model.eval()
    wider = tuple(w + 16 for w in widths)
    wide = classifier.widen(model, wider, noise=0.0)
    wide.eval()
    assert classifier.widths_of(wide) == wider
    assert sum(p.numel() for p in wide.parameters()) > sum(p.numel() for p in model.parameters())
    with torch.no_grad():
        (kind, turn), (wide_kind, wide_turn) = model(torch.from_numpy(crops)), wide(torch.from_numpy(crops))
    assert torch.allclose(kind, wide_kind, atol=1e-4) and torch.allclose(turn, wide_turn, atol=1e-4)
    # the copies are set apart by a little noise, so that training can part them; the readings barely move
    parted = classifier.widen(model, wider)
    parted.eval()
    with torch.no_grad():
        parted_kind = parted(torch.from_numpy(crops))[0]
    assert not torch.allclose(kind, parted_kind, atol=1e-6)
    assert (parted_kind.argmax(1) == kind.argmax(1)).float().mean() >= 0.9
    # exported, the run time reads it as any reader, and a run going on from it builds its network from the file
    classifier.export(wide, tmp_path / "wide.onnx", (64, 48))
    assert classifier.weights_widths(tmp_path / "wide.onnx") == wider
    torch.save(wide.state_dict(), tmp_path / "wide.pt")
    assert classifier.weights_widths(tmp_path / "wide.pt") == wider
    logits = TileReader(tmp_path / "wide.onnx")._run(list(crops.transpose(0, 2, 3, 1) * 255))["kind_logits"]
    assert np.allclose(logits, kind.numpy(), atol=1e-3)
    with pytest.raises(ValueError, match="narrow"):
        classifier.widen(wide, widths)


def test_batches_made_ahead_on_threads_are_the_batches_made_one_by_one():
    from vision.training.classifier import shown_batches

    rng = np.random.default_rng(5)
    crops = rng.random((37, 3, 64, 48), dtype=np.float32)
    order = rng.permutation(len(crops))
    one_by_one = list(shown_batches(crops, order, 8, (0, 1)))
    assert [len(idx) for idx, _, _ in one_by_one] == [8, 8, 8, 8, 5]
    assert np.array_equal(np.concatenate([idx for idx, _, _ in one_by_one]), order)
    for loaders in (2, 4):
        ahead = list(shown_batches(crops, order, 8, (0, 1), loaders))
        assert len(ahead) == len(one_by_one)
        for (idx, turns, shown), (idx1, turns1, shown1) in zip(ahead, one_by_one):
            assert np.array_equal(idx, idx1) and np.array_equal(turns, turns1) and np.array_equal(shown, shown1)
    another_epoch = list(shown_batches(crops, order, 8, (0, 2)))
    assert not np.array_equal(another_epoch[0][2], one_by_one[0][2])  # each epoch shows its crops afresh


def test_crops_are_kept_as_bytes_and_shown_to_the_network_as_the_run_time_preprocesses_them(tmp_path):
    from vision.classes import CLASSES
    from vision.reader import preprocess
    from vision.training.classifier import as_floats, load_split

    rng = np.random.default_rng(3)
    made = {}
    for name, (h, w) in (("1m", (90, 70)), ("back", (40, 31)), ("7z", (64, 48))):
        (tmp_path / name).mkdir()
        made[CLASSES.index(name)] = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        cv2.imwrite(str(tmp_path / name / "a.png"), made[CLASSES.index(name)])
    (tmp_path / "1m" / "broken.jpg").write_bytes(b"not an image")
    crops, labels = load_split(tmp_path, (64, 48))
    assert crops.dtype == np.uint8 and crops.shape == (3, 3, 64, 48)  # a quarter of float32's memory
    assert sorted(labels.tolist()) == sorted(made)  # the unreadable file left out
    for kept, label in zip(as_floats(crops), labels):
        assert np.array_equal(kept, preprocess(made[label], (64, 48)))


def test_the_timed_rate_warms_up_then_decays_to_zero():
    from vision.training.classifier import MAX_LR, one_cycle_rate

    assert one_cycle_rate(0.0) == pytest.approx(MAX_LR / 25)
    assert one_cycle_rate(0.3) == pytest.approx(MAX_LR)
    assert one_cycle_rate(1.0) == pytest.approx(0.0, abs=1e-12)
    rates = [one_cycle_rate(k / 100) for k in range(101)]
    peak = rates.index(max(rates))
    assert peak == 30 and rates[:peak + 1] == sorted(rates[:peak + 1])
    assert rates[peak:] == sorted(rates[peak:], reverse=True)


def test_refiner_trains_on_the_detectors_boxes_and_exports_an_onnx_the_run_time_loads(training_stack, shared,
                                                                                       tmp_path):
    import torch

    from datasets import box_samples, generate
    from vision.refiner import INPUT_H, INPUT_W, BoxRefiner, frame_cut, standardise
    from vision.training import refiner

    generate.main(["--out", str(tmp_path / "scenes"), "--n", "4", "--seed", "9", "--framing", "corner",
                   "--format", "obb", "--classes", "tile", "--workers", "1", "--shared", str(shared)])
    box_samples.main(["--src", str(tmp_path / "scenes"), "--out", str(tmp_path / "boxes"), "--jitter", "1"])
    report = refiner.train([tmp_path / "boxes"], tmp_path / "refiner.onnx", epochs=1, batch=32, seed=0)
    assert report["train_boxes"] > 50 and report["val_boxes"] > 10 and 0 < report["detector_error"] < 0.2
    assert report["history"][0]["val_error"] > 0
    image = cv2.imread(str(next((tmp_path / "scenes/images/train").glob("*.jpg"))))
    box = np.float32([[300, 300], [330, 300], [330, 340], [300, 340]])
    [moved] = BoxRefiner(tmp_path / "refiner.onnx").refine(image, [box])
    assert moved.shape == (4, 2) and np.isfinite(moved).all()
    # the torch weights beside it are the exported model
    model = refiner.build_model()
    model.load_state_dict(torch.load(tmp_path / "refiner.pt", map_location="cpu"))
    model.eval()
    cut, transform = frame_cut(image, box)
    with torch.no_grad():
        share = model(torch.from_numpy(standardise(cut[None].astype(np.float32) / 255.0))).numpy().reshape(4, 2)
    in_cut = (share * [INPUT_W, INPUT_H])[None].astype(np.float32)
    expected = cv2.perspectiveTransform(in_cut, np.linalg.inv(transform))[0]
    assert np.allclose(moved, expected, atol=1e-2)


def conv_weights(model):
    """(node feeding a Conv or Gemm its int weights, those weights) for each quantized weight tensor of ``model``."""
    from onnx import numpy_helper

    init = {i.name: i for i in model.graph.initializer}
    made_by = {o: n for n in model.graph.node for o in n.output}
    for node in model.graph.node:
        dq = made_by.get(node.input[1]) if node.op_type in ("Conv", "Gemm") else None
        if dq is not None and dq.op_type == "DequantizeLinear" and dq.input[0] in init:
            yield dq, numpy_helper.to_array(init[dq.input[0]])


def test_the_shipped_int8_readers_score_a_real_crop_as_exact_integer_arithmetic_does_on_any_cpu(training_stack,
                                                                                                   shared, tmp_path):
    """On a CPU with AVX2 and no VNNI, onnxruntime's fast uint8 x int8 kernel adds pairs of products in 16 bits:
    8-bit weights overflow it (the first reader read 87 of 293 generated crops right there, session 78), 7-bit
    ones cannot. The same model with its weights stored as uint8 (each int8 weight and zero point plus 128: the
    same numbers) runs on kernels that are exact on every CPU, so the run time's scores must equal those."""
    import onnx
    from onnx import numpy_helper

    from vision.models import (CUT_READER, HARD_READER, READER, SECOND_READER, SMALL_READER, cpu_session,
                               model_file)
    from vision.reader import preprocess_batch

    crops = [cv2.imread(str(p)) for p in sorted((shared / "data/real-tiles/crops").glob("*.jpg"))[:64]]
    for name in (READER, SECOND_READER, CUT_READER, SMALL_READER, HARD_READER):
        model = onnx.load(str(model_file(name)))
        weights = list(conv_weights(model))
        assert len(weights) >= 7 and all(w.dtype == np.int8 and -64 <= w.min() and w.max() <= 64
                                         for _, w in weights), name  # every conv's and head's, 7-bit
        init = {i.name: i for i in model.graph.initializer}
        for dq, w in weights:
            zero = numpy_helper.to_array(init[dq.input[2]])
            for n, v in ((dq.input[0], w), (dq.input[2], zero)):
                init[n].CopyFrom(numpy_helper.from_array((v.astype(np.int16) + 128).astype(np.uint8), n))
        onnx.save(model, str(tmp_path / name))
        shipped, exact = cpu_session(model_file(name)), cpu_session(tmp_path / name)
        feed = {shipped.get_inputs()[0].name: preprocess_batch(crops, tuple(shipped.get_inputs()[0].shape[2:]))}
        for ours, reference in zip(shipped.run(None, feed), exact.run(None, feed)):
            np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-5, err_msg=name)


def test_seven_bit_halves_an_eight_bit_reader_back_to_the_same_numbers(training_stack, shared, tmp_path):
    """The shipped reader made 8-bit (its weights and biases doubled, their scales halved: the same values, but a
    weight of 64 made 127, the most int8 holds), then 7-bit again by ``--seven-bit``, is the shipped reader:
    halving is exact on even integers, and 127 / 2 rounds to the even 64."""
    import onnx
    from onnx import numpy_helper

    from vision.models import READER, cpu_session, model_file
    from vision.reader import preprocess_batch
    from vision.training.quantize import main as quantize_main

    model = onnx.load(str(model_file(READER)))
    init = {i.name: i for i in model.graph.initializer}
    made_by = {o: n for n in model.graph.node for o in n.output}
    scaled = set()
    for dq, _ in conv_weights(model):
        bias = [made_by[n.input[2]] for n in model.graph.node if len(n.input) > 2 and n.input[1] == dq.output[0]]
        for node, dtype in [(dq, np.int8)] + [(b, np.int32) for b in bias]:
            values, scale = (numpy_helper.to_array(init[n]) for n in node.input[:2])
            doubled = np.minimum(values.astype(np.int64) * 2, 127 if dtype == np.int8 else 2 ** 31 - 1)
            init[node.input[0]].CopyFrom(numpy_helper.from_array(doubled.astype(dtype), node.input[0]))
            if node.input[1] not in scaled:
                init[node.input[1]].CopyFrom(numpy_helper.from_array(scale / 2, node.input[1]))
                scaled.add(node.input[1])
    onnx.save(model, str(tmp_path / "eight.onnx"))
    assert max(int(np.abs(w.astype(int)).max()) for _, w in conv_weights(model)) > 64
    quantize_main(["--model", str(tmp_path / "eight.onnx"), "--seven-bit", "--out", str(tmp_path / "seven.onnx")])
    again, shipped = onnx.load(str(tmp_path / "seven.onnx")), onnx.load(str(model_file(READER)))
    for a, b in zip(again.graph.initializer, shipped.graph.initializer):
        assert a.name == b.name and np.array_equal(numpy_helper.to_array(a), numpy_helper.to_array(b)), a.name
    crops = [cv2.imread(str(p)) for p in sorted((shared / "data/real-tiles/crops").glob("*.jpg"))[:16]]
    feed = preprocess_batch(crops, (64, 48))
    ours, theirs = cpu_session(tmp_path / "seven.onnx"), cpu_session(model_file(READER))
    np.testing.assert_array_equal(ours.run(None, {ours.get_inputs()[0].name: feed})[0],
                                  theirs.run(None, {theirs.get_inputs()[0].name: feed})[0])

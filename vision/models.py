"""Where the shipped weights are (``models/`` of the repo, installed as the package ``riichi_lens_models``), and the
onnxruntime session they run in.

``RIICHI_LENS_MODELS`` (a folder) overrides it, to try other weights without reinstalling.
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

READER = "tile_reader.onnx"
SECOND_READER = "tile_reader_second.onnx"  # looks again at the first's unsure readings (``vision.reader``)
CUT_READER = "tile_reader_cut.onnx"  # reads the tiles the photo's edge cuts (``vision.tiles``)
SMALL_READER = "tile_reader_small.onnx"  # reads the small far tiles the pair is unsure of (``vision.tiles``)
HARD_READER = "tile_reader_hard.onnx"  # reads any whole face the pair is still unsure of (``vision.tiles``)
DETECTOR = "tile_detector.onnx"
REFINER = "tile_refiner.onnx"  # moves a detected box onto its face (``vision.refiner``)


def cpu_session(path: str | Path, threads: int = 2):
    """An onnxruntime session on the CPU whose threads spin while a run lasts and stop when it ends. The detector
    and the readers run one after the other: with spinning left on, each session's threads kept polling for a while
    after its run and took the cores from the next one's (on 2 cores a photo took 57 ms instead of 44:
    ``bench/bench_detector.py``), so until session 36 they never spun; spinning within a run and stopping at its
    end (``session.force_spinning_stop``) took a 1280 x 720 real photo from 28 to 26 ms (the same tiles).

    The int8 readers multiply uint8 activations by int8 weights. On an x86 CPU with AVX2 but no VNNI (AMD Zen 2
    and 3, Intel before Ice Lake: many laptops) onnxruntime's fast kernel for that adds pairs of products into
    16 bits, which 8-bit weights overflow: on such a machine (session 78) the readers as they were then read 87 of
    293 generated crops right, the real whole-set photos 324 / 333. The shipped readers' weights are now 7-bit,
    which cannot overflow (``vision.training.quantize``); ``session.x64quantprecision`` has onnxruntime compute
    any 8-bit weights exactly there too (a model to try, ``RIICHI_LENS_MODELS``), a third slower, and changes
    nothing for 7-bit weights or on a CPU with VNNI."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1")
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    opts.add_session_config_entry("session.x64quantprecision", "1")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def cpu_kind(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's name and whether it has VNNI, which the int8 readers' speed depends on (``cpu_session``), for the
    benches' machine line; from /proc/cpuinfo, or the platform's word for it elsewhere."""
    import platform

    try:
        info = cpuinfo.read_text()
    except OSError:
        return platform.processor() or platform.machine()
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")),
                platform.machine())
    flags = set(next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), []))
    vector = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "no AVX2"
    vnni = "VNNI" if flags & {"avx512_vnni", "avx_vnni"} else "no VNNI"
    return f"{name}, {vector}, {vnni}" if platform.machine() in ("x86_64", "AMD64") else name


def model_file(name: str) -> Path:
    folder = os.environ.get("RIICHI_LENS_MODELS")
    path = Path(folder) / name if folder else Path(str(resources.files("riichi_lens_models") / name))
    if not path.is_file():
        raise FileNotFoundError(f"model {name} not found at {path}: reinstall riichi-lens, or set "
                                f"RIICHI_LENS_MODELS to a folder holding {name}")
    return path


def shipped_reader():
    """The shipped reader with its second (where the models folder has one: a folder of other weights to try,
    ``RIICHI_LENS_MODELS``, may hold a first reader alone, which then looks again at the crop a half turned)."""
    from .reader import TileReader

    first = model_file(READER)
    second = first.with_name(SECOND_READER)
    return TileReader(first, second if second.is_file() else None)


def shipped_specialist(name: str):
    """A reader of one kind of hard tile (``CUT_READER``, ``SMALL_READER``, ``HARD_READER``) where the models folder
    has one (else None: the shipped pair reads those tiles as every other)."""
    from .reader import TileReader

    path = model_file(READER).with_name(name)
    return TileReader(path) if path.is_file() else None


def shipped_refiner():
    """The box refiner where the models folder has one (else None: the detector's boxes are read as they are)."""
    from .refiner import BoxRefiner

    path = model_file(DETECTOR).with_name(REFINER)
    return BoxRefiner(path) if path.is_file() else None

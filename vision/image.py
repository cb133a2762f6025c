"""Reading an image from a path, bytes or an array, safely.

Limits are checked before decoding: at most ``MAX_BYTES`` of input and ``MAX_PIXELS`` pixels (OpenCV refuses a
larger image from its header, so a decompression bomb never allocates). A truncated JPEG or PNG is refused
instead of being read with a grey band, and so is a JPEG damaged mid-file where its decoder fills the rest grey
(damage that decodes as other garbage cannot be told from a photo). EXIF orientation is honoured (OpenCV's
default for colour reads).
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from . import MAX_PIXELS  # set for OpenCV there, before any import of it

MAX_BYTES = 40 * 1024 * 1024

_MAGIC = {
    b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG", b"RIFF": "WebP", b"BM": "BMP",
    b"II*\x00": "TIFF", b"MM\x00*": "TIFF",
}
_NOT_IMAGES = {b"%PDF": "a PDF document", b"PK\x03\x04": "a ZIP archive", b"GIF8": "a GIF (not supported)",
               b"\x00\x00\x00": "a video or HEIC file (not supported: export as JPEG)"}


class ImageError(ValueError):
    """The input is not an image riichi-lens can read; the message says why and what to send instead."""


PHOTO_FORMATS = ("JPEG", "PNG", "WebP", "BMP", "TIFF")


def image_format(data: bytes, formats: tuple[str, ...] = PHOTO_FORMATS) -> str:
    """The file's format from its first bytes; what is no image is refused naming ``formats``, those taken."""
    for magic, name in _MAGIC.items():
        if data.startswith(magic):
            if name == "WebP" and data[8:12] != b"WEBP":
                break
            return name
    for magic, what in _NOT_IMAGES.items():
        if data.startswith(magic):
            raise ImageError(f"this is {what}, not a photo: send a JPEG or PNG")
    raise ImageError(f"not an image: send a {', '.join(formats[:-1])} or {formats[-1]} photo" if len(formats) > 1
                     else f"not an image: send a {formats[0]} photo")


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS, formats: tuple[str, ...] | None = None) -> np.ndarray:
    """Bytes of an image file -> BGR uint8 array, upright as the EXIF orientation says. ``max_pixels`` below
    ``MAX_PIXELS`` (a video frame's) is checked from the header, so it takes ``formats`` whose header says the size
    (JPEG, PNG); ``formats``: those taken, the others refused naming them."""
    if not data:
        raise ImageError("the file is empty: it holds no image data")
    if len(data) > MAX_BYTES:
        raise ImageError(f"image file is {len(data) / 2**20:.0f} MiB; the limit is {MAX_BYTES // 2**20} MiB")
    fmt = image_format(data, formats or PHOTO_FORMATS)
    if formats is not None and fmt not in formats:
        raise ImageError(f"this is a {fmt} image: send {' or '.join(formats)}")
    if fmt == "JPEG":  # its header walked once for both
        scan = _jpeg_scan(data)
        if scan is None and not _jpeg_header_cut(data):
            raise ImageError("the JPEG's header is damaged (no image data can be found after it): send the file again")
        if not _jpeg_complete(data, scan):
            raise ImageError("the JPEG is truncated (its end is missing): send the whole file")
    if fmt == "PNG" and not _png_complete(data):
        raise ImageError("the PNG is truncated (its end is missing): send the whole file")
    size = _header_size(data, fmt)
    if size and size[0] * size[1] > max_pixels:
        raise ImageError(f"image is {size[0]}x{size[1]} pixels; the limit is {max_pixels // 1_000_000} megapixels")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as e:
        if "CV_IO_MAX_IMAGE_PIXELS" in str(e):  # a header this module does not read (WebP, TIFF) said the size
            raise ImageError(f"the {fmt} is larger than {MAX_PIXELS // 1_000_000} megapixels, the limit") from None
        raise ImageError(f"the {fmt} could not be decoded ({e.msg.strip() if hasattr(e, 'msg') else e})") from None
    if image is None:
        raise ImageError(f"the {fmt} could not be decoded: the file is damaged, of a kind OpenCV does not read "
                         f"(a TIFF of floats, say), or larger than {MAX_PIXELS // 1_000_000} megapixels")
    if fmt == "JPEG" and (share := _grey_after_damage(image)):
        raise ImageError(f"the JPEG is damaged: its image data breaks off and the last {share:.0%} of it shows "
                         "as blank grey: send the file again")
    if _may_be_transparent(data, fmt):  # decoded again with its alpha, which the colour decode drops
        image = _over_white(image, cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED), fmt)
    return image


def _may_be_transparent(data: bytes, fmt: str) -> bool:
    """Whether the header says the image has transparency: a PNG's alpha channel (colour type 4 or 6) or
    transparent colour or palette entry (a tRNS chunk); a WebP's alpha flag (extended, VP8X) or bit (lossless,
    VP8L; a plain lossy one has none). A TIFF's is not looked for: it is decoded again whatever it holds."""
    if fmt == "PNG":
        return len(data) > 25 and data[25] in (4, 6) or b"tRNS" in data[:data.find(b"IDAT")]
    if fmt == "WebP" and len(data) >= 25:
        chunk = data[12:16]
        return (chunk == b"VP8X" and bool(data[20] & 0x10)
                or chunk == b"VP8L" and bool(int.from_bytes(data[21:25], "little") >> 28 & 1))
    return fmt == "TIFF"


OVER_WHITE_ROWS = 256


def _over_white(image: np.ndarray, full: np.ndarray | None, fmt: str) -> np.ndarray:
    """The photo as a viewer shows it on a white page: where it is transparent, white, not the colours stored
    under the transparency (a cut-out's background is often black, or anything), which the detector would read.
    One transparent all over shows nothing and is refused. ``full``: the file decoded with its alpha channel."""
    if full is None or full.ndim != 3 or full.shape[2] != 4 or full.shape[:2] != image.shape[:2]:
        return image  # no alpha, or turned by an EXIF orientation the colour decode applied: left as it is
    opaque = np.iinfo(full.dtype).max if full.dtype.kind in "ui" else 1.0
    alpha = full[..., 3]
    if alpha.min() >= opaque:
        return image
    if alpha.max() <= 0:
        raise ImageError(f"the {fmt} is transparent all over: nothing in it shows")
    if np.abs(full[::7, ::7, :3] * (255 / opaque) - image[::7, ::7]).max() > 1.5:
        return image  # a square photo turned by its EXIF orientation: its alpha is not turned with it
    for top in range(0, image.shape[0], OVER_WHITE_ROWS):  # in place, a band at a time: 60 megapixels whole took
        rows = slice(top, top + OVER_WHITE_ROWS)  # 1.1 GB more (a 240 KB PNG's decode peaked at 1.4 GB, now 0.7)
        a = (alpha[rows] if opaque == 255 else np.round(alpha[rows] * (255 / opaque))).astype(np.uint16)[..., None]
        image[rows] = (image[rows] * a + 255 * (255 - a) + 127) // 255  # at most 65,152: uint16 holds it
    return image


GREY_BAND = 16  # rows (or columns, the photo turned by its EXIF orientation) at the least: two blocks of 8


def _grey_after_damage(image: np.ndarray) -> float:
    """The share of a decoded JPEG past the point where its data broke off, 0 for none: libjpeg fills the rest of
    an image whose compressed data ends early (bytes damaged mid-file, read as the data's end) with blank mid-grey,
    exactly 128 in every channel, which a photo's noise never is over whole rows. A band at one edge, at least
    ``GREY_BAND`` pixels and 5 % deep, in an image not grey all over (a flat grey JPEG decodes so)."""
    if not any(np.all(edge == 128) for edge in (image[0], image[-1], image[:, 0], image[:, -1])):
        return 0.0  # the photos that are whole, at the cost of four lines
    grey_rows = np.all(image == 128, axis=(1, 2))
    grey_cols = np.all(image == 128, axis=(0, 2))
    if grey_rows.all():
        return 0.0
    for line in (grey_rows, grey_rows[::-1], grey_cols, grey_cols[::-1]):
        depth = int(np.argmin(line[::-1])) if line[-1] else 0  # grey lines running to this end
        if depth >= max(GREY_BAND, 0.05 * len(line)):
            return depth / len(line)
    return 0.0


def _header_size(data: bytes, fmt: str) -> tuple[int, int] | None:
    """Width and height from the header, for the formats whose header says it plainly."""
    if fmt == "PNG" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if fmt == "JPEG":
        for marker, i in _jpeg_markers(data):
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 9 <= len(data):
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
    return None


def _jpeg_markers(data: bytes):
    """(marker, offset) of each segment of a JPEG's header, from after its start up to its first scan's (SOS),
    after which the compressed image data runs; it stops early at bytes that are not a marker (a damaged or cut
    header)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        yield marker, i
        if marker == 0xDA:
            return
        i += 2 if 0xD0 <= marker <= 0xD7 or marker == 0x01 else 2 + int.from_bytes(data[i + 2:i + 4], "big")


def _jpeg_complete(data: bytes, scan: int | None) -> bool:
    """Whether a JPEG's image data ends: an end-of-image marker somewhere after its first scan begins. Not the
    file's last bytes: a phone may add more after the image (a motion photo's video, a maker's trailer), which
    decodes fine; not any end marker either: an EXIF thumbnail, before the scan, has its own. Inside the scan's
    compressed data a 0xFF byte is always followed by 0x00 or a restart marker, so the first end marker there is
    the image's. ``scan``: where the first scan begins (``_jpeg_scan``)."""
    return scan is not None and data.find(b"\xff\xd9", scan) != -1


def _jpeg_header_cut(data: bytes) -> bool:
    """Whether a JPEG's header runs on past the file's end (cut short before its image data), not into bytes
    that are no marker (damaged)."""
    last = None
    for last in _jpeg_markers(data):
        pass
    if last is None:
        return len(data) < 8
    marker, i = last
    after = i + 2 + int.from_bytes(data[i + 2:i + 4], "big")  # where the next marker would begin
    return i + 4 > len(data) or after + 4 > len(data)


def _jpeg_scan(data: bytes) -> int | None:
    """Where a JPEG's first scan (its compressed image data) begins, None where its header does not lead to one."""
    return next((i for marker, i in _jpeg_markers(data) if marker == 0xDA), None)


def _png_complete(data: bytes) -> bool:
    """Whether a PNG's chunks run whole to its end chunk (IEND), walked from the signature by each chunk's
    length; bytes after it (an app's trailer) are allowed, as a decoder ignores them."""
    i = 8
    while i + 8 <= len(data):
        length, chunk = int.from_bytes(data[i:i + 4], "big"), data[i + 4:i + 8]
        i += 12 + length  # length, type, data, CRC
        if chunk == b"IEND":
            return i <= len(data)
    return False


def load_image(source: str | Path | bytes | np.ndarray) -> np.ndarray:
    """A path, the bytes of a file, or an array (BGR, or grey) -> BGR uint8 array."""
    if isinstance(source, np.ndarray):
        return _check_array(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_image(bytes(source))
    path = Path(source)
    if path.is_dir():
        raise ImageError(f"{path} is a folder, not an image file")
    if not path.exists():
        raise ImageError(f"no such image file: {path}")
    if not path.is_file():  # a device (/dev/zero), a pipe: it would be read for ever
        raise ImageError(f"{path} is not a file: send an image file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise ImageError(f"{path} is {size / 2**20:.0f} MiB; the limit is {MAX_BYTES // 2**20} MiB")
    try:
        return decode_image(path.read_bytes())
    except ImageError as e:
        raise ImageError(f"{path}: {e}") from None


def _check_array(a: np.ndarray) -> np.ndarray:
    if a.ndim == 2:
        a = cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    if a.ndim != 3 or a.shape[2] not in (3, 4) or a.size == 0:
        raise ImageError(f"an image array must be H x W x 3 (BGR), not shape {a.shape}")
    if a.shape[0] * a.shape[1] > MAX_PIXELS:
        raise ImageError(f"image is {a.shape[1]}x{a.shape[0]} pixels; the limit is {MAX_PIXELS // 1_000_000} megapixels")
    if a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR)
    if a.dtype != np.uint8:
        raise ImageError(f"an image array must be uint8, not {a.dtype}")
    return np.ascontiguousarray(a)

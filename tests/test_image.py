"""Reading images: formats, EXIF rotation, and every bad input refused with a clear ImageError."""
import io
import struct
import zlib

import cv2
import numpy as np
import pytest

from vision.image import ImageError, load_image


def jpeg_bytes(w=64, h=32, exif_orientation=None) -> bytes:
    from PIL import Image

    img = Image.new("RGB", (w, h), (200, 30, 30))
    buf = io.BytesIO()
    if exif_orientation:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        img.save(buf, "JPEG", exif=exif.tobytes())
    else:
        img.save(buf, "JPEG")
    return buf.getvalue()


def png_header_only(w, h) -> bytes:
    """A PNG that claims w x h pixels: the header is enough to refuse it."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b"")


def test_reads_jpeg_bytes_path_and_array(tmp_path):
    data = jpeg_bytes()
    assert load_image(data).shape == (32, 64, 3)
    p = tmp_path / "x.jpg"
    p.write_bytes(data)
    assert load_image(p).shape == (32, 64, 3)
    assert load_image(np.zeros((5, 6), np.uint8)).shape == (5, 6, 3)


def test_exif_rotation_is_honoured():
    # orientation 6: the camera was turned; the upright image is 32 wide and 64 tall
    assert load_image(jpeg_bytes(64, 32, exif_orientation=6)).shape == (64, 32, 3)


@pytest.mark.parametrize("data, words", [
    (b"", "the file is empty"),
    (b"hello, this is text", "not an image"),
    (b"%PDF-1.7 ...", "PDF document"),
    (png_header_only(20000, 20000), "20000x20000 pixels"),
])
def test_bad_bytes_are_refused_clearly(data, words):
    with pytest.raises(ImageError, match=words):
        load_image(data)


def test_truncated_jpeg_is_refused():
    data = jpeg_bytes(400, 300)
    with pytest.raises(ImageError, match="truncated"):
        load_image(data[: len(data) // 2])
    # ...even where a thumbnail before the image (an EXIF one, in its own segment) ends as a whole JPEG does
    thumbnail = jpeg_bytes(16, 8)
    segment = b"Exif\x00\x00" + thumbnail
    with_thumbnail = data[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + data[2:]
    assert load_image(with_thumbnail).shape == (300, 400, 3)
    with pytest.raises(ImageError, match="truncated"):
        load_image(with_thumbnail[: len(with_thumbnail) // 2])


def noisy_jpeg(w=320, h=240, seed=0) -> bytes:
    """A JPEG of noise, as a photo's pixels are (no row of it exactly one grey)."""
    noise = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    return cv2.imencode(".jpg", noise, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def test_a_jpeg_damaged_mid_file_is_refused_where_its_decoder_fills_the_rest_grey():
    """Bytes overwritten mid-file read as the data's end: libjpeg filled the rest with mid-grey and the photo was
    read for the tiles above it, with no word said."""
    data = bytearray(noisy_jpeg())
    scan = data.index(b"\xff\xda")
    middle = scan + (len(data) - scan) // 2
    data[middle:middle + 40] = b"\xff\xd9" * 20  # an end of image where the data was
    with pytest.raises(ImageError, match=r"the JPEG is damaged: its image data breaks off and the last \d+% of it"):
        load_image(bytes(data))
    assert load_image(noisy_jpeg()).shape == (240, 320, 3)  # whole, it reads
    grey = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))[1].tobytes()
    assert load_image(grey).shape == (64, 64, 3)  # a grey picture is grey all over, not cut


def test_a_jpeg_whose_header_is_damaged_is_not_said_to_be_cut():
    data = bytearray(noisy_jpeg())
    data[20:200] = bytes(range(180))  # the whole file, its header written over
    with pytest.raises(ImageError, match="the JPEG's header is damaged"):
        load_image(bytes(data))
    with pytest.raises(ImageError, match="truncated"):  # cut within its header, it is cut
        load_image(noisy_jpeg()[:100])


def test_a_jpeg_with_more_after_its_image_is_read():
    # phones add data after the image's end: a motion photo's video, a maker's trailer, a stray newline
    data = jpeg_bytes(400, 300)
    for trailer in (b"\n", b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 40):
        assert load_image(data + trailer).shape == (300, 400, 3)


def test_a_png_is_read_whole_with_more_after_its_end_and_refused_cut():
    """A PNG's end is its IEND chunk, found by walking the chunks: bytes after it (an app's trailer) were taken
    for a cut file."""
    image = np.full((30, 40, 3), 90, np.uint8)
    data = cv2.imencode(".png", image)[1].tobytes()
    assert load_image(data + b"\0" * 100).shape == (30, 40, 3)
    for cut in (data[:-1], data[:len(data) // 2], data[:40]):
        with pytest.raises(ImageError, match="the PNG is truncated"):
            load_image(cut)


def test_the_cli_refuses_a_webp_over_the_pixel_limit_before_decoding_it(tmp_path):
    """OpenCV reads its pixel limit when first imported; the CLI imported it before ``vision.image`` set it, so an
    8000 x 8000 WebP of 2.5 KB was decoded whole (a 16383-pixel square: 800 MB) and read."""
    import subprocess
    import sys

    ok, webp = cv2.imencode(".webp", np.full((8000, 8000, 3), 128, np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101])
    (tmp_path / "big.webp").write_bytes(webp.tobytes())
    run = subprocess.run([sys.executable, "-m", "server.cli", "read", str(tmp_path / "big.webp")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "the WebP is larger than 60 megapixels, the limit" in run.stderr, run.stderr


def test_a_path_that_is_no_file_is_said_to_be_none_not_missing():
    with pytest.raises(ImageError, match="/dev/null is not a file"):  # it is there: not "no such image file"
        load_image("/dev/null")


def test_missing_file_and_bad_arrays(tmp_path):
    with pytest.raises(ImageError, match="no such image file"):
        load_image(tmp_path / "nope.jpg")
    (tmp_path / "empty.jpg").write_bytes(b"")
    with pytest.raises(ImageError, match="empty.jpg: the file is empty: it holds no image data"):
        load_image(tmp_path / "empty.jpg")
    with pytest.raises(ImageError, match="H x W x 3"):
        load_image(np.zeros((4, 4, 2), np.uint8))
    with pytest.raises(ImageError, match="uint8"):
        load_image(np.zeros((4, 4, 3), np.float32))


def test_a_transparent_photo_is_read_as_a_viewer_shows_it_over_white_and_one_transparent_all_over_refused():
    """Until session 78 the colours stored under a PNG's transparency were read (a cut-out's background is often
    black): the photo as a page shows it is white there. A photo transparent all over shows nothing."""
    rgba = np.zeros((40, 50, 4), np.uint8)
    rgba[..., :3] = (0, 0, 0)  # the hidden colour: black
    rgba[5:15, 5:15] = (20, 180, 40, 255)  # an opaque patch
    rgba[30, 30] = (100, 100, 100, 51)  # a fifth opaque: a fifth of the grey over four fifths of white
    for ext in (".png", ".webp"):
        data = cv2.imencode(ext, rgba, [cv2.IMWRITE_WEBP_QUALITY, 101] if ext == ".webp" else [])[1].tobytes()
        image = load_image(data)
        assert image.shape == (40, 50, 3) and (image[0, 0] == 255).all(), ext
        assert (image[10, 10] == (20, 180, 40)).all() and (abs(image[30, 30].astype(int) - 224) <= 1).all(), ext
    opaque = rgba.copy()
    opaque[..., 3] = 255
    np.testing.assert_array_equal(load_image(cv2.imencode(".png", opaque)[1].tobytes()), opaque[..., :3])
    clear = rgba.copy()
    clear[..., 3] = 0
    with pytest.raises(ImageError, match="PNG is transparent all over: nothing in it shows"):
        load_image(cv2.imencode(".png", clear)[1].tobytes())
    # a palette PNG whose transparency is a tRNS chunk: its transparent entry white too
    pal = cv2.imencode(".png", rgba[..., :3])[1].tobytes()  # an RGB PNG given a transparent colour: black
    idat = pal.find(b"IDAT") - 4
    trns = b"tRNS" + bytes(6)
    chunk = struct.pack(">I", 6) + trns + struct.pack(">I", zlib.crc32(trns))
    image = load_image(pal[:idat] + chunk + pal[idat:])
    assert (image[0, 0] == 255).all() and (image[10, 10] == (20, 180, 40)).all()

"""From image to structured table: reading images, detecting and reading tiles, grouping them into hands."""
import os

MAX_PIXELS = 60_000_000  # a 48-megapixel phone photo fits; a 20000 x 20000 bomb does not
# OpenCV reads its decoders' pixel limit once, when first imported: set here, before any module of this package
# imports it (``vision.image`` did it itself, after the CLI's own ``import cv2``: a 16383 x 16383 WebP of 10 KB
# then decoded to 800 MB)
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))

"""The tile classes the models read, in the rules engine's notation, in model output order."""

KINDS = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
CLASSES: tuple[str, ...] = KINDS + ("0m", "0p", "0s", "back")  # 34 kinds, the red fives, a face-down tile
LIES = ("upright", "sideways", "upside-down")

# Tiles that look the same turned half-way round: their reading says nothing about which way up they lie.
SYMMETRIC = frozenset({"1p", "2p", "3p", "4p", "5p", "8p", "9p", "0p", "2s", "4s", "5s", "6s", "8s", "9s", "0s",
                       "5z", "back"})
# ... and turned a quarter round (once a crop is squeezed to the reader's portrait input): no glyph says which
# way such a tile lies, so the row it is in decides.
QUARTER_SYMMETRIC = frozenset({"1p", "4p", "5p", "0p", "9p", "5z", "back"})
# Faces with nothing on them, a back and a blank haku: a crop of them shows no ink, and so does a curtain's fold.
BLANK_FACES = frozenset({"back", "5z"})


def lie_of(up_dx: float, up_dy: float) -> str:
    """How a tile lies in the image, from the image direction of its glyph's up (image y grows downward)."""
    import math

    angle = math.degrees(math.atan2(up_dx, -up_dy))  # 0 = the glyph's top toward the image top
    if abs(angle) <= 45:
        return "upright"
    if abs(angle) >= 135:
        return "upside-down"
    return "sideways"


def plain(kind: str) -> str:
    """The kind with a red five read as a plain five (``0p`` -> ``5p``): the same tile for sets and counts."""
    return "5" + kind[1] if kind[0] == "0" else kind

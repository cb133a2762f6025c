"""The tile classes the models read, in the rules engine's notation, in model output order."""

KINDS = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
CLASSES: tuple[str, ...] = KINDS + ("0m", "0p", "0s", "back")  # 34 kinds, the red fives, a face-down tile
LIES = ("upright", "sideways", "upside-down")

# Tiles that look the same turned half-way round: their reading says nothing about which way up they lie.
SYMMETRIC = frozenset({"1p", "2p", "3p", "4p", "5p", "8p", "9p", "0p", "2s", "4s", "5s", "6s", "8s", "9s", "0s",
                       "5z", "back"})

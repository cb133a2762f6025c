"""Class names and lies: the reader's own (``vision.classes``), so labels and model outputs cannot drift apart."""
from vision.classes import CLASSES, LIES, lie_of  # noqa: F401

CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}


def kind_of(name: str) -> str:
    """The game kind of a class: a red five counts as a five ("0m" -> "5m"); `back` has none."""
    if name == "back":
        raise ValueError("a face-down tile has no kind")
    return f"5{name[1]}" if name[0] == "0" else name

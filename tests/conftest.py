"""Shared test fixtures: where ../shared is (RIICHI_LENS_SHARED overrides), skipping cleanly when absent."""
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_path() -> Path:
    return Path(os.environ.get("RIICHI_LENS_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_path()
    if not (path / "data").is_dir():
        pytest.skip(f"shared data not found at {path} (set RIICHI_LENS_SHARED to the shared/ folder)")
    return path

"""What the browser tests share: Chromium and chromedriver (installed with apt-get when missing and root, as are
the generator's CJK fonts for a test that draws a scene of a given seed), the app served by uvicorn in a thread,
a headless Chromium driver, the page opened fresh, and small helpers.

Imported by tests/test_browser.py and tests/test_browser_live.py; the fixtures are imported by name into each
module (each module gets its own server and browser). When Chromium or chromedriver is missing and cannot be
installed, importing this skips the importing module, saying why."""
from __future__ import annotations

import base64
import os
import shutil
import socket
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts"


def find_binary(names: list[str]) -> str | None:
    for name in names:
        path = shutil.which(name) or (name if os.path.isfile(name) and os.access(name, os.X_OK) else None)
        if path:
            return path
    return None


def apt_install(packages, present) -> None:
    """apt-get install the packages unless present() says they are there, once even with several pytest
    workers (a file lock); only as root on a machine with apt-get."""
    import fcntl
    import subprocess

    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return
    with open(os.path.join(tempfile.gettempdir(), "riichi-lens-apt.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if present():
            return
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], env=env, capture_output=True, timeout=900)


def chromium_present() -> bool:
    return bool(shutil.which("chromium") and shutil.which("chromedriver"))


apt_install(["chromium", "chromium-driver"], chromium_present)
CHROMIUM = find_binary(["/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])
CHROMEDRIVER = find_binary(["/usr/bin/chromedriver", "chromedriver"])
if CHROMIUM is None:
    pytest.skip("no Chromium binary found (apt-get install -y chromium chromium-driver)", allow_module_level=True)
if CHROMEDRIVER is None:
    pytest.skip("Chromium is installed but chromedriver is not (apt-get install -y chromium-driver)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import JavascriptException, StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,1000"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_app(**app_options):
    """The app on a free 127.0.0.1 port, in a thread; yields its base URL."""
    import uvicorn

    from server.app import create_app

    port = free_port()
    app_options.setdefault("names_refused", True)  # as `riichi-lens serve` runs it
    server = uvicorn.Server(uvicorn.Config(create_app(**app_options), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the app did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium(extra_flags: tuple[str, ...] = ()):
    """A headless Chromium driven by chromedriver, with its own throw-away profile."""
    profile = tempfile.mkdtemp(prefix="riichi-lens-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + list(extra_flags) + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    d.set_script_timeout(30)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def base_url():
    with serve_app() as url:
        yield url


@pytest.fixture(scope="module")
def driver():
    with chromium() as d:
        yield d


def open_page(driver, base_url: str) -> None:
    """The page fresh (English, nothing remembered: no language, no photo kept from before), once it has loaded
    its options; the console emptied."""
    driver.get(base_url + "/")
    driver.execute_script("localStorage.clear()")
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const r = indexedDB.deleteDatabase('riichi-lens');"
        "r.onsuccess = r.onerror = r.onblocked = () => done();")
    driver.get(base_url + "/")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "body[data-ready='true']"))
    driver.get_log("browser")


def reload_page(driver) -> None:
    """The page loaded again, as a user's reload, once it has loaded its options (what it kept, it shows)."""
    driver.refresh()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "body[data-ready='true']"))


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and e["source"] != "network"]


@pytest.fixture
def page(driver, base_url):
    open_page(driver, base_url)
    yield driver
    assert console_errors(driver) == [], "the page logged errors"


def wait_for(driver, condition, timeout: float = 10):
    def safe(d):
        try:
            return condition(d)
        except (StaleElementReferenceException, JavascriptException):
            return False
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(safe)


def screenshot(driver, name: str) -> Path:
    """The whole page, below the window's bottom too."""
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = driver.execute_script(
        "return [document.documentElement.clientWidth, document.documentElement.scrollHeight]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    path = ARTIFACTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def banner(driver) -> str:
    el = driver.find_element(By.ID, "banner")
    return el.text if el.is_displayed() else ""


def data_url_png(width: int, height: int) -> str:
    image = np.full((height, width, 3), (60, 110, 40), np.uint8)  # green felt (BGR)
    return "data:image/png;base64," + base64.b64encode(cv2.imencode(".png", image)[1].tobytes()).decode()


def shared_dir() -> Path:
    path = Path(os.environ.get("RIICHI_LENS_SHARED", "../shared"))
    return path if path.is_absolute() else (REPO / path).resolve()

"""Live mode, the calibration screen and the tile-set select, in a real headless Chromium (Selenium).

Live mode reads Chromium's fake camera playing a generated table (datasets.video, as a y4m) through the
WebSocket /api/live with the real models; it needs the shared tile art and skips alone without it. The
calibration screen is driven through window.riichiLens.loadGrid (a grid as POST /api/calibration/grid answers),
and its error path through the real endpoint. Shared fixtures and helpers: tests/browser_helpers.py."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest
from browser_helpers import base_url, driver, page  # noqa: F401 (fixtures)
from browser_helpers import (banner, chromium, console_errors, data_url_png, open_page, screenshot, shared_dir,
                             wait_for)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

LIVE_SEED = 2  # a whole table from above whose reading the tracker settles within 3 answers (seeds 3, 5 too)


@pytest.fixture(scope="module")
def fake_camera(tmp_path_factory):
    """The y4m that Chromium's fake camera plays: 20 frames of one table, the camera drifting a little."""
    shared = shared_dir()
    if not (shared / "data" / "tile-art").is_dir():
        pytest.skip(f"no tile art at {shared / 'data' / 'tile-art'} (set RIICHI_LENS_SHARED)")
    from datasets.video import frames, write_y4m

    images, _ = frames(LIVE_SEED, shared, n=20, framing="table")
    path = tmp_path_factory.mktemp("live") / "table.y4m"
    write_y4m(path, images)
    return path


@pytest.fixture(scope="module")
def camera_driver(fake_camera):
    flags = ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
             f"--use-file-for-fake-video-capture={fake_camera}")
    with chromium(flags) as d:
        yield d


def live_stats(driver) -> dict:
    return driver.execute_script("return window.riichiLens.liveStats()")


def test_live_mode_reads_the_camera_and_the_readout_settles(camera_driver, base_url):  # noqa: F811
    d = camera_driver
    open_page(d, base_url)
    # a photo open before: indicators set in Live are the live frames', not that photo's (Freeze lost them)
    import json

    from vision.table import read_table, score_table
    d.execute_async_script("const done = arguments[arguments.length - 1];"
                           "window.riichiLens.loadTable(arguments[0], arguments[1]).then(done, done);",
                           json.loads(json.dumps(score_table(read_table([])))), data_url_png(320, 240))
    d.find_element(By.CSS_SELECTOR, "#dora .chip.add").click()  # set by hand on that photo: not the frames'
    d.find_element(By.CSS_SELECTOR, '#picker button[data-code="3m"]').click()
    d.find_element(By.ID, "tab-live").click()
    assert d.execute_script("return liveOptions().context.dora_indicators") == []
    assert not d.find_elements(By.CSS_SELECTOR, "#dora .chip[data-i]:not(.auto)")
    assert d.find_element(By.ID, "live-mode").is_displayed() and not d.find_element(By.ID, "photo-mode").is_displayed()
    start = time.monotonic()

    def settled(d):  # 5 answers or more, the last 3 with tiles (the tracker shows a tile from its 3rd sighting)
        s = live_stats(d)
        return s["answers"] >= 5 and all(s["lastKinds"][-3:]) and s

    wait_for(d, settled, timeout=90)
    stats, drawn, table = d.execute_script(  # at one moment: no answer can arrive in between
        "return [window.riichiLens.liveStats(),"
        " [...document.querySelectorAll('#live-overlay .tile-mark')].map((m) => m.dataset.kind),"
        " window.riichiLens.live.table]")
    assert banner(d) == "", banner(d)
    last = stats["lastKinds"][-3:]
    assert last[0] == last[1] == last[2], f"the kinds shown changed between answers: {last}"
    assert len(drawn) == len(table["tiles"]) > 20 and sorted(set(drawn)) == last[-1]
    assert (table["width"], table["height"]) == (640, 480)  # the camera's frames, sent at their size (<= 960)
    assert d.execute_script("return document.getElementById('live-overlay').getAttribute('viewBox')") == "0 0 640 480"
    assert "frames/s" in d.find_element(By.ID, "live-stats").text and " ms" in d.find_element(By.ID, "live-stats").text
    readout = d.find_element(By.ID, "readout")
    assert readout.is_displayed() and readout.text.replace("The readout", "").strip()  # more than its heading
    print(f"live: {stats['answers']} answers in {time.monotonic() - start:.1f} s, {len(drawn)} tiles, "
          f"{stats['fps']} frames/s, server {stats['ms']} ms")
    screenshot(d, "live")

    # a change in the context form goes to the server as new options while the frames go on
    spy = ("const ws = window.riichiLens.live.ws, send = ws.send.bind(ws); window.sentOptions = [];"
           "ws.send = (m) => { if (typeof m === 'string') window.sentOptions.push(JSON.parse(m)); send(m); };")
    d.execute_script(spy)
    d.find_element(By.CSS_SELECTOR, "#seat_wind option[value='S']").click()
    wait_for(d, lambda d: d.execute_script("return window.sentOptions.length") > 0)
    sent = d.execute_script("return window.sentOptions.at(-1)")
    assert (sent["context"]["seat_wind"], sent["ruleset"], sent["seat"], sent["mirrored"], sent["profile"]) == (
        "S", "tenhou", "self", False, None)
    answers = live_stats(d)["answers"]
    wait_for(d, lambda d: live_stats(d)["answers"] > answers, timeout=30)

    # house rules refused while live: said and marked, and both gone once options that stand are read with
    d.find_element(By.CSS_SELECTOR, "#context details.more summary").click()
    house = d.find_element(By.ID, "house_rules")
    house.send_keys("kuitan=maybe\t")
    wait_for(d, lambda d: "kuitan='maybe'" in banner(d))
    assert d.execute_script("return document.getElementById('house_rules').getAttribute('aria-invalid')") == "true"
    house.clear()
    house.send_keys("\t")
    wait_for(d, lambda d: banner(d) == "", timeout=30)
    assert d.execute_script("return document.getElementById('house_rules').getAttribute('aria-invalid')") is None
    house.send_keys("kuitan=maybe\t")  # refused again, then mended while stopped: started again, the mark goes
    wait_for(d, lambda d: "kuitan='maybe'" in banner(d))
    toggle = "document.getElementById('live-toggle').click()"  # under the banner, which sticks to the top
    d.execute_script(toggle)
    house.clear()
    house.send_keys("\t")
    d.execute_script(toggle)
    wait_for(d, lambda d: live_stats(d)["on"] and banner(d) == "")
    assert d.execute_script("return document.getElementById('house_rules').getAttribute('aria-invalid')") is None
    wait_for(d, lambda d: live_stats(d)["tiles"] > 20, timeout=60)  # the tracker's tiles, seen again
    d.execute_script(spy)  # on the socket of this start
    d.find_element(By.CSS_SELECTOR, "#dora .chip.add").click()
    d.find_element(By.CSS_SELECTOR, '#picker button[data-code="7p"]').click()
    wait_for(d, lambda d: d.execute_script("return window.sentOptions.at(-1).context.dora_indicators.join()") == "7p")

    # Freeze (by the keyboard): the newest frame and its table become a photo to correct; the camera and the
    # socket stop; the indicators set come along; the focus goes to the view now shown
    d.find_element(By.ID, "freeze").send_keys(Keys.ENTER)
    wait_for(d, lambda d: d.execute_script("return window.riichiLens.state.mode === 'photo' && "
                                           "window.riichiLens.state.table !== null"))
    frozen = d.execute_script("return window.riichiLens.state.table")
    assert d.execute_script("return window.riichiLens.state.photo.width") == frozen["width"] == 640
    assert len(d.find_elements(By.CSS_SELECTOR, "#overlay .tile-mark")) == len(frozen["tiles"]) > 20
    assert d.execute_script("return document.getElementById('live-video').srcObject === null && "
                            "window.riichiLens.live.ws === null && !window.riichiLens.live.on")
    assert d.execute_script("return window.riichiLens.state.file !== null")  # read again if the tile set changes
    assert d.execute_script("return window.riichiLens.state.dora") == ["7p"]
    assert d.execute_script("return document.activeElement.id") == "tab-photo"

    # the server's camera: this server has none, and says how to start one
    d.find_element(By.ID, "tab-live").click()
    wait_for(d, lambda d: live_stats(d)["on"])
    d.find_element(By.CSS_SELECTOR, "#live-source option[value='camera']").click()
    wait_for(d, lambda d: "--camera" in banner(d))
    wait_for(d, lambda d: not live_stats(d)["on"])  # the server closed the socket: stopped, nothing left running
    d.find_element(By.CSS_SELECTOR, "#live-source option[value='browser']").click()  # back: the error no longer stands
    wait_for(d, lambda d: live_stats(d)["on"] and banner(d) == "")
    answers = live_stats(d)["answers"]
    wait_for(d, lambda d: live_stats(d)["answers"] > answers, timeout=30)
    d.find_element(By.ID, "live-toggle").click()  # Stop: the last frame stays under its marks
    assert d.execute_script("const img = document.getElementById('live-img');"
                            "return !img.hidden && img.src.startsWith('data:image/jpeg') &&"
                            " document.getElementById('live-video').hidden")
    d.find_element(By.ID, "tab-photo").click()
    assert d.execute_script("return document.getElementById('live-video').srcObject === null")
    assert console_errors(d) == []


def calibration_grid(size=(40, 54), gap=6, origin=(20, 20)) -> dict:
    """A grid as POST /api/calibration/grid answers it: honours and a face-down tile, then 1-9 p, s and m."""
    rows = [[f"{n}z" for n in range(1, 8)] + ["back"]] + [[f"{n}{s}" for n in range(1, 10)] for s in "psm"]
    tiles = []
    for r, row in enumerate(rows):
        for c, kind in enumerate(row):
            x, y = origin[0] + c * (size[0] + gap), origin[1] + r * (size[1] + 2 * gap)
            tiles.append({"kind": kind, "polygon": [[x, y], [x + size[0], y], [x + size[0], y + size[1]],
                                                    [x, y + size[1]]]})
    return {"width": 480, "height": 300, "tiles": tiles}


def test_calibration_grid_is_shown_and_a_tile_corrected(page, tmp_path):  # noqa: F811
    page.find_element(By.ID, "tab-calib").click()
    order = page.find_element(By.ID, "calib-order")
    assert [img.get_attribute("data-tile") for img in order.find_elements(By.CSS_SELECTOR, "[data-row='2'] .tile")] == [
        f"{n}p" for n in range(1, 10)]
    assert order.find_elements(By.CSS_SELECTOR, "[data-row='1'] .back-face")  # the face-down tile, drawn
    assert not page.find_element(By.ID, "context").is_displayed()

    grid = calibration_grid()
    result = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.riichiLens.loadGrid(arguments[0], arguments[1]).then(() => done('ok'), (e) => done(String(e)));",
        grid, data_url_png(480, 300))
    assert result == "ok"
    marks = page.find_elements(By.CSS_SELECTOR, "#calib-overlay .calib-mark")
    assert [m.get_attribute("data-kind") for m in marks] == [t["kind"] for t in grid["tiles"]]
    assert page.find_elements(By.CSS_SELECTOR, "#calib-overlay .calib-mark[data-kind='back'] rect.back")
    assert not page.find_element(By.ID, "calib-issues").is_displayed()
    # the page's own words said again in the language chosen after them: its status line, its error
    page.find_element(By.ID, "calib-learn").click()  # a grid shown, but from no photo file
    assert "grid photo first" in banner(page)
    n = len(grid["tiles"])
    assert page.find_element(By.ID, "calib-status").text == f"{n} tiles found."
    page.find_element(By.CSS_SELECTOR, '[data-lang="ja"]').click()
    try:
        assert page.find_element(By.ID, "calib-status").text == f"{n}枚見つかりました。"
        assert "先に並べた牌の写真" in banner(page)
    finally:
        page.find_element(By.CSS_SELECTOR, '[data-lang="en"]').click()
    assert page.find_element(By.ID, "calib-status").text == f"{n} tiles found."
    page.find_element(By.ID, "banner-close").click()

    # tap the 3rd honour (3z, west) and make it a red five: 3z is then missing, which the page says
    page.find_element(By.CSS_SELECTOR, '#calib-overlay .calib-mark[data-index="2"] polygon').click()
    picker = page.find_element(By.ID, "picker")
    assert picker.is_displayed()
    assert not picker.find_element(By.CSS_SELECTOR, 'button[data-act="delete"]').is_displayed()
    picker.find_element(By.CSS_SELECTOR, 'button[data-code="0p"]').click()
    sent = page.execute_script("return window.riichiLens.calibrationGrid()")
    assert [t["kind"] for t in sent] == ["1z", "2z", "0p"] + [t["kind"] for t in grid["tiles"][3:]]
    assert sent[2]["polygon"] == grid["tiles"][2]["polygon"]
    assert page.find_element(By.CSS_SELECTOR, '#calib-overlay .calib-mark[data-index="2"]').get_attribute("class") == (
        "calib-mark changed")
    assert "missing: 3z" in page.find_element(By.ID, "calib-issues").text
    screenshot(page, "calibration")
    # and the face-down tile back to a face: now 1z twice, both outlined
    page.find_element(By.CSS_SELECTOR, '#calib-overlay .calib-mark[data-index="7"] polygon').click()
    page.find_element(By.CSS_SELECTOR, '#picker button[data-code="1z"]').click()
    assert [t["kind"] for t in page.execute_script("return window.riichiLens.calibrationGrid()")][7] == "1z"
    assert len(page.find_elements(By.CSS_SELECTOR, "#calib-overlay .calib-mark.twice")) == 2
    assert "twice: 1z" in page.find_element(By.ID, "calib-issues").text

    # a photo with no tiles: the server's 422 says what to change, and the grid checked so far stays (a wrong
    # photo picked by mistake dropped it, the user's corrections with it)
    checked = page.execute_script("return window.riichiLens.calibrationGrid()")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 200, np.uint8))
    page.find_element(By.ID, "calib-photo").send_keys(str(blank))
    wait_for(page, lambda d: "no tiles found" in banner(d), timeout=30)
    assert page.find_element(By.ID, "calib-found").is_displayed()
    assert page.execute_script("return window.riichiLens.calibrationGrid()") == checked


def test_tile_set_select_lists_the_profiles_and_sends_the_choice(driver, base_url, tmp_path, monkeypatch):  # noqa: F811
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "x.npz").write_bytes(b"")
    monkeypatch.setenv("RIICHI_LENS_DATA", str(tmp_path))
    open_page(driver, base_url)
    select = driver.find_element(By.ID, "profile")
    options = select.find_elements(By.TAG_NAME, "option")
    assert [(o.get_attribute("value"), o.text) for o in options] == [("", "shipped reader"), ("x", "x")]
    select.find_element(By.CSS_SELECTOR, "option[value='x']").click()
    assert driver.execute_script("return liveOptions().profile") == "x"  # what live mode sends
    # the photo's upload carries it as the form field 'profile' (the answer is stubbed: x.npz is empty)
    driver.execute_script("""
        const real = window.fetch;
        window.sentProfile = undefined;
        window.fetch = (path, options) => {
          if (path === '/api/recognize') {
            window.sentProfile = options.body.get('profile');
            return Promise.resolve(new Response(JSON.stringify({error: 'stubbed'}), {status: 422}));
          }
          return real(path, options);
        };""")
    photo = tmp_path / "felt.png"
    cv2.imwrite(str(photo), np.full((240, 320, 3), (60, 110, 40), np.uint8))
    driver.find_element(By.ID, "photo").send_keys(str(photo))
    wait_for(driver, lambda d: "stubbed" in banner(d))
    assert driver.execute_script("return window.sentProfile") == "x"
    driver.find_element(By.CSS_SELECTOR, '[data-lang="ja"]').click()
    assert select.find_elements(By.TAG_NAME, "option")[0].text == "標準の読み取り"
    assert driver.find_element(By.ID, "tab-calib").text == "牌セット"
    driver.execute_script("localStorage.clear()")
    assert console_errors(driver) == []


def test_learning_the_real_sets_grid_photo_on_the_page(
        driver, base_url, tmp_path, monkeypatch):  # noqa: F811
    """The whole calibration on the page: the real set's grid photo, its 37 tiles found, a name, Learn; the
    result names the profile. It said that the set's blank haku could look face down (its grid has no back) until
    session 79: a colourless face no longer bars face-down readings (``vision.calibrate``), so nothing to say."""
    photo = shared_dir() / "data/real-tiles/photos/group_1.jpg"
    if not photo.is_file():
        pytest.skip(f"no {photo}: the shared real-tile photos are needed")
    monkeypatch.setenv("RIICHI_LENS_DATA", str(tmp_path))
    open_page(driver, base_url)
    driver.find_element(By.ID, "tab-calib").click()
    driver.find_element(By.ID, "calib-photo").send_keys(str(photo))
    wait_for(driver, lambda d: d.find_element(By.ID, "calib-found").is_displayed(), timeout=60)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#calib-overlay .calib-mark")) == 37
    driver.find_element(By.ID, "calib-name").send_keys("real-set")
    driver.find_element(By.ID, "calib-learn").click()
    result = driver.find_element(By.ID, "calib-result")
    wait_for(driver, lambda d: result.is_displayed(), timeout=120)
    assert "“real-set”: 37 faces" in result.text and "add a face-down tile" not in result.text
    assert (tmp_path / "profiles" / "real-set.npz").is_file()
    assert driver.find_element(By.ID, "profile").get_attribute("value") == "real-set"
    assert [li.text.split() for li in driver.find_elements(By.CSS_SELECTOR, "#calib-saved li")] == [["real-set", "Delete"]]
    # the same name again is asked first (it was replaced without a word); kept, nothing is learnt
    learnt = (tmp_path / "profiles" / "real-set.npz").stat().st_mtime_ns
    driver.find_element(By.ID, "calib-learn").click()
    alert = wait_for(driver, lambda d: d.switch_to.alert)
    assert "“real-set” is learnt already" in alert.text
    alert.dismiss()
    assert (tmp_path / "profiles" / "real-set.npz").stat().st_mtime_ns == learnt and not banner(driver)
    # deleted from the list (asked first): gone from the Tile set select too
    driver.find_element(By.CSS_SELECTOR, '#calib-saved button[data-delete="real-set"]').click()
    wait_for(driver, lambda d: d.switch_to.alert).accept()
    wait_for(driver, lambda d: [li.text for li in d.find_elements(By.CSS_SELECTOR, "#calib-saved li")] == ["none yet"])
    assert not (tmp_path / "profiles" / "real-set.npz").exists()
    assert driver.find_element(By.ID, "profile").get_attribute("value") == ""
    assert not driver.find_element(By.ID, "calib-result").is_displayed()  # "Learnt ...": no longer so
    assert console_errors(driver) == []

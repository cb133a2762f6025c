"""`serve --lan`: with an access code every request must carry it (URL, cookie or header); without one nothing
changes. The banner printed for the terminal carries the code and a QR code a phone can read."""
import pytest
from fastapi import WebSocket
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.access import ALPHABET, COOKIE, WS_CLOSE_CODE, lan_addresses, lan_banner, new_code
from server.app import create_app
from server.cli import build_parser

CODE = "k7m2xq9p"
HAND = {"hand": "123m456p789s11z 555z", "win_tile": "5z", "context": {"tsumo": True, "dora_indicators": ["4z"]}}


@pytest.fixture
def guarded():
    app = create_app(access_code=CODE)

    @app.websocket("/api/echo")
    async def echo(ws: WebSocket):
        await ws.accept()
        await ws.send_text(await ws.receive_text())
        await ws.close()

    return TestClient(app)


def test_no_code_needed_by_default():
    client = TestClient(create_app())
    assert client.get("/").status_code == 200
    assert client.get("/api/rulesets").status_code == 200
    assert client.post("/api/score", json=HAND).status_code == 200


@pytest.mark.parametrize("path", ["/", "/api/rulesets", "/docs", "/openapi.json", "/static/app.js"])
def test_everything_needs_the_code(guarded, path):
    r = guarded.get(path)
    assert r.status_code == 401 and "access code" in r.json()["error"]


def test_wrong_codes_are_refused(guarded):
    assert guarded.get("/?code=wrongcode").status_code == 401
    r = guarded.get("/api/rulesets", headers={"X-Access-Code": "wrongcode"})
    assert r.status_code == 401 and "wrong access code" in r.json()["error"]
    assert guarded.post("/api/score", json=HAND, headers={"X-Access-Code": CODE[:-1]}).status_code == 401
    assert COOKIE not in guarded.cookies


def test_a_browser_gets_a_short_html_page(guarded):
    r = guarded.get("/", headers={"Accept": "text/html,*/*"})
    assert r.status_code == 401 and r.headers["content-type"].startswith("text/html") and "?code=" in r.text


def test_the_url_code_sets_a_cookie_that_later_requests_carry(guarded):
    r = guarded.get(f"/?code={CODE}")
    assert r.status_code == 200 and "riichi-lens" in r.text
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={CODE}") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert guarded.get("/api/rulesets").status_code == 200  # the cookie alone
    assert guarded.get("/static/app.js").status_code == 200


@pytest.mark.parametrize("header", ['other={"a":1}; riichi_lens_code=CODE', "x=a b; riichi_lens_code=CODE",
                                    "riichi_lens_code=CODE; x=a b", "x=é; riichi_lens_code=CODE",
                                    "a=b; ;;; riichi_lens_code=CODE"])
def test_the_cookie_is_found_beside_another_apps_odd_cookies(guarded, header):
    """Another web app on the same host may set cookies Python's SimpleCookie rejects (JSON, spaces, non-ASCII);
    they must not hide this app's cookie, nor let a wrong code in."""
    assert guarded.get("/api/rulesets", headers={"Cookie": header.replace("CODE", CODE).encode()}).status_code == 200
    r = guarded.get("/api/rulesets", headers={"Cookie": header.replace("CODE", "wrongcode").encode()})
    assert r.status_code == 401 and "wrong access code" in r.json()["error"]


def test_the_header_works(guarded):
    r = guarded.post("/api/score", json=HAND, headers={"X-Access-Code": CODE})
    assert r.status_code == 200 and r.json()["win"]["points"] == 12000


def test_websockets_need_the_code(guarded):
    with pytest.raises(WebSocketDisconnect) as refused:
        with guarded.websocket_connect("/api/echo") as ws:
            ws.receive_text()
    # said whole within a close frame's 123 bytes (the long message was cut mid-word)
    assert refused.value.code == WS_CLOSE_CODE
    assert refused.value.reason == "access code needed: open the URL printed in the riichi-lens terminal"
    with pytest.raises(WebSocketDisconnect) as refused:
        with guarded.websocket_connect("/api/echo?code=wrongcode") as ws:
            ws.receive_text()
    assert refused.value.reason == "wrong access code: open the URL printed in the riichi-lens terminal"
    with guarded.websocket_connect(f"/api/echo?code={CODE}") as ws:
        ws.send_text("hi")
        assert ws.receive_text() == "hi"


def test_an_unusable_code_is_refused_up_front():
    with pytest.raises(ValueError, match="4 to 64"):
        create_app(access_code="a b")


def test_the_cli_accepts_lan_and_code(capsys):
    args = build_parser().parse_args(["serve", "--lan", "--code", "table-7", "--port", "8123"])
    assert (args.lan, args.code, args.port, args.host) == (True, "table-7", 8123, None)
    args = build_parser().parse_args(["serve"])
    assert (args.lan, args.code, args.host) == (False, None, None)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--code", "no spaces"])
    assert "4 to 64" in capsys.readouterr().err


def test_codes_are_random_and_unambiguous():
    codes = {new_code() for _ in range(50)}
    assert len(codes) == 50 and all(len(c) == 8 and set(c) <= set(ALPHABET) for c in codes)
    assert not set("01ilo") & set(ALPHABET)


def test_lan_addresses_are_ipv4_and_never_empty():
    addresses = lan_addresses()
    assert addresses and all(len(a.split(".")) == 4 for a in addresses)


def test_the_banner_has_the_url_with_the_code_and_a_qr_code_of_it():
    import cv2
    import numpy as np

    text = lan_banner(CODE, 8000, ["192.168.1.20", "10.0.0.5"])
    url = f"http://192.168.1.20:8000/?code={CODE}"
    assert url in text and "http://10.0.0.5:8000/?code=" in text and f"access code: {CODE}" in text
    # Read the drawn QR back: each character is two modules, the block characters being the light ones.
    rows = [line for line in text.splitlines() if line and set(line) <= set(" █▀▄")]
    assert len(rows) > 10
    light = [[[c in "█▀" for c in line], [c in "█▄" for c in line]] for line in rows]
    image = np.array([half for pair in light for half in pair], np.uint8) * 255
    image = cv2.resize(np.pad(image, 4, constant_values=255), None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    assert cv2.QRCodeDetector().detectAndDecode(image)[0] == url

"""`serve --lan`: with an access code every request must carry it (URL, cookie or header); without one nothing
changes. The banner printed for the terminal carries the code and a QR code a phone can read."""
import pytest
from fastapi import WebSocket
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.access import ALPHABET, MAX_WRONG, WS_CLOSE_CODE, lan_addresses, lan_banner, new_code
from server.app import create_app
from server.cli import build_parser

CODE = "k7m2xq9p"
COOKIE = "riichi_lens_code_80"  # the test client's requests come to port 80
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
    r = guarded.get(f"/?code={CODE}", follow_redirects=False)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={CODE}") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert guarded.get("/api/rulesets").status_code == 200  # the cookie alone
    assert guarded.get("/static/app.js").status_code == 200


def test_a_page_opened_with_the_code_is_sent_on_to_its_address_without_it(guarded):
    """The code left in the address bar stays in the history and could leave in a Referer."""
    r = guarded.get(f"/?lang=ja&code={CODE}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/?lang=ja" and CODE not in r.headers["location"]
    r = guarded.get(f"/?code={CODE}")  # followed, as a browser does
    assert r.status_code == 200 and "riichi-lens" in r.text and str(r.url).endswith("/")
    # an API call carrying the code in its URL is answered, not sent on
    assert guarded.post(f"/api/score?code={CODE}", json=HAND).json()["win"]["points"] == 12000


def test_two_servers_on_one_host_keep_their_own_cookies():
    """A browser keeps one cookie jar for every port of a host: the second server's code replaced the first's."""
    first = TestClient(create_app(access_code=CODE), base_url="http://192.168.1.20:8000")
    assert first.get(f"/?code={CODE}", follow_redirects=False).headers["set-cookie"].startswith(
        f"riichi_lens_code_8000={CODE}")
    first.cookies.set("riichi_lens_code_8001", "othercode")  # the other server's, on the same host
    assert first.get("/api/rulesets").status_code == 200


def test_a_device_sending_many_wrong_codes_is_refused_for_a_while(guarded, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("server.access.time.monotonic", lambda: clock[0])
    for _ in range(MAX_WRONG):
        assert guarded.get("/api/rulesets", headers={"X-Access-Code": "wrongcode"}).status_code == 401
    r = guarded.get("/api/rulesets", headers={"X-Access-Code": CODE})  # even the right code, for now
    assert r.status_code == 429 and "too many wrong access codes" in r.json()["error"]
    with pytest.raises(WebSocketDisconnect) as refused:
        with guarded.websocket_connect(f"/api/echo?code={CODE}") as ws:
            ws.receive_text()
    assert refused.value.code == 4429
    clock[0] += 61
    assert guarded.get("/api/rulesets", headers={"X-Access-Code": CODE}).status_code == 200
    # a request with no code at all (a browser's first visit) is no guess
    for _ in range(2 * MAX_WRONG):
        assert guarded.get("/api/rulesets").status_code == 401
    assert guarded.get("/api/rulesets", headers={"X-Access-Code": CODE}).status_code == 200


@pytest.mark.parametrize("header", ['other={"a":1}; COOKIE=CODE', "x=a b; COOKIE=CODE", "COOKIE=CODE; x=a b",
                                    "x=é; COOKIE=CODE", "a=b; ;;; COOKIE=CODE"])
def test_the_cookie_is_found_beside_another_apps_odd_cookies(guarded, header):
    """Another web app on the same host may set cookies Python's SimpleCookie rejects (JSON, spaces, non-ASCII);
    they must not hide this app's cookie, nor let a wrong code in."""
    header = header.replace("COOKIE", COOKIE)
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
    with pytest.raises(ValueError, match="6 to 64"):
        create_app(access_code="a b")
    with pytest.raises(ValueError, match="6 to 64"):
        create_app(access_code="1234")  # guessed in 17 minutes at 10 a minute


def test_the_cli_accepts_lan_and_code(capsys):
    args = build_parser().parse_args(["serve", "--lan", "--code", "table-7", "--port", "8123"])
    assert (args.lan, args.code, args.port, args.host) == (True, "table-7", 8123, None)
    args = build_parser().parse_args(["serve"])
    assert (args.lan, args.code, args.host) == (False, None, None)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--code", "no spaces"])
    assert "6 to 64" in capsys.readouterr().err


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


def test_another_sites_page_cannot_use_the_app():
    """Any page open in the user's browser could post to http://127.0.0.1:8000 (a calibration profile written to
    disk) or open the live websocket (with --camera, the server camera's frames): no browser asks first."""
    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    r = client.post("/api/score", json=HAND, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"].startswith("refused: this request came from another site's "
                                                                 "page (https://evil.example)")
    assert client.post("/api/score", json=HAND, headers={"Origin": "http://127.0.0.1:8000"}).status_code == 200
    assert client.post("/api/score", json=HAND, headers={"Origin": "http://127.0.0.1:9000"}).status_code == 403
    assert client.post("/api/score", json=HAND, headers={"Origin": "null"}).status_code == 403  # a sandboxed page
    assert client.get("/", headers={"Origin": "https://evil.example"}).status_code == 200  # a link is a GET
    with client.websocket_connect("/api/live", headers={"Origin": "https://evil.example"}) as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4403 and "another site's page" in closed.value.reason


@pytest.mark.parametrize("host, status", [
    ("127.0.0.1:8000", 200), ("localhost:8000", 200), ("[::1]:8000", 200), ("127.0.0.2", 200),
    ("192.168.1.20:8000", 200), ("[fe80::1]:8000", 200),
    ("evil.example:8000", 403), ("127.0.0.1.evil.example", 403), ("laptop.local:8000", 403), ("0.0.0.0:8000", 403),
    ("", 403),
])
def test_without_a_code_it_answers_only_requests_addressed_to_an_ip_address(host, status):
    """A site whose name is made to point at this machine (DNS rebinding) is the app's own origin to the browser:
    only the Host header tells it apart, on 127.0.0.1 and served to the network without a code (--host) alike."""
    client = TestClient(create_app(names_refused=True), base_url="http://127.0.0.1:8000")
    r = client.post("/api/score", json=HAND, headers={"Host": host})
    assert r.status_code == status
    if status == 403:
        assert "answers only at an IP address or localhost" in r.json()["error"]


def test_serve_without_a_code_refuses_named_hosts_and_with_one_does_not(monkeypatch):
    made = []
    monkeypatch.setattr("server.app.create_app", lambda **options: made.append(options))
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)
    from server.cli import main

    import socket

    with socket.socket() as s:  # a port free now, so that the check before serving passes
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    assert main(["serve", "--port", port]) == 0 and made[-1]["names_refused"] is True
    assert main(["serve", "--host", "0.0.0.0", "--port", port]) == 0 and made[-1]["names_refused"] is True
    assert main(["serve", "--lan", "--port", port]) == 0 and made[-1]["names_refused"] is False  # its code guards it


def test_serve_on_a_port_in_use_says_so_before_any_url(capsys):
    """uvicorn printed the URL to open, then [Errno 98] and exit 3, with no word of --port."""
    import socket

    from server.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and f"127.0.0.1:{port} cannot be listened on" in out.err and f"--port {port + 1}" in out.err


def test_a_refusal_shown_to_a_browser_escapes_what_it_quotes():
    client = TestClient(create_app(names_refused=True), base_url="http://127.0.0.1:8000")
    r = client.get("/", headers={"Host": "<b>x</b>.example", "Accept": "text/html"})
    assert r.status_code == 403 and "&lt;b&gt;x&lt;/b&gt;.example" in r.text and "<b>" not in r.text

"""The access code that guards ``riichi-lens serve --lan``.

On a tournament network anyone on the same Wi-Fi could reach the app, so ``--lan`` prints a random code, a URL with
it and that URL as a QR code; every request must then carry the code. This is a pure ASGI middleware rather than a
FastAPI ``@app.middleware("http")`` function because that kind only sees HTTP, and the code must guard websockets
too. It wraps the whole app, so nothing slips past it by being added later: the page, /static, /api/*, /docs,
/openapi.json and websockets.

A request carries the code as ``?code=`` in the URL, as the ``riichi_lens_code`` cookie, or as an
``X-Access-Code`` header, compared with ``secrets.compare_digest``. An HTTP request whose ``?code=`` is right gets
the cookie (HttpOnly, SameSite=Strict), so the page's own fetches carry it without the script knowing the code.
A wrong or missing code gets a 401 (JSON ``{"error": ...}``, or a short HTML page for a browser). A websocket
without it is accepted and at once closed with code 4401 and the reason, so the page's script can say what is
wrong (a refusal before accepting reaches a browser only as an anonymous failure, close code 1006).
"""
from __future__ import annotations

import io
import json
import re
import secrets
import socket
from urllib.parse import parse_qs, quote

from starlette.requests import cookie_parser

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read off a screen and type on a phone
COOKIE = "riichi_lens_code"
WS_CLOSE_CODE = 4401
NEEDS_CODE = ("this riichi-lens server needs the access code printed in its terminal: open the URL shown there "
              "(or scan its QR code), or add ?code=... to the address")
WRONG_CODE = "wrong access code: open the URL printed in the riichi-lens terminal (or scan its QR code)"
# a websocket's close reason is at most 123 bytes: the same said shorter (the page says it in its own words)
WS_REASON = {NEEDS_CODE: "access code needed: open the URL printed in the riichi-lens terminal",
             WRONG_CODE: "wrong access code: open the URL printed in the riichi-lens terminal"}


def new_code(length: int = 8) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def check_code(code: str) -> str:
    """The code itself if it is usable in a URL and a cookie as it is, else ValueError saying what is allowed."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{4,64}", code or ""):
        raise ValueError("the access code must be 4 to 64 letters, digits, '_' or '-'")
    return code


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others on the network can reach, most likely first; ['127.0.0.1'] if none.
    Connecting a UDP socket sends nothing: it only asks the kernel which local address would be used."""
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: routed like the internet, never contacted
            found.append(s.getsockname()[0])
    except OSError:
        pass  # no default route (a network without internet): the host name may still know the address
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    found = [a for i, a in enumerate(found) if not a.startswith("127.") and a != "0.0.0.0" and a not in found[:i]]
    return found or ["127.0.0.1"]


def lan_banner(code: str, port: int, addresses: list[str] | None = None, compact: bool = True) -> str:
    """What ``serve --lan`` prints: the URL(s) with the code and the first one as a terminal QR code.
    ``compact`` draws it with Unicode half blocks; without it segno uses ANSI colours (for a terminal whose
    encoding has no block characters)."""
    import segno

    urls = [f"http://{a}:{port}/?code={quote(code)}" for a in (addresses or lan_addresses())]
    qr = io.StringIO()
    segno.make_qr(urls[0]).terminal(out=qr, compact=compact)  # make_qr: never a Micro QR, which phones can't read
    lines = ["riichi-lens is on the local network. On a phone or laptop on the same network open",
             *(f"  {u}" for u in urls), "or scan:", qr.getvalue().rstrip("\n"),
             f"access code: {code}   (anyone with it can use this app; Ctrl+C stops)"]
    return "\n".join(lines) + "\n"


class AccessCodeMiddleware:
    """Lets through only requests that carry ``code`` (see the module docstring); lifespan events pass."""

    def __init__(self, app, code: str):
        self.app, self.code = app, check_code(code).encode()

    def _given(self, scope) -> tuple[bytes | None, bool]:
        """The code the request carries, and whether it came in the URL."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("code")
        if query:
            return query[0].encode(), True
        headers = scope.get("headers") or []
        given = dict(headers).get(b"x-access-code")
        if given is not None:
            return given, False
        # parsed leniently, as browsers do (split on ';', then on the first '='): SimpleCookie drops every cookie
        # when one is odd (JSON, a space, a non-ASCII letter), so another app's cookie on this host locked users out
        cookies = cookie_parser("; ".join(v.decode("latin-1") for k, v in headers if k == b"cookie"))
        return (cookies[COOKIE].encode(), False) if COOKIE in cookies else (None, False)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        given, in_url = self._given(scope)
        if given is not None and secrets.compare_digest(given, self.code):
            if scope["type"] == "http" and in_url:
                send = self._setting_cookie(send)
            return await self.app(scope, receive, send)
        message = NEEDS_CODE if given is None else WRONG_CODE
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            return await send({"type": "websocket.close", "code": WS_CLOSE_CODE, "reason": WS_REASON[message]})
        accept = dict(scope.get("headers") or []).get(b"accept", b"")
        if b"text/html" in accept:
            body = (f"<!doctype html><meta charset=utf-8><title>riichi-lens: access code needed</title>"
                    f"<p>{message}</p>").encode()
            kind = b"text/html; charset=utf-8"
        else:
            body, kind = json.dumps({"error": message}).encode(), b"application/json"
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def _setting_cookie(self, send):
        cookie = f"{COOKIE}={self.code.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def wrapped(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)
        return wrapped


FOREIGN_ORIGIN = ("refused: this request came from another site's page ({origin}), not riichi-lens's own; open "
                  "riichi-lens at its own address")
FOREIGN_HOST = ("refused: this riichi-lens server answers only at localhost or 127.0.0.1 (the request named "
                "{host}); on a network use riichi-lens serve --lan")


def _host_name(value: str) -> str:
    """``127.0.0.1:8000`` -> ``127.0.0.1``; ``[::1]:8000`` -> ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_loopback(name: str) -> bool:
    """``localhost``, ``127.0.0.1``, ``127.3.4.5``, ``::1``: this machine alone (a host name, not a Host header)."""
    import ipaddress

    try:
        return name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:  # a name, not an address
        return False


def _origin_host(origin: str) -> str | None:
    """``http://127.0.0.1:8000`` -> ``127.0.0.1:8000``; None for ``null`` (a sandboxed page, a file)."""
    match = re.fullmatch(r"[a-z][a-z0-9+.-]*://([^/?#]+)/?", origin.strip().lower())
    return match[1] if match else None


class SameOriginMiddleware:
    """Another site's page in the user's browser cannot use the app (lifespan events pass).

    A page anywhere may send a form to http://127.0.0.1:8000/api/calibration (a profile written on disk) or open
    the live websocket (with ``--camera``, the server camera's frames), since a browser asks no one before such a
    request: one whose ``Origin`` is not the address it was sent to (``Host``) is refused, 403 or the websocket
    closed with 4403 and why; a plain GET of a page carries no such header and is what a link does. With
    ``local_only`` (``serve`` on a loopback address, no ``--lan``), a request whose ``Host`` is not a loopback name
    is refused too: a site whose name was made to point at 127.0.0.1 (DNS rebinding) would otherwise be the app's
    own origin to the browser."""

    def __init__(self, app, local_only: bool = False):
        self.app, self.local_only = app, local_only

    def _refusal(self, scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get("host", "")
        if self.local_only and not is_loopback(_host_name(host)):
            return FOREIGN_HOST.format(host=host[:80] or "no host")
        origin = headers.get("origin")
        safe = scope["type"] == "http" and scope.get("method") in ("GET", "HEAD", "OPTIONS")
        if origin is not None and not safe and _origin_host(origin) != host.strip().lower():
            return FOREIGN_ORIGIN.format(origin=origin[:80])
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        refusal = self._refusal(scope)
        if refusal is None:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            return await send({"type": "websocket.close", "code": 4403, "reason": refusal[:120]})
        body = json.dumps({"error": refusal}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

"""What guards the server's requests: the access code of ``riichi-lens serve --lan``, the same-origin and Host
checks against other sites' pages, a cap on request bodies, and the security headers of every answer.

On a tournament network anyone on the same Wi-Fi could reach the app, so ``--lan`` prints a random code, a URL with
it and that URL as a QR code; every request must then carry the code. This is a pure ASGI middleware rather than a
FastAPI ``@app.middleware("http")`` function because that kind only sees HTTP, and the code must guard websockets
too. It wraps the whole app, so nothing slips past it by being added later: the page, /static, /api/*, /docs,
/openapi.json and websockets.

A request carries the code as ``?code=`` in the URL, as the ``riichi_lens_code_PORT`` cookie (named for the port:
a browser keeps one cookie jar for every port of a host, and a second server's code would replace the first's), or
as an ``X-Access-Code`` header, compared with ``secrets.compare_digest``. An HTTP request whose ``?code=`` is right
gets the cookie (HttpOnly, SameSite=Strict), so the page's own fetches carry it without the script knowing the
code; a page opened so (GET) is sent on to its address without the code (303), which leaves the code out of the
address bar, the history and any Referer. A wrong or missing code gets a 401 (JSON ``{"error": ...}``, or a short
HTML page for a browser). A websocket without it is accepted and at once closed with code 4401 and the reason, so
the page's script can say what is wrong (a refusal before accepting reaches a browser only as an anonymous failure,
close code 1006). A device that sends ``MAX_WRONG`` wrong codes within ``WRONG_WINDOW`` seconds is refused
everything (429, websockets closed with 4429) until the window has passed: a code of 8 letters is about 40 bits,
beyond guessing at 10 a minute, where unchecked a script tried 3,000 a second.
"""
from __future__ import annotations

import html
import io
import json
import re
import secrets
import socket
import time
from collections import deque
from urllib.parse import parse_qs, quote, urlencode

from starlette.requests import cookie_parser

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read off a screen and type on a phone
COOKIE = "riichi_lens_code"  # and the port: ``cookie_name``
WS_CLOSE_CODE = 4401
MAX_WRONG = 10
WRONG_WINDOW = 60.0  # seconds
TOO_MANY_WRONG = "too many wrong access codes from this device: wait a minute, then open the URL printed in the " \
                 "riichi-lens terminal"
NEEDS_CODE = ("this riichi-lens server needs the access code printed in its terminal: open the URL shown there "
              "(or scan its QR code), or add ?code=... to the address")
WRONG_CODE = "wrong access code: open the URL printed in the riichi-lens terminal (or scan its QR code)"
# a websocket's close reason is at most 123 bytes: the same said shorter (the page says it in its own words)
WS_REASON = {NEEDS_CODE: "access code needed: open the URL printed in the riichi-lens terminal",
             WRONG_CODE: "wrong access code: open the URL printed in the riichi-lens terminal",
             TOO_MANY_WRONG: "too many wrong access codes from this device: wait a minute"}


def new_code(length: int = 8) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def check_code(code: str) -> str:
    """The code itself if it is usable in a URL and a cookie as it is, else ValueError saying what is allowed."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{6,64}", code or ""):
        raise ValueError("the access code must be 6 to 64 letters, digits, '_' or '-'")
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


def cookie_name(scope) -> str:
    """The code's cookie for the port the request came to (``COOKIE`` where the server does not say)."""
    server = scope.get("server")
    return f"{COOKIE}_{server[1]}" if server and server[1] else COOKIE


async def _refuse(scope, receive, send, status: int, message: str, ws_code: int) -> None:
    """The refusal of an HTTP request (JSON ``{"error": ...}``, or a short HTML page for a browser) or of a
    websocket (accepted, then closed with ``ws_code`` and why: a refusal before accepting reaches a browser only as
    an anonymous failure)."""
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        reason = WS_REASON.get(message, message)[:120]
        return await send({"type": "websocket.close", "code": ws_code, "reason": reason})
    accept = dict(scope.get("headers") or []).get(b"accept", b"")
    if b"text/html" in accept:
        # escaped: a refusal may quote the request's Host or Origin
        body = f"<!doctype html><meta charset=utf-8><title>riichi-lens: refused</title><p>{html.escape(message)}</p>".encode()
        kind = b"text/html; charset=utf-8"
    else:
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class AccessCodeMiddleware:
    """Lets through only requests that carry ``code`` (see the module docstring); lifespan events pass."""

    def __init__(self, app, code: str):
        self.app, self.code = app, check_code(code).encode()
        self.wrong: dict[str, deque] = {}  # a device's address -> when its recent wrong codes came

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
        name = cookie_name(scope)
        return (cookies[name].encode(), False) if name in cookies else (None, False)

    def _locked_out(self, device: str, now: float) -> bool:
        """Whether ``device`` sent ``MAX_WRONG`` wrong codes in the last ``WRONG_WINDOW`` seconds (those older
        are forgotten; devices with none left are dropped once many are kept, not on every request)."""
        if len(self.wrong) > 1000:
            for key in [k for k, times in self.wrong.items() if times[-1] < now - WRONG_WINDOW]:
                del self.wrong[key]
        times = self.wrong.get(device)
        while times and times[0] < now - WRONG_WINDOW:
            times.popleft()
        return bool(times) and len(times) >= MAX_WRONG

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        device, now = (scope.get("client") or ("?",))[0], time.monotonic()
        if self._locked_out(device, now):
            return await _refuse(scope, receive, send, 429, TOO_MANY_WRONG, 4429)
        given, in_url = self._given(scope)
        if given is not None and secrets.compare_digest(given, self.code):
            if scope["type"] == "http" and in_url:
                if scope.get("method") in ("GET", "HEAD"):
                    return await self._without_code_in_url(scope, send)
                send = self._setting_cookie(scope, send)
            return await self.app(scope, receive, send)
        if given is not None:
            self.wrong.setdefault(device, deque(maxlen=MAX_WRONG)).append(now)
        await _refuse(scope, receive, send, 401, NEEDS_CODE if given is None else WRONG_CODE, WS_CLOSE_CODE)

    def _cookie(self, scope) -> tuple[bytes, bytes]:
        return b"set-cookie", f"{cookie_name(scope)}={self.code.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()

    async def _without_code_in_url(self, scope, send) -> None:
        """A page opened with the right ``?code=``: the cookie, and the same address without the code (303)."""
        query = [(k, v) for k, v in parse_qs(scope.get("query_string", b"").decode("latin-1"),
                                             keep_blank_values=True).items() if k != "code"]
        location = quote(scope.get("root_path", "") + scope["path"]) + (
            "?" + urlencode(query, doseq=True) if query else "")
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", location.encode()), self._cookie(scope), (b"content-length", b"0"),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b""})

    def _setting_cookie(self, scope, send):
        cookie = self._cookie(scope)

        async def wrapped(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), cookie]}
            await send(message)
        return wrapped


FOREIGN_ORIGIN = ("refused: this request came from another site's page ({origin}), not riichi-lens's own; open "
                  "riichi-lens at its own address")
FOREIGN_HOST = ("refused: without an access code this riichi-lens server answers only at an IP address or "
                "localhost, not at a name (the request named {host}), which another site may have made point here; "
                "open it by its address, or use riichi-lens serve --lan")


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


def is_address(name: str) -> bool:
    """Whether a host name is a loopback name or an IP address that names one machine (not ``0.0.0.0``): no other
    site's name, which DNS could make point here."""
    import ipaddress

    try:
        return is_loopback(name) or not ipaddress.ip_address(name).is_unspecified
    except ValueError:
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
    ``names_refused`` (``serve`` without an access code), a request whose ``Host`` is a name other than localhost is
    refused too: a site whose name was made to point at this machine (DNS rebinding) would otherwise be the app's
    own origin to the browser; an IP address can be no other site's."""

    def __init__(self, app, names_refused: bool = False):
        self.app, self.names_refused = app, names_refused

    def _refusal(self, scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get("host", "")
        if self.names_refused and not is_address(_host_name(host)):
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
        await _refuse(scope, receive, send, 403, refusal, 4403)


class BodyLimitMiddleware:
    """Refuses a request body larger than the app reads (413, before any of it is parsed): a multipart form at
    most a photo and its few fields, any other body ``other_limit`` bytes (JSON). Without it Starlette read any
    body whole: a 30 MiB JSON body took 790 MB to parse before it was refused, and a form part past the photo limit
    was spooled to a file on disk. A body sent without its length (chunked) is read here first, up to the limit,
    then handed on."""

    def __init__(self, app, photo_limit: int, other_limit: int, form_fields: int = 2**20):
        self.app, self.photo_limit, self.other_limit = app, photo_limit, other_limit
        self.form_limit = photo_limit + form_fields  # the photo and the form's other fields (a calibration grid)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        form = headers.get(b"content-type", b"").lower().startswith(b"multipart/form-data")
        limit = self.form_limit if form else self.other_limit
        length = headers.get(b"content-length", b"").strip()
        if length.isdigit():
            if int(length) > limit:
                return await _refuse(scope, receive, send, 413, self._message(limit, form), 0)
            return await self.app(scope, receive, send)  # the server reads no more than the length says
        messages, seen = [], 0
        while True:
            message = await receive()
            messages.append(message)
            seen += len(message.get("body", b""))
            if seen > limit:
                return await _refuse(scope, receive, send, 413, self._message(limit, form), 0)
            if message["type"] != "http.request" or not message.get("more_body"):
                break

        async def replayed():
            return messages.pop(0) if messages else await receive()
        await self.app(scope, replayed, send)

    def _message(self, limit: int, form: bool) -> str:
        mib = f"over {limit / 2**20:.0f} MiB"
        return (f"the upload is too large ({mib}): send a smaller photo, at most {self.photo_limit // 2**20} MiB"
                if form else f"the request is too large ({mib})")


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # no other site may frame the page and have its buttons clicked unseen
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeadersMiddleware:
    """Every HTTP answer says: its type is what it says (no sniffing), it is never shown in another site's frame
    (clickjacking: the same-origin check cannot see a click made in a frame), and no Referer leaves the page."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)
        await self.app(scope, receive, with_headers)

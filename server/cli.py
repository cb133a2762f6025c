"""The ``riichi-lens`` command. Each part registers its own subcommands; imports stay lazy so that the rules
commands start without loading vision or web code."""
from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    from rules.cli import add_check_cases_parser, add_hand_parser
    from vision.cli import add_calibrate_parser, add_read_parser

    parser = argparse.ArgumentParser(prog="riichi-lens", description="Read a riichi mahjong table and score it.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_hand_parser(sub)
    add_check_cases_parser(sub)
    add_read_parser(sub)
    add_calibrate_parser(sub)
    serve = sub.add_parser("serve", help="start the web app on this machine (http://127.0.0.1:8000)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1; 0.0.0.0 with --lan)")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--lan", action="store_true",
                       help="let phones on the local network in: listen on 0.0.0.0 and require an access code, "
                            "printed with a URL and a QR code")
    serve.add_argument("--code", type=_access_code,
                       help="the access code to require (letters, digits, '_', '-'; default with --lan: a random one)")
    serve.add_argument("--camera", type=int, metavar="INDEX",
                       help="also read this camera on the server (OpenCV index, e.g. 0) for live mode: an overhead "
                            "referee camera; the page's live view can show it")
    serve.set_defaults(run=run_serve)
    return parser


def _port(text: str) -> int:
    """A TCP port to listen on, 1-65535 (0, any free port, would leave the printed address unknown)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: give one from 1 to 65535, like 8000")
    return port


def _access_code(text: str) -> str:
    from server.access import check_code

    try:
        return check_code(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _port_taken(host: str, port: int) -> str | None:
    """Why the app could not listen at host:port (a port in use, an address not this machine's), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: a closing socket is no bar
            s.bind((host, port))
    except OSError as e:
        return e.strerror or str(e)
    return None


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.access import is_loopback, lan_banner, new_code
    from server.app import create_app

    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    busy = _port_taken(host, args.port)
    if busy:  # said before the URL to open is printed, which would be another program's
        print(f"riichi-lens serve: {host}:{args.port} cannot be listened on ({busy}): another riichi-lens may be "
              f"running there; choose another port with --port {args.port + 1}", file=sys.stderr)
        return 2
    code = args.code or (new_code() if args.lan else None)
    try:  # before the URL to open is printed: a camera that cannot be opened is said alone
        app = create_app(access_code=code, camera=args.camera, names_refused=not code)
    except RuntimeError as e:  # the camera could not be opened
        print(f"riichi-lens serve: {e}", file=sys.stderr)
        return 2
    if args.lan:
        addresses = None if host in ("0.0.0.0", "::") else [host]
        try:
            print(lan_banner(code, args.port, addresses), end="", flush=True)
        except UnicodeEncodeError:  # a terminal without block characters: segno's ANSI-coloured QR instead
            print(lan_banner(code, args.port, addresses, compact=False), end="", flush=True)
    else:
        query = f"?code={code}" if code else ""
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        print(f"riichi-lens: open http://{shown}:{args.port}/{query} in a browser (Ctrl+C stops)")
        if not code and not is_loopback(host):
            print(f"warning: anyone who can reach {host} can use this app; --lan requires an access code")
    uvicorn.run(app, host=host, port=args.port, log_level="warning")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader of the output went away (`riichi-lens read *.jpg | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's own flush at exit would fail too
        return 1


if __name__ == "__main__":
    sys.exit(main())

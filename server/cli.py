"""The ``riichi-lens`` command. Each part registers its own subcommands; imports stay lazy so that the rules
commands start without loading vision or web code."""
from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    from rules.cli import add_check_cases_parser, add_hand_parser
    from vision.cli import add_read_parser

    parser = argparse.ArgumentParser(prog="riichi-lens", description="Read a riichi mahjong table and score it.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_hand_parser(sub)
    add_check_cases_parser(sub)
    add_read_parser(sub)
    serve = sub.add_parser("serve", help="start the web app on this machine (http://127.0.0.1:8000)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=run_serve)
    return parser


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app

    print(f"riichi-lens: open http://{args.host}:{args.port}/ in a browser (Ctrl+C stops)")
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

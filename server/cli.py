"""The ``riichi-lens`` command. Each part registers its own subcommands; imports stay lazy so that the rules
commands start without loading vision or web code."""
from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    from rules.cli import add_check_cases_parser, add_hand_parser

    parser = argparse.ArgumentParser(prog="riichi-lens", description="Read a riichi mahjong table and score it.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_hand_parser(sub)
    add_check_cases_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

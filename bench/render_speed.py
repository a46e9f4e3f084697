"""Picture speed: median milliseconds per board image and its size in bytes.

Boards come from random games at every stage (fixed seed); the static parts are drawn
once, as in the bot. The last line is ``board ms: N  bytes: N``.

    python bench/render_speed.py [--boards N]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence

from bot.pictures import render_board, render_hand
from engine.command_line import CommandLineParser, count, description, seed
from engine.rules import new_game, public_view, view
from engine.rules.views import PublicView

MOST_BOARDS = 100_000
"""About half an hour of drawing at 13 ms a board and 5 ms a hand."""


def boards(count: int, seed: int) -> list[tuple[PublicView, object]]:
    rng = random.Random(seed)
    found: list[tuple[PublicView, object]] = []
    game = 0
    while len(found) < count:
        state = new_game(seed + game)
        game += 1
        while not state.is_over and len(found) < count:
            found.append((public_view(state), view(state, state.current_player or 0)))
            state.apply(rng.choice(state.legal_decisions()))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog="bench/render_speed.py", description=description(__doc__))
    parser.add_argument(
        "--boards",
        type=count(1, MOST_BOARDS),
        default=300,
        help=f"boards (and hands) to draw, 1 to {MOST_BOARDS:,} (300)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the games drawn")
    args = parser.parse_args(argv)
    names = ("Ana", "Benjamin")
    samples = boards(args.boards, args.seed)
    render_board("en", samples[0][0], names)  # the static layer and palette are built once
    board_ms, board_bytes, hand_ms, hand_bytes = [], [], [], []
    for table, mine in samples:
        start = time.perf_counter()
        png = render_board("en", table, names)
        board_ms.append((time.perf_counter() - start) * 1000)
        board_bytes.append(len(png))
        start = time.perf_counter()
        hand = render_hand("en", mine)  # type: ignore[arg-type]
        hand_ms.append((time.perf_counter() - start) * 1000)
        hand_bytes.append(len(hand))
    print(f"boards: {len(samples)}")
    print(f"hand ms: {statistics.median(hand_ms):.1f}  bytes: {max(hand_bytes)} (largest)")
    # quantiles needs two points; one board is its own 95th percentile.
    p95 = statistics.quantiles(board_ms, n=20)[-1] if len(board_ms) > 1 else board_ms[0]
    print(f"board p95 ms: {p95:.1f}  largest bytes: {max(board_bytes)}")
    median_bytes = int(statistics.median(board_bytes))
    print(f"board ms: {statistics.median(board_ms):.1f}  bytes: {median_bytes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

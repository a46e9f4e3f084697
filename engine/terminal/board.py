"""The table as text: the board the human sees, a round's scoring, the game's last line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.rules.cards import CHARM, GEISHAS
from engine.rules.outcome import MatchOutcome, RoundResult, Termination
from engine.rules.views import PlayerView
from engine.terminal.screen import LINE_WIDTH
from engine.terminal.wording import AI, HUMAN, plural, spaced

_LABEL = 11


def _row(label: str, cells: Iterable[object]) -> str:
    """A board row: an 11-character label, then one 5-character column per geisha."""
    return f"{label:<{_LABEL}}" + "".join(f"{cell!s:<5}" for cell in cells).rstrip()


_GEISHA_ROW = _row("geisha", [f"{g}:{c}" for g, c in zip(GEISHAS, CHARM, strict=True)])


def _favor(side: int | None) -> str:
    return "." if side is None else "you" if side == HUMAN else "AI"


def _items(counts: Sequence[int]) -> list[str]:
    return [str(n) if n else "." for n in counts]


def _score(geishas: Sequence[int], charm: Sequence[int]) -> str:
    def one(seat: int) -> str:
        return f"{plural(geishas[seat], 'geisha')}, {plural(charm[seat], 'charm point')}"

    return f"you: {one(HUMAN)} · AI: {one(AI)}"


def _seat(seat: int) -> str:
    return "you" if seat == HUMAN else "AI"


def _moves_line(player_view: PlayerView) -> list[str]:
    table = player_view.table
    moves: list[str] = []
    for index, move in enumerate(player_view.own_moves):
        waiting = "" if move.complete else " (waiting)"
        moves.append(f"{_seat(table.mover(index))} {move}{waiting}")
    lines = [f"{'this round':<{_LABEL}}" + (moves.pop(0) if moves else "no moves yet")]
    for entry in moves:  # wrapped between moves, never inside one
        if len(lines[-1]) + len(", ") + len(entry) + len(",") > LINE_WIDTH:
            lines[-1] += ","
            lines.append(" " * _LABEL + entry)
        else:
            lines[-1] += ", " + entry
    return lines


def render_board(player_view: PlayerView) -> str:
    """The table as the human may see it, with their own hidden cards: 10 or 11 lines."""
    table = player_view.table
    started = "you started" if table.starting_player == HUMAN else "the AI started"
    pile = plural(table.pile_size, "card")
    header = f"--- Round {table.round_number} · {started} · {pile} in the pile "
    mine = f"actions left: {', '.join(a.label for a in table.unused(HUMAN)) or 'none'}"
    if player_view.secret is not None:
        mine += f" · Secret: {GEISHAS[player_view.secret]}"
    if player_view.trade_off is not None:
        mine += f" · Trade-off: {spaced(player_view.trade_off)}"
    hand = spaced(player_view.hand) or "(empty)"
    if player_view.drawn is not None:
        hand += f"   (you drew {GEISHAS[player_view.drawn]})"
    lines = [
        header.ljust(LINE_WIDTH, "-"),
        _GEISHA_ROW,
        _row("AI's items", _items(table.items[AI])),
        _row("favor", [_favor(side) for side in table.favor]),
        _row("your items", _items(table.items[HUMAN])),
        f"{'score':<{_LABEL}}{_score(table.geishas, table.charm)}",
        *_moves_line(player_view),
        f"{'AI':<{_LABEL}}{plural(table.hand_sizes[AI], 'card')} in hand · actions left: "
        + (", ".join(a.label for a in table.unused(AI)) or "none"),
        f"{'you':<{_LABEL}}{mine}",
        f"{'your hand':<{_LABEL}}{hand}",
    ]
    return "\n".join(lines)


def render_round(result: RoundResult) -> str:
    """The scoring of a round: both Secrets revealed, items per geisha, favor and score."""
    moved = " · ".join(
        f"to {who}: {spaced(g for g in result.moved if result.favor[g] == seat)}"
        for seat, who in ((HUMAN, "you"), (AI, "the AI"))
        if any(result.favor[g] == seat for g in result.moved)
    )
    lines = [
        f"=== Round {result.round_number} scored: your Secret was "
        f"{GEISHAS[result.secrets[HUMAN]]}, the AI's was {GEISHAS[result.secrets[AI]]} ===",
        _GEISHA_ROW,
        _row("AI's items", _items(result.items[AI])),
        _row("favor", [_favor(side) for side in result.favor]),
        _row("your items", _items(result.items[HUMAN])),
        f"{'score':<{_LABEL}}{_score(result.geishas, result.charm)}",
        f"{'moved':<{_LABEL}}{moved or 'no favor marker'}",
    ]
    return "\n".join(lines)


def render_outcome(outcome: MatchOutcome) -> str:
    """The last line of a finished game."""
    after = f"after {plural(outcome.rounds_played, 'round')}"
    if outcome.winner is None:
        return f"The game is a draw {after}."
    who = "You win" if outcome.winner == HUMAN else "The AI wins"
    how = {
        Termination.CHARM: "with 11 charm points or more",
        Termination.GEISHAS: "with the favor of 4 geishas",
        Termination.ROUND_LIMIT: "on the better score",
        Termination.RESIGNATION: "by resignation",
        Termination.TIMEOUT: "on time",
    }[outcome.termination]
    return f"{who} {how} {after}."

"""``python -m engine play``: a game against the AI in a terminal, one line per decision.

The human types a decision in rules.md notation (``1E``, ``2FG``, ``3EEG``, ``4ABEG``, and
``-E`` or ``-AB`` to take from the AI's offer) or its number in the printed menu. Bad input
gets a message saying what was wrong and the prompt again; end of input or Ctrl-C leaves
the game without a traceback. All I/O goes through the streams passed in, so tests can
drive a whole game with scripted input.
"""

from __future__ import annotations

import random
from typing import IO

from engine.ai.agent import Agent
from engine.ai.levels import agent_for_level
from engine.rules.cards import CHARM, GEISHAS, cards_text
from engine.rules.decisions import (
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
    parse_decision,
)
from engine.rules.errors import IllegalDecision, NotationError
from engine.rules.outcome import RoundResult, Termination
from engine.rules.state import GameState, Phase, new_game
from engine.rules.views import PlayerView, view

HUMAN = 0
AI = 1
HELP = (
    "Type a number from the menu, or a decision: 1E (Secret), 2FG (Trade-off), "
    "3EEG (Gift), 4ABEG (Competition of pairs AB and EG), -E or -AB (take from an offer). "
    "'help' shows this, 'table' shows the table again, 'quit' resigns."
)


class Quit(Exception):
    """The human left: end of input, Ctrl-C or ``quit``."""


def describe(decision: Decision) -> str:
    """A decision in words, after its notation (``3EEG  Gift of E E G``)."""
    if isinstance(decision, Secret):
        words = f"Secret: keep {GEISHAS[decision.card]} face down"
    elif isinstance(decision, TradeOff):
        words = f"Trade-off: discard {' '.join(cards_text(decision.cards))}"
    elif isinstance(decision, Gift):
        words = f"Gift of {' '.join(cards_text(decision.cards))}"
    elif isinstance(decision, Competition):
        first, second = decision.pairs
        words = f"Competition: {cards_text(first)} against {cards_text(second)}"
    elif isinstance(decision, GiftChoice):
        words = f"take {GEISHAS[decision.card]}"
    else:
        words = f"take the pair {cards_text(decision.pair)}"
    return f"{decision!s:<7} {words}"


def _favor_mark(side: int | None) -> str:
    return "." if side is None else "you" if side == HUMAN else "AI"


def _row(label: str, cells: object) -> str:
    """A table row: a 10-character label, then one 5-character column per geisha."""
    assert isinstance(cells, tuple | list)
    return f"{label:<10}" + "".join(f"{cell!s:<5}" for cell in cells).rstrip()


_GEISHA_HEADER = _row("geisha", [f"{g}{c}" for g, c in zip(GEISHAS, CHARM, strict=True)])


def render_table(player_view: PlayerView) -> str:
    """The table and the human's own cards as lines of text."""
    table = player_view.table
    lines = [
        f"--- round {table.round_number}, {table.pile_size} cards in the pile ---",
        _GEISHA_HEADER,
        _row("favor", [_favor_mark(side) for side in table.favor]),
        _row("AI's", [n or "." for n in table.items[AI]]),
        _row("yours", [n or "." for n in table.items[HUMAN]]),
        f"score     you {table.geishas[HUMAN]} geishas / {table.charm[HUMAN]} charm, "
        f"AI {table.geishas[AI]} geishas / {table.charm[AI]} charm",
        "moves     " + (" ".join(str(m) for m in player_view.own_moves) or "(none yet)"),
        f"AI        {table.hand_sizes[AI]} cards in hand, markers left: "
        + (", ".join(a.label for a in table.unused(AI)) or "none"),
        "you       markers left: "
        + (", ".join(a.label for a in table.unused(HUMAN)) or "none")
        + f"; Secret {GEISHAS[player_view.secret] if player_view.secret is not None else '-'}"
        + f"; Trade-off {cards_text(player_view.trade_off) if player_view.trade_off else '-'}",
        f"your hand {' '.join(cards_text(player_view.hand)) or '(empty)'}"
        + (f"   (you drew {GEISHAS[player_view.drawn]})" if player_view.drawn is not None else ""),
    ]
    return "\n".join(lines)


def render_menu(legal: tuple[Decision, ...]) -> str:
    """The numbered legal decisions, several to a line when there are many."""
    if len(legal) <= 12:
        return "\n".join(f"{i:>3}) {describe(d)}" for i, d in enumerate(legal, 1))
    cells = [f"{i:>3}) {d!s:<7}" for i, d in enumerate(legal, 1)]
    rows = ["".join(cells[i : i + 6]).rstrip() for i in range(0, len(cells), 6)]
    example = next((d for d in legal if isinstance(d, Competition)), None)
    if example is not None:
        first, second = example.pairs
        rows.append(
            f"     ({example} is a Competition of pairs {cards_text(first)} and "
            f"{cards_text(second)})"
        )
    return "\n".join(rows)


def render_round(result: RoundResult) -> str:
    """The scoring of a round: Secrets revealed, items per geisha, favor and score."""
    lines = [
        f"=== round {result.round_number} scored: your Secret {GEISHAS[result.secrets[HUMAN]]}, "
        f"AI's Secret {GEISHAS[result.secrets[AI]]} ===",
        _GEISHA_HEADER,
        _row("AI's", list(result.items[AI])),
        _row("yours", list(result.items[HUMAN])),
        _row("favor", [_favor_mark(side) for side in result.favor]),
        f"you: {result.geishas[HUMAN]} geishas, {result.charm[HUMAN]} charm; "
        f"AI: {result.geishas[AI]} geishas, {result.charm[AI]} charm",
    ]
    return "\n".join(lines)


def parse_input(text: str, legal: tuple[Decision, ...]) -> Decision:
    """The decision a line of input names: a menu number or notation (any letter case).

    Raises :class:`NotationError` for text that names no decision; the caller checks
    legality against the state so the message can say which rule forbids it.
    """
    text = text.strip()
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise NotationError(f"there is no decision number {number}: choose 1 to {len(legal)}")
    decision_text = text.upper().replace(" ", "")
    # A bare card after an offer means taking it, as the menu shows it with a dash.
    offered = legal and isinstance(legal[0], GiftChoice | CompetitionChoice)
    if offered and decision_text.isalpha():
        decision_text = "-" + decision_text
    return parse_decision(decision_text)


def _announce_ai(decision: Decision, out: IO[str]) -> None:
    if isinstance(decision, Secret):
        print("AI plays a Secret (1X): one card face down.", file=out)
    elif isinstance(decision, TradeOff):
        print("AI plays a Trade-off (2XX): two cards out of the round.", file=out)
    elif isinstance(decision, Gift):
        print(f"AI offers a Gift: {' '.join(cards_text(decision.cards))}. Take one card.", file=out)
    elif isinstance(decision, Competition):
        first, second = decision.pairs
        print(
            f"AI offers a Competition: {cards_text(first)} or {cards_text(second)}. Take a pair.",
            file=out,
        )
    elif isinstance(decision, GiftChoice):
        print(f"AI takes {GEISHAS[decision.card]} from your Gift.", file=out)
    else:
        print(f"AI takes {cards_text(decision.pair)} from your Competition.", file=out)


def _read_decision(state: GameState, stdin: IO[str], out: IO[str]) -> Decision:
    """Prompt until the human names a legal decision."""
    player_view = view(state, HUMAN)
    print(render_table(player_view), file=out)
    if state.phase is Phase.ACTION:
        print("Your turn: choose an action.", file=out)
    else:
        print("Take one part of the AI's offer.", file=out)
    print(render_menu(player_view.legal), file=out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            raise Quit
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit", "resign"):
            raise Quit
        if command in ("help", "?"):
            print(HELP, file=out)
            print(render_menu(player_view.legal), file=out)
            continue
        if command == "table":
            print(render_table(player_view), file=out)
            print(render_menu(player_view.legal), file=out)
            continue
        try:
            decision = parse_input(line, player_view.legal)
        except NotationError as error:
            print(f"Not understood: {error}. Type 'help' for the formats.", file=out)
            continue
        if decision not in player_view.legal:
            try:
                state.apply(decision, HUMAN)  # raises with the rule that forbids it
            except IllegalDecision as error:
                print(f"Not allowed: {error}.", file=out)
                continue
            raise AssertionError("a decision outside the legal list was applied")
        return decision


def play_game(
    agent: Agent,
    state: GameState,
    stdin: IO[str],
    out: IO[str],
    rng: random.Random,
) -> int:
    """Play ``state`` to its end, the human in seat 0; 0 when finished, 1 when abandoned."""
    print(f"You are playing against the {agent.name} AI. {HELP}", file=out)
    scored = len(state.results)
    announced_round = 0
    try:
        while not state.is_over:
            if state.round_number != announced_round:
                announced_round = state.round_number
                starter = "you start" if state.start_player == HUMAN else "the AI starts"
                print(f"\n*** Round {announced_round}: {starter}. ***", file=out)
            if state.current_player == AI:
                decision = agent.decide(view(state, AI), rng)
                state.apply(decision, AI)
                _announce_ai(decision, out)
            else:
                decision = _read_decision(state, stdin, out)
                state.apply(decision, HUMAN)
                print(f"You play {decision}.", file=out)
            while scored < len(state.results):
                print(render_round(state.results[scored]), file=out)
                scored += 1
    except (Quit, KeyboardInterrupt):
        state.resign(HUMAN)
        print("\nYou left the game; the AI wins by resignation.", file=out)
        return 1
    outcome = state.outcome
    assert outcome is not None
    who = "You win" if outcome.winner == HUMAN else "The AI wins"
    how = {
        Termination.CHARM: "11 charm points or more",
        Termination.GEISHAS: "the favor of 4 geishas",
    }.get(outcome.termination, str(outcome.termination))
    print(f"\n{who} with {how} after {outcome.rounds_played} round(s).", file=out)
    return 0


def run(level: str, seed: int | None, stdin: IO[str], out: IO[str]) -> int:
    """``python -m engine play``: a new seeded game against the AI of ``level``."""
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    state = new_game(seed)
    print(f"Hanamikoji against the AI ({level}), seed {seed}.", file=out)
    return play_game(agent_for_level(level), state, stdin, out, random.Random(seed))

"""The game loop: the AI and the human take turns until the game ends or the human leaves."""

from __future__ import annotations

import random
from typing import IO

from engine.ai.agent import Agent
from engine.ai.levels import agent_for_level
from engine.rules.state import GameState, new_game
from engine.rules.views import view
from engine.terminal.board import render_outcome, render_round
from engine.terminal.screen import Quit, Screen
from engine.terminal.turn import Turn
from engine.terminal.wording import AI, HUMAN, ai_words, your_words


def play_game(
    agent: Agent,
    state: GameState,
    stdin: IO[str],
    out: IO[str],
    rng: random.Random,
    *,
    echo: bool = False,
) -> int:
    """Play ``state`` to its end, the human in seat 0; 0 when finished, 1 when abandoned.

    ``echo`` prints each input line after its prompt, as a terminal shows typed text.
    """
    screen = Screen(out, echo=echo)
    screen.say(f"You play against the {agent.name} AI. Type 'help' at any prompt.")
    scored = len(state.results)
    announced_round = 0
    try:
        while not state.is_over:
            if state.round_number != announced_round:
                announced_round = state.round_number
                starter = "you start" if state.start_player == HUMAN else "the AI starts"
                screen.say(f"\n*** Round {announced_round}: {starter}. ***")
            pending = state.pending
            if state.current_player == AI:
                decision = agent.decide(view(state, AI), rng)
                state.apply(decision, AI)
                screen.say(ai_words(decision, pending))
            else:
                decision = Turn(state, screen, stdin).read()
                state.apply(decision, HUMAN)
                screen.say(your_words(decision, pending))
            while scored < len(state.results):
                screen.say(render_round(state.results[scored]))
                scored += 1
                if not state.is_over:
                    # The next round's board and menus would scroll the summary off 24 lines.
                    screen.ask(f"Press Enter for round {state.round_number}. ", stdin)
    except Quit as left:
        state.resign(HUMAN)
        if left.resigned:
            screen.say("You resigned; the AI wins.")
        else:
            screen.say("You left the game; the AI wins by resignation.")
        return 1
    except KeyboardInterrupt:
        state.resign(HUMAN)
        screen.say("\nYou left the game; the AI wins by resignation.")
        return 1
    outcome = state.outcome
    assert outcome is not None
    screen.say("\n" + render_outcome(outcome))
    return 0


def run(level: str, seed: int | None, stdin: IO[str], out: IO[str]) -> int:
    """``python -m engine play``: a new seeded game against the AI of ``level``."""
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    state = new_game(seed)
    print(f"Hanamikoji against the AI ({level}), seed {seed}.", file=out)
    agent = agent_for_level(level)
    return play_game(agent, state, stdin, out, random.Random(seed), echo=not stdin.isatty())

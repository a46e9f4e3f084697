"""One decision of the human, read step by step, with the commands every prompt takes:
``back``, ``board``, ``help`` and ``quit`` (which asks first)."""

from __future__ import annotations

from typing import IO

from engine.rules.decisions import Competition, Decision
from engine.rules.errors import NotationError
from engine.rules.state import GameState
from engine.rules.views import view
from engine.terminal.answers import answer
from engine.terminal.board import render_board
from engine.terminal.menus import HELP, menu, only_note
from engine.terminal.screen import Quit, Screen
from engine.terminal.steps import (
    ChooseAction,
    ChooseCards,
    ChooseSplit,
    ChooseTake,
    Confirm,
    Refused,
    Step,
)
from engine.terminal.wording import HUMAN, in_your_words


class Turn:
    """Reads one decision of the human: the steps form a stack, ``back`` pops one."""

    def __init__(self, state: GameState, screen: Screen, stdin: IO[str]) -> None:
        self.state = state
        self.view = view(state, HUMAN)
        self.screen = screen
        self.stdin = stdin
        self.steps: list[Step] = [self._first_step()]

    def _first_step(self) -> Step:
        """The action menu or the offer, skipping what leaves no choice."""
        legal = self.view.legal
        if len(legal) == 1:
            return Confirm(legal[0])
        pending = self.view.table.pending
        if pending is not None:
            return ChooseTake(pending)
        unused = self.view.table.unused(HUMAN)
        if len(unused) > 1:
            return ChooseAction()
        splits = tuple(d for d in legal if isinstance(d, Competition))
        if splits and len({tuple(sorted(d.cards)) for d in splits}) == 1:
            return ChooseSplit(tuple(sorted(splits[0].cards)), splits)  # the last four cards
        return ChooseCards(unused[0])

    def read(self) -> Decision:
        """Show the board and the steps until the human confirms a legal decision."""
        self.screen.show_board(render_board(self.view))
        show_menu = True
        while True:
            step = self.steps[-1]
            lines, prompt = menu(step, self.view)
            if len(self.steps) == 1 and not isinstance(step, ChooseAction | ChooseTake):
                lines = [only_note(self.view), *lines]
            if show_menu or not self.screen.has_room(0):
                self.screen.show(lines)  # with the board again if it would scroll away
            show_menu = False
            typed = self.screen.ask(prompt, self.stdin)
            command = typed.lower()
            if command in ("quit", "exit", "resign"):
                self._ask_to_resign()  # the menu is still just above
                continue
            if command in ("help", "?"):
                self.screen.say(HELP)
                show_menu = True
                continue
            if command in ("board", "table"):
                self.screen.show_board(self.screen.board)
                show_menu = True
                continue
            if command in ("back", "b"):
                if len(self.steps) == 1 and isinstance(step, ChooseAction | ChooseTake):
                    self.screen.say("Nothing to go back to: this is the first step.")
                elif len(self.steps) == 1:
                    self.screen.say(f"Nothing to go back to. {only_note(self.view)}")
                else:
                    self.steps.pop()
                    show_menu = True
                continue
            if not typed and not isinstance(step, Confirm):
                continue
            try:
                outcome = answer(step, typed, self.state, self.view)
            except Refused as refusal:
                self.screen.say(str(refusal))
                continue
            except NotationError as error:
                self.screen.say(f"Not understood: {in_your_words(str(error))}. Type 'help'.")
                continue
            if outcome is None and len(self.steps) == 1:
                self.screen.say(only_note(self.view))
            elif outcome is None:
                self.steps.pop()
            elif isinstance(outcome, Step):
                self.steps.append(outcome)
            else:
                return outcome
            show_menu = True

    def _ask_to_resign(self) -> None:
        typed = self.screen.ask("Resign this game? The AI wins. [y/N] ", self.stdin)
        if typed.lower() in ("y", "yes"):
            raise Quit(resigned=True)
        self.screen.say("You play on.")

"""Puzzles: `/hanamikoji puzzle` poses a member a decision of a real match (this server's
reviewed matches, or the built-in set) where its player missed a clearly better move, as
that player saw it; a choice button answers it at once — solved or missed, the best move,
the move played, why, the member's puzzle rating and streak — and Next puzzle poses another.
With ``streak:True`` it is the unrated streak (:mod:`bot.puzzles.streak_message`): ever
harder puzzles until the first miss.

Which decisions are puzzles, the answer, the reason and the ratings are the engine's
(:mod:`engine.puzzles`, ``service.puzzles``); the position is the mover's own view, so the
opponent's hidden cards are not there to show. Here they are only shown.

The daily puzzle (:mod:`bot.puzzles.daily`): the server's puzzle of the day posted publicly
in its puzzle channel, each member's press answered privately, the solvers listed.

A discord.py extension: :func:`setup` adds the command to `/hanamikoji`, registers its
`DynamicItem`s and subscribes to the service's events for the daily puzzle.
"""

from __future__ import annotations

from bot.discord_plumbing.link_button import LinkButton
from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.puzzles.choice_button import PuzzleChoiceButton
from bot.puzzles.commands import puzzle_commands
from bot.puzzles.daily import DailyPuzzlePoster
from bot.puzzles.daily_button import DailyChoiceButton
from bot.puzzles.daily_deps import DailyPuzzleDeps
from bot.puzzles.deps import PuzzlesDeps
from bot.puzzles.next_button import NextPuzzleButton
from bot.puzzles.streak_buttons import StreakChoiceButton, StreakStepButton

ITEMS: tuple[type[LinkButton], ...] = (
    PuzzleChoiceButton,
    NextPuzzleButton,
    StreakChoiceButton,
    StreakStepButton,
    DailyChoiceButton,
)
"""The `DynamicItem`s the feature registers."""


class Puzzles(Feature):
    """Holds the puzzles feature's parts."""


class DailyPuzzle(Feature):
    """Holds the daily puzzle's parts and its subscription."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    deps = PuzzlesDeps(
        parts.service.puzzles, parts.service.puzzle_streaks, parts.names, parts.emojis
    )
    await bot.add_cog(Puzzles(deps))
    group = command_group(bot)
    for command in puzzle_commands(deps):
        group.add_command(command)
    daily = DailyPuzzleDeps(
        daily=parts.service.daily_puzzles,
        puzzles=parts.service.puzzles,
        places=parts.places,
        languages=parts.languages,
        names=parts.names,
        emojis=parts.emojis,
        announced=parts.service.announced,
    )
    poster = DailyPuzzlePoster(daily)
    await bot.add_cog(DailyPuzzle(daily, unsubscribe=parts.service.subscribe(poster.on_event)))
    bot.add_dynamic_items(*ITEMS)

"""Review: `/hanamikoji review`, the Review buttons under a finished match and in
`/hanamikoji history`, and the review itself — a finished match replayed step by step in
an ephemeral message, with the board picture the thread showed at each step, each move in
words, and the AI's judgement of it.

Who sees what (the hidden cards rule) is the engine's (:mod:`engine.service.reviews.sight`), and the
feature only shows what the engine gives its viewer: a player of the match gets both hands,
Secrets, Trade-offs and the judgement once the match has ended; a spectator the public
moves and boards only, unless both players chose `/hanamikoji review share:True` (the AI
counts as agreeing).

A discord.py extension: :func:`setup` adds the command to `/hanamikoji` and registers its
`DynamicItem`s.
"""

from __future__ import annotations

from bot.discord_plumbing.link_button import LinkButton
from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.review.commands import review_commands
from bot.review.deps import ReviewDeps
from bot.review.navigation_buttons import NAVIGATION_BUTTONS
from bot.review.review_button import ReviewButton

ITEMS: tuple[type[LinkButton], ...] = (ReviewButton, *NAVIGATION_BUTTONS)
"""The `DynamicItem`s the feature registers."""


class Review(Feature):
    """Holds the review feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    deps = ReviewDeps(
        queries=service.queries,
        placements=service.placements,
        settings=service.settings,
        reviews=service.reviews,
        names=parts.names,
        languages=parts.languages,
    )
    await bot.add_cog(Review(deps))
    group = command_group(bot)
    for command in review_commands(deps):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)

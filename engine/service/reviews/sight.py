"""Who sees what of a finished match: the rule for the hidden cards and the judgement. It
lives in the engine beside the rule for a live match (:mod:`engine.rules.views`), and the
engine applies it: the queries that can carry a hidden card take their viewer
(:meth:`MatchQueries.seen_match`, :meth:`MatchQueries.match_record`, the reviews) and give
only what this rule allows (:mod:`engine.review.seen_match` leaves the rest out), so the bot
shows what it is given and never filters.

A player of the match sees, once it has ended, everything the match record holds: both
hands, both Secrets and Trade-offs and the removed card at every step, and the AI's
judgement of every decision with its better move; they may export the record
(`/hanamikoji history`). Nothing they learn can change a finished match.

A spectator (anyone who did not play it) sees only what the thread showed: the public
moves and the public boards, and no judgement at all, since a chance and a "better move"
are worked out from the mover's hidden cards and would reveal them; nor the record, which
holds every hidden card. Unless both players allowed it with `/hanamikoji review share:True`
(the AI counts as agreeing): the hidden cards are then each player's own to give away, so
the spectator sees, and may export, what a player does. One player alone cannot open the
other's hand.

The rule is applied again on every query: the presser of an ephemeral message is its
viewer, but a player may withdraw their consent between two presses.
"""

from __future__ import annotations

import enum

from engine.model import AI_USER_ID, MatchInfo
from engine.service.settings import MatchSettings


class Sight(enum.Enum):
    """How much of a finished match a viewer's review shows."""

    PLAYER = "player"
    """A player of the match: hidden cards and judgement."""
    SHARED = "shared"
    """A spectator of a match whose two players both share their reviews: as a player."""
    PUBLIC = "public"
    """A spectator: the public moves and boards only."""

    @property
    def full(self) -> bool:
        """Whether the hidden cards and the judgement are shown."""
        return self is not Sight.PUBLIC


async def sight_of(settings: MatchSettings, info: MatchInfo, viewer_id: int) -> Sight:
    """What ``viewer_id`` may see of the finished match ``info``."""
    if info.seat_of(viewer_id) is not None:
        return Sight.PLAYER
    return Sight.SHARED if await both_share(settings, info.players) else Sight.PUBLIC


async def both_share(settings: MatchSettings, players: tuple[int, int]) -> bool:
    """Whether both players let spectators see their finished matches (the AI counts as
    agreeing: it has nothing to hide once the match is over)."""
    for player in players:
        if player != AI_USER_ID and not (await settings.user_settings(player)).share_reviews:
            return False
    return True

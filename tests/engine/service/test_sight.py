"""The engine owns sight of a finished match: every query that could carry a hidden card
(hands, Secrets, Trade-offs, the removed card, the judgement worked out from them) takes
its viewer and answers only what that viewer may see. A spectator of an unshared match gets
the public tables and moves and nothing else; once both players share, they see as a
player does; one player sharing is not enough; a player sees everything."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from engine.model import AI_USER_ID, MatchStatus, UserSettings
from engine.review.judgement import MatchReview
from engine.review.seen_match import HiddenCards, SeenMatch
from engine.review.steps import match_steps, state_at
from engine.rules import Secret, TradeOff, public_view
from engine.rules.record import MatchRecord
from engine.service import HiddenFromViewer, MatchNotFound, MatchService
from engine.service.reviews.sight import Sight, sight_of
from tests.builders import match_info

from .conftest import InlineExecutor, ServiceFactory, new_match, play_to_end

ANA, BEN, CARA = 101, 202, 303
"""ana and ben play; cara watches."""
GUILD = 1
"""The server :func:`new_match` plays in."""


@pytest.fixture
async def service(make_service: ServiceFactory, worker: InlineExecutor) -> MatchService:
    return await make_service(agent_executor=worker, review_iterations=4)


async def finished(service: MatchService, seed: int = 4) -> int:
    """A match between ana and ben played to its end, analysed (so a judgement is stored)."""
    match = await new_match(service, ANA, BEN)
    await play_to_end(service, match.match_id, random.Random(seed))
    await service.reviews.review(match.match_id, ANA)
    return match.match_id


async def share(service: MatchService, *members: int) -> None:
    for member in members:
        await service.settings.set_user_settings(UserSettings(member, share_reviews=True))


def everything_in(value: object) -> Iterator[object]:
    """``value`` and every value inside it: fields of dataclasses, items of containers."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from everything_in(getattr(value, field.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from everything_in(item)
    elif isinstance(value, dict):
        for item in value.items():
            yield from everything_in(item)


def hidden_in(seen: SeenMatch) -> list[object]:
    """What in ``seen`` holds a hidden card: the hidden cards of a step, a Secret or a
    Trade-off with its cards, a judgement."""
    hiding = (HiddenCards, Secret, TradeOff, MatchReview)
    return [value for value in everything_in(seen) if isinstance(value, hiding)]


async def test_a_spectator_of_an_unshared_match_gets_no_hidden_card(service):
    match_id = await finished(service)
    record = await service.reviews.record(match_id, ANA)
    assert any(isinstance(at.decision, Secret | TradeOff) for at, _ in match_steps(record))

    seen = await service.reviews.seen(match_id, CARA, GUILD)

    assert not seen.hidden_shown and seen.viewer_seat is None
    assert hidden_in(seen) == []
    assert all(step.hidden is None for step in seen.steps)
    assert all(step.move.hidden is None for step in seen.steps if step.move is not None)
    assert seen.review is None  # though ana's analysis is stored
    # What is left is the public match: the tables the thread showed, step by step.
    assert seen.decisions == sum(1 for _ in match_steps(record))
    assert seen.steps[-1].table == await service.queries.public_view(match_id)


async def test_a_spectator_of_an_unshared_match_is_refused_what_holds_hidden_cards(service):
    match_id = await finished(service)
    with pytest.raises(HiddenFromViewer, match=f"user {CARA} may not see the record"):
        await service.queries.match_record(match_id, GUILD, CARA)
    with pytest.raises(HiddenFromViewer):
        await service.queries.finished_record(match_id, CARA)
    with pytest.raises(HiddenFromViewer):
        await service.reviews.record(match_id, CARA)
    with pytest.raises(HiddenFromViewer):
        await service.reviews.stored(match_id, CARA)
    with pytest.raises(HiddenFromViewer):
        await service.reviews.review(match_id, CARA)


@pytest.mark.parametrize("sharing", [ANA, BEN])
async def test_one_player_sharing_is_not_enough(service, sharing):
    match_id = await finished(service)
    await share(service, sharing)
    seen = await service.reviews.seen(match_id, CARA, GUILD)
    assert not seen.hidden_shown and hidden_in(seen) == []
    with pytest.raises(HiddenFromViewer):
        await service.queries.match_record(match_id, GUILD, CARA)


async def test_once_both_players_share_a_spectator_sees_as_a_player(service):
    match_id = await finished(service)
    await share(service, ANA, BEN)
    watched = await service.reviews.seen(match_id, CARA, GUILD)
    played = await service.reviews.seen(match_id, ANA, GUILD)
    assert watched.hidden_shown and watched.review is not None
    # The same steps, hidden cards and judgement; only the seat differs.
    assert dataclasses.replace(watched, viewer_seat=played.viewer_seat) == played
    record = await service.queries.match_record(match_id, GUILD, CARA)
    assert record == await service.queries.match_record(match_id, GUILD, ANA)


@pytest.mark.parametrize("player", [ANA, BEN])
async def test_a_player_sees_every_hidden_card_and_the_judgement(service, player):
    match_id = await finished(service)
    seen = await service.reviews.seen(match_id, player, GUILD)
    record = MatchRecord.from_json(await service.queries.match_record(match_id, GUILD, player))
    info = await service.queries.match_info(match_id)

    assert seen.hidden_shown and seen.viewer_seat == info.seat_of(player)
    assert seen.review is not None and len(seen.review.steps) == seen.decisions
    first = seen.steps[0]
    assert first.hidden is not None
    deal = record.rounds[0].deal
    assert first.hidden.removed == deal.removed
    waiting = 1 - first.table.starting_player  # has not drawn yet: holds what was dealt
    assert sorted(first.hidden.hands[waiting]) == sorted(deal.hands[waiting])
    # Every Secret and Trade-off is given with its cards, at its step.
    for at, _ in match_steps(record):
        step = seen.steps[at.index]
        assert step.move is not None and step.hidden is not None
        expected = at.decision if isinstance(at.decision, Secret | TradeOff) else None
        assert step.move.hidden == expected
        assert step.move.player == at.player
        assert step.table == public_view(state_at(record, at.index))


async def test_the_ai_counts_as_agreeing(service):
    match = await service.commands.start_ai_match(ANA, "easy", GUILD, 2)
    await play_to_end(service, match.match_id, random.Random(2))
    assert not (await service.reviews.seen(match.match_id, CARA, GUILD)).hidden_shown
    await share(service, ANA)
    seen = await service.reviews.seen(match.match_id, CARA, GUILD)
    assert seen.hidden_shown and seen.steps[0].hidden is not None


async def test_a_match_of_another_server_is_not_found(service):
    match_id = await finished(service)
    with pytest.raises(MatchNotFound):
        await service.reviews.seen(match_id, ANA, GUILD + 1)


class Sharing:
    """User settings where the members in ``sharing`` share their finished matches."""

    def __init__(self, sharing: set[int]) -> None:
        self.sharing = sharing

    async def user_settings(self, user_id: int) -> UserSettings:
        return UserSettings(user_id, share_reviews=user_id in self.sharing)


@pytest.mark.parametrize(
    ("players", "sharing", "viewer", "sight"),
    [
        ((ANA, BEN), set(), ANA, Sight.PLAYER),
        ((ANA, BEN), set(), BEN, Sight.PLAYER),
        ((ANA, BEN), set(), CARA, Sight.PUBLIC),
        ((ANA, BEN), {ANA}, CARA, Sight.PUBLIC),  # one player cannot open the other's hand
        ((ANA, BEN), {BEN}, CARA, Sight.PUBLIC),
        ((ANA, BEN), {ANA, BEN}, CARA, Sight.SHARED),
        ((ANA, AI_USER_ID), set(), CARA, Sight.PUBLIC),
        ((ANA, AI_USER_ID), {ANA}, CARA, Sight.SHARED),  # the AI counts as agreeing
    ],
)
async def test_the_rule_a_spectator_sees_the_hidden_cards_only_when_both_players_share(
    players, sharing, viewer, sight
):
    finished_match = match_info(5, players, MatchStatus.FINISHED)
    found = await sight_of(Sharing(sharing), finished_match, viewer)  # type: ignore[arg-type]
    assert found is sight
    assert found.full is (sight is not Sight.PUBLIC)

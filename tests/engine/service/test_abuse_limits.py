"""Limits against a member who means harm: a pause before challenging the same member again,
one waiting challenge per member, and so many new matches an hour; none reset by a restart."""

from __future__ import annotations

import asyncio

import pytest

from engine.service import MatchStatus
from engine.service.challenges.errors import ChallengeCooldown, TooManyNewMatches

from .conftest import START

HOUR = 3600.0


async def test_a_withdrawn_challenge_makes_its_challenger_wait_before_the_next(make_service, clock):
    service = await make_service(challenge_cooldown_seconds=600.0)
    first = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await clock.advance(30, settle=service.wait_idle)
    await service.challenges.cancel(first.match_id, 101)

    with pytest.raises(ChallengeCooldown, match="user 101 challenged user 202 too recently") as e:
        await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert e.value.retry_at == START + 30 + 600
    # Anyone else may be challenged, and anyone else may challenge that member.
    await service.challenges.challenge(101, 303, guild_id=1, channel_id=2)
    await service.challenges.challenge(404, 202, guild_id=1, channel_id=2)

    await clock.advance(599, settle=service.wait_idle)
    with pytest.raises(ChallengeCooldown):
        await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await clock.advance(1, settle=service.wait_idle)
    again = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert again.status is MatchStatus.PENDING


async def test_a_declined_or_expired_challenge_starts_the_pause_too(make_service, clock):
    service = await make_service(challenge_cooldown_seconds=600.0, challenge_expiry_seconds=300.0)
    declined = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.challenges.decline(declined.match_id, 202)
    await service.challenges.challenge(101, 303, guild_id=1, channel_id=2)
    await clock.advance(300, settle=service.wait_idle)  # the challenge to 303 expires

    for opponent, ended in ((202, START), (303, START + 300)):
        with pytest.raises(ChallengeCooldown) as refused:
            await service.challenges.challenge(101, opponent, guild_id=1, channel_id=2)
        assert refused.value.retry_at == ended + 600


async def test_a_second_challenge_to_a_member_who_has_not_answered_is_refused(service):
    await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    with pytest.raises(ChallengeCooldown, match="once it is answered") as refused:
        await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert refused.value.retry_at is None
    assert len(await service.queries.open_matches_for(202)) == 1


async def test_challenging_and_withdrawing_cannot_ping_a_member_over_and_over(service):
    pinged = 0
    for _ in range(12):
        try:
            challenge = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
        except ChallengeCooldown:
            continue
        pinged += 1
        await service.challenges.cancel(challenge.match_id, 101)
    assert pinged == 1


async def test_the_pause_survives_a_restart(make_service, clock):
    first = await make_service(challenge_cooldown_seconds=600.0)
    challenge = await first.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await first.challenges.cancel(challenge.match_id, 101)
    await first.close()

    second = await make_service(challenge_cooldown_seconds=600.0)
    await clock.advance(100, settle=second.wait_idle)
    with pytest.raises(ChallengeCooldown) as refused:
        await second.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    assert refused.value.retry_at == START + 600


async def test_an_accepted_challenge_or_a_zero_pause_lets_the_next_challenge_through(
    make_service,
):
    service = await make_service(challenge_cooldown_seconds=0.0)
    withdrawn = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.challenges.cancel(withdrawn.match_id, 101)
    played = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.challenges.accept(played.match_id, 202)
    await service.commands.resign(played.match_id, 202)
    assert (await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)).match_id


async def test_a_rematch_skips_the_pause_both_players_asked_for_it(make_service):
    service = await make_service(challenge_cooldown_seconds=600.0)
    # 202 withdrew a challenge to 101, so 202 may not challenge 101 for a while ...
    withdrawn = await service.challenges.challenge(202, 101, guild_id=1, channel_id=2)
    await service.challenges.cancel(withdrawn.match_id, 202)
    match = await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await service.challenges.accept(match.match_id, 202)
    await service.commands.resign(match.match_id, 101)
    # ... but the rematch, which 202 challenges (the seats swap), needs no such wait.
    await service.challenges.rematch(match.match_id, 101)
    rematch = await service.challenges.rematch(match.match_id, 202)
    assert rematch.started is not None and rematch.started.players == (202, 101)


# -- new matches an hour ---------------------------------------------------------------------


async def ai_match_played(service, user_id: int = 101) -> int:
    """Start a match against the AI and resign it at once, as the abuser did."""
    info = await service.commands.start_ai_match(user_id, "easy", guild_id=1, channel_id=2)
    await service.commands.resign(info.match_id, user_id)
    return info.match_id


async def test_new_matches_an_hour_are_limited_and_the_refusal_says_when(make_service, clock):
    service = await make_service(max_new_matches_per_hour=3)
    for _ in range(3):
        await ai_match_played(service)
        await clock.advance(10, settle=service.wait_idle)

    with pytest.raises(TooManyNewMatches, match="user 101 already started 3 matches") as refused:
        await ai_match_played(service)
    assert refused.value.retry_at == START + HOUR  # when the first of the three is an hour old
    with pytest.raises(TooManyNewMatches):
        await service.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await ai_match_played(service, user_id=202)  # someone else is not held back

    await clock.advance(START + HOUR - clock.now() - 1, settle=service.wait_idle)
    with pytest.raises(TooManyNewMatches):
        await ai_match_played(service)
    await clock.advance(1, settle=service.wait_idle)
    await ai_match_played(service)
    with pytest.raises(TooManyNewMatches) as refused:
        await ai_match_played(service)
    assert refused.value.retry_at == START + 10 + HOUR


async def test_challenges_count_towards_the_hour_answered_or_not(make_service):
    service = await make_service(max_new_matches_per_hour=3)
    for opponent in (202, 303):
        challenge = await service.challenges.challenge(101, opponent, guild_id=1, channel_id=2)
        await service.challenges.cancel(challenge.match_id, 101)
    await service.challenges.challenge(101, 404, guild_id=1, channel_id=2)
    with pytest.raises(TooManyNewMatches):
        await service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    # Accepting creates nothing: the challenged member may still accept.
    for challenger in (501, 502, 503, 504):
        challenge = await service.challenges.challenge(challenger, 202, guild_id=1, channel_id=2)
        await service.challenges.accept(challenge.match_id, 202)
        await service.commands.resign(challenge.match_id, 202)


async def test_the_hourly_count_survives_a_restart(make_service, clock):
    first = await make_service(max_new_matches_per_hour=2)
    await ai_match_played(first)
    await ai_match_played(first)
    await first.close()

    second = await make_service(max_new_matches_per_hour=2)
    with pytest.raises(TooManyNewMatches):
        await ai_match_played(second)


async def test_rematches_count_towards_the_hour(make_service, clock):
    service = await make_service(max_new_matches_per_hour=2)
    await ai_match_played(service)
    last = await ai_match_played(service)
    with pytest.raises(TooManyNewMatches):
        await service.challenges.rematch(last, 101)
    assert await service.queries.open_matches_for(101) == []

    await clock.advance(HOUR, settle=service.wait_idle)
    rematch = await service.challenges.rematch(last, 101)  # the press was kept
    assert rematch.started is not None and rematch.started.rematch_of == last


async def test_simultaneous_starts_cannot_slip_past_the_hourly_limit(make_service):
    service = await make_service(max_new_matches_per_hour=3, max_active_matches=10)
    results = await asyncio.gather(
        *(service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2) for _ in range(6)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 3
    assert all(isinstance(r, TooManyNewMatches) for r in results if isinstance(r, Exception))

"""The refusals of the limits against abuse say when to try again, in each language."""

import pytest

from bot.words.refusals import refusal_text
from engine.service.challenges.errors import ChallengeCooldown, TooManyNewMatches


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pause_and_the_hourly_limit_say_when_as_a_discord_timestamp(lang):
    cooldown = refusal_text(lang, ChallengeCooldown(1, 2, 1_700_000_600.2))
    hourly = refusal_text(lang, TooManyNewMatches(1, 20, 1_700_003_600.0))
    assert "<t:1700000601:R>" in cooldown
    assert "<t:1700003600:R>" in hourly and "20" in hourly


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_challenge_still_waiting_and_a_named_starter_are_worded_apart(lang):
    waiting = refusal_text(lang, ChallengeCooldown(1, 2, None))
    assert "<t:" not in waiting
    named = refusal_text(lang, TooManyNewMatches(1, 20, 0.0), {1: "ana", 2: "ben"})
    assert "ana" in named and named != refusal_text(lang, TooManyNewMatches(1, 20, 0.0))

"""What the thread shows after each kind of event, planned without Discord: the board
follows every move once, and someone is told only when they must be."""

from __future__ import annotations

import typing
from dataclasses import replace

import pytest

from bot.play.display_plan import (
    AskOffer,
    ClaimOffer,
    EditBoard,
    Notify,
    NotifyClaim,
    OfferAnswered,
    Overdue,
    Post,
    PostResult,
    PostSummary,
    RemindTurn,
    RetirePanel,
    Scene,
    SetUp,
    TimedOut,
    YourTurn,
    plan,
    shows,
)
from engine.model import AI_USER_ID, MatchStatus, Placement
from engine.rules.decisions import Gift, parse_decision
from engine.rules.notation import parse_move
from engine.rules.outcome import MatchOutcome, Termination
from engine.rules.state import Variant
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeIssued,
    ChoiceNeeded,
    ClaimOffered,
    DecisionApplied,
    MatchAbandoned,
    MatchBroken,
    MatchEnded,
    MatchEvent,
    MatchResumed,
    MatchStarted,
    NextTurn,
    PlaceLost,
    Reminder,
    RoundScored,
    TurnClockChanged,
    TurnOverdue,
)
from tests.builders import match_info, played_match

ANA, BEN = 11, 12
_, TABLES = played_match(3)
ROUND_ONE = next(t.rounds[0] for t in TABLES if t.rounds)
PLACED = Placement(thread_id=500, board_message_id=600)


def now(version: int, *, away: frozenset[int] = frozenset(), players=(ANA, BEN), board=True):
    info = match_info(
        7,
        players,
        MatchStatus.ACTIVE,
        placement=PLACED if board else Placement(),
        turn_deadline=100.0 + version,
    )
    return Scene(info, replace(TABLES[0], version=version), away)


def decided(version: int, nxt: NextTurn | None, *, user=ANA, automatic=False, move="2AB"):
    return DecisionApplied(
        7, 0, user, parse_move(move, allow_hidden=True), version, automatic, 160.0, nxt
    )


BENS_TURN = NextTurn(1, BEN, round_ended=False, offer_open=False)


def test_a_move_edits_the_board_and_sends_the_next_player_their_panel():
    assert plan(decided(5, BENS_TURN), None, now(5)) == [
        EditBoard(),
        RetirePanel(ANA),
        Notify(BEN),
    ]


def test_an_away_next_player_is_mentioned():
    steps = plan(decided(5, BENS_TURN), None, now(5, away=frozenset({BEN})))
    assert steps[-1] == Post((YourTurn(BEN),), mention=BEN)


def test_the_timer_playing_for_someone_is_said_even_when_shown_late():
    late = plan(decided(5, BENS_TURN, automatic=True), None, now(6))
    assert late == [EditBoard(), Post((TimedOut(0),))], "nobody told it is their turn"


def test_a_move_stored_before_events_said_who_plays_next_is_shown_as_a_late_one():
    assert plan(decided(5, None), None, now(5)) == [EditBoard()]


def test_a_board_that_already_shows_the_match_is_not_edited_again():
    shown = now(5)
    assert EditBoard() not in plan(decided(5, BENS_TURN), shown, now(5))
    assert EditBoard() in plan(decided(5, BENS_TURN), now(4), now(5))


@pytest.mark.parametrize(
    "facts", [NextTurn(1, BEN, True, False), NextTurn(1, BEN, False, True)], ids=str
)
def test_after_a_round_or_an_offer_the_turn_is_told_by_the_next_event(facts):
    steps = plan(decided(5, facts), None, now(5, away=frozenset({BEN})))
    assert steps == [EditBoard(), RetirePanel(ANA)]


def test_against_the_ai_nobody_is_notified_for_its_turn():
    facts = NextTurn(1, AI_USER_ID, False, False)
    steps = plan(decided(5, facts), None, now(5, players=(ANA, AI_USER_ID)))
    assert steps == [EditBoard(), RetirePanel(ANA)]


def test_a_player_who_plays_again_keeps_their_panel():
    facts = NextTurn(0, ANA, False, False)
    assert plan(decided(5, facts), None, now(5)) == [EditBoard(), Notify(ANA)]


def test_a_taken_offer_answers_its_question():
    event = decided(6, BENS_TURN, move="3ABC-A")
    steps = plan(event, None, now(6))
    assert OfferAnswered(event) in steps


def test_the_game_start_sets_up_the_thread_and_tells_who_starts():
    started = MatchStarted(7, (ANA, BEN), 1, Variant.STANDARD, None, 1, 2, 160.0)
    # "you start" is the board's first post itself: one message, one request, not two.
    assert plan(started, None, now(0, board=False)) == [SetUp(greet=BEN), Notify(BEN)]
    assert plan(started, None, now(3)) == [SetUp()], "shown late: no 'you start'"
    against_ai = replace(started, players=(ANA, AI_USER_ID))
    assert plan(against_ai, None, now(0, players=(ANA, AI_USER_ID))) == [SetUp()]


def test_a_resumed_match_gets_its_place_and_its_board_brought_up_to_date():
    assert plan(MatchResumed(7, 9), None, now(9)) == [SetUp(), EditBoard()]
    assert plan(MatchResumed(7, 9), None, now(9, board=False)) == [SetUp()]


def test_an_offer_asks_an_away_chooser_only():
    offer = parse_decision("3ABC")
    assert isinstance(offer, Gift)
    event = ChoiceNeeded(7, 1, BEN, offer, 5)
    assert plan(event, None, now(5)) == [EditBoard(), Notify(BEN)]
    assert plan(event, None, now(5, away=frozenset({BEN}))) == [
        EditBoard(),
        Notify(BEN),
        AskOffer(event),
    ]
    assert plan(event, None, now(6)) == [EditBoard()], "answered while the bot was down"
    to_ai = ChoiceNeeded(7, 1, AI_USER_ID, offer, 5)
    assert plan(to_ai, None, now(5, players=(ANA, AI_USER_ID))) == [EditBoard()]


def test_a_round_summary_names_who_starts_the_next_round():
    scored = RoundScored(7, ROUND_ONE, 20, next_starter=1)
    assert plan(scored, None, now(20)) == [EditBoard(), Notify(BEN), PostSummary(ROUND_ONE, 1)]
    away = plan(scored, None, now(20, away=frozenset({BEN})))
    assert away[-1] == PostSummary(ROUND_ONE, 1, mention=BEN)
    assert plan(scored, None, now(21)) == [EditBoard(), PostSummary(ROUND_ONE, 1)]
    last = RoundScored(7, ROUND_ONE, 20)  # the match ended with it
    assert plan(last, None, now(20)) == [EditBoard(), PostSummary(ROUND_ONE)]


def test_a_reminder_is_posted_only_while_its_turn_lasts():
    reminder = Reminder(7, 1, BEN, 130.0, 5)
    assert plan(reminder, None, now(5)) == [Post((RemindTurn(BEN, 130.0),), mention=BEN)]
    assert plan(reminder, None, now(6)) == []


def test_the_end_retires_the_panels_shows_the_final_board_then_the_result():
    outcome = MatchOutcome(0, Termination.GEISHAS, 2)
    ended = MatchEnded(7, (ANA, BEN), outcome, ANA, 30)
    assert plan(ended, None, now(30)) == [
        RetirePanel(ANA),
        RetirePanel(BEN),
        EditBoard(),
        PostResult(outcome, 30),
    ]
    assert plan(ended, now(30), now(30))[-2:] == [RetirePanel(BEN), PostResult(outcome, 30)]


OTHER_FEATURES = [
    ChallengeIssued(7, ANA, BEN, 1, 2, Variant.STANDARD, 100.0),
    ChallengeAccepted(7, ANA, BEN),
    ChallengeDeclined(7, ANA, BEN),
    ChallengeCancelled(7, ANA, BEN),
    ChallengeExpired(7, ANA, BEN),
    MatchBroken(7, "no longer replays"),
    MatchAbandoned(7, (ANA, BEN), True, 1, 2, 4, PlaceLost.CHANNEL_DELETED),
]


@pytest.mark.parametrize("event", OTHER_FEATURES, ids=lambda e: type(e).__name__)
def test_events_of_other_features_show_nothing_in_the_thread(event):
    assert not shows(event)
    assert plan(event, None, now(4)) == []


def test_every_kind_of_event_has_its_plan_pinned_here():
    pinned = {type(e) for e in OTHER_FEATURES} | {
        MatchStarted,
        MatchResumed,
        DecisionApplied,
        ChoiceNeeded,
        RoundScored,
        Reminder,
        TurnOverdue,
        ClaimOffered,
        TurnClockChanged,
        MatchEnded,
    }
    assert pinned == set(typing.get_args(MatchEvent))


# -- turn-based play: overdue, the claim offered, the clock moved -----------------------


def overdue_now(version: int, **changes: object) -> Scene:
    scene = now(version)
    return replace(scene, info=replace(scene.info, **changes))


def test_an_overdue_turn_edits_the_board_and_tells_the_late_player_when_the_claim_comes():
    event = TurnOverdue(7, 0, ANA, 5000.0, 5)
    before = now(5)
    after = overdue_now(5, overdue_since=4000.0, turn_deadline=5000.0)
    assert plan(event, before, after) == [
        EditBoard(),
        Post((Overdue(ANA, 0, 5000.0),), mention=ANA),
    ]


def test_an_offered_claim_edits_the_board_and_tells_the_waiting_player_by_dm_and_mention():
    event = ClaimOffered(7, 1, BEN, ANA, 5)
    before = overdue_now(5, overdue_since=4000.0, turn_deadline=5000.0)
    after = overdue_now(5, overdue_since=4000.0, turn_deadline=None)
    assert plan(event, before, after) == [
        EditBoard(),
        NotifyClaim(BEN),
        Post((ClaimOffer(BEN, 1),), mention=BEN),
    ]


def test_an_overdue_turn_played_meanwhile_only_brings_the_board_up_to_date():
    assert plan(TurnOverdue(7, 0, ANA, 5000.0, 5), None, now(6)) == [EditBoard()]
    assert plan(ClaimOffered(7, 1, BEN, ANA, 5), now(6), now(6)) == []


def test_a_moved_turn_clock_edits_the_board_once():
    before = overdue_now(5, overdue_since=4000.0, turn_deadline=None)
    after = overdue_now(5, overdue_since=None, turn_deadline=9000.0)
    assert plan(TurnClockChanged(7, ANA, 9000.0, None, 5), before, after) == [EditBoard()]
    assert plan(TurnClockChanged(7, ANA, 9000.0, None, 5), after, after) == []


def test_a_vacation_or_an_overdue_turn_is_a_change_of_the_board():
    shown = now(5)
    paused = overdue_now(5, paused_until=800.0)
    overdue = overdue_now(5, overdue_since=90.0)
    assert plan(TurnClockChanged(7, ANA, 105.0, 800.0, 5), shown, paused) == [EditBoard()]
    assert plan(TurnClockChanged(7, ANA, 105.0, None, 5), shown, overdue) == [EditBoard()]


def test_the_new_events_are_shown_in_the_thread():
    assert shows(TurnOverdue(7, 0, ANA, 5000.0, 5))
    assert shows(ClaimOffered(7, 1, BEN, ANA, 5))
    assert shows(TurnClockChanged(7, ANA, 9000.0, None, 5))

"""A review page: the thread's board picture at every step, the move in words, the
judgement and hidden cards only for who may see them, and buttons that stop at the ends."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.custom_ids import Turn, step_id
from bot.pictures import render_board_async
from bot.review.review_page import BoardLook, ReviewScene, review_page
from bot.words.i18n import text
from engine.review.judgement import MatchReview, Verdict
from engine.review.seen_match import seen_match
from engine.review.steps import Step, match_steps, state_at
from engine.rules import GameState, Secret, TradeOff, public_view
from engine.rules.cards import cards_text
from engine.rules.record import MatchRecord
from engine.service.reviews.sight import Sight
from tests.builders import judged, played_match

NAMES = ("ana\\_\\*", "ben")
RAW_NAMES = ("ana_*", "ben")
"""A name with markdown in it: the text escapes it, the picture draws it as written."""
DEADLINES = tuple(1.9e9 + 90.0 * k for k in range(100))
"""The turn deadline the thread's board showed at each step (more than any match has)."""


def scene_of(
    record: MatchRecord,
    sight: Sight,
    *,
    viewer_seat: int | None = None,
    review: MatchReview | None = None,
    board_lang: str = "en",
) -> ReviewScene:
    """The review of match 7 as the engine gives it to a viewer of ``sight``."""
    seen = seen_match(
        record,
        hidden_shown=sight.full,
        deadlines=DEADLINES,
        viewer_seat=viewer_seat,
        review=review,
    )
    look = BoardLook(board_lang, RAW_NAMES)
    return ReviewScene(7, seen, NAMES, look)


def buttons(page):
    """The step row's buttons by where they lead (the first page may add a row of jumps)."""
    return {Turn(b.custom_id.rsplit(":", 1)[1]): b for b in page.rows[0]}


def face_down(decision: Secret | TradeOff) -> str:
    """How a full review names a face-down pile's cards."""
    if isinstance(decision, Secret):
        return text("en", "review.secret", card=cards_text((decision.card,)))
    return text("en", "review.trade_off", cards=" ".join(cards_text(sorted(decision.cards))))


def unscored_hidden(record: MatchRecord, step: int) -> list[tuple[int, Secret | TradeOff]]:
    """The Secrets and Trade-offs (with their movers) played by ``step`` in a round that is
    not scored yet at that step: still face down on the table."""
    table = public_view(state_at(record, step))
    if table.outcome is not None:
        return []  # the match's end scored its last round
    return [
        (at.player, at.decision)
        for at, _ in match_steps(record)
        if at.index <= step
        and at.round_number == table.round_number
        and isinstance(at.decision, Secret | TradeOff)
    ]


@pytest.mark.parametrize("seed", [3, 8])
@pytest.mark.parametrize("board_lang", ["en", "es"])
async def test_each_steps_picture_is_the_board_the_thread_showed_then(seed, board_lang):
    record, tables = played_match(seed)
    scene = scene_of(record, Sight.PUBLIC, board_lang=board_lang)
    assert scene.steps == len(tables) - 1
    for step, table in enumerate(tables):
        page = await review_page("en", scene, step)
        deadline = None if table.outcome is not None else DEADLINES[step]
        shown = await render_board_async(board_lang, table, RAW_NAMES, deadline=deadline)
        assert page.image is not None
        assert page.image[1] == shown, f"step {step}: the picture is not the thread's board"
        assert (
            text("en", "review.title", step=step, steps=scene.steps, round=table.round_number)
            == page.title
        )


async def test_a_spectators_pages_show_no_hidden_card():
    record, tables = played_match(5)
    scene = scene_of(record, Sight.PUBLIC)
    hidden_moves = [
        str(step.decision)
        for step, _ in match_steps(record)
        if isinstance(step.decision, Secret | TradeOff)
    ]
    assert hidden_moves
    for step in range(scene.steps + 1):
        page = await review_page("en", scene, step)
        shown = "\n".join([page.title, page.text, page.image_description, page.notice])
        for move in hidden_moves:
            assert f"`{move}`" not in shown
        # Secrets and Trade-offs read "1X" and "2XX"; no card of a hand is named.
        assert not re.search(r"\b1[A-G]\b|\b2[A-G]{2}\b", shown), shown
        assert "hand:" not in shown and "face down:" not in shown and "Removed" not in shown
        # No judgement either: it comes from the mover's hidden cards.
        assert "chance" not in shown and "Better:" not in shown
        assert buttons(page)[Turn.MISTAKE].disabled
        assert text("en", "review.public_only") in page.text
        # The picture is drawn from the public view alone.
        assert page.image is not None
        deadline = None if tables[step].outcome else DEADLINES[step]
        assert page.image[1] == await render_board_async(
            "en", tables[step], RAW_NAMES, deadline=deadline
        )


async def test_a_spectator_cannot_be_given_the_judgement():
    record, _ = played_match(5)
    with pytest.raises(ValueError, match="a review is only given with the hidden cards"):
        scene_of(record, Sight.PUBLIC, review=judged(record, {}))


async def test_a_player_sees_both_hands_the_face_down_cards_and_the_removed_card():
    record, _ = played_match(5)
    scene = scene_of(record, Sight.PLAYER, viewer_seat=0, review=judged(record, {}))
    first = record.rounds[0].deal
    page = await review_page("en", scene, 0)
    # At the deal, the player who does not start holds the 6 cards dealt to them.
    waiting = 1 - public_view(state_at(record, 0)).starting_player
    dealt = " ".join(cards_text(sorted(first.hands[waiting])))
    assert text("en", "review.hand", name=NAMES[waiting], cards=dealt) in page.text
    assert text("en", "review.removed", card=cards_text((first.removed,))) in page.text
    # A Secret or Trade-off is named with its cards in the move line once played...
    for at, _ in match_steps(record):
        if isinstance(at.decision, Secret | TradeOff):
            page = await review_page("en", scene, at.index)
            assert f"`{at.decision}`" in page.text
    # ...and lies face down under its player's name at every step until its round is scored.
    seen = 0
    for step in range(scene.steps + 1):
        page = await review_page("en", scene, step)
        lines = page.text.splitlines()
        for mover, decision in unscored_hidden(record, step):
            [pile] = [line for line in lines if line.startswith(f"{NAMES[mover]} face down:")]
            assert face_down(decision) in pile, f"step {step}: {decision} not shown"
            seen += 1
    assert seen > 0


async def test_a_spectator_sees_no_face_down_card_of_an_unscored_round():
    record, _ = played_match(5)
    scene = scene_of(record, Sight.PUBLIC)
    seen = 0
    for step in range(scene.steps + 1):
        page = await review_page("en", scene, step)
        shown = "\n".join([page.title, page.text, page.image_description, page.notice])
        for _, decision in unscored_hidden(record, step):
            assert f"`{decision}`" not in shown, f"step {step}: {decision} shown"
            assert face_down(decision) not in shown, f"step {step}: {decision} shown"
            seen += 1
    assert seen > 0


async def test_the_judgement_shows_the_chances_the_verdict_and_the_better_move():
    record, _ = played_match(5)
    review = judged(record, {4: Verdict.BLUNDER})
    scene = scene_of(record, Sight.PLAYER, viewer_seat=0, review=review)
    page = await review_page("en", scene, 4)
    mover = review.steps[3].player
    assert f"Chance of winning as **{NAMES[mover]}** saw it: 60% → 30% · **blunder**" in page.text
    # The step names its mover first, and says where the Moves log lists it.
    (at,) = [at for at, _ in match_steps(record) if at.index == 4]
    head = f"**{label(at)}:** **{NAMES[mover]}**"
    assert page.text.startswith(head), page.text
    assert "Better: Gift A B C `3ABC` (60%)" in page.text
    page = await review_page("en", scene, 5)
    assert "· **best move**" in page.text and "Better:" not in page.text


async def test_next_mistake_follows_the_viewers_own_flagged_moves():
    record, _ = played_match(5)
    by_step = {step.index: step.player for step, _ in match_steps(record)}
    own = [i for i, p in by_step.items() if p == 0][1:4]
    theirs = [i for i, p in by_step.items() if p == 1][0:2]
    flagged = {own[0]: Verdict.MISTAKE, own[1]: Verdict.INACCURACY, own[2]: Verdict.BLUNDER}
    flagged |= dict.fromkeys(theirs, Verdict.BLUNDER)
    review = judged(record, flagged)
    player = scene_of(record, Sight.PLAYER, viewer_seat=0, review=review)
    step, visited = 0, []
    while not (await page_buttons(player, step))[Turn.MISTAKE].disabled:
        step = target(await page_buttons(player, step), Turn.MISTAKE)
        visited.append(step)
    assert visited == sorted(own)
    # A spectator of a shared match follows both players' flagged moves.
    shared = scene_of(record, Sight.SHARED, review=review)
    step, visited = 0, []
    while not (await page_buttons(shared, step))[Turn.MISTAKE].disabled:
        step = target(await page_buttons(shared, step), Turn.MISTAKE)
        visited.append(step)
    assert visited == sorted(own + theirs)


async def page_buttons(scene, step):
    return buttons(await review_page("en", scene, step))


def target(row, turn: Turn) -> int:
    return int(row[turn].custom_id.split(":")[2])


async def test_the_step_buttons_stop_at_both_ends_and_their_ids_differ():
    record, _ = played_match(5)
    scene = scene_of(record, Sight.PUBLIC)
    last = scene.steps
    first_page = await page_buttons(scene, 0)
    assert first_page[Turn.FIRST].disabled and first_page[Turn.PREVIOUS].disabled
    assert target(first_page, Turn.NEXT) == 1 and target(first_page, Turn.LAST) == last
    middle = await page_buttons(scene, 5)
    assert [target(middle, t) for t in (Turn.FIRST, Turn.PREVIOUS, Turn.NEXT, Turn.LAST)] == [
        0,
        4,
        6,
        last,
    ]
    assert not any(middle[t].disabled for t in (Turn.FIRST, Turn.PREVIOUS, Turn.NEXT, Turn.LAST))
    end = await page_buttons(scene, last)
    assert end[Turn.NEXT].disabled and end[Turn.LAST].disabled
    assert target(end, Turn.PREVIOUS) == last - 1
    for row in (first_page, middle, end):
        ids = [b.custom_id for b in row.values()]
        assert len(set(ids)) == len(ids) == 5
    assert middle[Turn.NEXT].custom_id == step_id(7, 6, Turn.NEXT) == "rv:7:6:next"
    with pytest.raises(ValueError, match=f"match 7 has steps 0 to {last}, not {last + 1}"):
        await review_page("en", scene, last + 1)


async def test_the_first_deal_says_the_starter_already_holds_seven_cards():
    record, _ = played_match(5)
    starter = public_view(state_at(record, 0)).starting_player
    page = await review_page("en", scene_of(record, Sight.PUBLIC), 0)
    assert f"**{NAMES[starter]}** starts and holds 7 cards" in page.text
    assert f"**{NAMES[1 - starter]}** holds 6" in page.text
    assert "each player holds 6" not in page.text


def losing(record: MatchRecord, losses: dict[int, float]) -> MatchReview:
    """A review whose decisions at the given steps are mistakes that gave away ``loss``."""
    review = judged(record, dict.fromkeys(losses, Verdict.MISTAKE))
    return MatchReview(
        tuple(
            replace(j, chance_after=j.chance_before - losses[j.step]) if j.step in losses else j
            for j in review.steps
        ),
        review.iterations,
    )


def label(at: Step) -> str:
    """Where the Moves log lists a step's move, as the review names it."""
    take = " (take)" if at.answers_offer else ""
    return f"Round {at.round_number}, move {at.move_number}{take}"


async def test_the_overview_lists_the_viewers_worst_moves_first_a_press_away():
    record, _ = played_match(5)
    by_seat = {0: [], 1: []}
    for at, _ in match_steps(record):
        by_seat[at.player].append(at.index)
    own, theirs = by_seat[0][:5], by_seat[1][:2]
    losses = dict(zip(own, (0.05, 0.30, 0.10, 0.20, 0.02), strict=True))
    losses |= dict.fromkeys(theirs, 0.50)
    review = losing(record, losses)
    scene = scene_of(record, Sight.PLAYER, viewer_seat=0, review=review)
    page = await review_page("en", scene, 0)
    worst = [own[1], own[3], own[2]]  # 30%, 20%, 10%: the opponent's are not the viewer's
    labels = {at.index: label(at) for at, _ in match_steps(record)}
    listed = re.findall(r"^(Round .+?): .+ · −(\d+) points of winning chance$", page.text, re.M)
    assert listed == [(labels[worst[0]], "30"), (labels[worst[1]], "20"), (labels[worst[2]], "10")]
    assert "**Your worst moves first**" in page.text
    _, jumps = page.rows
    assert [b.label for b in jumps] == [f"{labels[s]} ⚠" for s in worst]
    assert [b.custom_id for b in jumps] == [step_id(7, s, Turn.JUMP) for s in worst]
    ids = [b.custom_id for row in page.rows for b in row]
    assert len(set(ids)) == len(ids)
    # Only the overview lists them.
    assert len((await review_page("en", scene, 1)).rows) == 1


async def test_a_consenting_spectator_sees_each_players_worst_moves():
    record, _ = played_match(5)
    first = {}
    for at, _ in match_steps(record):
        first.setdefault(at.player, at.index)
    review = losing(record, {first[0]: 0.1, first[1]: 0.4})
    page = await review_page("en", scene_of(record, Sight.SHARED, review=review), 0)
    assert f"**{NAMES[0]}'s worst moves**" in page.text
    assert f"**{NAMES[1]}'s worst moves**" in page.text
    _, jumps = page.rows
    labels = {at.index: label(at) for at, _ in match_steps(record)}
    assert [b.label for b in jumps] == [f"{labels[first[1]]} ⚠", f"{labels[first[0]]} ⚠"]
    # A spectator without consent gets neither the list nor the jumps.
    public = await review_page("en", scene_of(record, Sight.PUBLIC), 0)
    assert "worst moves" not in public.text and len(public.rows) == 1


@pytest.mark.parametrize("sight", [Sight.PLAYER, Sight.PUBLIC])
async def test_a_match_resigned_before_its_first_decision_has_one_page(sight):
    game = GameState(seed=4, first_player=0)
    game.resign(1)
    record = MatchRecord.of(game)
    review = MatchReview((), iterations=40) if sight is Sight.PLAYER else None
    scene = scene_of(record, sight, viewer_seat=0 if review else None, review=review)
    assert scene.steps == 0
    page = await review_page("en", scene, 0)
    assert page.title.startswith("Review · page 0 of 0")
    assert page.image is not None
    (row,) = page.rows
    assert all(button.disabled for button in row)
    ids = [b.custom_id for b in row]
    assert len(set(ids)) == len(ids)

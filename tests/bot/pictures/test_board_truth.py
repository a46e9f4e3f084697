"""The picture is the truth of the board: revealed Secrets after scoring, the open offer
with its cards, the last move, and when the turn ends."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.pictures import board_alt_text, hand_alt_text
from bot.pictures.board_image import board_image
from bot.pictures.board_layout import COLUMN, COUNT_Y, FOOTER, HEADER_Y, ZONES, column_x
from bot.pictures.lettering import Written
from engine.rules import Competition, Gift, public_view, view
from engine.rules.cards import GEISHAS
from engine.rules.views import PublicView
from tests.bot.pictures.stages import SHORT_NAMES, play_until, stages

BOARDS = stages()


def drawn(public: PublicView, **kwargs: object) -> list[Written]:
    record: list[Written] = []
    board_image("en", public, SHORT_NAMES, record=record, **kwargs)  # type: ignore[arg-type]
    return record


def in_column(written: Written, g: int) -> bool:
    left, _, right, _ = written.box
    return column_x(g) <= left and right <= column_x(g) + COLUMN


def counts(record: list[Written], seat: int) -> list[int]:
    """The item count drawn in each geisha's column on ``seat``'s side."""
    found = []
    for g in range(7):
        (digit,) = [
            w
            for w in record
            if in_column(w, g) and w.box[1] <= COUNT_Y[seat] <= w.box[3] and w.text.isdigit()
        ]
        found.append(int(digit.text))
    return found


def footer(record: list[Written]) -> list[str]:
    return [w.text for w in record if w.box[1] >= FOOTER[0]]


def test_after_scoring_both_secrets_are_on_their_owners_sides_marked_as_the_secret():
    for stage in ("round-end", "match-end"):
        public = BOARDS[stage]
        scored = public.rounds[-1]
        record = drawn(public)
        for seat in (0, 1):
            assert counts(record, seat) == list(scored.items[seat]), "Secrets counted"
            g = scored.secrets[seat]
            top, bottom = ZONES[seat]
            marks = [
                w
                for w in record
                if w.text == "Secret" and in_column(w, g) and top <= w.box[1] <= bottom
            ]
            assert len(marks) == 1, f"{stage}: seat {seat}'s Secret drawn in column {GEISHAS[g]}"
        assert f"Round {scored.round_number} scored" in footer(record)


def test_every_favor_marker_agrees_with_the_cards_drawn_after_scoring():
    for stage in ("round-end", "match-end"):
        public = BOARDS[stage]
        scored = public.rounds[-1]
        record = drawn(public)
        shown = (counts(record, 0), counts(record, 1))
        for g in scored.moved:
            holder = scored.favor[g]
            assert holder is not None
            assert shown[holder][g] > shown[1 - holder][g], f"{GEISHAS[g]} won on the cards shown"


def test_once_the_next_round_starts_its_cards_replace_the_scored_ones():
    state = play_until(lambda s: len(s.results) == 1 and len(s.log[-1]) == 1 and not s.is_over)
    public = BOARDS["round-end"]
    record = drawn(public)
    assert "Secret" in {w.text for w in record if w.box[1] > ZONES[0][0]}
    later = drawn(public_view(state))
    assert not [w for w in later if w.text == "Secret" and ZONES[0][0] <= w.box[1] <= ZONES[1][1]]


def test_a_pending_gift_shows_its_cards_and_whom_it_waits_for():
    public = BOARDS["pending-gift"]
    assert isinstance(public.pending, Gift)
    words = footer(drawn(public))
    letters = [t for t in words if len(t) == 1 and t in GEISHAS]
    assert sorted(letters) == sorted(GEISHAS[c] for c in public.pending.cards)
    chooser = SHORT_NAMES[public.current_player]
    assert f"waiting for {chooser}" in words


def test_a_pending_competition_shows_its_two_pairs_apart():
    public = BOARDS["pending-competition"]
    assert isinstance(public.pending, Competition)
    record = [w for w in drawn(public) if w.box[1] >= FOOTER[0]]
    tiles = sorted(
        (w for w in record if len(w.text) == 1 and w.text in GEISHAS), key=lambda w: w.box[0]
    )
    (split,) = [w for w in record if w.text == "or"]
    before = "".join(w.text for w in tiles if w.box[2] < split.box[0])
    after = "".join(w.text for w in tiles if w.box[0] > split.box[2])
    first, second = public.pending.pairs
    assert (before, after) == (
        "".join(GEISHAS[c] for c in first),
        "".join(GEISHAS[c] for c in second),
    )


def test_the_last_move_is_named_even_when_its_cards_are_hidden():
    public = BOARDS["hidden-last-move"]
    mover = SHORT_NAMES[public.mover(len(public.moves) - 1)]
    words = footer(drawn(public))
    assert f"Last move · {mover}" in words
    assert any("face down" in t for t in words)


def test_the_last_gift_or_competition_shows_who_took_what():
    public = BOARDS["mid-round"]
    move = public.moves[-1]
    words = footer(drawn(public))
    if move.choice is not None:
        assert any(" took " in t for t in words)


def test_the_turn_deadline_is_shown_as_a_time_or_as_the_callers_text():
    public = BOARDS["mid-round"]
    header = lambda record: [w.text for w in record if w.box[1] <= HEADER_Y <= w.box[3]]  # noqa: E731
    assert "turn ends 23 Nov 14:05 UTC" in header(
        drawn(public, deadline=datetime(2026, 11, 23, 14, 5, tzinfo=UTC))
    )
    assert "in 3 hours" in header(drawn(public, deadline="in 3 hours"))
    unix = datetime(2026, 11, 23, 14, 5, tzinfo=UTC).timestamp()
    assert "turn ends 23 Nov 14:05 UTC" in header(drawn(public, deadline=unix))
    assert not any("turn ends" in t for t in header(drawn(public)))
    ended = BOARDS["match-end"]
    assert not any("turn ends" in t for t in header(drawn(ended, deadline=datetime.now(UTC))))


def test_the_alt_text_says_scores_turn_offer_and_last_move_within_discords_limit():
    for name, public in BOARDS.items():
        for lang in ("en", "es"):
            names = ("x" * 32, "y" * 32)
            assert len(board_alt_text(lang, public, names)) <= 1024, name
    gift = board_alt_text("en", BOARDS["pending-gift"], SHORT_NAMES)
    offer = BOARDS["pending-gift"].pending
    assert offer is not None
    assert " ".join(GEISHAS[c] for c in offer.cards) in gift
    assert "takes a card of the Gift" in gift
    scored = BOARDS["round-end"]
    text = board_alt_text("en", scored, SHORT_NAMES, deadline="Turn ends in 1 day")
    secrets = scored.rounds[-1].secrets
    assert f"Secrets revealed: ana {GEISHAS[secrets[0]]}, ben {GEISHAS[secrets[1]]}" in text
    assert f"ana: {scored.geishas[0]} geishas, {scored.charm[0]} charm" in text
    assert "Turn ends in 1 day." in text
    assert "Last move: " in board_alt_text("es", BOARDS["mid-round"], SHORT_NAMES).replace(
        "Última jugada: ", "Last move: "
    )


def test_the_hand_alt_text_lists_the_cards():
    state = play_until(lambda s: s.secret[s.to_move] is not None and s.pending is None)
    mine = view(state, state.current_player)
    words = hand_alt_text("en", mine)
    assert " ".join(GEISHAS[c] for c in mine.hand) in words
    assert f"Secret {GEISHAS[mine.secret]}" in words

"""The board's moves in words with their notation, the match log across rounds, and a text
board that names both players in full beside a legend and the deadline."""

from __future__ import annotations

import random

from bot.play.words import board_text
from bot.words.move_lines import match_log, recent_moves
from engine.rules import GameState, Gift, GiftChoice, Variant, new_game, public_view
from engine.rules.notation import HiddenAction

NAMES = ("Anastasia Longname", "ben")


def play_round(game: GameState, rng: random.Random) -> None:
    """Random decisions until the round is scored."""
    start = game.round_number
    while game.outcome is None and game.round_number == start:
        game.apply(rng.choice(game.legal_decisions()))


def test_recent_moves_say_the_gift_in_words_with_its_notation():
    game = new_game(seed=3)
    rng = random.Random(2)
    while True:
        gifts = [d for d in game.legal_decisions() if isinstance(d, Gift)]
        if gifts:
            break
        game.apply(rng.choice(game.legal_decisions()))
    game.apply(gifts[0])
    game.apply(game.legal_decisions()[0])
    (line,) = recent_moves("en", public_view(game), NAMES)[-1:]
    assert "Gift: " in line and " took " in line
    assert line.endswith(f"`{public_view(game).moves[-1]}`")
    assert isinstance(public_view(game).moves[-1].choice, GiftChoice)


def test_the_match_log_holds_every_round_and_names_a_secret_only_once_scored():
    # The log is read from the table alone, so a restarted bot shows it whole too.
    game = new_game(seed=1, variant=Variant.THREE_ROUNDS)
    rng = random.Random(4)
    play_round(game, rng)
    assert game.outcome is None, "this seed plays on into round 2"
    for _ in range(3):  # a few moves into round 2
        game.apply(rng.choice(game.legal_decisions()))
    table = public_view(game)
    lines = match_log("en", table, NAMES)
    text = "\n".join(lines)
    assert "**Round 1**" in text and "**Round 2**" in text
    first_round = text.split("**Round 2**")[0]
    assert first_round.count("`") == 2 * 8  # eight moves, each with its notation
    assert "revealed at scoring" in first_round
    current = text.split("**Round 2**")[1]
    assert "revealed at scoring" not in current
    for move in table.moves:
        if isinstance(move.action, HiddenAction):
            assert f"`{move}`" in current  # 1X / 2XX: no card shown


def test_a_finished_match_lists_each_round_once_with_its_scoring():
    game = new_game(seed=1, variant=Variant.THREE_ROUNDS)
    rng = random.Random(4)
    while game.outcome is None:
        play_round(game, rng)
    table = public_view(game)
    text = "\n".join(match_log("en", table, NAMES))

    for result in table.rounds:
        assert text.count(f"**Round {result.round_number}**") == 1
    assert text.count("revealed at scoring") >= len(table.rounds)
    assert text.count("`") == 2 * 8 * len(table.rounds)


def test_the_text_board_names_both_players_in_full_with_a_legend_and_the_deadline():
    table = public_view(new_game(seed=1))
    shown = board_text("en", table, NAMES, deadline=1_900_000_000.4)
    assert "Anastasia Longname" in shown and "Anast│" not in shown
    assert "◀ Anastasia Longname" in shown and "▶ ben" in shown
    assert "`▮` a card won" in shown and "`★` her favor" in shown
    assert "<t:1900000000:R>" in shown
    assert "Anastasia Longname" in board_text("es", table, NAMES)


def test_the_text_board_counts_in_the_right_number():
    shown = board_text("en", public_view(new_game(seed=1)), NAMES)
    assert "0 geishas" in shown and "cards in hand" in shown and "1 cards" not in shown
    assert "pile " in shown and " cards" in shown.split("pile ")[1].split("\n")[0]

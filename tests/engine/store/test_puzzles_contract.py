"""The MatchStore contract for puzzles, run against every store (SQLite and PostgreSQL):
saving puzzles, the candidates a member is offered, an attempt committed with its ratings,
and the puzzle leaderboard."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from engine.model.puzzles import PuzzleAttempt, PuzzleStanding, StoredPuzzle, StreakRun
from engine.ratings import Glicko2Rating
from engine.store.errors import DuplicateKey
from engine.store.match_store import AttemptRater, MatchStore

GUILD = 5
OTHER_GUILD = 7


@pytest.fixture
def store(each_store: MatchStore) -> MatchStore:
    return each_store


def builtin(n: int, rating: float = 1500.0) -> StoredPuzzle:
    return StoredPuzzle(f"builtin/{n}/0", None, None, f'{{"n":{n}}}', Glicko2Rating(rating))


def own(match_id: int, rating: float = 1500.0, guild_id: int = GUILD) -> StoredPuzzle:
    return StoredPuzzle(
        f"match/{match_id}/3", guild_id, match_id, f'{{"m":{match_id}}}', Glicko2Rating(rating)
    )


def attempt(key: str, *, user_id: int = 1, solved: bool = True, at: float = 100.0) -> PuzzleAttempt:
    return PuzzleAttempt(GUILD, user_id, key, "1A", solved, at)


def rater(
    solved: bool, seen: list[tuple[PuzzleStanding, Glicko2Rating]] | None = None
) -> AttemptRater:
    """A stand-in for engine.puzzles.rating: the member gains (loses) 10 points, the puzzle
    loses (gains) 1 per attempt, so lost updates show in both."""

    def rate(before: PuzzleStanding, puzzle: Glicko2Rating) -> tuple[PuzzleStanding, Glicko2Rating]:
        if seen is not None:
            seen.append((before, puzzle))
        step = 1 if solved else -1
        streak = before.streak + 1 if solved else 0
        after = replace(
            before,
            rating=replace(before.rating, rating=before.rating.rating + 10 * step, deviation=300.0),
            attempts=before.attempts + 1,
            solved=before.solved + int(solved),
            streak=streak,
            best_streak=max(before.best_streak, streak),
        )
        return after, replace(puzzle, rating=puzzle.rating - step, deviation=200.0)

    return rate


async def test_a_saved_puzzle_comes_back_and_saving_it_again_keeps_its_rating(
    store: MatchStore,
) -> None:
    puzzle = own(11, rating=1600.0)
    await store.save_puzzles([puzzle, builtin(1)])
    assert await store.puzzle(puzzle.key) == puzzle
    assert await store.puzzle(builtin(1).key) == builtin(1)
    assert await store.puzzle("match/404/0") is None

    await store.record_attempt(attempt(puzzle.key), rater(solved=True))
    rated = await store.puzzle(puzzle.key)
    assert rated is not None
    await store.save_puzzles([puzzle, builtin(2)])  # the match's puzzles saved again

    assert await store.puzzle(puzzle.key) == rated
    assert rated.attempts == 1 and rated.solves == 1 and rated.rating.rating == 1599.0
    assert await store.puzzle(builtin(2).key) == builtin(2)
    await store.save_puzzles([])  # nothing to save is nothing written


async def test_candidates_are_the_servers_and_the_built_in_ones_nearest_the_rating_first(
    store: MatchStore,
) -> None:
    await store.save_puzzles(
        [
            builtin(1, 1500.0),
            builtin(2, 1380.0),
            own(11, 1410.0),
            own(12, 1590.0),  # as far from 1500 as 1410, after it by key
            own(13, 1450.0, guild_id=OTHER_GUILD),  # another server's
            own(14, 1800.0),
        ]
    )

    found = await store.puzzle_candidates(GUILD, 1, around=1500.0, limit=10)

    assert [p.key for p in found] == [
        "builtin/1/0",
        "match/11/3",
        "match/12/3",
        "builtin/2/0",
        "match/14/3",
    ]
    assert found[1] == own(11, 1410.0)
    near = await store.puzzle_candidates(GUILD, 1, around=1400.0, limit=2)
    assert [p.key for p in near] == ["match/11/3", "builtin/2/0"]
    theirs = await store.puzzle_candidates(OTHER_GUILD, 1, around=1450.0, limit=10)
    assert [p.key for p in theirs][:2] == ["match/13/3", "builtin/1/0"]
    assert "match/11/3" not in {p.key for p in theirs}


async def test_candidates_leave_out_what_the_member_attempted_in_that_server(
    store: MatchStore,
) -> None:
    await store.save_puzzles([builtin(1, 1500.0), builtin(2, 1520.0), own(11, 1400.0)])
    await store.record_attempt(attempt("builtin/1/0", solved=False), rater(solved=False))
    await store.record_attempt(attempt("match/11/3"), rater(solved=True))

    mine = await store.puzzle_candidates(GUILD, 1, around=1500.0, limit=10)
    assert [p.key for p in mine] == ["builtin/2/0"]
    # Another member, and the same member in another server, may still try them.
    theirs = await store.puzzle_candidates(GUILD, 2, around=1500.0, limit=10)
    assert [p.key for p in theirs] == ["builtin/1/0", "builtin/2/0", "match/11/3"]
    elsewhere = await store.puzzle_candidates(OTHER_GUILD, 1, around=1500.0, limit=10)
    assert [p.key for p in elsewhere] == ["builtin/1/0", "builtin/2/0"]
    assert await store.puzzle_candidates(GUILD, 1, around=1500.0, limit=0) == []


async def test_an_attempt_is_committed_with_the_standing_and_the_puzzles_rating(
    store: MatchStore,
) -> None:
    await store.save_puzzles([builtin(1), builtin(2), builtin(3)])
    assert await store.puzzle_standing(GUILD, 1) is None
    seen: list[tuple[PuzzleStanding, Glicko2Rating]] = []

    first = await store.record_attempt(attempt("builtin/1/0"), rater(True, seen))
    second = await store.record_attempt(attempt("builtin/2/0"), rater(True, seen))
    third = await store.record_attempt(attempt("builtin/3/0", solved=False), rater(False, seen))

    # A new member starts from the default standing; each attempt from the one before.
    assert seen[0] == (PuzzleStanding(GUILD, 1), Glicko2Rating())
    assert seen[1] == (first, Glicko2Rating()) and seen[2][0] == second
    assert (first.attempts, first.solved, first.streak) == (1, 1, 1)
    assert third == PuzzleStanding(
        GUILD,
        1,
        Glicko2Rating(1510.0, 300.0),
        attempts=3,
        solved=2,
        streak=0,
        best_streak=2,
    )
    assert await store.puzzle_standing(GUILD, 1) == third
    assert await store.puzzle_standing(OTHER_GUILD, 1) is None
    missed = await store.puzzle("builtin/3/0")
    assert missed is not None
    assert (missed.rating, missed.attempts, missed.solves) == (Glicko2Rating(1501.0, 200.0), 1, 0)


async def test_a_second_attempt_at_a_puzzle_is_a_duplicate_and_changes_nothing(
    store: MatchStore,
) -> None:
    await store.save_puzzles([builtin(1)])
    standing = await store.record_attempt(attempt("builtin/1/0"), rater(solved=True))
    puzzle = await store.puzzle("builtin/1/0")

    with pytest.raises(DuplicateKey, match="builtin/1/0"):
        await store.record_attempt(attempt("builtin/1/0", solved=False, at=200.0), rater(False))

    assert await store.puzzle_standing(GUILD, 1) == standing
    assert await store.puzzle("builtin/1/0") == puzzle
    # In another server it is another attempt.
    await store.record_attempt(replace(attempt("builtin/1/0"), guild_id=OTHER_GUILD), rater(True))


async def test_an_attempt_at_an_unknown_puzzle_is_a_key_error_and_writes_nothing(
    store: MatchStore,
) -> None:
    await store.save_puzzles([builtin(1)])

    with pytest.raises(KeyError, match="match/404/1"):
        await store.record_attempt(attempt("match/404/1"), rater(solved=True))

    assert await store.puzzle_standing(GUILD, 1) is None
    # Not even the attempt: had it been written, the member could not try it once it exists.
    await store.save_puzzles([replace(own(404), key="match/404/1")])
    await store.record_attempt(attempt("match/404/1"), rater(solved=True))


async def test_attempts_at_once_by_one_member_are_each_counted(store: MatchStore) -> None:
    await store.save_puzzles([builtin(n) for n in range(8)])

    await asyncio.gather(
        *(store.record_attempt(attempt(f"builtin/{n}/0"), rater(solved=True)) for n in range(8))
    )

    standing = await store.puzzle_standing(GUILD, 1)
    assert standing is not None
    assert (standing.attempts, standing.solved, standing.streak) == (8, 8, 8)
    assert standing.rating.rating == 1580.0


async def test_two_attempts_at_once_by_one_member_are_both_counted(store: MatchStore) -> None:
    await store.save_puzzles([builtin(1), builtin(2)])

    await asyncio.gather(
        store.record_attempt(attempt("builtin/1/0"), rater(solved=True)),
        store.record_attempt(attempt("builtin/2/0", solved=False), rater(solved=False)),
    )

    standing = await store.puzzle_standing(GUILD, 1)
    assert standing is not None and (standing.attempts, standing.solved) == (2, 1)


async def test_attempts_at_once_at_one_puzzle_each_move_its_rating(store: MatchStore) -> None:
    await store.save_puzzles([builtin(1)])

    await asyncio.gather(
        *(
            store.record_attempt(attempt("builtin/1/0", user_id=user), rater(solved=True))
            for user in range(1, 9)
        )
    )

    puzzle = await store.puzzle("builtin/1/0")
    assert puzzle is not None
    assert (puzzle.attempts, puzzle.solves, puzzle.rating.rating) == (8, 8, 1492.0)


async def test_the_same_attempt_twice_at_once_is_counted_once(store: MatchStore) -> None:
    await store.save_puzzles([builtin(1)])

    outcomes = await asyncio.gather(
        *(store.record_attempt(attempt("builtin/1/0"), rater(solved=True)) for _ in range(2)),
        return_exceptions=True,
    )

    assert sum(isinstance(o, PuzzleStanding) for o in outcomes) == 1
    assert sum(isinstance(o, DuplicateKey) for o in outcomes) == 1
    standing = await store.puzzle_standing(GUILD, 1)
    assert standing is not None and standing.attempts == 1
    puzzle = await store.puzzle("builtin/1/0")
    assert puzzle is not None and puzzle.attempts == 1


async def test_the_leaderboard_is_by_rating_then_solved_then_user(store: MatchStore) -> None:
    await store.save_puzzles([builtin(n) for n in range(4)])

    async def play(user_id: int, solved: list[bool], guild_id: int = GUILD) -> None:
        for n, won in enumerate(solved):
            tried = replace(
                attempt(f"builtin/{n}/0", user_id=user_id, solved=won), guild_id=guild_id
            )
            await store.record_attempt(tried, rater(won))

    await play(1, [True])  # 1510, 1 solved
    await play(2, [True, True, False])  # 1510, 2 solved
    await play(3, [True, True])  # 1520
    await play(4, [True])  # 1510, 1 solved: after user 1
    await play(5, [False])  # 1490
    await play(6, [True, True, True], guild_id=OTHER_GUILD)

    board = await store.puzzle_leaderboard(GUILD, offset=0, limit=10)
    assert [s.user_id for s in board] == [3, 2, 1, 4, 5]
    assert board[0] == await store.puzzle_standing(GUILD, 3)
    page = await store.puzzle_leaderboard(GUILD, offset=2, limit=2)
    assert [s.user_id for s in page] == [1, 4]
    assert await store.puzzle_leaderboard(8, offset=0, limit=10) == []


# -- the streak's ladder and a standing's change ---------------------------------------------


async def test_the_ladder_is_by_rating_then_the_easier_then_key_without_what_was_tried(
    store: MatchStore,
) -> None:
    await store.save_puzzles(
        [
            replace(builtin(1), ease=0.10),
            replace(builtin(2), ease=0.30),
            replace(builtin(3, 1400.0), ease=0.05),
            replace(own(11), ease=0.30),
            replace(own(12, 1600.0), ease=0.90),
            replace(own(13, guild_id=OTHER_GUILD), ease=0.99),
        ]
    )
    ladder = await store.puzzle_ladder(GUILD, 1, None, 10)
    expected = ["builtin/3/0", "builtin/2/0", "match/11/3", "builtin/1/0", "match/12/3"]
    assert [p.key for p in ladder] == expected, "another server's puzzle is not on it"
    assert ladder[1].ease == 0.30
    # From a rung on: those after it only, the same order; a tried one is left out.
    await store.record_attempt(attempt("match/11/3"), rater(True))
    rung = StreakRun("builtin/2/0", 1500.0, 0.30)
    after = await store.puzzle_ladder(GUILD, 1, rung, 10)
    assert [p.key for p in after] == ["builtin/1/0", "match/12/3"]
    # Another member never tried it: it is on theirs, lower now (its attempt moved it).
    lowest = StreakRun("builtin/3/0", 1400.0, 0.05)
    others = await store.puzzle_ladder(GUILD, 2, lowest, 2)
    assert [p.key for p in others] == ["match/11/3", "builtin/2/0"]


async def test_saving_a_puzzle_again_gives_it_its_ease_and_keeps_its_rating(
    store: MatchStore,
) -> None:
    await store.save_puzzles([builtin(1)])
    await store.record_attempt(attempt("builtin/1/0"), rater(True))
    await store.save_puzzles([replace(builtin(1), ease=0.25)])
    stored = await store.puzzle("builtin/1/0")
    assert stored is not None and stored.ease == 0.25
    assert stored.attempts == 1 and stored.rating.rating == 1499.0


async def test_a_standing_changes_in_one_commit_and_keeps_its_run(store: MatchStore) -> None:
    run = StreakRun("builtin/1/0", 1512.5, 0.125, solved=3, answered=True)

    def climbed(before: PuzzleStanding) -> PuzzleStanding:
        return replace(before, run=run, run_best=max(before.run_best, 3))

    after = await store.change_standing(GUILD, 1, climbed)
    assert after.run == run and after.run_best == 3 and after.attempts == 0
    assert await store.puzzle_standing(GUILD, 1) == after
    ended = await store.change_standing(GUILD, 1, lambda s: replace(s, run=None))
    assert ended.run is None and ended.run_best == 3
    assert await store.puzzle_standing(GUILD, 1) == ended


async def test_a_refused_change_writes_nothing(store: MatchStore) -> None:
    def refuse(before: PuzzleStanding) -> PuzzleStanding:
        raise LookupError("no")

    with pytest.raises(LookupError):
        await store.change_standing(GUILD, 1, refuse)
    assert await store.puzzle_standing(GUILD, 1) is None


async def test_changes_at_once_are_each_read_after_the_last(store: MatchStore) -> None:
    def one_more(before: PuzzleStanding) -> PuzzleStanding:
        return replace(before, run_best=before.run_best + 1)

    await asyncio.gather(*(store.change_standing(GUILD, 1, one_more) for _ in range(8)))
    standing = await store.puzzle_standing(GUILD, 1)
    assert standing is not None and standing.run_best == 8


async def test_an_unrated_attempt_is_kept_as_unrated(store: MatchStore) -> None:
    await store.save_puzzles([builtin(1)])
    unrated = replace(attempt("builtin/1/0"), rated=False)
    await store.record_attempt(unrated, lambda before, rating: (before, rating))
    stored = await store.puzzle("builtin/1/0")
    assert stored is not None and stored.attempts == 1 and stored.rating.rating == 1500.0
    assert await store.puzzle_ladder(GUILD, 1, None, 5) == [], "attempted: off the ladder"

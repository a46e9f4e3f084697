"""`python -m bot` as an operator runs it: a bad setting or database path is one line naming
what is wrong, with a non-zero exit and no traceback; `--check` opens the database for real."""

import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.command_sync import sync_marker
from engine.store.migration_files import latest_version

ROOT = Path(__file__).resolve().parents[2]


def unused_port() -> int:
    """A local port nothing listens on, so a bot that tried to log in would fail at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def python_m_bot(
    tmp_path: Path, settings: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m bot --config FILE *args` in tmp_path, Discord pointed at a closed port;
    `env` adds to the environment (DISCORD_TOKEN only, by default)."""
    port = unused_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[discord]\napi_base = "http://127.0.0.1:{port}/api/v10"\n'
        f'gateway_url = "ws://127.0.0.1:{port}/"\n{settings}',
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(config), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "from-env", "PATH": "", "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=60,
        check=False,
    )


def with_database(path: str | Path) -> str:
    return f"[database]\npath = {json.dumps(str(path))}\n"


def the_one_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single line a refused start prints, checked to be alone and without a traceback."""
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    return line


# Settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            '[databse]\npath = "x.sqlite3"\n',
            "error: unknown section [databse] in {config} (did you mean [database]?)",
        ),
        (
            "[matches]\nthree_round = true\n",
            "error: unknown setting matches.three_round in {config} "
            "(did you mean matches.three_rounds?)",
        ),
        (
            '[matches]\nturn_timer_seconds = "1 day"\n',
            "error: matches.turn_timer_seconds must be a number, got '1 day'",
        ),
        (
            '[database]\npath = "a\\u0000b"\n',
            "error: database.path must not contain a NUL character, got 'a\\x00b'",
        ),
    ],
    ids=["unknown-section", "unknown-key", "wrong-type", "nul-in-path"],
)
@pytest.mark.parametrize("check", [True, False], ids=["check", "run"])
def test_a_bad_setting_is_one_line_and_exit_2(tmp_path, settings, message, check):
    done = python_m_bot(tmp_path, settings, *(["--check"] if check else []))
    assert the_one_error(done) == message.format(config=tmp_path / "config.toml")
    assert done.returncode == 2


# python -m bot --check: the database ----------------------------------------------------


def test_check_creates_a_new_database_as_the_bot_would(tmp_path):
    database = tmp_path / "games.sqlite3"
    done = python_m_bot(tmp_path, with_database(database), "--check")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"settings OK; database {str(database)!r} created\n",
        "",
    )
    with sqlite3.connect(database) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
    conn.close()

    again = python_m_bot(tmp_path, with_database(database), "--check")
    assert (again.returncode, again.stdout) == (
        0,
        f"settings OK; database {str(database)!r} opened\n",
    )


def test_check_refuses_a_database_in_a_missing_folder(tmp_path):
    database = tmp_path / "nowhere" / "games.sqlite3"
    done = python_m_bot(tmp_path, with_database(database), "--check")
    assert the_one_error(done) == (
        f"error: cannot open database {str(database)!r}: "
        f"the folder {str(tmp_path / 'nowhere')!r} does not exist"
    )
    assert not (tmp_path / "nowhere").exists()


def test_check_refuses_a_database_under_proc(tmp_path):
    # Which words depend on the user (root may write in /proc itself, but SQLite cannot).
    done = python_m_bot(tmp_path, with_database("/proc/hanamikoji.sqlite3"), "--check")
    line = the_one_error(done)
    assert line.startswith("error: cannot open database '/proc/hanamikoji.sqlite3': ")
    assert "corrupt" not in line


def test_check_refuses_a_directory(tmp_path):
    (tmp_path / "games").mkdir()
    done = python_m_bot(tmp_path, with_database(tmp_path / "games"), "--check")
    assert the_one_error(done) == (
        f"error: cannot open database {str(tmp_path / 'games')!r}: "
        "it is a directory, not a database file"
    )


def test_check_refuses_a_file_that_is_not_a_database_and_leaves_it_alone(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a database\n" * 20, encoding="utf-8")
    done = python_m_bot(tmp_path, with_database(notes), "--check")
    assert the_one_error(done) == (
        f"error: database {str(notes)!r} is corrupt or not a SQLite database "
        "(file is not a database); restore it from a backup (the file was not modified)"
    )
    assert notes.read_text(encoding="utf-8") == "my notes, not a database\n" * 20


def test_check_refuses_a_database_from_a_newer_bot(tmp_path):
    database = tmp_path / "newer.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    done = python_m_bot(tmp_path, with_database(database), "--check")
    assert the_one_error(done).startswith(
        f"error: database {str(database)!r} has schema version 99, but this bot knows only up to"
    )


def test_check_without_a_token_warns_and_still_checks_the_database(tmp_path):
    database = tmp_path / "games.sqlite3"
    done = python_m_bot(tmp_path, with_database(database), "--check", env={"DISCORD_TOKEN": ""})
    assert done.returncode == 0
    assert done.stderr == (
        "warning: no bot token: set DISCORD_TOKEN or [discord] token (from the Discord "
        "developer portal, Bot tab); the bot will not start without one\n"
    )
    assert done.stdout == f"settings OK; database {str(database)!r} created\n"
    assert database.exists()


def test_check_without_a_token_still_refuses_a_bad_database(tmp_path):
    database = tmp_path / "nowhere" / "games.sqlite3"
    done = python_m_bot(tmp_path, with_database(database), "--check", env={"DISCORD_TOKEN": ""})
    assert done.returncode == 1
    assert done.stderr.splitlines()[0].startswith("warning: no bot token")
    assert done.stderr.splitlines()[1] == (
        f"error: cannot open database {str(database)!r}: "
        f"the folder {str(database.parent)!r} does not exist"
    )


def test_without_a_token_the_bot_itself_refuses_to_start(tmp_path):
    done = python_m_bot(tmp_path, "", env={"DISCORD_TOKEN": ""})
    assert the_one_error(done).startswith("error: [discord] no bot token: set DISCORD_TOKEN")
    assert done.returncode == 2


def test_a_start_says_nothing_of_voice(tmp_path):
    # Discord is a closed port here, so the bot is built, fails to log in and stops.
    done = python_m_bot(tmp_path, with_database(tmp_path / "games.sqlite3"))
    assert done.returncode == 1
    assert "cannot reach Discord" in done.stderr
    assert "voice" not in done.stderr
    assert "PyNaCl" not in done.stderr and "davey" not in done.stderr


# python -m bot: the database is opened before logging in -------------------------------


@pytest.mark.parametrize("where", ["directory", "missing-folder"])
def test_a_bad_database_path_stops_the_bot_before_discord_in_one_line(tmp_path, where):
    if where == "directory":
        database = tmp_path / "games"
        database.mkdir()
        problem = "it is a directory, not a database file"
    else:
        database = tmp_path / "nowhere" / "games.sqlite3"
        problem = f"the folder {str(database.parent)!r} does not exist"
    done = python_m_bot(tmp_path, with_database(database))
    line = the_one_error(done)
    assert done.returncode == 1
    assert line.endswith(f" ERROR bot: cannot open database {str(database)!r}: {problem}")


# Shards from the command line -----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--shards", "0-9", "--shard-count", "8"],
            "error: discord.shards '0-9' goes past shard_count 8 (ids 0-7)",
        ),
        (
            ["--shards", "zero", "--shard-count", "8"],
            "error: discord.shards must be 'N' or 'A-B' (shard ids from 0), got 'zero'",
        ),
        (["--shards", "3"], "error: discord.shards '3' needs shard_count, the bot's shards in all"),
        (
            ["--shard-count", "0"],
            "python -m bot: error: argument --shard-count: must be from 1 to 1,000,000, "
            "got '0' (--help lists the options)",
        ),
    ],
    ids=["past-the-count", "not-a-range", "no-count", "zero-count"],
)
@pytest.mark.parametrize("check", [True, False], ids=["check", "run"])
def test_a_bad_shard_range_is_one_line_and_exit_2(tmp_path, args, message, check):
    done = python_m_bot(tmp_path, "", *args, *(["--check"] if check else []))
    assert the_one_error(done) == message
    assert done.returncode == 2


def test_the_command_line_shards_win_over_the_file(tmp_path):
    # Under [discord] (python_m_bot starts the file with it): a range wrong for 8 shards.
    settings = 'shards = "8-9"\nshard_count = 10\n'
    done = python_m_bot(tmp_path, settings, "--shards", "4-7", "--shard-count", "8", "--check")
    assert (done.returncode, done.stderr) == (0, "")


# PostgreSQL -----------------------------------------------------------------------------


def test_check_opens_the_postgresql_database_from_database_url(tmp_path, postgres_url):
    done = python_m_bot(tmp_path, "", "--check", env={"DATABASE_URL": postgres_url})
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("settings OK; PostgreSQL database 'postgres")
    assert done.stdout.endswith(" opened\n")
    assert not (tmp_path / "hanamikoji.sqlite3").exists()  # no SQLite file on the side


def test_check_of_an_unreachable_postgresql_never_prints_the_password(tmp_path):
    url = f"postgresql://hanamikoji:hunter2@127.0.0.1:{unused_port()}/hanamikoji"
    done = python_m_bot(tmp_path, "", "--check", env={"DATABASE_URL": url})
    line = the_one_error(done)
    assert done.returncode == 1
    assert "hunter2" not in line
    assert "127.0.0.1" in line


def test_a_database_url_that_is_not_postgresql_is_one_line_and_exit_2(tmp_path):
    done = python_m_bot(tmp_path, '[database]\nurl = "sqlite:///games.db"\n', "--check")
    assert the_one_error(done) == (
        "error: database.url must be a PostgreSQL URL "
        "(postgresql://user:password@host/database), got 'sqlite:///games.db'"
    )
    assert done.returncode == 2


def test_a_bot_on_sqlite_never_loads_the_postgresql_driver(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(with_database(tmp_path / "games.sqlite3"), encoding="utf-8")
    probe = (
        "import sys\n"
        "from bot.__main__ import main\n"
        f"assert main(['--config', {str(config)!r}, '--check']) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith(('asyncpg', 'engine.store.post'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "from-env", "PATH": "", "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_synced_commands_digest_lives_beside_sqlite_or_in_the_working_directory():
    # A restart on PostgreSQL has no SQLite file to keep it beside, yet must not sync again.
    assert sync_marker("/data/games.sqlite3", None) == Path(
        "/data/.games.sqlite3.synced-commands.json"
    )
    assert sync_marker(":memory:", None) is None
    # In the working directory (a test's own: see tests/conftest.py).
    on_postgres = sync_marker("hanamikoji.sqlite3", "postgresql://db/hanamikoji")
    assert on_postgres is not None and on_postgres.name == ".hanamikoji.synced-commands.json"


def test_the_bot_runs_on_uvloop_where_installed_else_on_asyncios_loop(monkeypatch):
    import asyncio

    from bot.__main__ import event_loop_factory

    if sys.platform != "win32":  # pyproject installs uvloop everywhere else
        import uvloop

        loop_factory = event_loop_factory()
        assert loop_factory is uvloop.new_event_loop
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            assert isinstance(runner.get_loop(), uvloop.Loop)
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on Windows: not installed
    assert event_loop_factory() is None

"""Settings: one TOML key per dataclass field, read mechanically, refused by name when unknown."""

import re
import subprocess
import sys
import tomllib
import typing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import (
    BotConfig,
    ConfigError,
    DatabaseSettings,
    DiscordSettings,
    LoggingSettings,
    load_config,
    masked_url,
    table_keys,
)
from engine.model import ExpiryPolicy
from engine.service.config import ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"
TOKEN = {"DISCORD_TOKEN": "from-env"}


def load(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> BotConfig:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path, environ=TOKEN if environ is None else environ)


def sections() -> dict[str, type]:
    """Each TOML table's name and its dataclass."""
    return typing.get_type_hints(BotConfig)


# The example file --------------------------------------------------------------------


def example_keys() -> dict[str, set[str]]:
    """Per table, the keys config.example.toml sets or shows commented out (`# key = …`)."""
    keys: dict[str, set[str]] = {}
    table = ""
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        if header := re.fullmatch(r"\[(\w+)\]", line.strip()):
            table = header[1]
            keys[table] = set()
        elif key := re.match(r"#? ?(\w+) = ", line):
            keys[table].add(key[1])
    return keys


def test_the_example_documents_every_setting_and_only_settings():
    documented = example_keys()
    expected = {name: table_keys(cls) for name, cls in sections().items()}
    assert documented == expected


def test_the_example_sets_every_setting_to_its_default():
    loaded = load_config(EXAMPLE, environ=TOKEN)
    assert loaded == BotConfig(discord=DiscordSettings(token="from-env"))
    assert loaded.matches == ServiceConfig()


# Every key reaches its field -----------------------------------------------------------

NOT_DEFAULT = {
    "discord": {
        "token": '"file-token"',
        "api_base": '"http://127.0.0.1:8080/api/v10"',
        "gateway_url": '"ws://127.0.0.1:8080/"',
        "dev_guild_id": "42",
        "requests_per_second": "10",
        "shards": '"1-2"',
        "shard_count": "4",
    },
    "database": {
        "path": '"other.sqlite3"',
        "url": '"postgresql://bot@db.example/hanamikoji"',
        "command_timeout_seconds": "2.5",
        "acquire_timeout_seconds": "1.5",
        "connect_timeout_seconds": "4",
        "busy_timeout_seconds": "0.25",
    },
    "matches": {
        "turn_timer_seconds": "3600",
        "min_turn_seconds": "60",
        "max_turn_seconds": "86400",
        "reminder_before_seconds": "600",
        "vacation_days": "7",
        "challenge_expiry_seconds": "300",
        "expiry_policy": '"forfeit"',
        "expiry_ai_level": '"hard"',
        "max_active_matches": "3",
        "max_new_matches_per_hour": "10",
        "challenge_cooldown_seconds": "60",
        "thread_per_match": "false",
        "three_rounds": "true",
        "ai_levels": '["normal", "hard"]',
        "ai_move_delay_seconds": "0",
        "event_queue_warn": "50",
        "leaderboard_min_games": "5",
        "season_min_games": "3",
        "season_seconds": "120",
    },
    "logging": {"level": '"DEBUG"', "format": '"json"'},
    "metrics": {"port": "9108", "address": '"0.0.0.0"', "admin_user_ids": "[1234, 5678]"},
    "ai": {"review_iterations": "50", "hint_iterations": "40"},
}


def test_every_setting_in_the_file_reaches_the_config(tmp_path):
    assert {name: set(keys) for name, keys in NOT_DEFAULT.items()} == {
        name: table_keys(cls) for name, cls in sections().items()
    }, "a new field needs a line here"
    text = "\n".join(
        f"[{name}]\n" + "\n".join(f"{key} = {value}" for key, value in keys.items())
        for name, keys in NOT_DEFAULT.items()
    )
    loaded = load(tmp_path, text, environ={})
    default = BotConfig(discord=DiscordSettings(token="t"))
    for name, keys in NOT_DEFAULT.items():
        for key, value in keys.items():
            got = getattr(getattr(loaded, name), key)
            assert got != getattr(getattr(default, name), key), f"{name}.{key} was dropped"
            expected = tomllib.loads(f"v = {value}")["v"]
            assert got == (tuple(expected) if isinstance(expected, list) else expected)
    assert loaded.matches.expiry_policy is ExpiryPolicy.FORFEIT
    # The search budgets are set in [ai] and reach the match service, which runs them.
    assert (loaded.matches.review_iterations, loaded.matches.hint_iterations) == (50, 40)


def test_the_search_budgets_belong_under_ai_not_matches(tmp_path):
    with pytest.raises(
        ConfigError, match=r"matches\.review_iterations .*\(it belongs under \[ai\]\)"
    ):
        load(tmp_path, "[matches]\nreview_iterations = 5\n")
    with pytest.raises(ConfigError, match=r"ai\.hint_iterations must be from 1 to 100,000 .*got 0"):
        load(tmp_path, "[ai]\nhint_iterations = 0\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "review_iterations = 100000000000000000000000",
            r"ai\.review_iterations must be from 1 to 100,000 play-outs per decision, "
            r"got 100000000000000000000000$",
        ),
        ("review_iterations = 1e23", r"ai\.review_iterations must be a whole number, got 1e\+23"),
        ("hint_iterations = 100001", r"ai\.hint_iterations must be from 1 to 100,000 .*100001"),
    ],
)
def test_a_search_budget_is_bounded(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, f"[ai]\n{text}\n")
    assert load(tmp_path, "[ai]\nreview_iterations = 100000\n").ai.review_iterations == 100_000


def test_a_search_budget_above_any_table_is_sent_to_ai(tmp_path):
    with pytest.raises(ConfigError, match=r"unknown setting review_iterations .*under \[ai\]"):
        load(tmp_path, "review_iterations = 5\n")


def test_no_file_means_the_defaults_with_the_token_from_the_environment():
    assert load_config(None, environ=TOKEN) == BotConfig(discord=DiscordSettings("from-env"))
    assert load_config(None, environ=TOKEN).database == DatabaseSettings("hanamikoji.sqlite3")
    assert load_config(None, environ=TOKEN).logging == LoggingSettings("INFO")


# Types ---------------------------------------------------------------------------------


def test_a_whole_number_is_accepted_where_decimals_are(tmp_path):
    loaded = load(tmp_path, "[matches]\nai_move_delay_seconds = 2\nturn_timer_seconds = 90.5")
    assert loaded.matches.ai_move_delay_seconds == 2.0
    assert isinstance(loaded.matches.ai_move_delay_seconds, float)
    assert loaded.matches.turn_timer_seconds == 90.5


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "[matches]\nmax_active_matches = 2.5",
            "matches.max_active_matches must be a whole number, got 2.5",
        ),
        (
            "[matches]\nmax_active_matches = true",
            "matches.max_active_matches must be a whole number, got True",
        ),
        (
            '[matches]\nturn_timer_seconds = "1 day"',
            "matches.turn_timer_seconds must be a number, got '1 day'",
        ),
        (
            '[matches]\nthread_per_match = "no"',
            "matches.thread_per_match must be true or false, got 'no'",
        ),
        ("[matches]\nthree_rounds = 1", "matches.three_rounds must be true or false, got 1"),
        ("[database]\npath = 3", "database.path must be a string, got 3"),
        ('[database]\npath = ""', "database.path must name a file (or \":memory:\"), got ''"),
        (
            '[database]\npath = "a\\u0000b"',
            "database.path must not contain a NUL character, got 'a\\x00b'",
        ),
        (
            '[discord]\ndev_guild_id = "123"',
            "discord.dev_guild_id must be a whole number, got '123'",
        ),
        ('[matches]\nai_levels = "hard"', "matches.ai_levels must be a list, got 'hard'"),
        ('[matches]\nai_levels = ["easy", 2]', "matches.ai_levels[1] must be a string, got 2"),
        (
            '[matches]\nexpiry_policy = "AI"',
            "matches.expiry_policy must be one of 'ai', 'forfeit', got 'AI'",
        ),
    ],
)
def test_a_wrong_type_is_refused_quoting_the_value(tmp_path, line, message):
    with pytest.raises(ConfigError) as error:
        load(tmp_path, line)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[logging]\nformat = "JSON"', "logging.format must be one of 'text', 'json', got 'JSON'"),
        ("[logging]\nformat = 1", "logging.format must be a string, got 1"),
        ("[metrics]\nport = 70000", "metrics.port must be from 0 to 65535, got 70000"),
        ("[metrics]\nport = -1", "metrics.port must be from 0 to 65535, got -1"),
        ('[metrics]\nport = "9108"', "metrics.port must be a whole number, got '9108'"),
        (
            '[metrics]\naddress = "local host"',
            "metrics.address must be an IP address or a host name, got 'local host'",
        ),
        (
            "[metrics]\nadmin_user_ids = [0]",
            "metrics.admin_user_ids must be Discord user ids, got 0",
        ),
        (
            '[metrics]\nadmin_user_ids = ["me"]',
            "metrics.admin_user_ids[0] must be a whole number, got 'me'",
        ),
        (
            "[metrics]\nprot = 1",
            "unknown setting metrics.prot in FILE (did you mean metrics.port?)",
        ),
    ],
)
def test_bad_metrics_and_logging_settings_are_refused_quoting_the_value(tmp_path, text, message):
    with pytest.raises(ConfigError) as error:
        load(tmp_path, text)
    assert str(error.value).replace(str(tmp_path / "config.toml"), "FILE") == message


def test_metrics_are_off_by_default_and_listen_on_loopback():
    metrics = BotConfig(discord=DiscordSettings(token="t")).metrics
    assert (metrics.enabled, metrics.port, metrics.address) == (False, None, "127.0.0.1")


def test_an_enum_is_read_from_its_value(tmp_path):
    loaded = load(tmp_path, '[matches]\nexpiry_policy = "forfeit"')
    assert loaded.matches.expiry_policy is ExpiryPolicy.FORFEIT


def test_a_list_becomes_a_tuple(tmp_path):
    loaded = load(tmp_path, '[matches]\nai_levels = ["normal"]\nexpiry_ai_level = "normal"')
    assert loaded.matches.ai_levels == ("normal",)


# Unknown names -------------------------------------------------------------------------


def refusal(tmp_path: Path, text: str) -> str:
    """The ConfigError's message, with the config file's path shortened to FILE."""
    with pytest.raises(ConfigError) as error:
        load(tmp_path, text)
    return str(error.value).replace(str(tmp_path / "config.toml"), "FILE")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[matches]\nturn_timer = 3600",
            "unknown setting matches.turn_timer in FILE (did you mean matches.turn_timer_seconds?)",
        ),
        (
            "[discord]\ntokn = 'x'",
            "unknown setting discord.tokn in FILE (did you mean discord.token?)",
        ),
        (
            "[matches]\ncolour = 'red'",
            "unknown setting matches.colour in FILE "
            "(config.example.toml lists every setting of [matches])",
        ),
    ],
)
def test_an_unknown_key_is_refused_naming_the_nearest_known_one(tmp_path, text, message):
    assert refusal(tmp_path, text) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[databse]\npath = 'x'", "unknown section [databse] in FILE (did you mean [database]?)"),
        (
            "[match]\nturn_timer_seconds = 3600",
            "unknown section [match] in FILE (did you mean [matches]?)",
        ),
        ("[Logging]\n", "unknown section [Logging] in FILE (did you mean [logging]?)"),
        (
            "[web]\nport = 80",
            "unknown section [web] in FILE "
            "(the sections are [discord], [database], [matches], [logging], [metrics], [ai])",
        ),
    ],
)
def test_an_unknown_section_is_refused_naming_the_nearest_known_one(tmp_path, text, message):
    assert refusal(tmp_path, text) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('token = "x"\n[discord]\n', "unknown setting token in FILE (it belongs under [discord])"),
        ("levl = 'INFO'", "unknown setting levl in FILE (did you mean level, under [logging]?)"),
        ("colour = 'red'", "unknown setting colour in FILE (outside any [table])"),
        ("matches = 3", "[matches] must be a table, got 3"),
    ],
)
def test_a_setting_outside_any_table_is_refused(tmp_path, text, message):
    assert refusal(tmp_path, text) == message


# The token -----------------------------------------------------------------------------


def test_the_environment_token_wins_over_the_file(tmp_path):
    assert load(tmp_path, '[discord]\ntoken = "file"').discord.token == "from-env"
    assert load(tmp_path, '[discord]\ntoken = "file"', environ={}).discord.token == "file"
    empty = {"DISCORD_TOKEN": ""}
    assert load(tmp_path, '[discord]\ntoken = "file"', environ=empty).discord.token == "file"


@pytest.mark.parametrize("text", ["", "[discord]\n", '[discord]\ntoken = ""'])
def test_no_token_says_where_to_put_one(tmp_path, text):
    with pytest.raises(ConfigError, match="no bot token: set DISCORD_TOKEN or"):
        load(tmp_path, text, environ={})


def test_the_token_is_not_shown_in_the_config_repr():
    assert "from-env" not in repr(load_config(None, environ=TOKEN))


# Checks that live with each section ----------------------------------------------------


@pytest.mark.parametrize("pace", [0, 51])
def test_requests_per_second_stays_under_discords_limit(tmp_path, pace):
    with pytest.raises(ConfigError, match=rf"discord\.requests_per_second must be 1–50.*{pace}"):
        load(tmp_path, f"[discord]\nrequests_per_second = {pace}")


def test_the_api_base_loses_its_trailing_slash(tmp_path):
    loaded = load(tmp_path, '[discord]\napi_base = "http://127.0.0.1:1/api/v10/"')
    assert loaded.discord.api_base == "http://127.0.0.1:1/api/v10"


def test_the_log_level_is_read_in_any_case(tmp_path):
    assert load(tmp_path, '[logging]\nlevel = "warning"').logging.level == "WARNING"
    with pytest.raises(ConfigError, match=r"logging\.level must be one of .* got 'loud'"):
        load(tmp_path, '[logging]\nlevel = "loud"')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("turn_timer_seconds = 5", r"\[matches\] need 0 < min_turn_seconds <= turn_timer"),
        ("max_turn_seconds = 60", r"\[matches\] need 0 < .* got 10, 86400, 60"),
        ('expiry_ai_level = "godlike"', r"matches\.expiry_ai_level must be one of ai_levels"),
        ("ai_levels = []", r"matches\.ai_levels must name at least one level"),
        ("challenge_expiry_seconds = 0", r"matches\.challenge_expiry_seconds must be positive"),
        ("reminder_before_seconds = -1", r"matches\.reminder_before_seconds must not be neg"),
        ("ai_move_delay_seconds = inf", r"matches\.ai_move_delay_seconds must be a finite num"),
        ("reminder_before_seconds = nan", r"matches\.reminder_before_seconds must be a finite"),
    ],
)
def test_match_settings_are_checked_by_the_service_config(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, f"[matches]\n{text}")


def test_tiny_timers_are_fine_when_the_bounds_allow_them():
    config = ServiceConfig(turn_timer_seconds=0.3, min_turn_seconds=0.1)
    assert config.turn_timer_seconds == 0.3
    with pytest.raises(ValueError, match="min_turn_seconds"):
        ServiceConfig(turn_timer_seconds=0.3)


# The file itself -----------------------------------------------------------------------


def test_a_missing_file_or_bad_toml_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"config file not found: .*nowhere\.toml"):
        load_config(tmp_path / "nowhere.toml", environ=TOKEN)
    with pytest.raises(ConfigError, match=r"config\.toml' is not valid TOML"):
        load(tmp_path, "[matches\n")


# python -m bot --check -----------------------------------------------------------------


def test_check_reports_ok_and_the_database(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    monkeypatch.chdir(tmp_path)  # the database path is relative to the working directory
    path = tmp_path / "config.toml"
    path.write_text('[database]\npath = "games.sqlite3"\n', encoding="utf-8")
    assert main(["--config", str(path), "--check"]) == 0
    assert capsys.readouterr().out == "settings OK; database 'games.sqlite3' created\n"
    assert (tmp_path / "games.sqlite3").is_file()


def test_check_names_the_bad_setting_and_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    path = tmp_path / "config.toml"
    path.write_text("[matches]\nthree_round = true\n", encoding="utf-8")
    assert main(["--config", str(path), "--check"]) == 2
    assert capsys.readouterr().err == (
        f"error: unknown setting matches.three_round in {path} "
        "(did you mean matches.three_rounds?)\n"
    )


def test_check_runs_as_a_module(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(EXAMPLE), "--check"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"DISCORD_TOKEN": "from-env", "PATH": "", "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (
        0,
        "settings OK; database 'hanamikoji.sqlite3' created\n",
    )
    assert (tmp_path / "hanamikoji.sqlite3").is_file()


def test_an_ai_level_the_engine_does_not_have_is_refused(tmp_path):
    # Else the config loads and the match the level should play for is stuck for good.
    with pytest.raises(ConfigError, match=r"'expert'"):
        load(tmp_path, '[matches]\nai_levels = ["normal", "expert"]')


# Shards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shards", "count", "ids", "name"),
    [
        (None, None, None, "all shards"),
        (None, 4, [0, 1, 2, 3], "all shards"),
        ('"0-3"', 8, [0, 1, 2, 3], "shards 0-3"),
        ('"5"', 8, [5], "shard 5"),
        ('" 6 - 7 "', 8, [6, 7], "shards 6-7"),
        ('"0-1"', 2, [0, 1], "all shards"),
    ],
)
def test_the_shards_a_process_runs_and_its_name(tmp_path, shards, count, ids, name):
    lines = ["[discord]"]
    if shards is not None:
        lines.append(f"shards = {shards}")
    if count is not None:
        lines.append(f"shard_count = {count}")
    discord_settings = load(tmp_path, "\n".join(lines)).discord
    assert discord_settings.shard_ids == ids
    assert discord_settings.process_name == name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'shards = "0-8"\nshard_count = 8',
            "discord.shards '0-8' goes past shard_count 8 (ids 0-7)",
        ),
        ('shards = "3-1"\nshard_count = 8', "discord.shards '3-1' runs backwards"),
        ('shards = "0..3"\nshard_count = 8', "discord.shards must be 'N' or 'A-B'"),
        ('shards = "-1"\nshard_count = 8', "discord.shards must be 'N' or 'A-B'"),
        ('shards = "\u00b2"\nshard_count = 8', "discord.shards must be 'N' or 'A-B'"),
        ('shards = "2"', "discord.shards '2' needs shard_count"),
        ("shard_count = 0", "discord.shard_count must be 1 or more, got 0"),
        ("shards = 2\nshard_count = 4", "discord.shards must be a string, got 2"),
    ],
)
def test_a_bad_shard_range_is_refused_naming_it(tmp_path, text, message):
    with pytest.raises(ConfigError) as refused:
        load(tmp_path, f"[discord]\n{text}")
    assert str(refused.value).startswith(message)


def test_the_command_line_shards_win_over_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[discord]\nshards = "0-1"\nshard_count = 4\n', encoding="utf-8")
    overrides = {"shards": "3", "shard_count": 8}
    loaded = load_config(path, environ=TOKEN, discord_overrides=overrides)
    assert loaded.discord.shard_ids == [3]
    assert loaded.discord.process_name == "shard 3"


# The database URL -----------------------------------------------------------------------


def test_database_url_from_the_environment_wins_over_the_file(tmp_path):
    text = '[database]\nurl = "postgresql://file@db/hanamikoji"\n'
    environ = {**TOKEN, "DATABASE_URL": "postgres://env:secret@db/hanamikoji"}
    assert load(tmp_path, text, environ).database.url == "postgres://env:secret@db/hanamikoji"
    assert load(tmp_path, text).database.url == "postgresql://file@db/hanamikoji"


def test_a_database_url_that_is_not_postgresql_is_refused_without_its_password(tmp_path):
    with pytest.raises(ConfigError) as refused:
        load(tmp_path, '[database]\nurl = "mysql://bot:hunter2@db/hanamikoji"\n')
    assert str(refused.value) == (
        "database.url must be a PostgreSQL URL (postgresql://user:password@host/database), "
        "got 'mysql://bot:***@db/hanamikoji'"
    )


def test_the_database_url_is_not_shown_in_the_config_repr(tmp_path):
    loaded = load(tmp_path, '[database]\nurl = "postgresql://bot:hunter2@db/hanamikoji"\n')
    assert "hunter2" not in repr(loaded)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:hunter2@db:5432/h", "postgresql://bot:***@db:5432/h"),
        ("postgresql://db/h?user=bot&password=hunter2", "postgresql://db/h?user=bot&password=***"),
        ("postgres://db/h", "postgres://db/h"),
    ],
)
def test_a_database_url_is_printed_without_its_password(url, shown):
    assert masked_url(url) == shown


@pytest.mark.parametrize(
    ("table", "pace"),
    [
        ("", 45),
        ('shards = "0-1"\nshard_count = 4', 22),
        ('shards = "3"\nshard_count = 4', 11),
        ('shards = "0-3"\nshard_count = 4', 45),
        ('shards = "1"\nshard_count = 2\nrequests_per_second = 30', 30),
    ],
)
def test_processes_share_discords_global_limit_by_their_shards(tmp_path, table, pace):
    # Discord's 50 requests a second are the whole bot's: two processes at 45 each would
    # draw global 429s together.
    assert load(tmp_path, f"[discord]\n{table}").discord.pace == pace


def test_database_timeouts_reach_the_store_and_a_bad_one_is_refused_by_name(tmp_path):
    loaded = load(tmp_path, "[database]\ncommand_timeout_seconds = 2\nbusy_timeout_seconds = 0.5")
    assert (loaded.database.timeouts.command_seconds, loaded.database.timeouts.busy_seconds) == (
        2.0,
        0.5,
    )
    with pytest.raises(ConfigError, match=r"database.acquire_timeout_seconds must be more than 0"):
        load(tmp_path, "[database]\nacquire_timeout_seconds = 0")

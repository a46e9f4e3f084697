from tests.discord_emulator.fixtures import emulator  # noqa: F401

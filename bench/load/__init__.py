"""The pieces of bench/bot_load.py: the bot under load through the Discord emulator."""

"""The Discord bot: a thin translator between Discord interactions and the match service."""

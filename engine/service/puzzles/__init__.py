"""``service.puzzles``: puzzles found in a server's reviewed matches and the built-in set,
handed to members near their rating and judged at once."""

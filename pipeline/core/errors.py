"""The one exception type that reaches the user as a single line (see pipeline.commands.cli.main)."""


class UserError(Exception):
    """A problem with the user's input, config or run folder; the message says what and how to fix it."""

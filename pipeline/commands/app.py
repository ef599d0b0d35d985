"""The typer application; command modules register themselves on ``app``."""
import typer

app = typer.Typer(
    name="regscaffold",
    help="Weakly supervised register labels for real text, and a trainer that uses them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# Commands that take --section.key=value overrides as extra arguments.
OVERRIDES = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.callback()
def _group() -> None:
    """regscaffold: weak-supervision register labels for real text (run, train, ...)."""

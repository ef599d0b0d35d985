"""``python -m pipeline.cli``: the command line's stable module path (benchmarks, the distributed launcher and
scripts start the trainer this way); the commands themselves live in pipeline/commands/cli.py."""
from pipeline.commands.cli import main

if __name__ == "__main__":
    main()

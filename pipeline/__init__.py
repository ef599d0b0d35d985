"""regscaffold pipeline, in two floors: pipeline.core (schemas, file I/O, errors, the config loader, progress
bars, paths), which every package may import, and pipeline.commands (the stages, the runner and the command
line), which imports every package and is imported by none (tests/test_floors.py checks both)."""

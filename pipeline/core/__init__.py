"""The base floor: run-folder schemas, file I/O, the user-facing error, the config loader, progress bars and
the project root. It imports no other package of the project."""

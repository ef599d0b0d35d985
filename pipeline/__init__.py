"""regscaffold pipeline: stages, caching, config and the command line."""

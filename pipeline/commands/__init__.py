"""The top floor: the labeling pipeline's stages and runner, the run lock and code hashes, and the
``regscaffold`` commands. It may import every package; none imports it."""

"""regscaffold trainer: a small causal transformer with auxiliary register heads (``regscaffold train``)."""

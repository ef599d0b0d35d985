"""The uninterrupted run that the fault and determinism tests compare their runs with (made once)."""
from __future__ import annotations

import pytest

from faultkit import Reference, new_home, reference_run


@pytest.fixture(scope="session")
def reference(tmp_path_factory) -> Reference:
    return reference_run(new_home(tmp_path_factory.mktemp("faults"), "reference"))

"""Shared test configuration: Hypothesis profiles and the ``rule`` marker.

``CI=true`` (set by CI) selects the deterministic ``ci`` profile: derandomized,
bounded examples, no deadline, so a clean run never fails by chance.  Locally the
``dev`` profile searches randomly; ``HYPOTHESIS_PROFILE=wide`` searches much wider.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("wide", max_examples=20_000, deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

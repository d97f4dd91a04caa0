"""Shared test configuration: Hypothesis profiles and the ``rule`` marker.

The default profile is ``ci``: derandomized, bounded examples, no deadline, so the
README's test command gives the same result on every machine and never fails by
chance.  ``HYPOTHESIS_PROFILE=dev`` searches randomly (200 examples a property);
``HYPOTHESIS_PROFILE=wide`` searches much wider (run it by hand, with
``--timeout=0``); what a random search finds becomes an explicit example.
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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")

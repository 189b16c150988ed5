"""Shared test configuration: Hypothesis profiles.

HYPOTHESIS_PROFILE=default (the CI profile: >= 500 random games per property run),
HYPOTHESIS_PROFILE=quick for a fast local loop.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=20, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

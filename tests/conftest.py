"""Shared fixtures.  Every game in hexarena.GAMES gets the property tests of
test_properties.py with its default options plus the configurations here."""

import os

from hypothesis import HealthCheck, settings

# Option sets the property tests cover beyond each game's defaults.
EXTRA_CONFIGS: dict[str, list[dict]] = {
    "projective-hex": [{"size": 2, "opening": "swap"}, {"size": 4, "opening": "none"}],
    "lisbon": [{"size": (4, 3)}, {"size": (2, 2)}, {"size": (3, 5), "sequence": "12*"}],
    "lhexus": [{"size": 3}, {"size": 4}],
    "iqishiqi": [{"size": 3}, {"size": 4}],
    "weituweiqi": [{"size": 3}, {"size": 4}],
    "hex-pushpin": [{"size": 3}],
    "push-and-pull": [{"size": 5}],
    "palago": [{"tiles": 8}, {"tiles": 12, "variant": "eat-enemy", "eat_size": 1},
               {"tiles": 10, "variant": "must-contain", "anywhere": True}, {"tiles": 6, "exhausted": "draw"}],
}

# No "hexarena: compiling ..." line on stderr when a test compiles first (tests/test_first_use.py turns it on).
os.environ.setdefault("HEXARENA_COMPILE_NOTICE", "0")
# Argon2id at its least cost (docs/server.md, "Accounts"): the suite's ~2,000 hashes test no cost, and at the
# default cost they took a third of the server tests' time; servers the tests start inherit it.
os.environ.setdefault("HEXARENA_ARGON2", "1,256,1")

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

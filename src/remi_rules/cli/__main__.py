"""``python -m remi_rules.cli``: the same as ``remi-rules`` (see :mod:`remi_rules.cli`)."""

import sys

from . import main

sys.exit(main())

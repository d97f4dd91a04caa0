"""``python -m remi_rules``: the command line (see :mod:`remi_rules.cli`)."""

import sys

from .cli import main

sys.exit(main())

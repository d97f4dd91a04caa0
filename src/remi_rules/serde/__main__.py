"""``python -m remi_rules.serde [--check] DIR``: write or check the JSON Schema files."""

from .games import main

raise SystemExit(main())

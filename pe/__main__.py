"""``python -m pe``: the same command line as ``pe``."""

import sys

from pe.cli import main

sys.exit(main())

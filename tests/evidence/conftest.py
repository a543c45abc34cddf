"""The evidence tests share the small corpora of `corpora.py` in this folder."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

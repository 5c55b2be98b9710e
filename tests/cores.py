"""Parametrising a test over the two search cores: the pure-Python kernels and the compiled one.

``CORES`` gives ``compiled=False`` and ``compiled=True``; the compiled case is skipped where the extension is
not built, except under CI, where a missing compiled core fails (tests/conftest.py checks that it ran).
"""
from __future__ import annotations

import os

import pytest

import ai.core

COMPILED_MISSING = ai.core.module() is None and os.environ.get("CI", "").lower() != "true"

compiled_only = pytest.mark.skipif(COMPILED_MISSING, reason=f"compiled core missing: {ai.core.status().why}")

CORES = [pytest.param(False, id="python"), pytest.param(True, id="compiled", marks=compiled_only)]

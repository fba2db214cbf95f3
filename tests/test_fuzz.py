"""Fuzzing with a fixed budget for CI; `python scripts/fuzz.py --examples N` runs a larger one.

Generated programs (hypothesmith) and mutated lease snippets: no internal error, and every fixed
output parses and is stable under a second `--fix`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

hypothesmith = pytest.importorskip("hypothesmith")

from fuzz_support import check_program, lease_programs  # noqa: E402

EXAMPLES = int(os.environ.get("LEASELINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("LEASELINT_FUZZ_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@FUZZ
@given(lease_programs())
def test_mutated_lease_snippets(text):
    check_program(text)


@FUZZ
@given(hypothesmith.from_grammar())
def test_generated_programs_from_the_grammar(text):
    check_program(text)


@FUZZ
@given(hypothesmith.from_node())
def test_generated_programs_from_libcst_nodes(text):
    check_program(text)

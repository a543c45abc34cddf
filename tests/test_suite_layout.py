"""The suite's layout holds: tests that share an `xdist_group` run on one worker under
`--dist loadgroup` (pytest 9.2 stopped pytest-xdist 3.8 from marking a test's group, and every
group's fixtures, built to be shared, were then built once per worker)."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("layout")
def test_a_grouped_test_carries_its_group_under_loadgroup(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@layout")


@pytest.fixture(scope="module")
def _made_once() -> list[str]:
    return []


def test_a_module_fixture_groups_its_module(
    _made_once: list[str], request: pytest.FixtureRequest
) -> None:
    """A test that reads a module-scoped fixture (and names no group) runs in its module's
    group: its module's tests stay together on one worker, and the fixture is made once."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@tests.test_suite_layout")

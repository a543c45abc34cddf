"""Which model plays each role. A role named on the command line gets that model; `--judge`
names every judge role at once. A role left unnamed gets the embedded model only when the
models under test are embedded too: a real model is never judged by the embedded model
without being asked, so the command stops and says which options to give."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from medhalbench.commands._models import OptionError
from medhalbench.models import embedded_may_judge, is_embedded
from medhalbench.registry import Role
from medhalbench.settings import DEFAULT_MODEL, normalise_model_name


def _options(roles: Sequence[Role], shared: str, role_option: str) -> str:
    named = [f"{role_option}{r.name} MODEL" for r in roles]
    listed = " and ".join([", ".join(named[:-1]), named[-1]]) if len(named) > 1 else named[0]
    both = "both" if len(roles) == 2 else "all" if len(roles) > 2 else "it"
    return f"give {listed}, or {shared} MODEL for {both}"


def role_names(
    roles: Sequence[Role],
    given: Mapping[str, Sequence[str]],
    *,
    under_test: Sequence[str],
    shared: str | None = None,
    shared_option: str = "--judge",
    role_option: str = "--",
    shared_covers_all: bool = False,
) -> dict[str, list[str]]:
    """Each role's model names.

    Args:
        roles: The roles of the command.
        given: The models named for roles on the command line (empty: not named).
        under_test: The models under test (none for builders, or for answers written
            elsewhere); unnamed roles get the embedded model only when all of these are
            embedded models, or, for a command without models under test, when every named
            role is.
        shared: The model `shared_option` names for every unnamed judge role (every unnamed
            role with `shared_covers_all`, as a builder's `--model`).
        shared_option: The option that names `shared`, for messages.
        role_option: What comes before a role's name in the option naming its model, for
            messages (`--` on the command line, `roles.` in a suite).
        shared_covers_all: `shared` names every role, not only the judges.

    Raises:
        OptionError: A role without a model while a real model is involved, naming the
            options that give one.
    """
    covered = [r for r in roles if (r.judge or shared_covers_all) and not r.optional and r.option]
    names: dict[str, list[str]] = {}
    for role in roles:
        chosen = [normalise_model_name(n) for n in given.get(role.name, ())]
        if not chosen and shared and role in covered:
            chosen = [normalise_model_name(shared)]
        if chosen:
            names[role.name] = chosen
    under_test = [normalise_model_name(m) for m in under_test]
    involved = under_test or [n for v in names.values() for n in v]
    unnamed = [r for r in roles if r.name not in names and not r.optional and r.option]
    if unnamed and not embedded_may_judge(involved):
        real = [m for m in involved if not is_embedded(m)]
        whose = ", ".join(under_test) if under_test else ", ".join(dict.fromkeys(real))
        raise OptionError(
            f"no model is named for the {'role' if len(unnamed) == 1 else 'roles'} "
            f"{', '.join(r.name for r in unnamed)} of a run with {whose}: "
            f"{_options(unnamed, shared_option, role_option)} (the embedded model is used only with "
            f"embedded models; {shared_option} {DEFAULT_MODEL} asks for it)"
        )
    for role in unnamed:
        names[role.name] = [DEFAULT_MODEL]
    return names

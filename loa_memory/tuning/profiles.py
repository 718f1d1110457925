"""Weight profiles: named sets of retrieval weights, and the choice of profile for one recall.

A profile holds the fusion weights (``lexical``, ``semantic``) and, per task type, the category weights.
The built-in ``default`` is the task strategy of ``strategy.CATEGORY_WEIGHTS``; the config adds others under
``retrieval.profiles``, each a change on top of ``default`` (``all`` applies to every task type). A recall uses
``--profile NAME``, else the adaptive policy's pick when ``retrieval.adaptive`` is on, else
``retrieval.profile``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from loa_memory.errors import ConfigError, LoaError, UsageError
from loa_memory.search.rank import Weights
from loa_memory.search.strategy import CATEGORY_WEIGHTS, TASK_TYPES, TaskType, detect_task_type
from loa_memory.store.config import Config
from loa_memory.tuning.bandit import AdaptiveSettings, choose, state_for

BUILTIN = "default"
SelectedBy = Literal["flag", "config", "adaptive"]


@dataclass(frozen=True)
class Profile:
    name: str
    categories: Mapping[str, Mapping[str, float]]  # task type → category → weight, complete for every task type
    lexical: float = 1.0
    semantic: float = 1.0
    description: str = ""
    builtin: bool = False

    def weights_record(self, task_type: TaskType) -> dict[str, Any]:
        """The weights this profile applies to one task type, as logged and shown."""
        return {"lexical": self.lexical, "semantic": self.semantic,
                "category": dict(sorted(self.categories[task_type].items()))}


@dataclass(frozen=True)
class Selection:
    """Which profile serves a recall, and why (with the policy's probabilities when it chose)."""

    profile: Profile
    selected_by: SelectedBy
    probabilities: dict[str, float] = field(default_factory=dict)
    warning: str | None = None


def default_profile() -> Profile:
    categories: dict[str, Mapping[str, float]] = {t: dict(CATEGORY_WEIGHTS[t]) for t in TASK_TYPES}
    return Profile(BUILTIN, categories,
                   description="the built-in task strategy", builtin=True)


def load_profiles(config: Config) -> dict[str, Profile]:
    """Every profile by name: ``default`` first, then the config's in their order."""
    base = default_profile()
    profiles = {BUILTIN: base}
    for name, spec in (config.retrieval.profiles or {}).items():
        spec = spec or {}
        changes = spec.get("categories") or {}
        categories: dict[str, dict[str, float]] = {
            t: {**base.categories[t], **(changes.get("all") or {}), **(changes.get(t) or {})} for t in TASK_TYPES}
        profiles[str(name)] = Profile(str(name), categories, float(spec.get("lexical", 1.0)),
                                      float(spec.get("semantic", 1.0)), str(spec.get("description", "")))
    return profiles


def get_profile(config: Config, name: str) -> Profile:
    profiles = load_profiles(config)
    if name not in profiles:
        raise UsageError(f"unknown weight profile {name!r}",
                         hint=f"profiles: {', '.join(profiles)} (add one under retrieval.profiles in .loa.config.yaml)")
    return profiles[name]


def profile_weights(config: Config, profile: Profile, task_type: TaskType) -> Weights:
    """The ranking weights of ``profile`` for a task of ``task_type``."""
    retrieval = config.retrieval
    return Weights(profile.lexical, profile.semantic, float(retrieval.recency_weight),
                   float(retrieval.episodic_half_life_days), dict(profile.categories[task_type]))


def query_weights(config: Config, name: str, query: str) -> Weights:
    """The weights of the profile called ``name`` for the task type that ``query`` describes (``search --profile``)."""
    return profile_weights(config, get_profile(config, name), detect_task_type(query))


def adaptive_settings(config: Config) -> AdaptiveSettings:
    """``retrieval.adaptive`` (``true``/``false`` or a mapping) as settings, checked against the profiles."""
    retrieval = config.retrieval
    raw = retrieval.adaptive
    spec: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {"enabled": bool(raw)}
    profiles = load_profiles(config)
    control = str(retrieval.profile)
    arms = tuple(str(a) for a in spec.get("profiles") or profiles)
    unknown = [a for a in (*arms, control) if a not in profiles]
    if unknown:
        raise ConfigError(f"unknown weight profile {unknown[0]!r} in retrieval settings",
                          path=config.path.name if config.path else None,
                          hint=f"profiles: {', '.join(profiles)}")
    settings = AdaptiveSettings(
        enabled=bool(spec.get("enabled", False)), arms=tuple(dict.fromkeys(arms)), control=control,
        exploration=float(spec.get("exploration", 0.05)), max_daily_shift=float(spec.get("max_daily_shift", 0.1)),
        rollback_drop=float(spec.get("rollback_drop", 0.15)), rolling_days=int(spec.get("rolling_days", 3)),
        min_outcomes=int(spec.get("min_outcomes", 20)))
    if settings.exploration * len(settings.arms) > 1:
        raise ConfigError(f"retrieval.adaptive.exploration {settings.exploration} is too large for "
                          f"{len(settings.arms)} profiles", path=config.path.name if config.path else None,
                          hint=f"use at most {1 / len(settings.arms):.3f} (each profile keeps this share)")
    return settings


def select_profile(config: Config, task_type: TaskType, recall_id: str, explicit: str | None = None,
                   now: datetime | None = None) -> Selection:
    """The profile for one recall: ``explicit``, else the adaptive policy's pick, else ``retrieval.profile``."""
    if explicit:
        return Selection(get_profile(config, explicit), "flag")
    settings = adaptive_settings(config)
    configured = get_profile(config, settings.control)
    if not settings.enabled or len(settings.arms) < 2:
        return Selection(configured, "config")
    from loa_memory.store.times import now_utc
    from loa_memory.tuning.summary import read_summary, summary_path, task_days

    try:
        summary = read_summary(summary_path(config), config.root)
    except (LoaError, OSError) as exc:  # a broken summary must not break recall: say so, use the configured one
        return Selection(configured, "config", warning=f"adaptive weights off for this recall: {exc}")
    today = (now or now_utc()).date().isoformat()
    state = state_for(task_days(summary, task_type), settings, today)
    name = choose(state.probabilities, recall_id)
    return Selection(get_profile(config, name), "adaptive", dict(state.probabilities))

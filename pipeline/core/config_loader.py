"""The config loader (litgpt-style dataclasses, spaCy-style overrides): TOML files plus ``--section.key=value``
overrides, parsed once into a dict of dotted keys and applied here.

Each section is a dataclass whose fields carry a docstring; ``problems()`` on a section returns every
invalid value so that validation reports all of them at once. ``load_config`` builds any nested
dataclass from a TOML file and overrides, and ``to_toml`` writes the resolved config back out.
"""
from __future__ import annotations

import copy
import dataclasses
import tomllib
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import tomli_w

from pipeline.core.errors import UserError

T = TypeVar("T")


Overrides = dict[str, Any]
"""Dotted key -> value, e.g. {"ingest.corpus": "novels/", "train.optim.steps": 500}: what a command's flags
and its ``--section.key=value`` arguments become, once, before the loader applies them."""


def parse_override(item: str) -> tuple[str, Any]:
    """``--section.key=value`` -> ("section.key", value); values are read as TOML, else as strings."""
    text = item[2:] if item.startswith("--") else item
    if "=" not in text:
        raise UserError(f"override {item!r} is not of the form --section.key=value")
    dotted, raw = text.split("=", 1)
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return dotted.replace("-", "_"), value


def parse_overrides(args: list[str]) -> Overrides:
    """A command's extra arguments as overrides, parsed once (spaCy's parse_config_overrides).

    >>> parse_overrides(["--parse.n-process=2", "--ingest.corpus=some/dir", "--label.lfs=['a']"])
    {'parse.n_process': 2, 'ingest.corpus': 'some/dir', 'label.lfs': ['a']}
    """
    return dict(parse_override(item) for item in args)


def apply_overrides(data: dict[str, Any], overrides: Overrides) -> dict[str, Any]:
    """Return a copy of ``data`` with every override set (nested tables are created as needed)."""
    merged = copy.deepcopy(data)
    for dotted, value in overrides.items():
        *path, key = dotted.split(".")
        table = merged
        for name in path:
            table = table.setdefault(name, {})
            if not isinstance(table, dict):
                raise UserError(f"override --{dotted}: {name!r} is a value, not a section")
        table[key] = value
    return merged


def renamed(data: dict[str, Any], renames: dict[str, str], source: str) -> dict[str, Any]:
    """``data`` with each old dotted key moved to its new name (a section that gained sub-sections).

    >>> renamed({"train": {"steps": 5}}, {"train.steps": "train.optim.steps"}, "x.toml")
    {'train': {'optim': {'steps': 5}}}
    """
    moved = copy.deepcopy(data)
    for old, new in renames.items():
        *path, key = old.split(".")
        table = moved
        for name in path:
            table = table.get(name) if isinstance(table, dict) else None
        if not isinstance(table, dict) or key not in table:
            continue
        value = table.pop(key)
        if new in flatten(moved):
            raise UserError(f"{source} sets both {old} and {new}; {old} is the old name of {new}: keep only {new}")
        moved = apply_overrides(moved, {new: value})
    return moved


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested tables as dotted keys: ``{"a": {"b": 1}}`` -> ``{"a.b": 1}``."""
    items: dict[str, Any] = {}
    for key, value in data.items():
        items |= flatten(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}": value}
    return items


def _coerce(value: Any, annotation: Any, where: str, problems: list[str]) -> Any:
    """Check one TOML value against a field's type; ints are accepted where floats are expected."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        return value if value is None else _coerce(value, options[0], where, problems)
    if origin in (list, tuple):
        if not isinstance(value, list):
            problems.append(f"{where}: expected a list, got {value!r}")
            return value
        (inner, *_) = typing.get_args(annotation) or (Any,)
        items = [_coerce(v, inner, f"{where}[{i}]", problems) for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if annotation is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if annotation in (int, float, str, bool) and (
        not isinstance(value, annotation) or (annotation is int and isinstance(value, bool))
    ):
        problems.append(f"{where}: expected {annotation.__name__}, got {value!r}")
    return value


def _build(cls: type[T], data: dict[str, Any], where: str, problems: list[str], base: T | None = None) -> T:
    """``cls`` from ``data``, over ``base`` when given: a section's keys left out keep the values of the
    section its parent declares as default (PipelineConfig.train's are not TrainConfig's own)."""
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in known:
            problems.append(f"{where}{key}: unknown setting (known: {', '.join(sorted(known))})")
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        hint, value = hints[f.name], data[f.name]
        if dataclasses.is_dataclass(hint):
            if not isinstance(value, dict):
                problems.append(f"{where}{f.name}: expected a [{f.name}] table, got {value!r}")
                continue
            kwargs[f.name] = _build(hint, value, f"{where}{f.name}.", problems, _default(f, base))
        else:
            kwargs[f.name] = _coerce(value, hint, f"{where}{f.name}", problems)
    return cls(**kwargs) if base is None else dataclasses.replace(base, **kwargs)


def _default(f: dataclasses.Field, parent: Any) -> Any:
    """The value a nested section has when its table is left out."""
    if parent is not None:
        return getattr(parent, f.name)
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else None


def _collect_problems(obj: Any, where: str = "") -> list[str]:
    found = [f"{where}{p}" for p in obj.problems()] if hasattr(obj, "problems") else []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            found += _collect_problems(value, f"{where}{f.name}.")
    return found


def build_config(cls: type[T], data: dict[str, Any], source: str = "config") -> T:
    """Build and validate; raises one UserError listing every problem found."""
    problems: list[str] = []
    config = _build(cls, data, "", problems)
    if not problems:
        problems = _collect_problems(config)
    if problems:
        lines = "; ".join(problems)
        raise UserError(f"{source} has {len(problems)} problem(s): {lines}")
    return config


def load_config(cls: type[T], path: Path | None = None, overrides: Overrides | None = None) -> T:
    """Defaults, then the TOML file at ``path`` (if any), then the overrides. Keys that ``cls.RENAMED``
    lists under an old name are read under the new one, in the file and in the overrides."""
    data: dict[str, Any] = {}
    source = "defaults"
    renames: dict[str, str] = getattr(cls, "RENAMED", {})
    if path is not None:
        source = str(path)
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError(f"config file {str(path)!r} does not exist; pass an existing TOML file") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
        data = renamed(data, renames, source)
    if overrides:
        data = apply_overrides(data, {renames.get(k, k): v for k, v in overrides.items()})
        source += " + overrides"
    return build_config(cls, data, source)


def to_dict(config: Any) -> dict[str, Any]:
    """Plain dict of a (nested) dataclass, with None values left out because TOML has no null."""
    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, tuple):
            return list(value)
        return value
    return clean(dataclasses.asdict(config))


def to_toml(config: Any) -> str:
    return tomli_w.dumps(to_dict(config))

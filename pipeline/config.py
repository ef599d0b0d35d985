"""Dataclass configs (litgpt style): TOML files plus ``--section.key=value`` overrides.

Each section is a dataclass whose fields carry a docstring; ``problems()`` on a section returns every
invalid value so that validation reports all of them at once. ``load_config`` builds any nested
dataclass from a TOML file and overrides, and ``to_toml`` writes the resolved config back out.
"""
from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import tomli_w

from pipeline.errors import UserError

T = TypeVar("T")


def parse_override(item: str) -> tuple[list[str], Any]:
    """``--section.key=value`` -> (["section", "key"], value); values are read as TOML, else as strings."""
    text = item[2:] if item.startswith("--") else item
    if "=" not in text:
        raise UserError(f"override {item!r} is not of the form --section.key=value")
    dotted, raw = text.split("=", 1)
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return dotted.replace("-", "_").split("."), value


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """Return a copy of ``data`` with every override set (nested tables are created as needed)."""
    merged = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for item in overrides:
        keys, value = parse_override(item)
        table = merged
        for key in keys[:-1]:
            table = table.setdefault(key, {})
            if not isinstance(table, dict):
                raise UserError(f"override {item!r}: {key!r} is a value, not a section")
        table[keys[-1]] = value
    return merged


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


def _build(cls: type[T], data: dict[str, Any], where: str, problems: list[str]) -> T:
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
            kwargs[f.name] = _build(hint, value, f"{where}{f.name}.", problems)
        else:
            kwargs[f.name] = _coerce(value, hint, f"{where}{f.name}", problems)
    return cls(**kwargs)


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


def load_config(cls: type[T], path: Path | None = None, overrides: list[str] | None = None) -> T:
    """Defaults, then the TOML file at ``path`` (if any), then ``--section.key=value`` overrides."""
    data: dict[str, Any] = {}
    source = "defaults"
    if path is not None:
        source = str(path)
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError(f"config file {str(path)!r} does not exist; pass an existing TOML file") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
    if overrides:
        data = apply_overrides(data, overrides)
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

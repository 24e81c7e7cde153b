"""The Docker build context (no engine runs here, so the image itself is not built by the tests).

``.dockerignore`` is read with Docker's rules: a pattern matches a path when it matches the path or one of its
parent directories, ``**`` spans any number of directories, ``*`` stays within one, and the last matching pattern
decides (a ``!`` pattern re-includes).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _regex(pattern: str) -> re.Pattern[str]:
    out = ""
    for part in re.split(r"(\*\*/?|\*|\?)", pattern.strip("/")):
        if part == "**/":
            out += "(?:.*/)?"
        elif part == "**":
            out += ".*"
        elif part == "*":
            out += "[^/]*"
        elif part == "?":
            out += "[^/]"
        else:
            out += re.escape(part)
    return re.compile(out + r"\Z")


def _patterns() -> list[tuple[bool, re.Pattern[str]]]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    found = []
    for line in (x.strip() for x in lines):
        if line and not line.startswith("#"):
            keep = line.startswith("!")
            found.append((keep, _regex(line.lstrip("!"))))
    return found


def excluded(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    parts = path.split("/")
    prefixes = ["/".join(parts[:depth]) for depth in range(1, len(parts) + 1)]  # the path and its parents
    verdict = False
    for keep, regex in patterns:
        if any(regex.match(prefix) for prefix in prefixes):
            verdict = not keep
    return verdict


def test_the_matcher_follows_dockers_rules():
    patterns = [(False, _regex("**/node_modules")), (False, _regex("var")), (True, _regex("var/keep"))]
    assert excluded("frontend/node_modules/htmx.org/dist/htmx.min.js", patterns)
    assert excluded("node_modules/x", patterns)
    assert excluded("var/prod/env", patterns)
    assert not excluded("variables.py", patterns)
    assert not excluded("var/keep/file", patterns)
    assert not excluded("frontend/my_node_modules/x", patterns)
    assert not excluded("frontend/static/app.js", patterns)


def test_local_state_secrets_and_caches_stay_out_of_the_image():
    patterns = _patterns()
    for path in (
        ".git/HEAD",
        ".venv/bin/python",
        ".env",
        "deploy/production.env",
        "var/prod/env",  # make prod-up's secret key and logs
        "db.sqlite3",
        "staticfiles/app.css",
        "frontend/node_modules/htmx.org/dist/htmx.min.js",
        "tests/benchmarks/.npm/node_modules/lighthouse/cli/index.js",
        "scoring/__pycache__/models.cpython-311.pyc",
        "scorekeeper.egg-info/PKG-INFO",
        ".coverage",
    ):
        assert excluded(path, patterns), path


def test_everything_the_dockerfile_copies_or_installs_is_in_the_context():
    patterns = _patterns()
    needed = ["manage.py", "pyproject.toml", "config/settings.py", "deploy/gunicorn.conf.py"]
    for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines():
        words = shlex.split(line) if line.startswith("COPY ") else []
        if words and not any(w.startswith("--from") for w in words):
            needed += [w for w in words[1:-1] if w != "."]
    assert "frontend/package.json" in needed  # the parse found the explicit copies
    for package in ("scoring", "analytics", "frontend", "config"):
        needed += [
            str(p.relative_to(ROOT))
            for p in (ROOT / package).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and "node_modules" not in p.parts
        ]
    missing = [path for path in needed if excluded(path, patterns) or not (ROOT / path).exists()]
    assert not missing

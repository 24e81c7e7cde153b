"""What Docker reads from the repository: the build context and the compose stack (no engine runs here, so the
tests neither build the image nor start the stack).

``.dockerignore`` is read with Docker's rules: a pattern matches a path when it matches the path or one of its
parent directories, ``**`` spans any number of directories, ``*`` stays within one, and the last matching pattern
decides (a ``!`` pattern re-includes).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

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


def _compose() -> dict[str, Any]:
    """deploy/compose.yaml as compose reads it (YAML merge keys resolved by the loader)."""
    import yaml

    found: dict[str, Any] = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    return found


def test_the_compose_stack_scales_web_and_workers_and_migrates_once() -> None:
    """What `--scale web=N --scale worker=N` needs: no web replica binds a host port (the proxy publishes the one
    port and resolves `web` to every replica), the schema is migrated by one one-shot service that every app
    service waits for, and the app services share one image."""
    services = _compose()["services"]
    assert set(services) == {"migrate", "web", "live", "worker", "beat", "proxy", "db", "redis"}
    app = ("migrate", "web", "live", "worker", "beat")
    assert {services[name]["image"] for name in app} == {"scorekeeper"}
    assert all(services[name]["build"]["dockerfile"] == "deploy/Dockerfile" for name in app)

    assert "ports" not in services["web"] and services["web"]["expose"] == ["8000"]
    assert all("ports" not in services[name] for name in ("worker", "beat", "migrate", "db", "redis"))
    assert services["proxy"]["ports"] == ["8000:8000"]
    assert "gunicorn" in services["web"]["command"] and "migrate" not in services["web"]["command"]

    assert services["migrate"]["command"] == "python manage.py migrate --noinput"
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "uvicorn config.asgi:application" in services["live"]["command"] and "ports" not in services["live"]
    for name in ("web", "live", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully", name
        assert services[name]["restart"] == "unless-stopped"

    mount = services["proxy"]["volumes"][0].split(":")
    conf = (ROOT / "deploy" / mount[0]).resolve()
    assert mount[1] == "/etc/nginx/conf.d/default.conf" and conf.is_file()
    text = conf.read_text()
    assert "listen 8000;" in text and "set $web http://web:8000;" in text and "proxy_pass $web;" in text
    assert "resolver 127.0.0.11" in text  # Docker's DNS, asked again as replicas come and go
    assert "X-Forwarded-Proto $http_x_forwarded_proto" in text  # the TLS proxy's verdict reaches Django
    assert "set $live http://live:8000;" in text and "proxy_buffering off;" in text  # the live events, unbuffered


def test_the_systemd_units_verify_and_the_backup_timer_runs_the_backup_command(
    tmp_path: Path, services_up: None
) -> None:
    """``systemd-analyze verify`` on every unit (templates instantiated, /srv/scorekeeper pointed at this checkout
    so that every ExecStart names a real executable): no unknown key, no bad value, nothing missing."""
    import configparser
    import subprocess

    from django.core.management import get_commands

    units = []
    for source in sorted((ROOT / "deploy" / "systemd").iterdir()):
        name = source.name.replace("@.", "@1.")
        (tmp_path / name).write_text(source.read_text().replace("/srv/scorekeeper", str(ROOT)))
        units.append(f"./{name}")
    assert {"scorekeeper-backup.service", "scorekeeper-backup.timer", "scorekeeper-beat.service"} <= {
        u[2:] for u in units
    }
    found = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *units], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert found.returncode == 0 and "scorekeeper" not in found.stderr, found.stderr

    def read(name: str) -> configparser.ConfigParser:
        unit = configparser.ConfigParser(strict=False, interpolation=None)
        unit.optionxform = str  # type: ignore[assignment,method-assign]
        unit.read(tmp_path / name)
        return unit

    timer, service = read("scorekeeper-backup.timer"), read("scorekeeper-backup.service")
    assert timer["Timer"]["Unit"] == "scorekeeper-backup.service" and timer["Timer"]["Persistent"] == "true"
    assert service["Service"]["Type"] == "oneshot" and service["Service"]["UMask"] == "0077"
    argv = service["Service"]["ExecStart"].split()
    assert argv[1:] == ["manage.py", "backup"] and "backup" in get_commands()
    assert service["Service"]["EnvironmentFile"] == "/etc/scorekeeper.env"

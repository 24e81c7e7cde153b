#!/usr/bin/env python3
"""Write the nginx site for this deployment from the environment: ``deploy/nginx/scorekeeper.conf`` with its
single-machine values (upstreams on 127.0.0.1, scores.example.org, /srv/scorekeeper) replaced.

    WEB_UPSTREAMS=10.0.0.11:8001,10.0.0.12:8001 LIVE_UPSTREAM=10.0.0.12:8003 SERVER_NAME=scores.example.org \\
        python3 deploy/nginx_site.py /etc/nginx/sites-enabled/scorekeeper.conf

(without a path it prints the site; with one it replaces the file whole, or leaves it alone when a value is wrong)

Only the standard library: the proxy host needs python3, not the app's virtualenv. Every variable is optional
and defaults to the value in the file (one machine, deploy/README.md):

    WEB_UPSTREAMS        host:port of every gunicorn web process, comma-separated  (127.0.0.1:8001,127.0.0.1:8002)
    LIVE_UPSTREAM        host:port of the uvicorn live-events process             (127.0.0.1:8003)
    SERVER_NAME          the site's name(s), space-separated                      (scores.example.org)
    LISTEN_HTTP          nginx's plain-HTTP listen (redirects to HTTPS)           (80)
    LISTEN_HTTPS         nginx's TLS listen                                        (443)
    TLS_CERTIFICATE      the certificate chain file       (/etc/letsencrypt/live/<first SERVER_NAME>/fullchain.pem)
    TLS_CERTIFICATE_KEY  its key                          (/etc/letsencrypt/live/<first SERVER_NAME>/privkey.pem)
    NGINX_STATIC_ROOT    the collected static files on the proxy host, from the same commit as the web hosts
                                                                                  (/srv/scorekeeper/staticfiles/)
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

SITE = Path(__file__).resolve().parent / "nginx" / "scorekeeper.conf"
_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}$")
_LISTEN = re.compile(r"^((\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?[0-9]{1,5}$")
_NAME = re.compile(r"^[A-Za-z0-9.*_-]+( [A-Za-z0-9.*_-]+)*$")
_PATH = re.compile(r"^/[^\s;{}'\"]*$")


class ConfigError(ValueError):
    pass


def _value(env: Mapping[str, str], name: str, default: str, pattern: re.Pattern[str]) -> str:
    value = env.get(name, "").strip() or default
    if not pattern.match(value):
        raise ConfigError(f"config error: {name}: cannot use {value!r} in the nginx site")
    return value


def _upstreams(env: Mapping[str, str], name: str, default: str) -> list[str]:
    raw = env.get(name, "").strip() or default
    found = [item.strip() for item in raw.split(",") if item.strip()]
    for item in found:
        if not _HOST_PORT.match(item):
            raise ConfigError(f"config error: {name}: expected host:port[,host:port...], got {item!r}")
    return found


def _servers(text: str, upstream: str, addresses: list[str]) -> str:
    """Put one ``server`` line per address in the named upstream block, with the options of the file's first."""
    block = re.search(r"(upstream " + upstream + r" \{\n)(.*?)(\n\})", text, re.S)
    if block is None:
        raise ConfigError(f"deploy/nginx/scorekeeper.conf has no upstream {upstream}")
    lines = block.group(2).split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("server "))
    indent, options = re.match(r"(\s*)server \S+?(\s[^;]*)?;", lines[first]).groups()  # type: ignore[union-attr]
    kept = [line for line in lines if not line.strip().startswith("server ")]
    new = [f"{indent}server {address}{options or ''};" for address in addresses]
    body = "\n".join(kept[:first] + new + kept[first:])
    return text[: block.start(2)] + body + text[block.end(2) :]


def render(env: Mapping[str, str]) -> str:
    """The site file for ``env`` (raises ConfigError with one line naming the variable)."""
    text = SITE.read_text()
    text = _servers(text, "scorekeeper_web", _upstreams(env, "WEB_UPSTREAMS", "127.0.0.1:8001,127.0.0.1:8002"))
    text = _servers(text, "scorekeeper_live", _upstreams(env, "LIVE_UPSTREAM", "127.0.0.1:8003"))
    names = _value(env, "SERVER_NAME", "scores.example.org", _NAME)
    first = names.split()[0]
    # the alias of a location ending in / must end in / too
    static = _value(env, "NGINX_STATIC_ROOT", "/srv/scorekeeper/staticfiles/", _PATH).rstrip("/") + "/"
    replacements = {
        "server_name scores.example.org;": f"server_name {names};",
        "listen 80;": f"listen {_value(env, 'LISTEN_HTTP', '80', _LISTEN)};",
        "listen 443 ssl http2;": f"listen {_value(env, 'LISTEN_HTTPS', '443', _LISTEN)} ssl http2;",
        "/etc/letsencrypt/live/scores.example.org/fullchain.pem": _value(
            env, "TLS_CERTIFICATE", f"/etc/letsencrypt/live/{first}/fullchain.pem", _PATH
        ),
        "/etc/letsencrypt/live/scores.example.org/privkey.pem": _value(
            env, "TLS_CERTIFICATE_KEY", f"/etc/letsencrypt/live/{first}/privkey.pem", _PATH
        ),
        "/srv/scorekeeper/staticfiles/": static,
    }
    for old, new in replacements.items():
        if old not in text:
            raise ConfigError(f"deploy/nginx/scorekeeper.conf no longer holds {old!r}")
        text = text.replace(old, new)
    return text


def main(argv: list[str]) -> int:
    """Print the site, or with a path write it there (whole or not at all: a temporary file renamed over it)."""
    try:
        text = render(os.environ)
    except ConfigError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    if not argv:
        sys.stdout.write(text)
        return 0
    target = Path(argv[0])
    partial = target.with_name(f".{target.name}.new")
    partial.write_text(text)
    partial.replace(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

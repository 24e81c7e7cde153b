"""``make faults-hosts`` (issue 49): the multi-host layout of deploy/README.md on one machine, and what its faults
cost. Needs root (network namespaces, nftables); not part of ``make test``.

Six network namespaces joined by a bridge of their own (the machine's own network is not touched, and nothing is
routed out of them), each host started from the environment alone, as deploy/README.md says:

    data   10.49.0.10  PostgreSQL (a private cluster, initdb under var/drill/) and Redis
    web1   10.49.0.11  gunicorn :8001
    web2   10.49.0.12  gunicorn :8001, uvicorn (live events) :8003
    work   10.49.0.13  Celery worker (prefork, 2) and beat
    proxy  10.49.0.20  nginx, TLS :443, the site written by deploy/nginx_site.py
    client 10.49.0.30  the phones (this script, run again inside the namespace)

with the firewall rules of deploy/README.md on every host. Then: a forged X-Forwarded-For sent straight to a web
host; the live delay across hosts (a save through nginx, the event on a phone whose stream uvicorn on web2
serves); and 10 saves a second for 80 s from four phones (each save retried with its Idempotency-Key on no
answer or a 5xx, as the phones do) while web1 is SIGKILLed (t=10 s, back at 20 s), the worker is SIGKILLed and
restarted (t=30 s / 32 s) and Redis is stopped for 10 s (t=45 s / 55 s, restarted empty). Figures: saves
answered, stored, doubled, lost; seconds until the statistics hold every round saved up to the end of each fault;
log lines the web hosts wrote during the Redis outage. Everything it starts is stopped at the end; logs stay in
var/drill/log/.

    sudo make faults-hosts        # or: .venv/bin/python tests/faults/hosts_drill.py [--seconds 80]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VAR = ROOT / "var" / "drill"
LOG = VAR / "log"
PY = str(ROOT / ".venv" / "bin" / "python")
BIN = ROOT / ".venv" / "bin"
NET = "10.49.0"
HOSTS = {"data": 10, "web1": 11, "web2": 12, "work": 13, "proxy": 20, "client": 30}
PREFIX = "skh-"
SERVER_NAME = "scores.drill"


def pg_bin(name: str) -> str:
    """A PostgreSQL server program: on PATH, or in Debian's versioned directory (not on PATH there)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not candidates:
        sys.exit(f"faults-hosts: PostgreSQL's {name} is missing")
    return str(candidates[-1])


def addr(host: str) -> str:
    return f"{NET}.{HOSTS[host]}"


def ns(host: str) -> list[str]:
    return ["ip", "netns", "exec", PREFIX + host]


def sh(*argv: str, check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    found = subprocess.run(list(argv), capture_output=True, text=True, check=False)
    if check and found.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({found.returncode}): {found.stderr.strip()[-2000:]}")
    if not quiet and found.stderr.strip() and found.returncode != 0:
        print(found.stderr.strip())
    return found


# --- the network ----------------------------------------------------------------------------------------------


def network_down() -> None:
    for host in [*HOSTS, "net"]:
        sh("ip", "netns", "del", PREFIX + host, check=False, quiet=True)


def network_up() -> None:
    """A bridge in its own namespace, one veth per host; no address or route outside 10.49.0.0/24."""
    network_down()
    sh("ip", "netns", "add", PREFIX + "net")
    sh("ip", "-n", PREFIX + "net", "link", "add", "br0", "type", "bridge")
    sh("ip", "-n", PREFIX + "net", "link", "set", "br0", "up")
    for host in HOSTS:
        name = PREFIX + host
        sh("ip", "netns", "add", name)
        sh("ip", "-n", name, "link", "set", "lo", "up")
        sh("ip", "link", "add", f"v-{host}", "netns", PREFIX + "net", "type", "veth", "peer", "name", "eth0",
           "netns", name)  # fmt: skip
        sh("ip", "-n", PREFIX + "net", "link", "set", f"v-{host}", "master", "br0", "up")
        sh("ip", "-n", name, "addr", "add", f"{addr(host)}/24", "dev", "eth0")
        sh("ip", "-n", name, "link", "set", "eth0", "up")


def firewall() -> None:
    """deploy/README.md's rules: the web hosts take their ports from the proxy only, the data host PostgreSQL and
    Redis from the web and worker hosts only, the worker host nothing; the proxy 80 and 443 from anyone."""
    apps = ", ".join(addr(h) for h in ("web1", "web2", "work"))
    rules = {
        "web1": f"tcp dport {{ 8001, 8003 }} ip saddr {addr('proxy')} accept",
        "web2": f"tcp dport {{ 8001, 8003 }} ip saddr {addr('proxy')} accept",
        "data": f"tcp dport {{ 5432, 6379 }} ip saddr {{ {apps} }} accept",
        "work": "",
        "proxy": "tcp dport { 80, 443 } accept",
    }
    for host, allow in rules.items():
        text = (
            "table inet scorekeeper {\n  chain input {\n    type filter hook input priority 0; policy drop;\n"
            "    ct state established,related accept\n    iif lo accept\n    icmp type echo-request accept\n"
            f"    {allow}\n  }}\n}}\n"
        )
        path = VAR / f"nft-{host}.conf"
        path.write_text(text)
        sh(*ns(host), "nft", "-f", str(path))


# --- processes --------------------------------------------------------------------------------------------------


class Procs:
    def __init__(self) -> None:
        self.running: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, host: str, argv: list[str], env: dict[str, str], *, user: str | None = None) -> None:
        LOG.mkdir(parents=True, exist_ok=True)
        prefix = ns(host) + (["runuser", "-u", user, "--"] if user else [])
        with open(LOG / f"{name}.log", "ab") as out:
            self.running[name] = subprocess.Popen(
                prefix + argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.running.pop(name, None)
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def stop_all(self) -> None:
        for name in list(self.running):
            self.kill(name, signal.SIGTERM)


def app_env(host: str, secret: str, **extra: str) -> dict[str, str]:
    """What /etc/scorekeeper.env holds on an app host of this layout (deploy/production.env.example)."""
    env = {
        "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/sbin:/usr/bin:/sbin:/bin')}",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": secret,
        "ALLOWED_HOSTS": SERVER_NAME,
        "CSRF_TRUSTED_ORIGINS": f"https://{SERVER_NAME}",
        "DATABASE_URL": f"postgres://postgres@{addr('data')}:5432/scorekeeper",
        "REDIS_URL": f"redis://{addr('data')}:6379/0",
        "BIND_ADDRESS": addr(host),
        "FORWARDED_ALLOW_IPS": addr("proxy"),
        "TRUSTED_PROXIES": "1",
        "STATIC_ROOT": str(VAR / host / "static"),
        "THROTTLE_WRITES": "100000/min",
        "LOG_LEVEL": "WARNING",
    }
    env.update(extra)
    return env


def wait_until(check: Any, timeout: float, interval: float = 0.25) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(interval)


class Drill:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.procs = Procs()
        self.secret = secrets.token_urlsafe(50)
        self.pg = VAR / "pg"
        self.sock = VAR / "sock"

    # data host
    def psql(self, sql: str) -> str:
        found = sh(*ns("data"), "psql", "-h", str(self.sock), "-p", "5432", "-U", "postgres", "-d", "scorekeeper",
                   "-tAc", sql)  # fmt: skip
        return found.stdout.strip()

    def redis(self, *args: str, check: bool = True) -> str:
        return sh(*ns("data"), "redis-cli", "-h", addr("data"), *args, check=check, quiet=True).stdout.strip()

    def start_data(self) -> None:
        if self.pg.exists():
            shutil.rmtree(self.pg)
        self.pg.mkdir(parents=True)
        self.sock.mkdir(parents=True, exist_ok=True)
        shutil.chown(self.pg, "postgres", "postgres")
        shutil.chown(self.sock, "postgres", "postgres")
        sh("runuser", "-u", "postgres", "--", pg_bin("initdb"), "-D", str(self.pg), "-A", "trust", "-U", "postgres")
        with open(self.pg / "pg_hba.conf", "a") as hba:  # the drill trusts its own hosts; deploy/README.md: scram
            hba.write(f"host all all {NET}.0/24 trust\n")
        # its own socket directory: the shared cluster's socket in /var/run/postgresql stays untouched
        options = (
            f"-p 5432 -c listen_addresses={addr('data')} -c unix_socket_directories={self.sock} "
            "-c fsync=off -c shared_buffers=64MB -c max_connections=200"
        )
        sh(*ns("data"), "runuser", "-u", "postgres", "--", pg_bin("pg_ctl"), "-D", str(self.pg), "-o", options, "-w",
           "-l", str(self.pg / "server.log"), "start")  # fmt: skip
        sh(*ns("data"), "psql", "-h", str(self.sock), "-U", "postgres", "-qc", "CREATE DATABASE scorekeeper")
        self.start_redis()

    def start_redis(self) -> None:
        (VAR / "redis").mkdir(parents=True, exist_ok=True)
        sh(*ns("data"), "redis-server", "--bind", addr("data"), "--port", "6379", "--protected-mode", "no",
           "--save", "", "--appendonly", "no", "--dir", str(VAR / "redis"), "--daemonize", "yes",
           "--logfile", str(LOG / "redis.log"), "--pidfile", str(VAR / "redis" / "redis.pid"))  # fmt: skip
        assert wait_until(lambda: self.redis("ping", check=False) == "PONG", 10), "redis did not start"

    def stop_data(self) -> None:
        self.redis("shutdown", "nosave", check=False)
        if self.pg.exists():
            sh(*ns("data"), "runuser", "-u", "postgres", "--", pg_bin("pg_ctl"), "-D", str(self.pg), "-m", "immediate",
               "stop", check=False, quiet=True)  # fmt: skip

    # app hosts
    def prepare(self) -> dict[str, Any]:
        """Migrate, collect the static files once and copy them to each web host and the proxy (deploy/README.md:
        the same commit's files everywhere), and make a table: a member with a token and a session, four matches."""
        env = app_env("web1", self.secret)
        subprocess.run([*ns("web1"), PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        collected = VAR / "collected"
        subprocess.run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, check=True,
                       env={**env, "STATIC_ROOT": str(collected), "DATABASE_URL": "sqlite:///:memory:",
                            "REDIS_URL": ""})  # fmt: skip
        for host in ("web1", "web2", "proxy"):
            target = VAR / host / "static"
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(collected, target)
        code = (
            "import json, django; django.setup()\n"
            "from django.conf import settings\n"
            "from django.contrib.auth import get_user_model\n"
            "from django.test import Client\n"
            "from rest_framework.authtoken.models import Token\n"
            "from analytics.stats import ALL\n"
            "from scoring import services\n"
            "user = get_user_model().objects.create_user('drill', password=None)\n"
            "token = Token.objects.create(user=user)\n"
            "group = services.group_create(name='Drill', user=user, player_name='Anna')\n"
            "players = [group.players.get().pk] + [services.player_create(group=group, name=n, user=user).pk\n"
            "    for n in ('Béla', 'Cili')]\n"
            "matches = [services.match_create(group=group, ruleset='abluxxen', options={'games': 100},\n"
            "    player_ids=players, user=user).pk for _ in range(12)]\n"
            "c = Client(); c.force_login(user)\n"
            "cookie = settings.SESSION_COOKIE_NAME + '=' + c.cookies[settings.SESSION_COOKIE_NAME].value\n"
            "print(json.dumps({'token': token.key, 'group': group.pk, 'matches': matches, 'all': ALL.key,\n"
            "    'cookie': cookie}))\n"
        )
        made = subprocess.run([*ns("web1"), PY, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        if made.returncode != 0:
            raise RuntimeError(f"the table could not be made:\n{made.stderr[-3000:]}")
        return dict(json.loads(made.stdout.strip().splitlines()[-1]))

    def start_web(self, host: str) -> None:
        env = app_env(host, self.secret, WEB_PORT="8001", GUNICORN_WORKERS="2", GUNICORN_THREADS="4",
                      GUNICORN_ACCESSLOG=str(LOG / f"{host}-access.log"))  # fmt: skip
        self.procs.start(host, host, [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py"], env)

    def start_live(self) -> None:
        env = app_env("web2", self.secret)
        argv = [str(BIN / "uvicorn"), "config.asgi:application", "--host", addr("web2"), "--port", "8003",
                "--lifespan", "off", "--no-access-log", "--proxy-headers", "--forwarded-allow-ips",
                addr("proxy"), "--timeout-graceful-shutdown", "3"]  # fmt: skip
        self.procs.start("live", "web2", argv, env)

    def start_worker(self) -> None:
        argv = [str(BIN / "celery"), "-A", "config", "worker", "-n", "drill@%h", "--concurrency", "2", "-l", "INFO"]
        self.procs.start("worker", "work", argv, app_env("work", self.secret))

    def start_beat(self) -> None:
        argv = [str(BIN / "celery"), "-A", "config", "beat", "-l", "INFO", "--schedule", str(VAR / "beat-schedule")]
        self.procs.start("beat", "work", argv, app_env("work", self.secret))

    def start_proxy(self) -> None:
        proxy = VAR / "proxy"
        proxy.mkdir(parents=True, exist_ok=True)
        sh("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={SERVER_NAME}",
           "-keyout", str(proxy / "key.pem"), "-out", str(proxy / "cert.pem"))  # fmt: skip
        env = {
            "PATH": os.environ.get("PATH", ""),
            "WEB_UPSTREAMS": f"{addr('web1')}:8001,{addr('web2')}:8001",
            "LIVE_UPSTREAM": f"{addr('web2')}:8003",
            "SERVER_NAME": SERVER_NAME,
            "TLS_CERTIFICATE": str(proxy / "cert.pem"),
            "TLS_CERTIFICATE_KEY": str(proxy / "key.pem"),
            "NGINX_STATIC_ROOT": str(proxy / "static"),
        }
        site = subprocess.run([sys.executable, "deploy/nginx_site.py"], cwd=ROOT, env=env, capture_output=True,
                              text=True, check=True).stdout  # fmt: skip
        (proxy / "site.conf").write_text(site)
        (proxy / "nginx.conf").write_text(
            f"pid {proxy}/nginx.pid;\nerror_log {LOG}/nginx-error.log warn;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n include /etc/nginx/mime.types;\n access_log {LOG}/nginx-access.log;\n"
            f" client_body_temp_path {proxy}; proxy_temp_path {proxy}; fastcgi_temp_path {proxy};\n"
            f" uwsgi_temp_path {proxy}; scgi_temp_path {proxy};\n include {proxy}/site.conf;\n}}\n"
        )
        sh(*ns("proxy"), "nginx", "-t", "-c", str(proxy / "nginx.conf"), "-p", str(proxy))
        self.procs.start("nginx", "proxy", ["nginx", "-c", str(proxy / "nginx.conf"), "-p", str(proxy), "-g",
                                            "daemon off;"], {"PATH": os.environ.get("PATH", "")})  # fmt: skip

    def healthy(self) -> bool:
        resolve = f"{SERVER_NAME}:443:{addr('proxy')}"
        found = sh(*ns("client"), "curl", "-ks", "-o", "/dev/null", "-w", "%{http_code}", "--resolve", resolve,
                   f"https://{SERVER_NAME}/healthz", check=False, quiet=True)  # fmt: skip
        return found.stdout.strip() == "200"

    # statistics
    def stored(self, group: int) -> int:
        return int(self.psql(
            f"SELECT count(*) FROM scoring_round r JOIN scoring_match m ON m.id = r.match_id "
            f"WHERE m.group_id = {group} AND r.deleted_at IS NULL"
        ))  # fmt: skip

    def in_stats(self, group: int, all_key: str) -> int:
        value = self.psql(
            f"SELECT coalesce(payload->'summary'->>'rounds_entered', '0') FROM analytics_snapshot "
            f"WHERE scope = 'group' AND group_id = {group} AND filter_key = '{all_key}'"
        )
        return int(value or 0)

    def fresh_after(self, group: int, all_key: str, since: float, limit: float = 120.0) -> float | None:
        """Seconds from ``since`` until the statistics hold every round stored at that moment."""
        target = self.stored(group)
        found = wait_until(lambda: self.in_stats(group, all_key) >= target, limit, 0.2)
        return time.monotonic() - since if found else None


# --- the phones (run inside the client namespace) -------------------------------------------------------------


def _session() -> Any:
    import requests
    import urllib3

    urllib3.disable_warnings()
    session = requests.Session()
    session.verify = False  # the drill's self-signed certificate
    session.trust_env = False  # no proxy or CA bundle from the environment: the hosts are in the namespaces
    return session


def _save(session: Any, plan: dict[str, Any], match: int, n: int) -> dict[str, Any]:
    """One round from a phone: retried with the same Idempotency-Key on no answer or a 5xx (up to ~20 s)."""
    key = uuid.uuid4().hex
    body = {"facts": {"front": [8 + n % 7, 5 + n % 3, 4], "hand": [0, 1 + n % 4, 2 + n % 5], "end": "out"}}
    headers = {"Authorization": f"Token {plan['token']}", "Idempotency-Key": key, "Host": SERVER_NAME}
    statuses: list[int] = []
    began = time.time()
    for attempt in range(12):
        try:
            response = session.post(f"https://{addr('proxy')}/api/v1/matches/{match}/rounds", json=body,
                                    headers=headers, timeout=15)  # fmt: skip
            statuses.append(response.status_code)
            if response.status_code < 500:
                break
        except Exception:
            statuses.append(0)
            session.close()
        time.sleep(min(0.2 * 2**attempt, 3.0))
    return {"match": match, "key": key, "statuses": statuses, "sent": began, "took": time.time() - began}


def _live(plan: dict[str, Any]) -> dict[str, Any]:
    """Open a match's events stream (served by uvicorn on web2 through nginx), save ten rounds through the API (on
    web1 or web2), and time each from the moment the save is sent to its event on the stream (the event is
    published when the save commits, a moment before its answer reaches the phone that saved)."""
    import queue

    session = _session()
    match = plan["matches"][-1]
    events: queue.Queue[tuple[float, str]] = queue.Queue()
    stream = _session().get(f"https://{addr('proxy')}/matches/{match}/events", stream=True, timeout=30,
                            headers={"Cookie": plan["cookie"], "Host": SERVER_NAME,
                                     "Accept": "text/event-stream"})  # fmt: skip

    def read() -> None:
        try:
            for line in stream.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    events.put((time.monotonic(), line[5:].strip()))
        except (AttributeError, OSError, ValueError):  # the stream closed under it at the end
            return

    threading.Thread(target=read, daemon=True).start()
    events.get(timeout=10)  # the opening event (the current version)
    delays = []
    for n in range(10):
        sent = time.monotonic()
        result = _save(session, plan, match, 1000 + n)
        try:
            at, _version = events.get(timeout=5)
            delays.append(round((at - sent) * 1000, 1))  # the save sent -> the event on the other phone
        except queue.Empty:
            delays.append(None)
        assert result["statuses"][-1] == 201, result
        time.sleep(0.3)
    stream.close()
    return {"status": stream.status_code, "delays_ms": delays}


def _forged(plan: dict[str, Any]) -> dict[str, Any]:
    """A direct POST to web1's port with a made-up X-Forwarded-For: the firewall drops it."""
    import requests

    try:
        response = _session().post(f"http://{addr('web1')}:8001/api/v1/auth/token", timeout=3,
                                 headers={"X-Forwarded-For": "203.0.113.9", "Host": SERVER_NAME},
                                 json={"username": "x", "password": "y"})  # fmt: skip
        return {"reached": True, "status": response.status_code}
    except requests.RequestException as exc:
        return {"reached": False, "error": type(exc).__name__}


def client(plan_path: Path, out_path: Path) -> None:
    plan = json.loads(plan_path.read_text())
    found: dict[str, Any] = {"direct": _forged(plan), "live": _live(plan)}
    out_path.write_text(json.dumps(found))
    # the load: 10 saves a second, spread over the matches, four phones in parallel
    from concurrent.futures import ThreadPoolExecutor

    sessions = threading.local()
    start = plan["start"]
    total = int(plan["seconds"] * 10)

    def one(i: int) -> dict[str, Any]:
        due = start + i / 10
        if due > time.time():
            time.sleep(due - time.time())
        if not hasattr(sessions, "s"):
            sessions.s = _session()
        return _save(sessions.s, plan, plan["matches"][i % (len(plan["matches"]) - 1)], i)

    with ThreadPoolExecutor(16) as pool:
        found["saves"] = list(pool.map(one, range(total)))
    out_path.write_text(json.dumps(found))


# --- the drill --------------------------------------------------------------------------------------------------


def run(seconds: float) -> dict[str, Any]:
    if os.geteuid() != 0:
        sys.exit("faults-hosts: needs root (network namespaces, nftables, a private PostgreSQL as user postgres)")
    for tool in ("nft", "nginx", "redis-server", "curl", "psql"):
        if shutil.which(tool) is None:
            sys.exit(f"faults-hosts: {tool} is missing (make faults-hosts installs nftables and nginx)")
    VAR.mkdir(parents=True, exist_ok=True)
    if LOG.exists():
        shutil.rmtree(LOG)
    LOG.mkdir(parents=True)
    drill = Drill(seconds)
    report: dict[str, Any] = {}
    try:
        network_up()
        firewall()
        drill.start_data()
        plan = drill.prepare()
        drill.start_web("web1")
        drill.start_web("web2")
        drill.start_live()
        drill.start_worker()
        drill.start_beat()
        drill.start_proxy()
        assert wait_until(drill.healthy, 90, 0.5), "the stack did not answer through nginx"
        print("drill: six hosts up, the site answers through nginx")

        plan.update(seconds=seconds, start=time.time() + 25)  # the live check runs first
        (VAR / "plan.json").write_text(json.dumps(plan))
        out = VAR / "client.json"
        phones = subprocess.Popen([*ns("client"), PY, str(Path(__file__).resolve()), "client", str(VAR / "plan.json"),
                                   str(out)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        group, all_key = plan["group"], plan["all"]
        t0 = plan["start"]

        def at(offset: float) -> None:
            time.sleep(max(0.0, t0 + offset - time.time()))
            if phones.poll() is not None:
                raise RuntimeError(f"the phones stopped early ({phones.returncode}); see the output above")

        faults: dict[str, Any] = {}
        at(10)
        drill.procs.kill("web1")
        faults["web1_killed_at"] = round(time.time() - t0, 1)
        faults["stats_fresh_after_web1_kill_s"] = drill.fresh_after(group, all_key, time.monotonic())
        at(20)
        drill.start_web("web1")
        at(30)
        drill.procs.kill("worker")
        faults["worker_unacked_after_kill"] = drill.redis("hlen", "unacked", check=False)
        at(32)
        drill.start_worker()
        faults["stats_fresh_after_worker_restart_s"] = drill.fresh_after(group, all_key, time.monotonic())
        at(45)
        web_logs = {h: (LOG / f"{h}.log").stat().st_size for h in ("web1", "web2", "live")}
        drill.redis("shutdown", "nosave", check=False)
        at(55)
        drill.start_redis()
        faults["stats_fresh_after_redis_return_s"] = drill.fresh_after(group, all_key, time.monotonic())
        time.sleep(5)
        noise = {}
        for host, offset in web_logs.items():
            text = (LOG / f"{host}.log").read_bytes()[offset:].decode(errors="replace")
            noise[host] = {"lines": len(text.splitlines()), "tracebacks": text.count("Traceback")}
        faults["log_during_and_after_redis_outage"] = noise
        phones.wait(timeout=seconds + 120)
        found = json.loads(out.read_text())
        saves = found["saves"]
        answered = sum(1 for s in saves if s["statuses"] and s["statuses"][-1] == 201)
        stored = drill.stored(group) - 10  # the live check's ten rounds
        final_fresh = wait_until(lambda: drill.in_stats(group, all_key) >= drill.stored(group), 120, 0.5)
        retried = sum(1 for s in saves if len(s["statuses"]) > 1)
        report = {
            "hosts": {h: addr(h) for h in HOSTS},
            "direct_forged_post": found["direct"],
            "live_delay_ms": found["live"]["delays_ms"],
            "saves": {
                "sent": len(saves),
                "answered_201": answered,
                "stored": stored,
                "doubled": max(0, stored - answered),
                "lost": max(0, answered - stored),
                "retried": retried,
                "statuses": _tally(s["statuses"][-1] if s["statuses"] else 0 for s in saves),
                "max_seconds": round(max(s["took"] for s in saves), 2),
            },
            "faults": faults,
            "statistics_fresh_at_end": bool(final_fresh),
            "unacked_at_end": drill.redis("hlen", "unacked", check=False),
        }
    finally:
        drill.procs.stop_all()
        drill.stop_data()
        network_down()
    return report


def _tally(values: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for value in values:
        counts[str(value)] = counts.get(str(value), 0) + 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="role")
    phones = sub.add_parser("client")
    phones.add_argument("plan", type=Path)
    phones.add_argument("out", type=Path)
    parser.add_argument("--seconds", type=float, default=80.0)
    args = parser.parse_args()
    if args.role == "client":
        client(args.plan, args.out)
        return
    report = run(args.seconds)
    print(json.dumps(report, indent=2))
    (VAR / "report.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

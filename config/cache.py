"""Django's Redis cache with its client object kept.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around the connection pool on every cache
call, and redis-py's constructor fills a dictionary of some 170 response callbacks each time: the write throttle's
read and write of its counter made two of them a request, about 6 % of a round write's CPU (cProfile over 500
rounds, ``tests/benchmarks/bench_floor.py``).  The pools were already kept; this keeps the client built around
each pool as well (a ``redis.Redis`` is safe to share between threads: every command takes a connection from the
pool).  Everything else is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as _RedisCache
from django.core.cache.backends.redis import RedisCacheClient as _RedisCacheClient


class RedisCacheClient(_RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(_RedisCache):
    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

"""Rate limits: a token bucket per connection (``burst`` messages at once, ``rate`` per second),
open connections per client address, and events (tables created) per address per minute."""

from __future__ import annotations

import time
from collections import deque


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one (True), else refuse (False)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class OpenCount:
    """Open connections per client address (an address without any is forgotten)."""

    def __init__(self) -> None:
        self.open: dict[str, int] = {}

    def enter(self, address: str, limit: int) -> bool:
        """Count one more connection from ``address`` (True), or refuse it at ``limit`` (False; 0: no limit)."""
        n = self.open.get(address, 0)
        if limit and n >= limit:
            return False
        self.open[address] = n + 1
        return True

    def leave(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)


class Window:
    """At most ``limit`` events per address in any ``span`` seconds (a sliding window)."""

    def __init__(self, limit: int, span: float = 60.0) -> None:
        self.limit, self.span = limit, span
        self.stamps: dict[str, deque[float]] = {}

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may have another event (0: now)."""
        stamps = self._recent(address)
        if not self.limit or len(stamps) < self.limit:
            return 0.0
        return max(0.0, stamps[0] + self.span - time.monotonic())

    def add(self, address: str) -> None:
        self._recent(address).append(time.monotonic())

    def _recent(self, address: str) -> deque[float]:
        now = time.monotonic()
        if len(self.stamps) > 10_000:  # forget addresses whose events are all old
            self.stamps = {a: s for a, s in self.stamps.items() if s and s[-1] > now - self.span}
        stamps = self.stamps.setdefault(address, deque())
        while stamps and stamps[0] <= now - self.span:
            stamps.popleft()
        return stamps

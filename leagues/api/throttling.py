"""API throttles counted per client across every web process and host (leagues/rate_limits.py, in Redis),
failing open when Redis does not answer. The client is the address the configured proxies report."""

from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from .. import rate_limits


class SharedCounter(SimpleRateThrottle):
    """DRF's rate throttle with its history kept in the shared counter instead of process memory."""

    def get_ident(self, request):
        return rate_limits.client_address(request)

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        counted = rate_limits.take(f"api-{self.key}", self.num_requests, self.duration)
        if counted is None:
            return True  # fail open: the counter is down
        allowed, left, self.seconds_left = counted
        # the answer's X-RateLimit-* headers (leagues.api.middleware): the tightest of the client's limits
        limit = (self.num_requests, left, self.seconds_left)
        tightest = getattr(request._request, "rate_limit", None)
        if tightest is None or limit[1] < tightest[1]:
            request._request.rate_limit = limit
        return allowed

    def wait(self):
        return self.seconds_left


class AnonThrottle(SharedCounter, AnonRateThrottle):
    pass


class UserThrottle(SharedCounter, UserRateThrottle):
    def get_cache_key(self, request, view):
        # an anonymous client is counted by AnonThrottle (the tighter limit): one Redis round trip, not two
        return super().get_cache_key(request, view) if request.user and request.user.is_authenticated else None


class ExportThrottle(SharedCounter, SimpleRateThrottle):
    """The open-data downloads per address, whoever asks (a token's user too): a download costs more than a page (a
    big event's file is megabytes, and each new copy a worker's build), so it has its own, lower rate (settings
    API_EXPORT_RATE), counted besides the client's rate for every request."""

    scope = "export"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

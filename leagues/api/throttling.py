"""Throttles that count in process memory: a shared-cache round trip per request would cost more than
the requests they protect. Each web process enforces the rate on its own share of the traffic."""

from django.core.cache import caches
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class AnonThrottle(AnonRateThrottle):
    cache = caches["throttle"]


class UserThrottle(UserRateThrottle):
    cache = caches["throttle"]

from .base import *  # noqa: F403

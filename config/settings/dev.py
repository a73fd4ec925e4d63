from config.env import env_bool

from .base import *  # noqa: F403

# the demo's and tests' webhook receivers run on this machine
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", True)

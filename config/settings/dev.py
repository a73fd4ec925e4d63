from config.env import env_bool

from .base import *  # noqa: F403

# off as in production (a webhook could otherwise reach this machine's or its network's services);
# WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true for a receiver on this machine (the tests' workers set it)
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", False)

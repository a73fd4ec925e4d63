"""The image's health check: the local gunicorn answers /ping (exit 0), or it does not (exit 1).

Asks with a host name the site accepts (the first of ALLOWED_HOSTS), over plain HTTP inside the
container; the production settings exempt /ping from the HTTPS redirect. Standard library only.
"""

import os
import sys
import urllib.request

hosts = [h.strip().lstrip(".") for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip() not in ("", "*")]
port = os.environ.get("PORT", "8000")
request = urllib.request.Request(f"http://127.0.0.1:{port}/ping", headers={"Host": hosts[0] if hosts else "localhost"})
try:
    with urllib.request.urlopen(request, timeout=3) as response:  # noqa: S310 - a fixed http://127.0.0.1 URL
        sys.exit(0 if response.status == 200 else 1)
except OSError as exc:
    print(f"health check failed: {exc}", file=sys.stderr)
    sys.exit(1)

"""A webhook receiver process for the tests: `python webhook_receiver.py PORT LOG STATUS [DELAY [TRICKLE]]`.

Appends one JSON line per request (headers and raw body) to LOG, answers STATUS after DELAY seconds. With TRICKLE,
the answer comes one byte every TRICKLE seconds (38 bytes: two and a half minutes at 4 s)."""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, LOG, STATUS = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
DELAY = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
TRICKLE = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(LOG, "a") as log:
            log.write(json.dumps({"at": time.time(), "headers": dict(self.headers), "body": body.decode()}) + "\n")
        time.sleep(DELAY)
        if TRICKLE:
            self.trickle()
            return
        self.send_response(STATUS)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def trickle(self):
        for byte in f"HTTP/1.1 {STATUS} OK\r\nContent-Length: 0\r\n\r\n".encode():
            try:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            except OSError:
                return  # the sender gave up
            time.sleep(TRICKLE)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Receiver).serve_forever()

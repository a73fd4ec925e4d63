"""Separate hosts on this machine: network namespaces joined to this one by veth pairs (needs root and `ip`).

A process started in a namespace sees only its own loopback and its link to this namespace. PostgreSQL and
Redis listen on this namespace's 127.0.0.1, so each link's address here gets a small TCP relay to them: a
process in a namespace reaches them as 10.S.N.1, and this process reaches it as 10.S.N.2.
"""

import os
import shutil
import socket
import subprocess
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass


def namespaces_available() -> bool:
    if os.geteuid() != 0 or not shutil.which("ip"):
        return False
    probe = f"clprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode == 0
    if made:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return made


class Relay:
    """Accepts connections on (host, port) and passes each one on to 127.0.0.1:target, both ways. A side
    that closes (a killed process's socket) closes the other, so PostgreSQL ends that session at once."""

    def __init__(self, host: str, port: int, target: int):
        self.target = target
        self.listener = socket.create_server((host, port))
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets.update((client, upstream))
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in (source, sink):  # one side ended: end the connection
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.close()
                except OSError:
                    pass


@dataclass
class Host:
    name: str  # the namespace
    address: str  # its address, as this namespace reaches it
    gateway: str  # this namespace's address, as the host reaches PostgreSQL and Redis

    def command(self, *args: str) -> list[str]:
        """`args` run inside the host."""
        return ["ip", "netns", "exec", self.name, *args]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


def _remove(name: str, link: str) -> None:
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    subprocess.run(["ip", "link", "del", link], capture_output=True)  # normally gone with the namespace


@contextmanager
def hosts(labels: list[str], *, relay_ports=(5432, 6379)):
    """One namespace per label, each with relays to this machine's PostgreSQL and Redis; all removed on exit,
    whatever happened (stop the processes started in them first)."""
    tag = os.getpid() % 100000
    subnet = 100 + os.getpid() % 100
    made: list[tuple[str, str]] = []
    with ExitStack() as stack:
        try:
            result = []
            for number, label in enumerate(labels, start=1):
                name, outer, inner = f"cl{tag}{label}", f"vo{tag}{number}", f"vi{tag}{number}"
                _remove(name, outer)  # a leftover of a killed run with the same process id
                made.append((name, outer))
                gateway, address = f"10.{subnet}.{number}.1", f"10.{subnet}.{number}.2"
                _ip("netns", "add", name)
                _ip("link", "add", outer, "type", "veth", "peer", "name", inner)
                _ip("link", "set", inner, "netns", name)
                _ip("addr", "add", f"{gateway}/24", "dev", outer)
                _ip("link", "set", outer, "up")
                _ip("-n", name, "addr", "add", f"{address}/24", "dev", inner)
                _ip("-n", name, "link", "set", inner, "up")
                _ip("-n", name, "link", "set", "lo", "up")
                for port in relay_ports:
                    stack.callback(Relay(gateway, port, port).close)
                result.append(Host(name, address, gateway))
            yield result
        finally:
            stack.close()
            for name, outer in made:
                _remove(name, outer)

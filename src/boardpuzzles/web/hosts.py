"""Which Host and Origin headers a web server answers, and where a link to it works.

A server on loopback (``127.0.0.1``, the default) answers only ``localhost`` and loopback
addresses (``127.0.0.1``, ``[::1]``): a page elsewhere whose DNS name is pointed at this computer
(DNS rebinding) still sends its own name, and is refused. A server that listens beyond loopback
(``serve --host 0.0.0.0``, or one address of this computer) answers, besides those, any IP
address and this computer's own names (``gethostname()``, and the same with ``.local``):
rebinding needs a DNS name of the attacker's, and an address typed by a visitor is not one.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

#: The host names a request to a loopback server may carry.
LOCAL_HOSTS = ("127.0.0.1", "localhost")
#: An address outside this computer, used only to ask the kernel which of this computer's
#: addresses leads out (a UDP socket sends nothing when it connects).
_OUTSIDE = "192.0.2.1"  # TEST-NET-1: never routed to anyone


def is_loopback(host: str) -> bool:
    """Whether a listening address (or name) is this computer only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def split_host(host: str) -> tuple[str, str] | None:
    """A Host header's name and port ("" when absent); None when it is not one."""
    host = host.strip()
    if host.startswith("["):  # [::1]:8016
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return name, rest[1:]
    name, colon, port = host.rpartition(":")
    if not colon:
        return port, ""
    if not port.isdigit() or ":" in name:
        return None
    return name, port


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def own_names() -> set[str]:
    """This computer's own names, as a visitor on the same network may type them."""
    name = socket.gethostname().lower()
    return {name, f"{name}.local"} if name else set()


class HostRules:
    """The Host and Origin checks of a server listening on ``address`` at ``port`` (see the module docstring)."""

    def __init__(self, address: str, port: int) -> None:
        self.address = address
        self.port = port
        self.public = not is_loopback(address)
        self.names = set(LOCAL_HOSTS) | (own_names() if self.public else set())

    @property
    def described(self) -> str:
        """The names it answers, for a refusal."""
        if self.public:
            return "its own addresses and names"
        return " and ".join(LOCAL_HOSTS)

    def accepts_host(self, host: str | None) -> bool:
        found = split_host(host) if host else None
        if found is None:
            return False
        name = found[0].lower()
        return name in self.names or (_is_address(name) and (self.public or is_loopback(name)))

    def accepts_origin(self, origin: str) -> bool:
        """Whether a POST's Origin is one of this server's own pages."""
        parts = urlsplit(origin.strip().lower())
        try:
            port = parts.port or 80
        except ValueError:
            return False
        netloc = parts.netloc if parts.port else f"{parts.netloc}:80"
        plain = not (parts.path or parts.query or parts.fragment or "@" in parts.netloc)
        return plain and parts.scheme == "http" and port == self.port and self.accepts_host(netloc)

    def shared_at(self, host: str | None) -> str | None:
        """Where a link to this server works for others: None on loopback (this computer
        only), else ``http://ADDRESS:PORT`` at the address the visitor used, or, when that was a
        loopback name, this computer's address on the network."""
        if not self.public:
            return None
        found = split_host(host) if host else None
        name = found[0] if found else ""
        if not name or is_loopback(name):
            name = self.network_address()
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{self.port}"

    def network_address(self) -> str:
        """The address others on the network reach this server at."""
        if not _is_address(self.address) or not ipaddress.ip_address(self.address).is_unspecified:
            return self.address
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((_OUTSIDE, 9))
                return str(probe.getsockname()[0])
        except OSError:  # no route out: the computer's name is all there is
            return socket.gethostname() or self.address

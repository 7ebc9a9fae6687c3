"""POSTing to a URL a player gave us (a webhook, a push service's endpoint) without
letting them aim the site at itself or its network (SSRF).

Only http and https. The host is resolved once, every address it resolves to is
checked (loopback, private, link-local, multicast, reserved, unspecified, in IPv4
and IPv6), and so is every IPv4 address an IPv6 address embeds (IPv4-mapped and
-compatible, 6to4, Teredo, NAT64: a relay or translator would carry the post
there); the connection goes to the address that was checked, so a DNS answer that
changes between the check and the connection (DNS rebinding) cannot slip through.
TLS still verifies the certificate for the host name. Connect and read time out
after ``PING_TIMEOUT`` seconds, no redirect is followed (a 3xx is an answer like
any other), and the response body is read only up to a small limit and thrown
away: it is never shown nor logged.

``PING_ALLOWED_NETWORKS`` (operator setting, a list of networks like
``127.0.0.0/8``) lets chosen private targets through, for tests or an intranet.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

# Enough to read a status line and headers; the rest of an answer is not ours to read.
MAX_BODY = 16 * 1024


class Refused(Exception):
    """The URL is not one the site may post to; the message says why (to the player)."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.PING_ALLOWED_NETWORKS]


# IPv6 addresses that carry an IPv4 address a gateway or relay may forward to:
# IPv4-compatible (::/96, RFC 4291), the well-known NAT64 prefix (64:ff9b::/96,
# RFC 6052); 6to4, Teredo and IPv4-mapped are read by ``ipaddress`` itself.
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# The local-use NAT64 prefix (RFC 8215): an operator's own translator, with the IPv4
# at a place that depends on the prefix length it chose; it leads into a private
# network by definition, so all of it is refused (unless allowed).
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def embedded_ipv4(ip: IP) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for (6to4, Teredo's server and client,
    NAT64, IPv4-mapped and -compatible): a post to it may reach them."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    found = [a for a in (ip.ipv4_mapped, ip.sixtofour) if a is not None]
    found += list(ip.teredo or ())  # Teredo's client is stored inverted; ``teredo`` undoes it
    if ip in NAT64 or ip in IPV4_COMPATIBLE:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def _public(ip: IP) -> bool:
    return not (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
        or ip in NAT64_LOCAL
    )


def check_address(address: str) -> None:
    """Refuse an address inside the site's own machine or network, or an IPv6 address
    that embeds one (``PING_ALLOWED_NETWORKS`` lets chosen networks through)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    allowed = allowed_networks()
    if any(ip in network for network in allowed):
        return
    for part in [ip, *embedded_ipv4(ip)]:
        if part == ip and ip.version == 6 and ip.ipv4_mapped is not None:
            continue  # an IPv4-mapped address is only the IPv4 it holds
        if not any(part in network for network in allowed) and not _public(part):
            raise Refused(_("address %(ip)s is not on the public internet") % {"ip": part})


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the checked address the connection goes to


def resolve(url: str) -> Target:
    """Check ``url`` and pick the address to connect to; raises ``Refused``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise Refused(_("not a valid URL")) from error
    if parts.scheme not in ("http", "https"):
        raise Refused(_("only http and https URLs"))
    host = parts.hostname
    if not host:
        raise Refused(_("no host name"))
    if parts.username or parts.password:
        raise Refused(_("no user name or password in the URL"))
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Refused(_("host %(host)s not found") % {"host": host}) from error
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    if not addresses:
        raise Refused(_("host %(host)s not found") % {"host": host})
    for address in addresses:  # every one: the resolver may rotate them
        check_address(address)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, path, addresses[0])


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        # The certificate is checked against the host name, not the address.
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], on_connected=None) -> Answer:
    """POST ``body`` to ``url`` once; raises ``Refused`` or ``OSError`` (timeouts too).

    ``on_connected()`` is called once the connection stands, just before the request
    is written: from then on the receiver may have it, whatever happens to us."""
    target = resolve(url)
    timeout = settings.PING_TIMEOUT
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = kind(target, timeout)
    try:
        connection.connect()
        if on_connected is not None:
            on_connected()
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(MAX_BODY)
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()})
    except http.client.HTTPException as error:
        raise OSError(f"bad answer: {type(error).__name__}") from error
    finally:
        connection.close()

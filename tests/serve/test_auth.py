"""Which bind addresses may go without a token, which tokens are refused or warned about, and
which Host/Origin headers the DNS-rebinding protection accepts for each bind address."""

from __future__ import annotations

import socket

import pytest

from astrag.errors import AstragError
from astrag.serve.auth import allowed_hosts, check_token, is_loopback, security_settings
from astrag.serve.server import check_http_options


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LocalHost", True),
        ("127.0.0.2", False),  # loopback to the kernel, but not one of the three
        ("127.1", False),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("localhost.example.com", False),
    ],
)
def test_only_three_names_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("", "the bearer token is empty"),
        (" ", "the bearer token is blank"),
        ("\t\n", "the bearer token is blank"),
        ("abc def ghi jkl mno", "cannot carry"),
        ("tok\x00en-0123456789abcdef", "cannot carry"),
        ("jeton-sécret-0123456789", "cannot carry"),
        ('"quoted-0123456789abcdef"', "cannot carry"),
    ],
)
def test_tokens_no_client_could_send_are_refused(token: str, message: str) -> None:
    with pytest.raises(AstragError, match=message) as caught:
        check_token(token)
    assert "openssl rand -hex 16" in caught.value.hint


def test_short_tokens_are_warned_about_long_ones_pass() -> None:
    assert "only 1 characters" in (check_token("a") or "")
    assert check_token("0123456789abcdef") is None
    assert check_token("dGhpcyBpcyBhIHRva2Vu+/==") is None


def test_off_loopback_a_token_is_required() -> None:
    with pytest.raises(AstragError, match=r"refusing to serve on 127\.0\.0\.2 without a bearer"):
        check_http_options("127.0.0.2", None)
    assert check_http_options("127.0.0.1", None) is None
    assert "characters" in (check_http_options("0.0.0.0", "short") or "")
    with pytest.raises(AstragError, match="blank"):
        check_http_options("127.0.0.1", "   ")


def test_allowed_hosts_follow_the_bound_address() -> None:
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
    assert allowed_hosts("127.0.0.2") == ["127.0.0.2"]
    assert allowed_hosts("[fe80::1]") == ["fe80::1"]
    assert allowed_hosts("192.168.1.20", ["mcp.internal", " "]) == ["192.168.1.20", "mcp.internal"]
    everywhere = allowed_hosts("0.0.0.0")
    assert everywhere[:3] == ["127.0.0.1", "::1", "localhost"]
    assert socket.gethostname().lower() in everywhere


def test_settings_accept_the_bound_host_on_any_port_and_its_origins() -> None:
    settings = security_settings("::1")
    assert settings.enable_dns_rebinding_protection
    assert "[::1]:*" in settings.allowed_hosts and "localhost" in settings.allowed_hosts
    assert "http://[::1]:*" in settings.allowed_origins
    assert "https://localhost" in settings.allowed_origins
    assert not any("attacker" in h for h in settings.allowed_hosts)

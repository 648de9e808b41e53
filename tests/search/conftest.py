"""A small shop application indexed once per test session: an auth service with two token
providers, user updates called two levels deep, and a webhook check whose name shares no word
with the question that finds it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from astrag import api

SHOP: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/auth.py": '''
        """Logging users in."""


        class TokenProvider:
            """Issues session tokens."""

            def issue(self, user_id: str) -> str:
                raise NotImplementedError


        class JWTTokenProvider(TokenProvider):
            def issue(self, user_id: str) -> str:
                return "jwt:" + user_id


        class AuthService:
            def __init__(self, provider: TokenProvider) -> None:
                self.provider = provider

            def login(self, user: str, password: str) -> str:
                """Check the password and hand out a token."""
                return self.provider.issue(user)
        ''',
    "shop/users.py": '''
        def save_profile(user_id: str, fields: dict) -> None:
            """Write profile fields to the database."""
            print(user_id, fields)


        def update_user(user_id: str, fields: dict) -> None:
            """Change a user's stored profile."""
            save_profile(user_id, fields)
        ''',
    "shop/views.py": """
        from shop.users import update_user


        def handle_profile_form(request: dict) -> None:
            update_user(request["id"], request["fields"])


        def admin_edit(request: dict) -> None:
            handle_profile_form(request)
        """,
    "shop/webhooks.py": '''
        import hashlib
        import hmac


        def check_hmac(payload: bytes, header: str, secret: bytes) -> bool:
            """Verify the webhook signature the payment provider sends."""
            digest = hmac.new(secret, payload, hashlib.sha256).hexdigest()
            return hmac.compare_digest(digest, header)
        ''',
}


def write_project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture(autouse=True)
def _both_stores(use_store: str) -> str:
    """Every search and context test runs on SQLite and on PostgreSQL."""
    return use_store


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory, store_url: str) -> Path:
    root = write_project(tmp_path_factory.mktemp("shop"), SHOP)
    api.index(root, store=store_url or "sqlite")
    return root

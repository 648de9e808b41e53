"""Credential values found and masked in place: every format, named values in each way code
writes them, the look-alikes left alone, and the masking contract (same length, same lines)."""

from __future__ import annotations

import hashlib
import random
import string

import pytest

from astrag import redact
from astrag.redact import find, mask, redact_text

_RNG = random.Random(11)
ALNUM = string.ascii_letters + string.digits


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def masked(line: str) -> str:
    out = redact_text(line)
    assert len(out) == len(line)
    return out


FORMATS = [
    ("aws-access-key-id", "AKIA" + rand(16, string.ascii_uppercase + "234567"), 'k = "{}"'),
    ("github-token", "ghp_" + rand(36), 'def f(t="{}"): ...'),
    ("github-token", "github_pat_" + rand(82, ALNUM + "_"), "GH = '{}'"),
    ("gitlab-token", "glpat-" + rand(20), "token: {}"),
    ("slack-token", "xoxb-123456789012-1234567890123-" + rand(24), 'S = "{}"'),
    (
        "slack-webhook",
        f"T0{rand(7).upper()}/B0{rand(8).upper()}/{rand(24)}",
        '"https://hooks.slack.com/services/{}"',
    ),
    ("openai-key", "sk-proj-" + rand(48), 'OpenAI(api_key="{}")'),
    ("openai-key", "sk-" + rand(48), "// old: {}"),
    ("anthropic-key", "sk-ant-api03-" + rand(93) + "AA", 'const k = "{}";'),
    ("stripe-key", "sk_live_" + rand(24), "stripe.api_key = '{}'"),
    ("stripe-key", "rk_test_" + rand(24), "x = '{}'"),
    ("google-api-key", "AIza" + rand(35), '{{"apiKey": "{}"}}'),
    ("sendgrid-key", f"SG.{rand(22)}.{rand(43)}", 'MAIL = "{}"'),
    ("npm-token", "npm_" + rand(36), "//registry.npmjs.org/:_authToken={}"),
    ("huggingface-token", "hf_" + rand(34, string.ascii_letters), 'HF = "{}"'),
    ("jwt", f"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ{rand(12)}.{rand(43)}", "Bearer {}"),
    ("url-password", rand(16), '"postgres://app:{}@db:5432/app"'),
    ("azure-storage-key", rand(86) + "==", "AccountName=a;AccountKey={};EndpointSuffix=x"),
    ("bearer-token", rand(40), '{{"Authorization": "Bearer {}"}}'),
]


@pytest.mark.parametrize(("kind", "value", "template"), FORMATS, ids=[f[0] for f in FORMATS])
def test_every_format_is_masked_with_its_kind(kind: str, value: str, template: str) -> None:
    line = template.format(value)
    out = masked(line)
    assert value not in out
    assert [s.kind for s in find(line.encode())] == [kind]
    start = line.index(value)
    assert out[start : start + len(value)] == mask(kind, len(value)).decode()
    assert out[:start] == line[:start] and out[start + len(value) :] == line[start + len(value) :]


NAMED = [
    ("aws-secret-key", 'AWS_SECRET_ACCESS_KEY = "{}"', rand(40, ALNUM + "/+")),
    ("aws-secret-key", "aws_secret_access_key={}\n", rand(40, ALNUM + "/+")),
    ("aws-secret-key", 'AWS_SECRET = "{}"', "/K7MDENG/bPxRfiCY" + rand(23, ALNUM)),
    ("password", 'DB_PASSWORD = "{}"', rand(12, ALNUM + "!#%&")),
    ("password", "password: str = '{}'", "Tr0ub4dor&3x"),
    ("password", '{{ user: "app", password: "{}" }}', rand(14)),
    ("password", "    POSTGRES_PASSWORD: {}\n", rand(20)),
    ("password", 'if password == "{}":', "Zq8!mV2#rT6w"),
    ("secret", 'SECRET_KEY = "{}"', "django-insecure-" + rand(40)),
    ("secret", "clientSecret: `{}`,", rand(40)),
    ("secret", "self.client_secret = r'{}'", rand(32)),
    ("token", 'def refresh(refresh_token="{}"):', rand(43)),
    ("token", 'const t = process.env.AUTH_TOKEN ?? "{}";', rand(40, "0123456789abcdef")),
    ("api-key", 'os.environ.get("OPENAI_API_KEY", "{}")', rand(40)),
    ("token", '{{\\"token\\": \\"{}\\"}}', rand(30)),
    ("api-key", "`SENDGRID_API_KEY={}\\nNODE_ENV=production`", rand(32)),
    ("api-key", 'config["api_key"] = "{}"', rand(32)),
    ("key", '"signing_key": "{}"', rand(64, "0123456789abcdef")),
    ("api-key", "APIKEY := '{}'", rand(24)),
]


@pytest.mark.parametrize(("kind", "template", "value"), NAMED, ids=[t for _, t, _ in NAMED])
def test_a_random_value_given_to_a_credential_name_is_masked(
    kind: str, template: str, value: str
) -> None:
    line = template.format(value)
    out = masked(line)
    assert value not in out
    assert [s.kind for s in find(line.encode())] == [kind]


LOOKALIKES = [
    '"integrity": "sha512-'
    + "Qa0rQ1v5H1pVnE2b7m5k1I3Q9v1cRjvH5Gf3L0a7X5V0x8b1N2m3Q4r5S6t7U8v9W0x1Y2z3A4B5C6D7E8F9G0H1I=="
    + '"',
    f'hash = "sha256:{hashlib.sha256(b"x").hexdigest()}"',
    'REQUEST_ID = "550e8400-e29b-41d4-a716-446655440000"',
    f'PINNED_REVISION = "{hashlib.sha1(b"r").hexdigest()}"',
    f'EMPTY_SHA256 = "{hashlib.sha256(b"").hexdigest()}"',
    'logo = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"',
    'CACHE_KEY = "users:profile:v2"',
    'cache_key = "a8f5f167f44f4964e6c998dee827110c"',
    'PUBLIC_KEY = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE1x2y3z4w5v6u7t8s9r0q"',
    'password_hash = "pbkdf2_sha256$260000$Qx7aB2cD$Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA=="',
    'TOKEN_URL = "https://oauth2.googleapis.com/token"',
    'token_type = "Bearer"',
    'API_KEY_ENV = "OPENAI_API_KEY"',
    "secret_key = settings.SECRET_KEY",
    "token = request.headers.get('X-Token')",
    'password = "${DB_PASSWORD}"',
    'apiKey: "<your-api-key>"',
    'token = "xxxxxxxxxxxxxxxxxxxxxxxx"',
    'tokenGetter = "getAccessTokenSilently"',
    'TOKEN_BACKEND = "myapp.auth.backends.TokenBackend"',
    'KEY_FILE = "/etc/ssl/private/server.key"',
    'TOKEN_CACHE_DIR = "/var/lib/app2/tokens"',
    'private_key = "keys/deploy_2024.pem"',
    'password = "test_password"',
    'monkey = "x9Qw2Lm7Rt5Zp3Kd8Vb6Nc4"',
    'password_field = "password"',
    "max_tokens = 4096",
    'url = "https://user@example.com/path"',
    'dsn = "postgres://user:${PASSWORD}@db/app"',
    "task-3b9f2a1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b = 1",
]


@pytest.mark.parametrize("line", LOOKALIKES)
def test_look_alikes_are_left_alone(line: str) -> None:
    assert redact_text(line) == line, find(line.encode())


def test_a_private_key_block_is_masked_line_by_line_keeping_its_markers() -> None:
    body = [rand(64, ALNUM + "+/") for _ in range(3)] + [rand(10) + "=="]
    block = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + "\n".join(body)
        + "\n-----END OPENSSH PRIVATE KEY-----"
    )
    text = f'KEY = """{block}"""\nx = 1\n'
    out = masked(text)
    assert out.count("\n") == text.count("\n")
    assert all(line not in out for line in body)
    assert (
        "-----BEGIN OPENSSH PRIVATE KEY-----" in out and "-----END OPENSSH PRIVATE KEY-----" in out
    )
    assert out.splitlines()[1] == mask("private-key", 64).decode()
    assert [s.kind for s in find(text.encode())] == ["private-key"]  # one secret, four spans


def test_a_private_key_in_a_json_string_keeps_its_escapes() -> None:
    body = rand(64, ALNUM + "+/")
    text = (
        '{"private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + body
        + '\\n-----END PRIVATE KEY-----\\n"}'
    )
    out = masked(text)
    assert body not in out
    assert "-----BEGIN PRIVATE KEY-----\\n<redacted:private-key>" in out
    assert out.endswith('\\n-----END PRIVATE KEY-----\\n"}')


def test_an_unterminated_private_key_is_masked_as_far_as_it_goes() -> None:
    body = rand(64, ALNUM + "+/")
    out = masked(f"-----BEGIN EC PRIVATE KEY-----\n{body}\n{body[:30]}\n\ndef f(): pass\n")
    assert body[:30] not in out and out.endswith("\n\ndef f(): pass\n")


def test_short_secrets_get_a_shorter_mark() -> None:
    assert mask("aws-access-key-id", 20) == b"<redacted:aws-id>***"
    assert mask("password", 12) == b"<redacted>**"
    assert mask("url-password", 5) == b"*****"
    assert mask("github-token", 40) == b"<redacted:github-token>" + b"*" * 17


def test_columns_stay_in_characters_around_non_ascii_text() -> None:
    value = "ghp_" + rand(36)
    line = f'gruß = "é"; token = "{value}"; call()'
    out = redact_text(line)
    assert len(out) == len(line) and out.index("call()") == line.index("call()")
    assert out.startswith('gruß = "é"; token = "<redacted:github-token>')


def test_nothing_found_returns_the_same_object() -> None:
    data = b"def f():\n    return 1\n"
    assert redact.redact(data) == (data, [])
    assert redact.redact(data)[0] is data


def test_notes_count_redactions_by_kind() -> None:
    text = f'A = "ghp_{rand(36)}"\nB = "ghp_{rand(36)}"\nC = "AIza{rand(35)}"\n'
    secrets = find(text.encode())
    note = redact.note(secrets)
    assert note == "redacted 3 secret value(s) (github-token 2, google-api-key 1)"
    assert redact.counts([note, "decoded as cp1252; " + note, ""]) == {
        "github-token": 4,
        "google-api-key": 2,
    }
    assert redact.note([]) == ""

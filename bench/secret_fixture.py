"""A repository seeded with credential values and with values that only look like them.

``plants(seed)`` lists every value with its kind and whether it is a secret; ``write(root)``
writes the repository: Python, TypeScript and JavaScript files, with values written as code
assigns them, as keyword and default arguments, in JSON and YAML-like strings, in docstrings
and comments, in ``.env``-style text and in URLs. Every secret is generated from a seeded
random number generator in its vendor's documented format, so none is real and the same seed
gives the same repository.

Look-alikes are what code really holds beside secrets: lockfile integrity hashes, git
SHAs, UUIDs and ULIDs, digest test vectors, base64 images and fonts, public keys, CSS and
bundle hashes, and credential *names* with values that are not credentials (URLs, env var
names, placeholders, templates).
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
import uuid
from dataclasses import dataclass
from pathlib import Path

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


@dataclass(frozen=True, slots=True)
class Plant:
    kind: str  # a redaction kind for a secret; what it is for a look-alike
    value: str
    path: str  # the file it is written in
    secret: bool


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _pem(rng: random.Random, lines: int = 6) -> str:
    body = [_rand(rng, B64, 64) for _ in range(lines)] + [_rand(rng, B64, 20) + "=="]
    return "\n".join(body)


def _jwt(rng: random.Random) -> str:
    def part(obj: str) -> str:
        return base64.urlsafe_b64encode(obj.encode()).decode().rstrip("=")

    header = part('{"alg":"HS256","typ":"JWT"}')
    payload = part(f'{{"sub":"{_rand(rng, ALNUM, 12)}","iat":{rng.randrange(10**9)}}}')
    return f"{header}.{payload}.{_rand(rng, URLSAFE, 43)}"


def _secrets(rng: random.Random) -> list[tuple[str, str, str, str]]:
    """(path, kind, value, line with @V where the value goes) for every planted secret."""
    py, ts, js = "app/settings.py", "web/src/config.ts", "web/src/client.js"

    def r(alphabet: str, n: int) -> str:
        return _rand(rng, alphabet, n)

    def akid() -> str:
        return "AKIA" + r(string.ascii_uppercase + "234567", 16)

    slack = f"xoxb-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**12, 10**13)}-{r(ALNUM, 24)}"
    slack_user = "xoxp-" + "-".join(str(rng.randrange(10**11)) for _ in range(3)) + "-"
    hook = f"T{r(ALNUM.upper(), 8)}/B{r(ALNUM.upper(), 10)}/{r(ALNUM, 24)}"
    pem, pem_escaped = _pem(rng), _pem(rng, 4).replace("\n", "\\n")
    symbols = "!#%&*+-=?@^_"
    return [
        (py, "aws-access-key-id", akid(), 'AWS_ACCESS_KEY_ID = "@V"'),
        (py, "aws-secret-key", r(B64, 40), 'AWS_SECRET_ACCESS_KEY = "@V"'),
        (ts, "aws-access-key-id", akid(), 'export const awsKeyId = "@V";'),
        (ts, "aws-secret-key", r(B64, 40), 'export const awsSecretAccessKey = "@V";'),
        (
            py,
            "github-token",
            "ghp_" + r(ALNUM, 36),
            'def clone(url: str, token: str = "@V") -> str:\n    return url + token\n',
        ),
        (
            js,
            "github-token",
            "github_pat_" + r(ALNUM + "_", 82),
            'export const GH = { auth: "@V" };',
        ),
        (
            ts,
            "github-token",
            "gho_" + r(ALNUM, 36),
            'export function gh() { return fetch("/api", { headers: { token: "@V" } }); }',
        ),
        (
            py,
            "gitlab-token",
            "glpat-" + r(URLSAFE, 20),
            'GITLAB = {"url": "https://gitlab.example.com", "private_token": "@V"}',
        ),
        (js, "gitlab-token", "glpat-" + r(URLSAFE, 20), "export const ci = `CI_JOB_TOKEN=@V`;"),
        (py, "slack-token", slack, 'SLACK_BOT = "@V"'),
        (ts, "slack-token", slack_user + r(HEX, 32), 'export const slackUser = "@V";'),
        (js, "slack-webhook", hook, 'export const HOOK = "https://hooks.slack.com/services/@V";'),
        (
            py,
            "openai-key",
            "sk-proj-" + r(URLSAFE, 48),
            'client = make_client(api_key="@V", timeout=30)',
        ),
        (
            ts,
            "openai-key",
            "sk-" + r(ALNUM, 48),
            'export const llm = { model: "gpt-4o", apiKey: "@V" };',
        ),
        (js, "openai-key", "sk-svcacct-" + r(URLSAFE, 40), "// rotate: @V was the old key"),
        (py, "anthropic-key", "sk-ant-api03-" + r(URLSAFE, 93) + "AA", 'ANTHROPIC = "@V"'),
        (
            ts,
            "anthropic-key",
            "sk-ant-api03-" + r(URLSAFE, 93) + "AA",
            'export const claude = new Client({ key: "@V" });',
        ),
        (py, "stripe-key", "sk_live_" + r(ALNUM, 24), 'stripe.api_key = "@V"'),
        (
            js,
            "stripe-key",
            "rk_live_" + r(ALNUM, 24),
            'export const stripe = require("stripe")("@V");',
        ),
        (ts, "stripe-key", "whsec_" + r(ALNUM, 32), 'export const WEBHOOK = "@V";'),
        (py, "google-api-key", "AIza" + r(URLSAFE, 35), 'MAPS = "@V"'),
        (
            js,
            "google-api-key",
            "AIza" + r(URLSAFE, 35),
            'export const firebase = { "apiKey": "@V", "projectId": "demo-app" };',
        ),
        (
            py,
            "private-key",
            pem,
            'SIGNING_KEY = """-----BEGIN RSA PRIVATE KEY-----\n@V\n'
            '-----END RSA PRIVATE KEY-----"""',
        ),
        (
            js,
            "private-key",
            pem_escaped,
            'export const sa = JSON.parse(\'{"type": "service_account", "private_key": '
            '"-----BEGIN PRIVATE KEY-----\\n@V\\n-----END PRIVATE KEY-----\\n"}\');',
        ),
        (py, "jwt", _jwt(rng), 'TEST_SESSION = "@V"'),
        (ts, "jwt", _jwt(rng), 'export const headers = { Authorization: "Bearer @V" };'),
        (
            js,
            "npm-token",
            "npm_" + r(ALNUM, 36),
            'export const NPMRC = "//registry.npmjs.org/:_authToken=@V";',
        ),
        (
            py,
            "sendgrid-key",
            f"SG.{r(URLSAFE, 22)}.{r(URLSAFE, 43)}",
            'MAIL = {"backend": "sendgrid", "key": "@V"}',
        ),
        (ts, "huggingface-token", "hf_" + r(string.ascii_letters, 34), 'export const HF = "@V";'),
        (
            py,
            "pypi-token",
            "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, 60),
            'PYPIRC = "[pypi]\\nusername = __token__\\npassword = @V\\n"',
        ),
        (py, "password", r(ALNUM + symbols, 18), 'DB_PASSWORD = "@V"'),
        (
            ts,
            "password",
            r(ALNUM + symbols, 16),
            'export const db = { host: "db", user: "app", password: "@V" };',
        ),
        (
            py,
            "password",
            r(ALNUM, 20),
            'COMPOSE = """\nservices:\n  db:\n    environment:\n      POSTGRES_PASSWORD: @V\n"""',
        ),
        (
            js,
            "url-password",
            r(ALNUM, 20),
            'export const DATABASE_URL = "postgres://app:@V@db.internal:5432/app";',
        ),
        (py, "url-password", r(ALNUM, 16), 'BROKER = "amqp://worker:@V@rabbit:5672//"'),
        (py, "secret", "django-insecure-" + r(ALNUM + "!@#%^&*(-_=+)", 50), "SECRET_KEY = '@V'"),
        (
            ts,
            "secret",
            r(ALNUM, 40),
            'export const oauth = { clientId: "web", clientSecret: "@V" };',
        ),
        (js, "token", r(HEX, 40), 'export const authToken = "@V";'),
        (
            py,
            "key",
            r(HEX, 64),
            'ENCRYPTION = {"cipher": "aes-256-gcm", "signing_key": "@V"}',
        ),
        (
            ts,
            "api-key",
            r(ALNUM, 32),
            "export const env = `SENDGRID_API_KEY=@V\\nNODE_ENV=production`;",
        ),
        (
            py,
            "token",
            r(URLSAFE, 43),
            'def refresh(refresh_token="@V"):\n    """Exchange the token."""\n'
            "    return refresh_token\n",
        ),
        (
            js,
            "bearer-token",
            r(URLSAFE, 40),
            'export const call = () => fetch(URL, { headers: { "Authorization": "Bearer @V" } });',
        ),
        (
            py,
            "azure-storage-key",
            r(B64, 86) + "==",
            'AZURE = "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=@V;'
            'EndpointSuffix=core.windows.net"',
        ),
    ]


def _lookalikes(rng: random.Random) -> list[tuple[str, str, str, str]]:
    """(path, what it is, value, line) for every value that only looks like a secret."""
    py, ts, js = "app/constants.py", "web/src/assets.ts", "web/src/vendor.js"
    out = []
    for i in range(4):
        digest = base64.b64encode(hashlib.sha512(f"pkg{i}".encode()).digest()).decode()
        line = f'export const lock{i} = {{ "version": "1.{i}.0", "integrity": "@V" }};'
        out.append((js, "lockfile-integrity", "sha512-" + digest, line))
    for i in range(3):
        digest = hashlib.sha256(f"wheel{i}".encode()).hexdigest()
        line = f'WHEEL_{i} = {{"file": "pkg-{i}.whl", "hash": "@V"}}'
        out.append((py, "lockfile-hash", "sha256:" + digest, line))
    for i in range(4):
        value = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        line = f'REQUEST_ID_{i} = "@V"' if i % 2 else f'export const namespace{i} = "@V";'
        out.append((py if i % 2 else ts, "uuid", value, line))
    for i in range(3):
        sha = hashlib.sha1(f"commit{i}".encode()).hexdigest()
        out.append((py, "git-sha", sha, f'PINNED_REVISION_{i} = "@V"'))
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + rng.randbytes(60)).decode()
    gif = base64.b64encode(b"GIF89a" + rng.randbytes(40)).decode()
    woff = base64.b64encode(b"wOF2" + rng.randbytes(80)).decode()
    ulid = "01" + _rand(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)
    hmac_vector = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    tarball = "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz"
    return [
        *out,
        (
            js,
            "yarn-resolved",
            hashlib.sha1(b"left-pad").hexdigest(),
            f'export const r = "{tarball}#@V";',
        ),
        (ts, "ulid", ulid, 'export const orderId = "@V";'),
        (ts, "git-sha", hashlib.sha1(b"release").hexdigest(), 'export const commit = "@V";'),
        (py, "test-vector", hashlib.sha256(b"").hexdigest(), 'EMPTY_SHA256 = "@V"'),
        (
            py,
            "test-vector",
            hashlib.md5(b"The quick brown fox").hexdigest(),
            'assert md5(b"The quick brown fox") == "@V"',
        ),
        (
            py,
            "test-vector",
            hmac_vector,
            'RFC4231_CASE_1 = {"key": "0b" * 20, "data": "4869205468657265", "expected": "@V"}',
        ),
        (
            js,
            "test-vector",
            base64.b64encode(b"hello world, this is a test").decode(),
            'export const encoded = "@V";',
        ),
        (ts, "base64-image", png, 'export const logo = "data:image/png;base64,@V";'),
        (js, "base64-image", gif, "export const pixel = 'data:image/gif;base64,@V';"),
        (
            ts,
            "base64-font",
            woff,
            "export const font = `@font-face { src: url(data:font/woff2;base64,@V) }`;",
        ),
        (
            py,
            "public-key",
            _pem(rng, 3),
            'PUBLIC_KEY = """-----BEGIN PUBLIC KEY-----\n@V\n-----END PUBLIC KEY-----"""',
        ),
        (
            ts,
            "public-key",
            "AAAAC3NzaC1lZDI1NTE5AAAAI" + _rand(rng, B64, 43),
            'export const deployKey = { publicKey: "ssh-ed25519 @V deploy@ci" };',
        ),
        (js, "css-hash", "css-" + _rand(rng, HEX + "xyz", 7), 'export const cls = "@V";'),
        (js, "bundle-hash", _rand(rng, HEX, 20), 'export const chunk = "static/js/main.@V.js";'),
        (py, "cache-key", "users:profile:v2", 'CACHE_KEY = "@V"'),
        (py, "token-url", "https://oauth2.googleapis.com/token", 'TOKEN_URL = "@V"'),
        (py, "token-type", "Bearer", 'token_type = "@V"'),
        (py, "env-name", "OPENAI_API_KEY", 'API_KEY_ENV = "@V"'),
        (py, "field-name", "csrfmiddlewaretoken", 'CSRF_TOKEN_FIELD = "@V"'),
        (ts, "placeholder", "${DB_PASSWORD}", 'export const tmpl = { password: "@V" };'),
        (ts, "placeholder", "<your-api-key>", 'export const sample = { apiKey: "@V" };'),
        (js, "placeholder", "x" * 32, 'export const token = "@V";'),
        (js, "identifier", "getAccessTokenSilently", 'export const tokenGetter = "@V";'),
        (py, "dotted-path", "myapp.auth.backends.TokenBackend", 'TOKEN_BACKEND = "@V"'),
        (py, "file-path", "/etc/ssl/private/server.key", 'KEY_FILE = "@V"'),
        (ts, "i18n-key", "auth.password.tooShort", 'export const passwordMessage = "@V";'),
        (py, "words", "correct_horse_battery", 'password_help = "@V"'),
        (js, "hex-colors", "#1f77b4#ff7f0e#2ca02c", 'export const palette = "@V";'),
    ]


def plants(seed: int = 7) -> tuple[list[Plant], dict[str, str]]:
    """Every planted value, and the files (path -> text) that hold them."""
    rng = random.Random(seed)
    lines: dict[str, list[str]] = {}
    planted = []
    for secret, table in ((True, _secrets(rng)), (False, _lookalikes(rng))):
        for path, kind, value, line in table:
            lines.setdefault(path, []).append(line.replace("@V", value))
            planted.append(Plant(kind, value, path, secret))
    files = {path: "\n".join(body) + "\n" for path, body in lines.items()}
    for path in files:
        if path.endswith(".py"):
            files[path] = '"""Configuration of the demo app (fixture)."""\n\n' + files[path]
    files["app/__init__.py"] = ""
    files["app/service.py"] = (
        "from app.settings import clone, refresh\n"
        "from app import constants\n\n\n"
        "def deploy(url: str) -> str:\n"
        '    """Clone and refresh before a deploy."""\n'
        "    return clone(url) + refresh() + constants.CACHE_KEY\n"
    )
    return planted, files


def write(root: Path, seed: int = 7) -> list[Plant]:
    """Write the repository under ``root``; returns what was planted."""
    planted, files = plants(seed)
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return planted

"""Tests for discover() and read_source(): real temp trees, real `git init` repositories."""

from __future__ import annotations

import codecs
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from astrag.config import Config
from astrag.discover import (
    Discovery,
    GitListing,
    Skipped,
    SourceFile,
    decode_source,
    discover,
    read_repo_text,
    read_source,
)
from astrag.errors import AstragError

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


def write(root: Path, rel: str, content: str | bytes = "x = 1\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def init_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    return root


def paths(found: Discovery) -> list[str]:
    return [f.path for f in found.files]


def reasons(found: Discovery) -> dict[str, str]:
    return {s.path: s.reason for s in found.skipped}


def source_file(found: Discovery, path: str) -> SourceFile:
    return next(f for f in found.files if f.path == path)


@pytest.fixture(params=["git", "walk"])
def mode(request: pytest.FixtureRequest) -> str:
    if request.param == "git" and GIT is None:
        pytest.skip("git is not installed")
    return str(request.param)


def make_root(tmp_path: Path, mode: str) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    if mode == "git":
        init_repo(root)
    return root


# -- git listing -----------------------------------------------------------------------------


@needs_git
def test_git_lists_tracked_and_untracked_but_not_ignored(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    write(root, ".gitignore", "ignored/\n*.log\nlocal_*.py\n")
    write(root, "src/app.py")
    write(root, "local_forced.py")  # ignored by pattern but tracked: git still lists it
    write(root, "gone.py")
    write(root, "README.md", "# not indexed\n")
    git(root, "add", "src/app.py", "gone.py", "README.md", ".gitignore")
    git(root, "add", "-f", "local_forced.py")
    git(root, "commit", "-q", "-m", "init")
    (root / "gone.py").unlink()  # tracked but deleted: dropped silently
    write(root, "new.ts", "export const a = 1;\n")  # untracked, not ignored
    write(root, "ignored/x.py")
    write(root, "local_settings.py")

    found = discover(root, Config())

    assert found.method == "git"
    assert paths(found) == ["local_forced.py", "new.ts", "src/app.py"]
    assert found.skipped == ()
    app = source_file(found, "src/app.py")
    st = os.stat(root / "src/app.py")
    assert (app.language, app.size, app.mtime_ns) == ("python", st.st_size, st.st_mtime_ns)
    assert source_file(found, "new.ts").language == "typescript"


@needs_git
def test_a_listing_started_early_is_what_discovery_would_list(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    write(root, ".gitignore", "ignored/\n")
    write(root, "src/app.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    write(root, "new.ts", "export const a = 1;\n")  # untracked
    write(root, "ignored/x.py")
    listing = GitListing(os.fspath(root))  # started first, read when discovery lists

    early = discover(root, Config(), listing)

    assert early.method == "git"
    assert early == discover(root, Config())
    # a listing of another directory is not used: discovery lists its own root
    elsewhere = discover(root / "src", Config(), GitListing(os.fspath(root)))
    assert paths(elsewhere) == ["app.py"]


def test_a_listing_outside_a_repository_is_none_and_the_tree_is_walked(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write(root, "a.py")
    listing = GitListing(os.fspath(root))
    found = discover(root, Config(), listing)
    assert found.method == "walk"
    assert paths(found) == ["a.py"]
    outside = GitListing(os.fspath(root))
    assert (outside.tracked(), outside.untracked()) == (None, None)


def test_outside_a_repository_git_is_not_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no .git at or above the root: git could only fail, so no process is started for it
    # (two process starts cost an edit of a plain copy of a large tree ~0.01 s)
    started: list[list[str]] = []
    real_popen = subprocess.Popen

    def popen(command: list[str], *args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        started.append(command)
        return real_popen(command, *args, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(subprocess, "Popen", popen)
    root = tmp_path / "plain"
    write(root, "a.py")
    assert paths(discover(root, Config(), GitListing(os.fspath(root)))) == ["a.py"]
    assert started == []
    if shutil.which("git"):
        init_repo(tmp_path / "repo")
        started.clear()
        GitListing(os.fspath(tmp_path / "repo")).close()
        assert [c[3:5] for c in started] == [["ls-files", "-z"], ["ls-files", "-z"]]


@needs_git
def test_an_untracked_file_that_makes_a_tracked_directory_a_package_is_heeded(
    tmp_path: Path,
) -> None:
    # git lists tracked files apart from untracked ones, which are offered later: an untracked
    # __init__.py makes build/ a package, so build/ is not an output directory to skip
    root = init_repo(tmp_path / "repo")
    write(root, "app.py")
    write(root, "build/gen.py")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    write(root, "build/__init__.py")

    found = discover(root, Config())

    assert paths(found) == ["app.py", "build/__init__.py", "build/gen.py"]
    assert found.skipped == ()
    (root / "build/__init__.py").unlink()
    assert paths(discover(root, Config())) == ["app.py"]
    assert reasons(discover(root, Config())) == {"build": "excluded_dir"}


@needs_git
def test_a_listing_never_read_is_stopped(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    listing = GitListing(os.fspath(root))
    listing.close()
    assert all(p is not None and p.returncode is not None for p in listing._procs)


@needs_git
def test_git_root_may_be_a_subdirectory_of_the_repository(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, "top.py")
    write(repo, "pkg/a.py")
    write(repo, "pkg/sub/b.js", "let b = 1;\n")

    found = discover(repo / "pkg", Config())

    assert found.method == "git"
    assert paths(found) == ["a.py", "sub/b.js"]


@needs_git
def test_root_inside_a_directory_the_repository_ignores_is_walked(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, ".gitignore", "data/\n")
    write(repo, "data/lib/mod.py")

    found = discover(repo / "data" / "lib", Config())

    assert found.method == "walk"
    assert paths(found) == ["mod.py"]


@needs_git
def test_nested_repository_is_not_descended_in_git_mode(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    write(root, "a.py")
    init_repo(root / "nested")
    write(root, "nested/c.py")

    assert paths(discover(root, Config())) == ["a.py"]


@needs_git
def test_walk_is_used_when_git_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = init_repo(tmp_path / "repo")
    write(root, ".gitignore", "*.gen.py\n")
    write(root, "a.py")
    write(root, "b.gen.py")
    empty_bin = tmp_path / "bin"
    empty_bin.mkdir()
    monkeypatch.setenv("PATH", str(empty_bin))

    found = discover(root, Config())

    assert found.method == "walk"
    assert paths(found) == ["a.py"]


def test_missing_root_is_an_error_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(AstragError, match="not a directory") as caught:
        discover(tmp_path / "nope", Config())
    assert caught.value.hint


# -- walking without git ---------------------------------------------------------------------


def test_walk_honours_nested_gitignore_and_info_exclude(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    # A bare `.git` directory is not a repository to git, so this exercises the walk,
    # which still reads .git/info/exclude.
    write(root, ".git/info/exclude", "private.py\n")
    write(root, ".gitignore", "*.gen.py\nscratch/\n/top_only.py\n")
    write(root, "a/.gitignore", "!keep.gen.py\nlocal.py\n")
    for rel in [
        "a/keep.gen.py",
        "a/drop.gen.py",
        "a/local.py",
        "a/ok.py",
        "a/top_only.py",
        "b/local.py",
        "top_only.py",
        "scratch/z.py",
        "private.py",
        "a/private.py",
    ]:
        write(root, rel)

    found = discover(root, Config())

    assert found.method == "walk"
    assert paths(found) == ["a/keep.gen.py", "a/ok.py", "a/top_only.py", "b/local.py"]
    assert found.skipped == ()


def test_walk_of_a_subdirectory_honours_the_enclosing_gitignore(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo, ".git/info/exclude", "")
    write(repo, ".gitignore", "pkg/skip_me.py\n*.tmp.py\n")
    write(repo, "pkg/keep.py")
    write(repo, "pkg/skip_me.py")
    write(repo, "pkg/deep/x.tmp.py")

    assert paths(discover(repo / "pkg", Config())) == ["keep.py"]


# -- always-skipped directories --------------------------------------------------------------


def test_always_skipped_directories(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    for rel in [
        "src/main.py",
        "node_modules/pkg/index.js",
        "vendor/lib.py",
        "dist/app.js",
        "build/gen.py",
        "myenv/lib/site.py",
        "env/not_a_venv.py",
        "coverage/__init__.py",
        "coverage/core.py",
        ".astrag/cache.py",
        "src/__pycache__/main.py",
    ]:
        write(root, rel)
    write(root, "myenv/pyvenv.cfg", "home = /usr/bin\n")

    found = discover(root, Config())

    assert found.method == mode
    # env/ without pyvenv.cfg is code; coverage/ with __init__.py is a package, not a report.
    assert paths(found) == [
        "coverage/__init__.py",
        "coverage/core.py",
        "env/not_a_venv.py",
        "src/main.py",
    ]
    skipped = reasons(found)
    for directory in ["node_modules", "vendor", "dist", "build", "myenv"]:
        assert skipped.get(directory) == "excluded_dir", directory


def test_custom_index_dir_is_skipped(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "a.py")
    write(root, "cache/idx/stale.py")

    found = discover(root, Config(index_dir="cache/idx"))

    assert paths(found) == ["a.py"]


# -- skip rules ------------------------------------------------------------------------------


def test_secrets_minified_generated_and_size(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    for rel in [
        ".env",
        ".env.local",
        "server.key",
        "certs/site.pem",
        "id_rsa",
        "id_rsa.pub",
        "secrets.py",
        "config/credentials.json",
        "prod.tfvars",
        "static/app.min.js",
        "static/lib-min.js",
        "static/x.bundle.js",
        "proto/api_pb2.py",
        "proto/api_pb2_grpc.py",
        "web/types.generated.ts",
        "ok.py",
        "notes.txt",
    ]:
        write(root, rel)
    write(root, "big.py", b"#" * (2 * 1024 * 1024))

    found = discover(root, Config(max_file_bytes=1_000_000))

    assert paths(found) == ["ok.py"]
    assert reasons(found) == {
        ".env": "secret",
        ".env.local": "secret",
        "server.key": "secret",
        "certs/site.pem": "secret",
        "id_rsa": "secret",
        "id_rsa.pub": "secret",
        "secrets.py": "secret",
        "config/credentials.json": "secret",
        "prod.tfvars": "secret",
        "static/app.min.js": "minified",
        "static/lib-min.js": "minified",
        "static/x.bundle.js": "minified",
        "proto/api_pb2.py": "generated",
        "proto/api_pb2_grpc.py": "generated",
        "web/types.generated.ts": "generated",
        "big.py": "too_large",
    }


def test_size_limit_is_inclusive(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "exact.py", b"#" * 100)
    write(root, "over.py", b"#" * 101)

    found = discover(root, Config(max_file_bytes=100))

    assert paths(found) == ["exact.py"]
    assert reasons(found) == {"over.py": "too_large"}


def test_undecodable_file_name_is_skipped_not_crashing(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    try:
        with open(os.path.join(os.fsencode(root), b"caf\xe9.py"), "wb") as fh:
            fh.write(b"x = 1\n")
    except OSError:
        pytest.skip("this filesystem rejects non-UTF-8 file names")
    write(root, "ok.py")

    found = discover(root, Config())

    assert paths(found) == ["ok.py"]
    assert list(reasons(found).values()) == ["undecodable_path"]


# -- include / exclude -----------------------------------------------------------------------


def test_include_and_exclude(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, ".gitignore", "generated/\n")
    for rel in [
        "src/a.py",
        "src/b.py",
        "generated/api/client.py",
        "generated/other.py",
        "tests/fixtures/bad.py",
        "vendor/ours/lib.py",
        "vendor/theirs/lib.py",
    ]:
        write(root, rel)
    config = Config(
        include=("generated/api/**", "vendor/ours/", "src/b.py"),
        exclude=("tests/fixtures/", "src/b.py"),  # exclude wins over include
    )

    found = discover(root, config)

    assert paths(found) == ["generated/api/client.py", "src/a.py", "vendor/ours/lib.py"]


def test_include_pattern_without_slash_matches_at_any_depth(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, ".gitignore", "*.gen.py\n")
    write(root, "a/b/x.gen.py")
    write(root, "y.gen.py")
    write(root, "node_modules/z.gen.py")  # skipped directories stay skipped

    found = discover(root, Config(include=("*.gen.py",)))

    assert paths(found) == ["a/b/x.gen.py", "y.gen.py"]


def test_include_never_brings_back_secrets(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, ".gitignore", ".env\n*.key\nsecrets.py\n")
    write(root, ".env")
    write(root, "server.key")
    write(root, "secrets.py")

    found = discover(root, Config(include=(".env", "*.key", "secrets.py")))

    assert found.files == ()
    assert reasons(found) == {".env": "secret", "server.key": "secret", "secrets.py": "secret"}


# -- symlinks --------------------------------------------------------------------------------


def test_symlink_loop_is_harmless(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, "a/mod.py")
    (root / "a" / "link").symlink_to("..")
    (root / "self.py").symlink_to("self.py")

    found = discover(root, Config())

    assert paths(found) == ["a/mod.py"]
    expected = {"self.py": "symlink_loop"}
    if mode == "walk":  # git lists a directory link as one opaque entry and never follows it
        expected["a/link"] = "symlink_loop"
    assert reasons(found) == expected


def test_symlinks_pointing_outside_the_root(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    outside = tmp_path / "outside"
    write(outside, "lib.py")
    write(root, "own.py")
    (root / "ext.py").symlink_to(outside / "lib.py")
    (root / "extdir").symlink_to(outside)

    found = discover(root, Config())

    assert paths(found) == ["own.py"]
    expected = {"ext.py": "symlink_outside_root"}
    if mode == "walk":
        expected["extdir"] = "symlink_outside_root"
    assert reasons(found) == expected


def test_broken_symlink_is_reported_not_raised(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, "ok.py")
    (root / "dangling.py").symlink_to("missing.py")
    (root / "dangling_dir").symlink_to("nowhere")

    found = discover(root, Config())

    assert paths(found) == ["ok.py"]
    assert reasons(found) == {"dangling.py": "broken_symlink"}


def test_symlinked_file_is_indexed_once_per_real_file(tmp_path: Path, mode: str) -> None:
    root = make_root(tmp_path, mode)
    write(root, ".gitignore", "hidden/\n")
    write(root, "real/mod.py")
    (root / "alias.py").symlink_to("real/mod.py")  # the real file wins
    write(root, "hidden/h.py")
    (root / "b_view.py").symlink_to("hidden/h.py")  # the real file is ignored: keep one link
    (root / "c_view.py").symlink_to("hidden/h.py")
    write(root, ".env", "TOKEN=1\n")
    (root / "settings.py").symlink_to(".env")  # a link must not leak a secret

    found = discover(root, Config())

    assert paths(found) == ["b_view.py", "real/mod.py"]
    assert reasons(found).get("settings.py") == "secret"
    assert read_source(root, source_file(found, "b_view.py")).source == b"x = 1\n"


def test_symlinks_are_not_followed_when_disabled(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "hidden/h.py")
    write(root, ".gitignore", "hidden/\n")
    (root / "view.py").symlink_to("hidden/h.py")
    (root / "viewdir").symlink_to("hidden")

    assert paths(discover(root, Config())) == ["view.py", "viewdir/h.py"]
    assert paths(discover(root, Config(follow_symlinks=False))) == []


def test_walk_follows_a_directory_link_once(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "lib/m.py")
    (root / "aaa_alias").symlink_to("lib")  # sorts first; the real path must still win
    write(root, ".gitignore", "/hidden/\n")
    write(root, "hidden/h.py")
    (root / "view").symlink_to("hidden")  # only reachable through the link

    found = discover(root, Config())

    assert paths(found) == ["lib/m.py", "view/h.py"]
    assert found.skipped == ()


# -- read_source -----------------------------------------------------------------------------


def discover_one(root: Path, rel: str, content: str | bytes = "x = 1\n") -> SourceFile:
    write(root, rel, content)
    found = discover(root, Config())
    return source_file(found, rel)


def test_read_source_of_a_vanished_file(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "pkg/mod.py")
    other = discover_one(root, "gone/mod.py")
    (root / "pkg" / "mod.py").unlink()
    shutil.rmtree(root / "gone")

    for source_file_ in (sf, other):
        result = read_source(root, source_file_)
        assert result.source is None
        assert result.skipped is not None
        assert (result.skipped.path, result.skipped.reason) == (source_file_.path, "vanished")


def test_read_source_of_a_path_that_is_no_longer_a_file(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    as_dir = discover_one(root, "a.py")
    as_fifo = discover_one(root, "b.py")
    (root / "a.py").unlink()
    (root / "a.py").mkdir()
    (root / "b.py").unlink()
    os.mkfifo(root / "b.py")  # reading a FIFO would block forever without O_NONBLOCK

    for sf, reason in ((as_dir, "unreadable"), (as_fifo, "special_file")):
        result = read_source(root, sf)
        assert result.skipped is not None and result.skipped.reason == reason


def test_read_source_of_a_file_without_permission(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "secret_sauce.py")
    (root / "secret_sauce.py").chmod(0)
    try:
        if os.access(root / "secret_sauce.py", os.R_OK):
            pytest.skip("running as root: mode 000 files stay readable")
        result = read_source(root, sf)
        assert result.source is None
        assert result.skipped is not None and result.skipped.reason == "unreadable"
    finally:
        (root / "secret_sauce.py").chmod(0o644)


def test_read_source_detects_binary(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "blob.py", bytes(range(256)) * 4)

    result = read_source(root, sf)

    assert result.source is None
    assert result.skipped is not None and result.skipped.reason == "binary"


def test_read_source_detects_minified_content(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    minified = discover_one(root, "app.js", "var a=1;" * 800 + "\n")
    normal = "\n".join(f"const v{i} = {i};" for i in range(300))
    long_line = discover_one(root, "data.js", f"const s = '{'x' * 1500}';\n{normal}\n")

    result = read_source(root, minified)
    assert result.skipped is not None and result.skipped.reason == "minified"
    # One long line among many ordinary ones is data, not minification.
    assert read_source(root, long_line).skipped is None


def test_read_source_detects_generated_header(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    first = discover_one(root, "a.py", "# @generated by protoc\nx = 1\n")
    second = discover_one(root, "b.ts", "// header\n// Code generated by gen. DO NOT EDIT.\n")
    third = discover_one(root, "c.py", "# one\n# two\n# DO NOT EDIT (too late to count)\n")

    for sf in (first, second):
        result = read_source(root, sf)
        assert result.skipped is not None and result.skipped.reason == "generated", sf.path
    assert read_source(root, third).skipped is None


def test_read_source_keeps_non_utf8_text(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    text = "# café – “quoted” €\nname = 'Zoë'\n"
    cp1252 = discover_one(root, "win.py", text.encode("cp1252"))
    raw_latin1 = b"# ctrl \x81 byte \xe9\n"  # 0x81 is undefined in cp1252
    latin1 = discover_one(root, "old.py", raw_latin1)
    utf8 = discover_one(root, "new.py", text)
    bom = discover_one(root, "bom.py", b"\xef\xbb\xbf" + text.encode("utf-8"))
    utf16 = discover_one(root, "ps.ts", text.encode("utf-16"))

    def read(sf: SourceFile) -> tuple[bytes | None, object, str | None]:
        result = read_source(root, sf)
        return result.source, result.skipped, result.note

    assert read(cp1252) == (text.encode("utf-8"), None, "decoded as cp1252")
    expected_latin1 = raw_latin1.decode("latin-1").encode("utf-8")
    assert read(latin1) == (expected_latin1, None, "decoded as latin-1")
    assert read(utf8) == (text.encode("utf-8"), None, None)
    assert read(bom) == (text.encode("utf-8"), None, None)
    assert read(utf16) == (text.encode("utf-8"), None, "decoded as utf-16")


def test_exclude_with_negation(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    for rel in ["tests/a.py", "tests/keep.py", "src/m.py"]:
        write(root, rel)

    found = discover(root, Config(exclude=("tests/**", "!tests/keep.py")))

    assert paths(found) == ["src/m.py", "tests/keep.py"]


@pytest.mark.parametrize(
    "lines",
    [
        ["build/", "*.log", "/top.py", "docs/**/*.md", "a?c.py", "[ab].js"],
        ["*.py", "!keep.py", "sub/"],
        # anywhere-patterns folded behind one `^(?:.+/)?` beside anchored and deep ones
        ["build", "*.log", "x.js", "/top.py", "a/**/c.md", "docs/", "sub/keep.py", "!abc.py"],
    ],
)
def test_folded_patterns_agree_with_pathspec(lines: list[str]) -> None:
    import pathspec

    from astrag.discover import _Patterns

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    ours = _Patterns(lines)
    for path in [
        "build/x.py", "a/build/y.py", "build", "x.log", "a/b/x.log", "top.py", "a/top.py",
        "docs/a/b/c.md", "docs/c.md", "abc.py", "a/abc.py", "abbc.py", "a.js", "c.js",
        "keep.py", "sub/keep.py", "other.py", "sub/", "x/sub/", "README", "x.js", "a/b/x.js",
        "docs/", "a/docs/", "a/sub/keep.py", "a/b/c.md", "a/x/y/c.md",
    ]:  # fmt: skip
        assert ours.matches(path) == spec.match_file(path), path


def test_a_file_swapped_for_a_symlink_out_of_the_root_after_discovery_is_not_read(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "pkg/mod.py")
    outside = tmp_path / "outside.py"
    outside.write_text("SECRET = 'from outside the root'\n")
    (root / "pkg" / "mod.py").unlink()
    (root / "pkg" / "mod.py").symlink_to(outside)
    result = read_source(root, sf)
    assert result.source is None and result.skipped is not None
    assert result.skipped.reason == "unreadable"  # O_NOFOLLOW: the link is never followed
    # a discovered link re-pointed out of the root is refused by its identity
    write(root, "real.txt", "x = 1\n")  # not indexed itself, so the link is
    (root / "view.py").symlink_to(root / "real.txt")
    link = source_file(discover(root, Config()), "view.py")
    (root / "view.py").unlink()
    (root / "view.py").symlink_to(outside)
    result = read_source(root, link)
    assert result.skipped is not None and result.skipped.reason == "symlink_outside_root"


def test_a_file_saved_by_rename_after_discovery_is_read(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "mod.py")
    write(root, "mod.py.tmp", "y = 2\n")
    os.replace(root / "mod.py.tmp", root / "mod.py")  # how editors save: a new inode
    assert read_source(root, sf).source == b"y = 2\n"


def test_the_size_limit_applies_to_what_is_read(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "grows.py", "x = 1\n")
    with open(root / "grows.py", "a") as fh:
        fh.write("# padding\n" * 200)
    assert read_source(root, sf, max_bytes=100).skipped == Skipped("grows.py", "too_large")
    assert read_source(root, sf, max_bytes=10_000).source is not None


def test_special_files_are_refused_before_opening(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    sf = discover_one(root, "pipe.py")
    (root / "pipe.py").unlink()
    os.mkfifo(root / "pipe.py")
    result = read_source(root, sf)
    assert result.skipped == Skipped("pipe.py", "special_file")
    assert read_repo_text(root, "pipe.py") is None  # what check and MCP paths read through


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_decoded(tmp_path: Path, encoding: str) -> None:
    text = "def grüße():\n    return 'ß'\n"
    data = text.encode(encoding)
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and "16" in encoding:
        data = (codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE) + data
    if encoding == "utf-32-be":
        data = codecs.BOM_UTF32_BE + data
    result = decode_source("m.py", data)
    assert result.source == text.encode("utf-8")
    assert result.note is not None and result.note.startswith("decoded as utf-")


VSCODE_LINES = [
    "logs",
    "*.log",
    "dist",
    "*.local",
    ".vscode/*",
    "!.vscode/extensions.json",
    ".idea",
]
VSCODE_PATHS = [
    ".vscode/settings.json", ".vscode/extensions.json", ".vscode/", "x/.vscode/a.json",
    "a/b.log", "src/x.ts", "logs/", "logs/a.ts", "dist/", "dist-ssr/a.ts", "env.local",
    ".idea/", "a/.idea/x.py", "extensions.json", "",
]  # fmt: skip


def test_negated_patterns_agree_with_pathspec_and_skip_its_loop_when_nothing_matches() -> None:
    import pathspec

    from astrag.discover import _Patterns

    spec = pathspec.GitIgnoreSpec.from_lines(VSCODE_LINES)
    ours = _Patterns(VSCODE_LINES)
    for path in VSCODE_PATHS:
        assert ours.verdict(path) == spec.check_file(path).include, path
    looped: list[str] = []
    check_file = ours.spec.check_file
    ours.spec.check_file = lambda path: looped.append(path) or check_file(path)  # type: ignore[method-assign]
    assert ours.verdict("src/x.ts") is None and looped == []  # no pattern matches: no loop
    assert ours.verdict(".vscode/extensions.json") is False and looped == [
        ".vscode/extensions.json"
    ]  # matched: pathspec's loop says which pattern wins


def test_walk_honours_a_nested_gitignore_with_negations(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "app/.gitignore", "\n".join(VSCODE_LINES) + "\n")
    for rel in [
        "app/src/x.ts", "app/.vscode/a.ts", "app/.vscode/extensions.json", "app/logs/a.ts",
        "app/dist-ssr/a.ts", "app/b.local", "app/.env", "app/.vscode/.env", "top/.vscode/a.ts",
    ]:  # fmt: skip
        write(root, rel)

    found = discover(root, Config())

    assert paths(found) == ["app/dist-ssr/a.ts", "app/src/x.ts", "top/.vscode/a.ts"]
    assert reasons(found) == {"app/.env": "secret"}  # .vscode/.env is ignored before it counts


def test_the_same_gitignore_text_in_two_directories_is_compiled_once_and_anchored_to_each(
    tmp_path: Path,
) -> None:
    from astrag.discover import _ignore_patterns

    root = tmp_path / "proj"
    for package in ("a", "b"):
        write(root, f"{package}/.gitignore", "/gen.py\nlogs/\n")
    for rel in ["gen.py", "a/gen.py", "b/gen.py", "a/c/gen.py", "a/logs/x.py", "logs/x.py"]:
        write(root, rel)
    _ignore_patterns.cache_clear()

    found = discover(root, Config())

    assert paths(found) == ["a/c/gen.py", "gen.py", "logs/x.py"]
    assert _ignore_patterns.cache_info().misses == 1 and _ignore_patterns.cache_info().hits == 1

"""Which files belong to the project, and reading them safely.

:func:`discover` lists the files to index without reading their contents (one ``lstat`` each):

1. **Candidates.** In a git work tree, ``git ls-files --cached --others --exclude-standard``
   (tracked plus untracked-but-not-ignored; tracked files deleted from disk drop out silently).
   Without git, or when git fails or lists nothing (e.g. the root sits in a directory its
   parent repository ignores), a walk honouring ``.gitignore`` at every level, the enclosing
   repository's ``.gitignore`` files above the root and ``.git/info/exclude``.
2. **Always-skipped directories** (:data:`SKIP_DIR_NAMES`), any directory holding ``pyvenv.cfg``
   (a virtualenv, whatever its name), and the index directory. ``build``/``dist``/``out``/
   ``target``/``coverage`` are skipped only when they are not Python packages (no
   ``__init__.py``): coverage.py's source lives in ``coverage/``.
3. ``config.exclude`` removes; ``config.include`` adds back git-ignored, untracked or
   skipped-directory files. Exclude wins over include. To include inside a skipped directory, use
   a pattern that names it, e.g. ``node_modules/@acme/lib/**`` or ``build/``.
4. Per file: secrets (never indexed, whatever the config says), non-indexable languages,
   minified and generated names, symlinks, size.

:func:`read_source` reads one discovered file and applies the content checks that need the bytes
anyway (binary, generated header, minified) and decodes to UTF-8.

Only files astrag would index (or secrets) appear in :attr:`Discovery.skipped`, with a reason from
:data:`SKIP_REASONS`; everything else is dropped silently so the list stays readable.

Symlinks are followed only to targets inside the root. A linked file is indexed under its link
path, once per real file, and not at all if the real file itself is indexed. A linked directory
(walk only; git does not descend into links) is followed after every real directory has been
walked, and only if its target has not been walked yet, which makes loops harmless.
"""

from __future__ import annotations

import codecs
import errno
import functools
import hashlib
import os
import re
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from astrag.config import Config
from astrag.errors import AstragError
from astrag.lang import language_of

SKIP_REASONS = frozenset(
    {
        "secret",
        "too_large",
        "binary",
        "minified",
        "generated",
        "symlink_outside_root",
        "symlink_loop",
        "broken_symlink",
        "vanished",
        "unreadable",
        "special_file",
        "changed_during_read",
        "excluded_dir",
        "undecodable_path",
    }
)

SKIP_DIR_NAMES = frozenset(
    {
        ".git",
        ".astrag",
        "node_modules",
        "bower_components",
        "__pycache__",
        ".venv",
        "venv",
        "site-packages",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".next",
        ".nuxt",
        "vendor",
        "third_party",
        ".yarn",
    }
)
# Build-output names that are also real package names (PyPA's `build`, coverage.py's
# `coverage`, commons-io's `org.apache.commons.io.build`): skipped only when the directory
# has no __init__.py and holds no .java file itself (a Java package is a directory of sources;
# build output holds classes, and generated sources only deeper down).
OUTPUT_DIR_NAMES = frozenset({"dist", "build", "out", "target", "coverage"})
# Skipped directories that never hold sources: not worth an `excluded_dir` line in a walk.
_QUIET_DIR_NAMES = frozenset(
    {".git", ".astrag", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)

# Name rules as prefix/suffix tuples: str.startswith/endswith with a tuple is one C call, several
# times cheaper than a regex, and these run once per listed file. Compared lower-cased, so
# ID_RSA or SERVER.KEY on a case-insensitive disk are still caught.
_SECRET_NAMES = frozenset({".env", ".npmrc", ".pypirc", ".netrc", "credentials.json"})
_SECRET_PREFIXES = (".env.", "id_rsa", "id_ed25519", "id_ecdsa", "secrets.")
_SECRET_SUFFIXES = (
    ".pem", ".key", ".p12", ".pfx", ".crt", ".cer", ".der", ".jks", ".keystore", ".kdbx",
    ".tfvars",
)  # fmt: skip
_MINIFIED_SUFFIXES = (".min.js", ".min.mjs", "-min.js", ".bundle.js")
_GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", ".generated.ts")


def is_secret(name: str) -> bool:
    """Whether a file name looks like credentials; such files are never indexed."""
    lower = name.lower()
    return (
        lower in _SECRET_NAMES
        or lower.startswith(_SECRET_PREFIXES)
        or lower.endswith(_SECRET_SUFFIXES)
    )


_HEAD_BYTES = 8192
_WIDE_BOMS = (
    ((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE), "utf-32"),
    ((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE), "utf-16"),
)
_LONG_LINE = 1000
_MINIFIED_MEAN_LINE = 200  # normal code averages 30-40 characters a line


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to index: repo-relative ``/`` path, language, and the stat seen at discovery."""

    path: str
    language: str
    size: int
    mtime_ns: int
    device: int = 0  # identity of the file discovered (the target, for a followed link):
    inode: int = 0  # reading checks it, so a path swapped after discovery is not read
    link: bool = False  # a symlink to a file inside the root, discovered as such


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file astrag would have indexed but did not; ``reason`` is one of SKIP_REASONS."""

    path: str
    reason: str


@dataclass(frozen=True)
class Discovery:
    """The outcome of :func:`discover`. ``method`` is ``"git"`` or ``"walk"``."""

    files: tuple[SourceFile, ...]
    skipped: tuple[Skipped, ...]
    method: str = "walk"


@dataclass(frozen=True, slots=True)
class ReadResult:
    """UTF-8 ``source`` (BOM stripped) or a ``skipped``; ``note`` says how it was decoded."""

    source: bytes | None
    skipped: Skipped | None
    note: str | None = None


def discover(root: Path, config: Config, listing: GitListing | None = None) -> Discovery:
    """List the files under ``root`` that astrag indexes, and the notable ones it skips.
    ``listing``: git's listing of ``root``, started earlier (see :class:`GitListing`).

    Raises :class:`~astrag.errors.AstragError` only when ``root`` is not a directory; files that
    are unreadable, vanish or loop are reported in ``skipped`` instead.
    """
    if not os.path.isdir(root):
        raise AstragError(
            f"{root}: not a directory", hint="Pass the path of the project's top directory."
        )
    new = functools.partial(_Collector, Path(root), config)
    if listing is None or listing.root != os.fspath(root):
        listing = GitListing(os.fspath(root))
    listed, taken = _take_listing(new, listing)
    if taken is not None:
        collector = taken
        method = "git"
    else:
        collector = new()
        # git listing nothing means the enclosing repository ignores the root (or it is empty);
        # the user pointed at it anyway, so the repository's rules above the root do not apply.
        outer = _outer_ignore_rules(collector.root) if listed == "failed" else ()
        collector.walk([""], rules=outer, include_only=False)
        method = "walk"
    if collector.include is not None:
        starts = _include_starts(config.include)
        collector.walk(starts, rules=None, include_only=True)
    files, skipped = collector.result()
    return Discovery(files=files, skipped=skipped, method=method)


def _take_listing(
    new: Callable[[], _Collector], listing: GitListing
) -> tuple[str, _Collector | None]:
    """A collector (made by ``new``) given what git lists, and "git"; or "failed" (git is
    missing or fails) or "empty" (it lists nothing), and None: the tree is walked instead.
    The tracked files are offered (each one ``lstat``-ed) while git lists the untracked ones."""
    tracked = listing.tracked()
    if not tracked:
        untracked = listing.untracked()
        if tracked is None or untracked is None:
            return "failed", None
        if not untracked:
            return "empty", None
        collector = new()
        collector.take_git_listing(untracked)
        return "git", collector
    collector = new()
    markers = collector.take_git_listing(tracked)
    untracked = listing.untracked()
    if untracked is None:
        return "failed", None
    if collector.take_git_listing(untracked, markers) is None:
        # an untracked file marks a directory as a package or a virtualenv, which may change
        # whether a directory of the tracked files is skipped: all of them again, together
        collector = new()
        collector.take_git_listing(tracked + untracked)
    return "git", collector


class GitListing:
    """``git ls-files`` of ``root`` (the paths git considers part of the work tree), started at
    once in two processes, the tracked files and the untracked ones: a caller starts it before
    other work and reads it when it discovers. git's listing of untracked files walks the tree
    (0.03 s on a 5.7k-file monorepo); meanwhile an index run opens the store, reads its
    records and offers the tracked files."""

    def __init__(self, root: str) -> None:
        self.root = root
        # GIT_DIR/GIT_WORK_TREE (set inside git hooks) would point git at another repository.
        env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE")}
        self._procs: list[subprocess.Popen[bytes] | None] = [None, None]
        self._outs: dict[int, bytes] = {}  # what each process listed, once read
        if _git_top(os.path.realpath(root)) is None:
            return  # no repository above: git would only fail, after two process starts
        self._procs = []
        for flags in (["--cached"], ["--others", "--exclude-standard"]):
            command = ["git", "-C", root, "ls-files", "-z", *flags]
            try:
                proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                    command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
                )
            except OSError:
                proc = None
            self._procs.append(proc)

    def tracked(self) -> list[str] | None:
        """The files in git's index; None when git is missing or fails (not a repository,
        unsafe ownership, ...)."""
        return self._read(0)

    def untracked(self) -> list[str] | None:
        """The files git does not track and does not ignore; None as for :meth:`tracked`."""
        return self._read(1)

    def _read(self, i: int) -> list[str] | None:
        proc = self._procs[i]
        if proc is None:
            return None
        if i not in self._outs:
            with proc:
                self._outs[i] = proc.communicate()[0]
        if proc.returncode != 0:
            return None
        return [p for p in os.fsdecode(self._outs[i]).split("\0") if p]

    def close(self) -> None:
        """Stop git if a listing was never read (the run ended before discovering)."""
        for proc in self._procs:
            if proc is not None and proc.returncode is None:
                proc.kill()
                proc.communicate()


@functools.lru_cache(maxsize=4096)
def _language_of_suffix(suffix: str) -> str | None:
    return language_of("x" + suffix) if suffix else None


def is_candidate(name: str) -> bool:
    """Whether a file of this name is one astrag may index (a language it parses, not a
    secret)."""
    return _language(name) is not None and not is_secret(name)


def _language(name: str) -> str | None:
    """``language_of`` by file name, memoised on the suffix: it runs once per listed file."""
    dot = name.rfind(".")
    return _language_of_suffix(name[dot:].lower() if dot > 0 else "")


class _Patterns:
    """gitignore-style patterns. ``verdict(path)`` is True (matched), False (re-included by a
    ``!`` pattern) or None (no match). Without negations, all patterns are folded into one
    regex: a single match per path instead of pathspec's loop over patterns. With negations the
    folded regex still answers the common case, a path no pattern matches (None), and only the
    paths some pattern matches go through pathspec's loop, which knows which one wins."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.spec = pathspec.GitIgnoreSpec.from_lines(lines)
        self._any, negated = _combined_regex(self.spec)
        self._combined = None if negated else self._any

    def verdict(self, path: str) -> bool | None:
        if self._combined is not None:
            return True if self._combined.match(path) else None
        if self._any is not None and self._any.match(path) is None:
            return None  # no pattern matches: pathspec's answer too
        return self.spec.check_file(path).include

    def matches(self, path: str) -> bool:
        return bool(self.verdict(path))


# how pathspec starts a pattern without a slash (`dist`, `*.log`): at any depth
_ANY_DIRS = "^(?:.+/)?"


def _combined_regex(spec: pathspec.GitIgnoreSpec) -> tuple[re.Pattern[str] | None, bool]:
    """One regex that matches where any of ``spec``'s patterns does, or None when one cannot be
    built; and whether some pattern is a negation. pathspec searches each pattern's regex; they
    all start with ``^`` (else no folding), so matching the alternation is the same test."""
    parts: list[str] = []
    anywhere: list[str] = []  # what follows _ANY_DIRS in the patterns that start with it
    negated = False
    for pattern in spec.patterns:
        if pattern.include is None:
            continue  # blank line or comment
        regex = getattr(pattern, "regex", None)
        if not isinstance(regex, re.Pattern) or not regex.pattern.startswith("^"):
            return None, True
        negated = negated or pattern.include is False
        # pathspec names groups; the same name twice would not compile.
        source = re.sub(r"\(\?P<\w+>", "(?:", regex.pattern)
        if source.startswith(_ANY_DIRS):
            anywhere.append("(?:" + source[len(_ANY_DIRS) :] + ")")
        else:
            parts.append("(?:" + source + ")")
    if anywhere:
        # `^(?:.+/)?(?:A|B)` matches where `^(?:.+/)?A` or `^(?:.+/)?B` does, trying each
        # directory prefix once instead of once per pattern (a package's .gitignore: 4.4 ->
        # 1.6 us a path); only whether something matches is ever asked
        parts.append("(?:" + _ANY_DIRS + "(?:" + "|".join(anywhere) + "))")
    try:
        return re.compile("|".join(parts) if parts else "(?!)"), negated
    except re.error:
        return None, True


@dataclass(frozen=True, slots=True)
class _IgnoreFile:
    """One .gitignore: ``base`` is its directory relative to the root ("" for the root and for
    files above it); ``prefix`` is the root's path relative to the file's directory ("" unless
    the file sits above the root)."""

    base: str
    prefix: str
    patterns: _Patterns


_Rules = tuple[_IgnoreFile, ...]

# What the walk found an entry to be (compared by identity)
_DIR, _SECRET = object(), object()


def _kind(name: str) -> object:
    """What a file's name makes it: :data:`_SECRET` (never indexed, always reported), the
    language astrag indexes it as, or None (neither: passed over)."""
    return _SECRET if is_secret(name) else _language(name)


def _is_ignored(rules: _Rules, rel: str, is_dir: bool) -> bool:
    path = rel + "/" if is_dir else rel
    # Deeper files override shallower ones, and within a file the last match wins (check_file).
    for rule in reversed(rules):
        sub = path[len(rule.base) + 1 :] if rule.base else path
        verdict = rule.patterns.verdict(rule.prefix + sub)
        if verdict is not None:
            return verdict
    return False


def _read_ignore_file(path: str) -> _Patterns | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    return _ignore_patterns(text)


@functools.lru_cache(maxsize=256)
def _ignore_patterns(text: str) -> _Patterns:
    """A .gitignore's patterns, compiled once per text: a monorepo repeats the same few files
    in every package (medusa: 55 files, 15 texts; compiling them took 0.011 s of a walk)."""
    lines = text.splitlines()
    try:
        return _Patterns(lines)
    except Exception:  # one bad line should not stop indexing; git skips it too
        valid = []
        for line in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except Exception:
                continue
            valid.append(line)
        return _Patterns(valid)


def _git_top(real: str) -> str | None:
    """The nearest directory at or above ``real`` (a resolved path) holding a ``.git`` (a
    repository's directory, or the file a worktree or submodule has); None outside any."""
    top = real
    while not os.path.exists(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent
    return top


def _outer_ignore_rules(root: str) -> _Rules:
    """Rules from above the root: ``.git/info/exclude`` and ``.gitignore`` files of the enclosing
    repository's directories between its top and the root (the root's own are read by the walk)."""
    real = os.path.realpath(root)
    top = _git_top(real)
    if top is None:
        return ()
    rules: list[_IgnoreFile] = []
    prefix_of_root = os.path.relpath(real, top).replace(os.sep, "/")
    prefix_of_root = "" if prefix_of_root == "." else prefix_of_root + "/"
    patterns = _read_ignore_file(os.path.join(top, ".git", "info", "exclude"))
    if patterns is not None:
        rules.append(_IgnoreFile("", prefix_of_root, patterns))
    directory = top
    while directory != real:
        patterns = _read_ignore_file(os.path.join(directory, ".gitignore"))
        if patterns is not None:
            rel = os.path.relpath(real, directory).replace(os.sep, "/")
            rules.append(_IgnoreFile("", rel + "/", patterns))
        directory = os.path.join(directory, os.path.relpath(real, directory).split(os.sep)[0])
    return tuple(rules)


def _include_starts(patterns: Iterable[str]) -> list[str]:
    """Directories to walk for ``include``: each pattern's literal leading directories, or the
    root for patterns that match at any depth."""
    starts: set[str] = set()
    for raw in patterns:
        pattern = raw.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        body = pattern.strip("/")
        if "/" not in body and not pattern.startswith("/"):
            starts.add("")  # no slash: matches at any depth
            continue
        literal: list[str] = []
        for part in body.split("/")[:-1]:
            if any(ch in part for ch in "*?[\\"):
                break
            literal.append(part)
        starts.add("/".join(literal))
    return sorted(starts)


class _Collector:
    """Accumulates the decision for every candidate path, from git or from a walk."""

    def __init__(self, root: Path, config: Config) -> None:
        self.root = os.fspath(root)
        self.root_prefix = os.path.join(self.root, "")
        self.root_real = os.path.realpath(self.root)
        self.config = config
        self.exclude = _Patterns(config.exclude) if config.exclude else None
        self.include = _Patterns(config.include) if config.include else None
        index_dir = os.path.relpath(os.path.join(self.root, config.index_dir), self.root)
        index_dir = index_dir.replace(os.sep, "/")
        self.index_dir = None if index_dir.startswith(("..", "/")) else index_dir
        self.files: dict[str, SourceFile] = {}
        self.links: dict[str, tuple[str, SourceFile]] = {}  # link path -> (real path, file)
        self.skipped: dict[str, str] = {}
        self.seen: set[str] = set()

    def result(self) -> tuple[tuple[SourceFile, ...], tuple[Skipped, ...]]:
        files = dict(self.files)
        taken = set(files)
        for link in sorted(self.links):
            real, source_file = self.links[link]
            if real not in taken:  # the real file wins; else the first link by name
                taken.add(real)
                files[link] = source_file
        ordered = tuple(files[path] for path in sorted(files))
        skipped = tuple(Skipped(path, self.skipped[path]) for path in sorted(self.skipped))
        return ordered, skipped

    def skip(self, rel: str, reason: str) -> None:
        self.skipped.setdefault(rel, reason)

    # -- per-file decision -------------------------------------------------------------------

    def offer(self, rel: str) -> None:
        """Decide one candidate path that git or the walk did not ignore."""
        name = rel.rpartition("/")[2]
        self._offer(rel, name, _kind(name))

    def _offer(self, rel: str, name: str, kind: object) -> None:
        """:meth:`offer` with ``name``'s :func:`_kind` known (the walk has it already)."""
        if rel in self.seen:
            return
        self.seen.add(rel)
        if kind is None:
            return
        if self.exclude is not None and self.exclude.matches(rel):
            return
        if kind is _SECRET:
            self.skip(rel, "secret")
        elif not rel.isascii() and not _is_utf8(rel):
            self.skip(rel, "undecodable_path")
        elif name.lower().endswith(_MINIFIED_SUFFIXES):
            self.skip(rel, "minified")
        elif name.lower().endswith(_GENERATED_SUFFIXES):
            self.skip(rel, "generated")
        else:
            assert isinstance(kind, str)  # a language: _kind's only other answer
            self._stat(rel, kind)

    def _stat(self, rel: str, language: str) -> None:
        full = self.root_prefix + rel
        try:
            st = os.lstat(full)
        except (FileNotFoundError, NotADirectoryError):
            return  # listed by git but deleted from disk: not part of the project any more
        except OSError:
            self.skip(rel, "unreadable")
            return
        real: str | None = None
        if stat.S_ISLNK(st.st_mode):
            if not self.config.follow_symlinks:
                return
            resolved = self._resolve_link(rel, full)
            if resolved is None:
                return
            st, real = resolved
        if not stat.S_ISREG(st.st_mode):
            return
        if st.st_size > self.config.max_file_bytes:
            self.skip(rel, "too_large")
            return
        source_file = SourceFile(
            rel, language, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, real is not None
        )
        if real is None:
            self.files[rel] = source_file
        else:
            self.links[rel] = (real, source_file)

    def _resolve_link(self, rel: str, full: str) -> tuple[os.stat_result, str] | None:
        """The target's stat and root-relative real path, or None (skip recorded if notable)."""
        try:
            st = os.stat(full)
        except FileNotFoundError:
            self.skip(rel, "broken_symlink")
            return None
        except OSError as exc:
            self.skip(rel, "symlink_loop" if exc.errno == errno.ELOOP else "unreadable")
            return None
        real = self._inside_root(os.path.realpath(full))
        if real is None:
            self.skip(rel, "symlink_outside_root")
            return None
        if is_secret(real.rpartition("/")[2]):
            self.skip(rel, "secret")  # `settings.py -> .env` must not leak the target
            return None
        return st, real

    def _inside_root(self, real: str) -> str | None:
        if real == self.root_real:
            return ""
        prefix = self.root_real if self.root_real.endswith(os.sep) else self.root_real + os.sep
        if not real.startswith(prefix):
            return None
        return real[len(prefix) :].replace(os.sep, "/")

    # -- git listing -------------------------------------------------------------------------

    def take_git_listing(
        self, paths: list[str], markers: tuple[set[str], set[str]] | None = None
    ) -> tuple[set[str], set[str]] | None:
        """Offer every path git listed, minus those in skipped directories (unless included).
        Returns the directories the paths mark as packages and as virtualenvs, which decide
        whether an output-named directory is skipped; with ``markers`` (those of paths offered
        before), offers nothing and returns None when ``paths`` mark one they do not."""
        packages = {p[: -len("/__init__.py")] for p in paths if p.endswith("/__init__.py")}
        packages.update(p.rpartition("/")[0] for p in paths if p.endswith(".java"))
        venvs = {p[: -len("/pyvenv.cfg")] for p in paths if p.endswith("/pyvenv.cfg")}
        if markers is not None:
            if not (packages <= markers[0] and venvs <= markers[1]):
                return None
            packages, venvs = markers
        blocked_cache: dict[str, str | None] = {}
        for rel in paths:
            if rel.endswith("/"):
                continue  # a nested repository git does not descend into
            parent, _, name = rel.rpartition("/")
            if parent not in blocked_cache:
                blocked_cache[parent] = self._blocked_prefix(parent, packages, venvs)
            blocked = blocked_cache[parent]
            if blocked is None or self._included(rel):
                self.offer(rel)
            elif is_candidate(name):
                self.skip(blocked, "excluded_dir")
        return packages, venvs

    def _blocked_prefix(self, parent: str, packages: set[str], venvs: set[str]) -> str | None:
        """The first directory of ``parent`` that is always skipped, or None."""
        if not parent:
            return None
        prefix = ""
        for part in parent.split("/"):
            prefix = f"{prefix}/{part}" if prefix else part
            if self._skip_dir(part, prefix, lambda p=prefix: p in packages) or prefix in venvs:
                return prefix
        return None

    def _skip_dir(self, name: str, rel: str, is_package: Callable[[], bool]) -> bool:
        if name in SKIP_DIR_NAMES or rel == self.index_dir:
            return True
        return name in OUTPUT_DIR_NAMES and not is_package()

    # -- walking -----------------------------------------------------------------------------

    def walk(self, starts: list[str], rules: _Rules | None, include_only: bool) -> None:
        """Walk from each start. ``rules`` None means ignore nothing; ``include_only`` offers
        only files matching ``config.include``. Directory links are deferred until every real
        directory is done, so a link never shadows the real path of what it points to."""
        visited: set[tuple[int, int]] = set()
        starts = [
            s for s in starts if self._inside_root(os.path.realpath(self._full(s))) is not None
        ]
        stack: list[tuple[str, _Rules | None]] = [(start, rules) for start in reversed(starts)]
        deferred: list[tuple[str, _Rules | None]] = []
        while stack or deferred:
            if not stack:
                link, link_rules = deferred.pop()
                if self._follow_dir_link(link):
                    stack.append((link, link_rules))
                continue
            rel_dir, dir_rules = stack.pop()
            for entry, rel, entry_rules, kind in self._scan(
                rel_dir, dir_rules, visited, include_only
            ):
                if kind is _DIR:
                    if entry.is_symlink():
                        if self.config.follow_symlinks:
                            deferred.append((rel, entry_rules))
                    else:
                        stack.append((rel, entry_rules))
                elif not include_only or self._included(rel):
                    self._offer(rel, entry.name, kind)

    def _full(self, rel: str) -> str:
        return os.path.join(self.root, rel) if rel else self.root

    def _included(self, rel: str) -> bool:
        return self.include is not None and self.include.matches(rel)

    def _scan(
        self,
        rel_dir: str,
        rules: _Rules | None,
        visited: set[tuple[int, int]],
        include_only: bool,
    ) -> Iterator[tuple[os.DirEntry[str], str, _Rules | None, object]]:
        """Entries of one directory worth looking at: (entry, its path, rules below it, its kind:
        :data:`_DIR`, :data:`_SECRET` or a source file's language). One loop, no generator per
        entry: it runs for every entry of the tree (medusa: 16k)."""
        full_dir = self._full(rel_dir)
        try:
            st = os.stat(full_dir)
            if (st.st_dev, st.st_ino) in visited:
                return
            visited.add((st.st_dev, st.st_ino))
            with os.scandir(full_dir) as it:
                entries = list(it)
        except OSError:
            return
        names = {entry.name for entry in entries}
        if rel_dir and "pyvenv.cfg" in names:
            if not include_only:
                self.skip(rel_dir, "excluded_dir")
            return
        if rules is not None and ".gitignore" in names:
            patterns = _read_ignore_file(os.path.join(full_dir, ".gitignore"))
            if patterns is not None:
                rules = (*rules, _IgnoreFile(rel_dir, "", patterns))
        prefix = rel_dir + "/" if rel_dir else ""
        for entry in entries:
            name = entry.name
            rel = prefix + name
            try:
                is_dir = entry.is_dir()  # follows links; False for broken ones
            except OSError:
                is_dir = False
            if not is_dir:
                kind = _kind(name)
                if kind is None:
                    continue  # cheap name test first: most files are not candidates
                if rules is not None and _is_ignored(rules, rel, is_dir=False):
                    continue
                yield entry, rel, rules, kind
            elif self._keep_dir(entry, rel, rules, include_only):
                yield entry, rel, rules, _DIR

    def _keep_dir(
        self, entry: os.DirEntry[str], rel: str, rules: _Rules | None, include_only: bool
    ) -> bool:
        if rules is not None and _is_ignored(rules, rel, is_dir=True):
            return False
        is_package = lambda: _is_source_package(entry.path)  # noqa: E731
        if self._skip_dir(entry.name, rel, is_package):
            if include_only and self._included(rel + "/"):
                return True
            if not include_only and entry.name not in _QUIET_DIR_NAMES:
                self.skip(rel, "excluded_dir")
            return False
        return True

    def _follow_dir_link(self, rel: str) -> bool:
        full = os.path.join(self.root, rel)
        real_full = os.path.realpath(full)
        if self._inside_root(real_full) is None:
            self.skip(rel, "symlink_outside_root")
            return False
        parent_real = os.path.realpath(os.path.dirname(full))
        if parent_real == real_full or parent_real.startswith(real_full.rstrip(os.sep) + os.sep):
            self.skip(rel, "symlink_loop")  # points at one of its own ancestors
            return False
        return True  # already-walked targets are dropped by the walk's visited set


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False  # a file name git or the OS gave us as undecodable bytes
    return True


# -- reading ---------------------------------------------------------------------------------


def read_source(root: Path, sf: SourceFile, max_bytes: int | None = None) -> ReadResult:
    """Read one discovered file as UTF-8 bytes; never raises for files that changed on disk.

    Race-free against the tree changing after discovery: a FIFO, socket or device is refused
    before it is opened (opening some devices acts on them); the file is opened without
    following a symlink at its last step (a discovered link is followed, then checked), and
    what was opened must be the file discovery saw, or a regular file that the path still
    names inside the root (an editor's save-by-rename); ``max_bytes`` applies to what is read,
    not to the size seen earlier."""
    root_str = os.fspath(root)
    full = os.path.join(root_str, sf.path)
    try:
        st = os.stat(full) if sf.link else os.lstat(full)
    except (FileNotFoundError, NotADirectoryError):
        return ReadResult(None, Skipped(sf.path, "vanished"))
    except OSError:
        return ReadResult(None, Skipped(sf.path, "unreadable"))
    reason = _not_a_file(st.st_mode)
    if reason:
        return ReadResult(None, Skipped(sf.path, reason))
    nofollow = 0 if sf.link else getattr(os, "O_NOFOLLOW", 0)
    # O_NONBLOCK: a path that becomes a FIFO after the check above cannot hang the indexer
    flags = os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(full, flags | getattr(os, "O_NOCTTY", 0))
    except (FileNotFoundError, NotADirectoryError):
        return ReadResult(None, Skipped(sf.path, "vanished"))
    except OSError:  # ELOOP: a symlink swapped in where discovery saw a file
        return ReadResult(None, Skipped(sf.path, "unreadable"))
    with open(fd, "rb") as fh:
        try:
            opened = os.fstat(fh.fileno())
            reason = _not_a_file(opened.st_mode) or _swapped(root_str, full, sf, opened)
            if reason:
                return ReadResult(None, Skipped(sf.path, reason))
            limit = max_bytes if max_bytes is not None else -1
            data = fh.read(limit + 1 if limit >= 0 else -1)
        except OSError:
            return ReadResult(None, Skipped(sf.path, "unreadable"))
    if max_bytes is not None and len(data) > max_bytes:
        return ReadResult(None, Skipped(sf.path, "too_large"))  # grew after discovery
    return decode_source(sf.path, data)


def _not_a_file(mode: int) -> str:
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "special_file"
    return "unreadable"  # a directory, or a link where none was discovered


def _swapped(root: str, full: str, sf: SourceFile, opened: os.stat_result) -> str:
    """'' if the opened file may be read: the one discovered, or a regular file the path now
    names inside the root; else why not."""
    if not sf.inode or (opened.st_dev, opened.st_ino) == (sf.device, sf.inode):
        return ""
    real = os.path.realpath(full)
    root_real = os.path.realpath(root)
    if real != root_real and not real.startswith(root_real.rstrip(os.sep) + os.sep):
        return "symlink_outside_root"
    try:
        now = os.stat(real)
    except OSError:
        return "changed_during_read"
    same = (now.st_dev, now.st_ino) == (opened.st_dev, opened.st_ino)
    return "" if same else "changed_during_read"


def read_repo_text(root: Path, rel: str, max_bytes: int = 16_000_000) -> str | None:
    """A repository file's text as astrag reads it (special files refused before opening, no
    symlink out of the root, at most ``max_bytes``), or None when it cannot be read."""
    full = os.path.join(os.fspath(root), rel)
    try:
        st = os.stat(full)
    except (OSError, ValueError):
        return None
    sf = SourceFile(rel, "", st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, link=True)
    result = read_source(root, sf, max_bytes)
    if result.source is None:
        return None
    return result.source.decode("utf-8", errors="replace")


def content_hash(source: bytes) -> str:
    """The index's key for a file's content (of the bytes :func:`read_source` returns)."""
    return hashlib.blake2b(source, digest_size=16).hexdigest()


_LONE_CR = re.compile(rb"\r(?!\n)")


def decode_source(path: str, data: bytes) -> ReadResult:
    """Apply the content checks to ``data`` and return it as UTF-8 without a BOM."""
    note = None
    # Windows tools (PowerShell's `>`) write UTF-16; its NUL bytes would look binary. UTF-32
    # first: its little-endian BOM starts with UTF-16's.
    for boms, encoding in _WIDE_BOMS:
        if data.startswith(boms):
            try:
                data = data.decode(encoding).encode("utf-8")
                note = f"decoded as {encoding}"
            except UnicodeDecodeError:
                pass
            break
    head = data[:_HEAD_BYTES]
    if b"\0" in head:
        return ReadResult(None, Skipped(path, "binary"))
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        head = data[:_HEAD_BYTES]
    if _looks_generated(head):
        return ReadResult(None, Skipped(path, "generated"))
    if _looks_minified(head):
        return ReadResult(None, Skipped(path, "minified"))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        # cp1252 first: it is what "latin-1" files from Windows editors really are; it leaves
        # five bytes undefined, and latin-1 decodes anything, so nothing is ever lost.
        for encoding in ("cp1252", "latin-1"):
            try:
                data = data.decode(encoding).encode("utf-8")
            except UnicodeDecodeError:
                continue
            note = f"decoded as {encoding}"
            break
    if b"\r" in data:
        # A lone CR ends a line for editors, Python and JavaScript, but not in tree-sitter's
        # row count: as LF (the same length, so every byte offset holds) all of them agree.
        data = _LONE_CR.sub(b"\n", data)
    return ReadResult(data, None, note)


def _looks_generated(head: bytes) -> bool:
    return any(b"@generated" in line or b"DO NOT EDIT" in line for line in head.split(b"\n", 2)[:2])


def _looks_minified(head: bytes) -> bool:
    if len(head) <= _LONG_LINE:
        return False
    # Few newlines first (one count), so ordinary files never pay for the split.
    if len(head) / (head.count(b"\n") + 1) < _MINIFIED_MEAN_LINE:
        return False
    return any(len(line) > _LONG_LINE for line in head.split(b"\n"))


def _is_source_package(directory: str) -> bool:
    """A directory with an output name that holds sources: a Python or Java package."""
    if os.path.exists(os.path.join(directory, "__init__.py")):
        return True
    try:
        with os.scandir(directory) as entries:
            return any(e.name.endswith(".java") and e.is_file() for e in entries)
    except OSError:
        return False

"""What a change breaks in the files and lines it did not touch.

A change that removes, renames or re-signs a definition (a function, method, class, field,
or a whole module) can leave its users behind: the one import a rename forgot, a caller still
passing the old arguments. Those sites are found by lookup, not by re-resolving the
repository: the index records which files' resolution consulted a changed file
(``dependents``), and only their lines that name an affected definition are checked, once
against the repository as it was and once as the change leaves it. What fails only after the
change is the change's doing and is reported at the site, with the new name suggested where
the change renamed the definition; what failed before too is not this change's finding.
A changed file's own lines that the change left alone are users too (``self._path`` read in
a method after the change renamed the attribute in ``__init__``): each is checked in the new
version and, at the line it had, in the old.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from astrag.graph.facts import CLASS_KINDS, FUNCTION_KINDS, Definition, FileFacts
from astrag.verify.findings import Finding

_CTOR = frozenset({"__init__", "constructor"})


@dataclass(slots=True)
class Affected:
    """Definitions the change took away or re-signed, by the name their users write."""

    names: set[str] = field(default_factory=set)
    renamed: dict[str, str] = field(default_factory=dict)  # old name -> new name

    def pattern(self) -> re.Pattern[str] | None:
        if not self.names:
            return None
        words = "|".join(sorted(map(re.escape, self.names), key=len, reverse=True))
        return re.compile(rf"(?<![\w$])(?:{words})(?![\w$])")


def affected_names(pairs: Iterable[tuple[FileFacts | None, FileFacts | None]]) -> Affected:
    """Names of what each (old, new) version pair of a file lost or re-signed; a deleted file
    (new None) loses everything, and its module name too."""
    out = Affected()
    for old, new in pairs:
        if old is None:
            continue
        before = _by_qualname(old.definitions)
        after = _by_qualname(new.definitions) if new is not None else {}
        if new is None or new.path != old.path:
            out.names.update(_module_names(old.path))
        added = [d for q, d in after.items() if q not in before]
        for qual, d in before.items():
            now = after.get(qual)
            if now is None:
                out.names.add(d.name)
                target = _renamed_to(d, added)
                if target is not None:
                    out.renamed.setdefault(d.name, target)
            elif d.kind in FUNCTION_KINDS and _signature(d) != _signature(now):
                out.names.add(d.name)
                if d.name in _CTOR and d.parent:
                    out.names.add(d.parent.rsplit(".", 1)[-1])  # ``User(...)`` calls it
    return out


def _by_qualname(definitions: Iterable[Definition]) -> dict[str, Definition]:
    out: dict[str, Definition] = {}
    for d in definitions:
        out.setdefault(d.qualname, d)
    return out


def _module_names(path: str) -> set[str]:
    """The names an import of the module at ``path`` writes (a package: its folder's)."""
    parts = path.split("/")
    stem = parts[-1].split(".", 1)[0]
    if stem not in ("__init__", "index"):
        return {stem}
    return {parts[-2]} if len(parts) > 1 else set()


def _renamed_to(old: Definition, added: list[Definition]) -> str | None:
    """The new definition that took ``old``'s place: the same kind under the same parent,
    the one alone or the one nearest in name."""
    siblings = [d for d in added if d.parent == old.parent and _same_kind(d, old)]
    if len(siblings) == 1:
        return siblings[0].name
    close = difflib.get_close_matches(old.name, [d.name for d in siblings], n=1, cutoff=0.5)
    return close[0] if close else None


def _same_kind(a: Definition, b: Definition) -> bool:
    if a.kind in FUNCTION_KINDS and b.kind in FUNCTION_KINDS:
        return True
    return a.kind == b.kind or (a.kind in CLASS_KINDS and b.kind in CLASS_KINDS)


def _signature(d: Definition) -> tuple:
    return tuple((p.name, p.kind, p.has_default) for p in d.params), d.decorators


def candidate_lines(text: str, pattern: re.Pattern[str]) -> frozenset[int]:
    """1-based lines of ``text`` that name an affected definition."""
    if pattern.search(text) is None:
        return frozenset()
    return frozenset(
        number for number, line in enumerate(text.split("\n"), 1) if pattern.search(line)
    )


def kept_lines(old: str, new: str) -> dict[int, int]:
    """Each 1-based line of ``new`` that the change left as it was, to its line in ``old``."""
    matcher = difflib.SequenceMatcher(None, old.split("\n"), new.split("\n"), autojunk=False)
    return {
        b + k + 1: a + k + 1 for a, b, size in matcher.get_matching_blocks() for k in range(size)
    }


def new_findings(before: list[Finding], after: list[Finding]) -> list[Finding]:
    """Findings the change caused: at a site and of a rule the old version did not have."""
    old = {(f.path, f.line, f.column, f.rule) for f in before}
    return [f for f in after if (f.path, f.line, f.column, f.rule) not in old]


def caused(
    before: list[Finding], after: list[Finding], text: str, renamed: Mapping[str, str]
) -> list[Finding]:
    """The findings of ``after`` the change caused (``new_findings``), each with the name the
    change gave a renamed definition its line still names (``text``: the file they are in)."""
    split = text.split("\n")
    return [
        with_rename(f, renamed, renamed_on_line(split[f.line - 1], renamed))
        for f in new_findings(before, after)
    ]


def with_rename(finding: Finding, renamed: Mapping[str, str], name: str | None) -> Finding:
    """The finding with the name the change gave the definition as its first suggestion."""
    new = renamed.get(name or "")
    if not new:
        return finding
    suggestions = (new, *(s for s in finding.suggestions if s != new))
    message = finding.message.split(" (did you mean", 1)[0]
    message = f"{message} (renamed by this change to {new})"
    return Finding(
        finding.path, finding.line, finding.column, finding.rule, message, finding.severity,
        suggestions,
    )  # fmt: skip


def renamed_on_line(line: str, renamed: Mapping[str, str]) -> str | None:
    """Which renamed definition a site's line still names, if any."""
    for old in sorted(renamed, key=len, reverse=True):
        if re.search(rf"(?<![\w$]){re.escape(old)}(?![\w$])", line):
            return old
    return None

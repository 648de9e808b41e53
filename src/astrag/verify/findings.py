"""What ``astrag check`` reports: findings about code the index cannot back.

Rule ids (stable; the SARIF output and the benchmark use them):

* ``unknown-function`` — a call to a bare name that nothing in scope defines (no local, no
  definition, no import, no builtin/global).
* ``unknown-member`` — a call (or a module attribute read) on a receiver whose type is known
  and fully in the repository (a class with all bases resolved, or a repository module) that
  has no such member: ``self.fetchUser()``, ``this.auth.logn()``, ``repo.find_by()``,
  ``utils.slugify()``.
* ``unknown-import`` — an import of a repository module that does not exist, or of a name a
  repository module does not define / export.
* ``undeclared-name`` — a bare name read as a value that nothing in scope declares.
* ``unknown-type`` — a bare type name in an annotation that nothing in scope declares.
* ``wrong-arguments`` — a call to a repository function/method/class whose signature is known
  (no ``*args``/rest, no signature-changing decorator) with too few or too many positional
  arguments.
* ``unknown-keyword`` — a keyword argument the callee does not accept (Python; no ``**kwargs``).
* ``syntax-error`` — written code the parser cannot read: what it expected where tree-sitter
  says (a MISSING token), else the text it could not place.

Lines are 1-based in the *new* version of the file, columns 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RULES = (
    "unknown-function",
    "unknown-member",
    "unknown-import",
    "undeclared-name",
    "unknown-type",
    "wrong-arguments",
    "unknown-keyword",
    "syntax-error",
)


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int
    column: int
    rule: str
    message: str
    severity: str = "error"  # error | warning
    suggestions: tuple[str, ...] = ()  # "did you mean", best first


@dataclass(slots=True)
class CheckReport:
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the files checked (new versions)
    seconds: float = 0.0
    warning: str = ""  # the index did not reflect files outside the change (stale, kept)

    @property
    def failed(self) -> bool:
        """Whether a finding is an error: a warning alone (what the index could not verify)
        passes, as ``astrag check``'s exit status says."""
        return any(f.severity == "error" for f in self.findings)

    def summary(self) -> str:
        """The one line a person reads after the findings: counts, the unverified, the time."""
        text = f"{len(self.findings)} finding(s) in {len(self.files)} file(s)"
        warnings = sum(f.severity != "error" for f in self.findings)
        if warnings:
            text += f", {warnings} of them unverified (warning)"
        return f"{text}, {self.seconds * 1000:.0f} ms"


def severity_tag(f: Finding) -> str:
    """What a finding's line says after its rule: nothing for an error, else its severity."""
    return "" if f.severity == "error" else f" ({f.severity})"

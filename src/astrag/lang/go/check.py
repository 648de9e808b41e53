"""The checker's Go rules (``verify/rules.py``): Go is the statically typed, closed-world
language the defaults describe. A package's predeclared names come from the semantics; an
import inside one of the repository's modules that names no package there is a finding; a
struct is closed when every type it embeds is in the repository, an interface never is (any
type may satisfy it); Go has no attribute query (a field read is a reference already).
"""

from __future__ import annotations

from astrag.verify.rules import LanguageRules


class GoRules(LanguageRules):
    language = "go"


RULES = {"go": GoRules()}

"""How many of an index's classes ``callers`` finds callers for: direct (a call, a ``new``, a
call of the constructor it declares), only unverified candidates (reads of it as a value,
unresolved calls of its name), or nothing at all.

    python3 bench/class_callers.py /path/to/indexed/repo
"""

from __future__ import annotations

import sys
from pathlib import Path

from astrag import api


def main(root: Path) -> str:
    direct = only_candidates = nothing = 0
    with api.open_index(root) as idx:
        classes = [s for s in idx.graph()[0] if s.path and s.kind == "class"]
        for c in classes:
            found = idx.callers(c.id)
            sure = sum(1 for r in found if r.link != "candidate")
            direct += sure > 0
            only_candidates += sure == 0 and len(found) > 0
            nothing += not found
    return (
        f"{root.name}: classes {len(classes)}, with direct callers {direct}, "
        f"only candidates {only_candidates}, nothing {nothing}"
    )


if __name__ == "__main__":
    print(main(Path(sys.argv[1])))

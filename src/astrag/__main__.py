"""``python -m astrag``: the console script, for when ``astrag`` is not on the PATH (an editor or
a CI job that knows only its interpreter)."""

from astrag.entry import main

main()

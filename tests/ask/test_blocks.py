"""Finding the code in an answer and laying it over the repository: fence forms, paths, diffs
as models write them, and blocks that only make sense together."""

from __future__ import annotations

from pathlib import Path

from astrag import api
from astrag.ask.blocks import build_changes, extract_blocks, normalise_diff, parse_info
from astrag.ask.loop import check_answer


def test_fence_info_lines() -> None:
    assert parse_info("python path=src/x.py") == ("python", "src/x.py")
    assert parse_info('python title="src/x.py"') == ("python", "src/x.py")
    assert parse_info("python:src/x.py") == ("python", "src/x.py")
    assert parse_info("src/x.py") == ("", "src/x.py")
    assert parse_info("ts src/a.ts linenums=1") == ("ts", "src/a.ts")
    assert parse_info("diff") == ("diff", None)
    assert parse_info("") == ("", None)


def test_blocks_tildes_longer_fences_path_comments_and_an_unclosed_end() -> None:
    answer = (
        "Intro with `inline` code.\n"
        "````markdown\n```python\nnot a block of its own\n```\n````\n"
        "~~~ts\n// file: src/a.ts\nexport const a = 1;\n~~~\n"
        "```python\nprint('cut off"
    )
    one, two, three = extract_blocks(answer)
    assert (one.lang, one.text) == ("markdown", "```python\nnot a block of its own\n```\n")
    assert (two.lang, two.path, two.answer_line) == ("ts", "src/a.ts", 8)
    assert (three.lang, three.path, three.text) == ("python", None, "print('cut off\n")


FILE = "a = 1\nb = 2\nc = 3\n"


def test_a_hunk_is_moved_to_where_its_lines_are_and_recounted() -> None:
    diff = "--- a/m.py\n+++ b/m.py\n@@ -7,9 +7,9 @@\n b = 2\n-c = 3\n+c = 4\n"
    text, unplaced = normalise_diff(diff, {"m.py": FILE}.get)
    assert unplaced == []
    assert text == "--- a/m.py\n+++ b/m.py\n@@ -2,2 +2,2 @@\n b = 2\n-c = 3\n+c = 4\n"
    bare = diff.replace("@@ -7,9 +7,9 @@", "@@")  # models often write a bare @@
    assert normalise_diff(bare, {"m.py": FILE}.get)[0] == text


def test_a_hunk_whose_lines_are_not_in_the_file_is_named() -> None:
    diff = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-z = 9\n+z = 10\n"
    assert normalise_diff(diff, {"m.py": FILE}.get)[1] == [
        "hunk 1 of m.py: the line `z = 9` is not in the file"
    ]


def test_whole_files_snippets_and_new_files_keep_their_own_line_numbers() -> None:
    files = {"m.py": FILE}
    rewritten = "a = 1\nb = 2\nc = 3\nd = 4\n"
    answer = (
        f"```python path=m.py\n{rewritten}```\n"
        "```python path=new.py\nx = 1\n```\n"
        "```python path=m.py\ne = 5\n```\n"
        "```bash\nls\n```\n"
    )
    changes = build_changes(extract_blocks(answer), files.get)
    assert changes.checked == [1, 2, 3] and changes.skipped == [4]
    assert changes.files == {"m.py": rewritten + "e = 5\n", "new.py": "x = 1\n"}
    # the whole-file block wrote line 4 only; the snippet is line 1 of block 3
    assert {n: (o.block, o.line) for n, o in changes.written["m.py"].items()} == {
        4: (1, 4),
        5: (3, 1),
    }


def test_a_path_outside_the_repository_is_a_problem() -> None:
    changes = build_changes(extract_blocks("```python path=../x.py\nx = 1\n```\n"), {}.get)
    [problem] = changes.problems
    assert (problem.block, problem.message) == (1, "'../x.py' points outside the repository")


def test_a_method_added_in_one_block_and_called_in_another_is_not_a_finding(
    repo: Path,
) -> None:
    answer = """
```diff
--- a/app/repository.py
+++ b/app/repository.py
@@
     def find_by_email(self, email: str) -> User | None:
         return self.users.get(email)
+
+    def remove(self, email: str) -> None:
+        self.users.pop(email, None)
```

```python path=app/service.py
def forget(service: UserService, email: str) -> None:
    service.repo.remove(email)
    service.repo.purge(email)
```
"""
    session = api.open_check_session(repo)
    try:
        check = check_answer(answer, session)
    finally:
        session.store.close()
    assert [(f.block, f.finding.line, f.code.strip()) for f in check.findings] == [
        (2, 3, "service.repo.purge(email)")
    ]
    assert check.checked == 2

"""The PostgreSQL store's schema, as numbered migrations recorded in ``schema_migrations``.

Every table is keyed by ``repo``, an integer from ``repos`` (one row per repository name and
branch), so any number of repositories and branches share one database without mixing; every
query of ``store/postgres.py`` names its repository. Text that is sorted is ``COLLATE "C"``:
byte order, which is what SQLite's BINARY collation and Python's ``sorted`` give, so both stores
list symbols in the same order whatever the database's locale.

Migrations only ever go forward. A database whose newest migration is unknown to this astrag
was upgraded by a newer one; it is refused (:class:`IndexIncompatible`) rather than written
with an older idea of the tables.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "repositories, files, facts, symbols, edges, depends, docs, postings, vectors, meta",
        """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE repos (
    id serial PRIMARY KEY, name text COLLATE "C" NOT NULL, branch text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    doc_rows bigint NOT NULL DEFAULT 0, doc_tokens bigint NOT NULL DEFAULT 0,
    UNIQUE (name, branch));
CREATE TABLE meta (
    repo int NOT NULL REFERENCES repos ON DELETE CASCADE, key text COLLATE "C" NOT NULL,
    value text NOT NULL, PRIMARY KEY (repo, key));
CREATE TABLE names (
    repo int NOT NULL, nid int NOT NULL, name text COLLATE "C" NOT NULL,
    PRIMARY KEY (repo, nid), UNIQUE (repo, name));
CREATE TABLE files (
    repo int NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY, path text COLLATE "C" NOT NULL,
    language text NOT NULL, hash text NOT NULL, size bigint NOT NULL, mtime_ns bigint NOT NULL,
    lines int NOT NULL, errors int NOT NULL, note text NOT NULL, PRIMARY KEY (repo, path));
CREATE TABLE facts (
    repo int NOT NULL, path text COLLATE "C" NOT NULL, data bytea NOT NULL,
    PRIMARY KEY (repo, path));
CREATE TABLE symbols (
    repo int NOT NULL, nid int NOT NULL, kind text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL, qualname text COLLATE "C" NOT NULL,
    path text COLLATE "C" NOT NULL, start_line int NOT NULL, end_line int NOT NULL,
    parent text NOT NULL, language text NOT NULL, signature text NOT NULL,
    docstring text NOT NULL, decorators text NOT NULL, exported boolean NOT NULL,
    visibility text NOT NULL, modifiers text NOT NULL, PRIMARY KEY (repo, nid));
CREATE INDEX symbols_name ON symbols (repo, name);
CREATE INDEX symbols_qualname ON symbols (repo, qualname);
CREATE INDEX symbols_path ON symbols (repo, path);
CREATE TABLE edges (
    repo int NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY, src int NOT NULL,
    dst int NOT NULL, kind text COLLATE "C" NOT NULL, path int NOT NULL, line int NOT NULL,
    col int NOT NULL);
CREATE INDEX edges_src ON edges (repo, src);
CREATE INDEX edges_dst ON edges (repo, dst);
CREATE INDEX edges_path ON edges (repo, path);
CREATE TABLE depends (
    repo int NOT NULL, file text COLLATE "C" NOT NULL, deps bytea NOT NULL,
    PRIMARY KEY (repo, file));
CREATE TABLE docs (
    repo int NOT NULL, nid int NOT NULL, path text COLLATE "C" NOT NULL,
    hash text COLLATE "C" NOT NULL, text text COLLATE "C" NOT NULL, ntok int NOT NULL,
    f_name text NOT NULL, f_qual text NOT NULL, f_sig text NOT NULL, f_doc text NOT NULL,
    f_body text NOT NULL, PRIMARY KEY (repo, nid));
CREATE INDEX docs_path ON docs (repo, path);
CREATE INDEX docs_hash ON docs (repo, hash);
CREATE TABLE postings (
    repo int NOT NULL, term text COLLATE "C" NOT NULL, nid int NOT NULL,
    t_name int NOT NULL, t_qual int NOT NULL, t_sig int NOT NULL, t_doc int NOT NULL,
    t_body int NOT NULL, PRIMARY KEY (repo, term, nid));
CREATE INDEX postings_nid ON postings (repo, nid);
CREATE TABLE vectors (
    repo int NOT NULL, hash text COLLATE "C" NOT NULL, dims int NOT NULL,
    vec vector NOT NULL, PRIMARY KEY (repo, hash));
""",
    ),
    (
        2,
        "generations: a rebuild is written beside the live index and swapped in",
        # Every table's `repo` column now names a generation of a repository's index; the
        # existing rows become each repository's live generation, under the same number.
        """
CREATE TABLE generations (
    id serial PRIMARY KEY, repo int NOT NULL REFERENCES repos ON DELETE CASCADE,
    state text NOT NULL CHECK (state IN ('building', 'live', 'retired')),
    doc_rows bigint NOT NULL DEFAULT 0, doc_tokens bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(), retired_at timestamptz);
CREATE UNIQUE INDEX generations_live ON generations (repo) WHERE state = 'live';
INSERT INTO generations (id, repo, state, doc_rows, doc_tokens)
    SELECT id, id, 'live', doc_rows, doc_tokens FROM repos;
SELECT setval(pg_get_serial_sequence('generations', 'id'),
              (SELECT coalesce(max(id), 0) + 1 FROM generations), false);
ALTER TABLE meta DROP CONSTRAINT IF EXISTS meta_repo_fkey;
""",
    ),
)
LATEST = MIGRATIONS[-1][0]

# The tables a generation owns rows in, children first (for deleting one).
REPO_TABLES = (
    "postings", "docs", "vectors", "edges", "symbols", "names", "depends", "facts", "files",
    "meta",
)  # fmt: skip

BOOTSTRAP = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version int PRIMARY KEY, description text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now())
"""

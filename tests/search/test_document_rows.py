"""Search documents cross from a parser process to the writer as marshalled rows that carry
each text's hash, so the writer does not hash 34k texts (medusa) itself."""

from __future__ import annotations

import hashlib

from astrag.lang import extract_facts
from astrag.search.documents import SearchDoc, decode_documents, documents, encode_documents

SOURCE = b'''
class Store:
    """Keeps things."""

    def get(self, key):
        return self.items[key]


def helper():
    return Store().get("a")
'''


def test_decoded_documents_equal_the_made_ones_and_carry_their_text_hash() -> None:
    made = documents(extract_facts("pkg/store.py", SOURCE), SOURCE)
    decoded = decode_documents(encode_documents(made))
    assert decoded == made
    assert [d.id for d in decoded] == [
        "pkg/store.py",
        "pkg/store.py::Store",
        "pkg/store.py::Store.get",
        "pkg/store.py::helper",
    ]
    for d in decoded:
        expected = hashlib.blake2b(d.text.encode(), digest_size=12).hexdigest()
        assert d.digest == expected  # came with the row, not computed on the writer's side
        assert d.hash == expected


def test_a_document_without_a_digest_hashes_its_text() -> None:
    d = SearchDoc("a.py::f", "a.py", "f", "a", "", "", "", "function f")
    assert d.digest == ""
    assert d.hash == hashlib.blake2b(b"function f", digest_size=12).hexdigest()
    assert d == SearchDoc(*(d.id, d.path, d.name, d.qual, d.sig, d.doc, d.body, d.text), "x")

"""astrag on real Java and Kotlin: react-native-webview's Android module (pinned npm package,
installed by tests/integration/get_npm_fixture.sh), with edges checked by reading its source.

The module mixes 13 Java and 13 Kotlin files. The Java room resolves types; the Kotlin room
works at name level, so the share of unresolved calls is asserted on the Java files alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from astrag import api

pytestmark = pytest.mark.integration

PACKAGE = Path(__file__).parent / ".npm/node_modules/react-native-webview"
W = "src/main/java/com/reactnativecommunity/webview/"

# (source, kind, target), each read in react-native-webview 13.12.5's android/src:
EDGES = [
    # RNCWebViewClient.java:150 `return this.shouldOverrideUrlLoading(view, url);` with
    # `final String url = ...`: the (WebView, String) overload, not (WebView, WebResourceRequest)
    (
        W + "RNCWebViewClient.java::RNCWebViewClient.shouldOverrideUrlLoading#2",
        "calls",
        W + "RNCWebViewClient.java::RNCWebViewClient.shouldOverrideUrlLoading",
    ),
    # RNCWebView.java:117, a bare call inside onHostDestroy: a member of the class
    (
        W + "RNCWebView.java::RNCWebView.onHostDestroy",
        "calls",
        W + "RNCWebView.java::RNCWebView.cleanupCallbacksAndDestroy",
    ),
    # RNCWebView.java:247 `bridge = new RNCWebViewBridge(webView);`: a nested class's constructor
    (
        W + "RNCWebView.java::RNCWebView.createRNCWebViewBridge",
        "calls",
        W + "RNCWebView.java::RNCWebView.RNCWebViewBridge.constructor",
    ),
    # RNCWebView.java:311, inside `new Runnable() { public void run() {...} }` in onMessage:
    # the enclosing class's method, from the anonymous class
    (
        W + "RNCWebView.java::RNCWebView.onMessage.$1.run",
        "calls",
        W + "RNCWebView.java::RNCWebView.dispatchEvent",
    ),
    # RNCWebChromeClient.java:100 `((RNCWebView) view).dispatchEvent(...)`: a cast's type
    (
        W
        + "RNCWebChromeClient.java::RNCWebChromeClient.onCreateWindow.$1.shouldOverrideUrlLoading",
        "calls",
        W + "RNCWebView.java::RNCWebView.dispatchEvent",
    ),
    # `public class RNCWebView extends WebView implements LifecycleEventListener`
    (W + "RNCWebView.java::RNCWebView", "inherits", "external::android.webkit.WebView"),
]


def _index_copy(
    tmp_path_factory: pytest.TempPathFactory, name: str, *skip: str
) -> tuple[Path, api.IndexSummary]:
    """The module's ``android/src`` copied without the files matching ``skip``, indexed."""
    if not (PACKAGE / "android/src").is_dir():
        pytest.fail("run tests/integration/get_npm_fixture.sh first")
    root = tmp_path_factory.mktemp(name)
    shutil.copytree(PACKAGE / "android/src", root / "src", ignore=shutil.ignore_patterns(*skip))
    return root, api.index(root)


def _edges(root: Path) -> set[tuple[str, str, str]]:
    with api.open_index(root) as idx:
        _, edges = idx.graph()
    return {(e.source, str(e.kind), e.target) for e in edges}


@pytest.fixture(scope="module")
def webview(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, api.IndexSummary]:
    # Java alone: the Kotlin half would count its name-level unresolved calls against Java
    return _index_copy(tmp_path_factory, "real_java", "*.kt")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, api.IndexSummary]:
    return _index_copy(tmp_path_factory, "real_java_kotlin")


def test_every_java_file_is_indexed_without_parse_errors(
    webview: tuple[Path, api.IndexSummary],
) -> None:
    root, summary = webview
    sources = list(root.rglob("*.java"))
    assert len(sources) >= 10
    assert summary.files == len(sources)
    assert (summary.parse_errors, summary.files_with_errors) == (0, 0)
    # an Android module: most calls go to the platform; what stays unknown is named
    total = sum(summary.calls.values())
    assert summary.calls.get("unresolved", 0) / total < 0.05


def test_hand_verified_edges(webview: tuple[Path, api.IndexSummary]) -> None:
    found = _edges(webview[0])
    assert [edge for edge in EDGES if edge not in found] == []


def test_the_mixed_java_and_kotlin_module_is_indexed_whole_without_parse_errors(
    mixed: tuple[Path, api.IndexSummary],
) -> None:
    root, summary = mixed
    java, kotlin = list(root.rglob("*.java")), list(root.rglob("*.kt"))
    assert (len(java), len(kotlin)) == (13, 13)
    assert summary.files == len(java) + len(kotlin)
    assert (summary.parse_errors, summary.files_with_errors) == (0, 0)


def test_hand_verified_kotlin_edges(mixed: tuple[Path, api.IndexSummary]) -> None:
    found = _edges(mixed[0])
    expected = [
        # RNCWebViewWrapper.kt: `class RNCWebViewWrapper(...) : FrameLayout(context)`
        (
            W + "RNCWebViewWrapper.kt::RNCWebViewWrapper",
            "inherits",
            "external::android.widget.FrameLayout",
        ),
        # events/TopMessageEvent.kt: `... : Event<TopMessageEvent>(viewId)`, imported by name
        (
            W + "events/TopMessageEvent.kt::TopMessageEvent",
            "inherits",
            "external::com.facebook.react.uimanager.events.Event",
        ),
        (
            W + "events/TopMessageEvent.kt",
            "imports",
            "external::com.facebook.react.bridge.WritableMap",
        ),
    ]
    assert [edge for edge in expected if edge not in found] == []

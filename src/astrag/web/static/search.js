// Search as you type: the query goes to /api/search (the JSON of `astrag search`), the hits
// are built with textContent (never innerHTML: names and code come from the indexed files),
// and the address follows the query so the page can be shared.
"use strict";
(function () {
  const input = document.getElementById("q");
  const list = document.getElementById("results");
  if (!input || !list) return;
  let timer = 0, asked = 0;

  const node = (tag, cls, text) => {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const symbolUrl = (id) => "/symbol/" + encodeURIComponent(id);
  const fileUrl = (path, line) =>
    "/file/" + path.split("/").map(encodeURIComponent).join("/") + "#L" + line;

  function hit(r) {
    const li = node("li", "hit");
    li.append(node("span", "kind kind-" + r.kind, r.kind), " ");
    const name = node("a", "sym", r.symbol);
    name.href = symbolUrl(r.id);
    const site = node("a", "site", `${r.path}:${r.start_line}`);
    site.href = fileUrl(r.path, r.start_line);
    li.append(name, " ", site, node("div", "sig", r.signature), node("pre", "snippet", r.snippet));
    return li;
  }

  function freshness(index) {
    const footer = document.getElementById("freshness");
    if (!footer || !index) return;
    const state = index.fresh ? "fresh" : "possibly stale: " + (index.note || "");
    let text = `index ${state} · indexed ${index.indexed_at || "unknown"} · checked in ` +
      `${Math.round(index.checked_ms)} ms`;
    if (index.updated_files && index.updated_files.length)
      text += ` · re-indexed before this answer: ${index.updated_files.slice(0, 5).join(", ")}`;
    footer.textContent = text;
  }

  async function run() {
    const q = input.value.trim();
    const mine = ++asked;
    history.replaceState(null, "", q ? "/search?q=" + encodeURIComponent(q) : "/search");
    document.title = (q ? "search " + q : "search") + " · astrag";
    if (!q) {
      list.replaceChildren();
      return;
    }
    let data, ok;
    try {
      const response = await fetch("/api/search?q=" + encodeURIComponent(q));
      ok = response.ok;
      data = await response.json();
    } catch (error) {
      ok = false;
      data = { message: String(error), hint: "is astrag web still running?" };
    }
    if (mine !== asked) return; // a later keystroke asked again
    if (!ok) {
      list.replaceChildren(node("li", "error", `${data.message} (${data.hint || ""})`));
      return;
    }
    list.replaceChildren(...data.results.map(hit));
    if (!data.results.length) list.append(node("li", "empty", "nothing matched"));
    list.dataset.query = q;
    freshness(data.index);
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
  if (input.value.trim()) list.dataset.query = input.value.trim();
})();

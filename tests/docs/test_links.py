"""Every link of the built site resolves from the file system (``site/index.html``).

``mkdocs.yml`` sets ``use_directory_urls: false`` so the site opens from disk; then a
link must be relative (a root-absolute ``/api/...`` points to the disk's root), its
file must exist next to the page that links to it, and its ``#anchor`` must be an id
of the page it names. External links (``https:``, ``mailto:``, ...) are not followed.
"""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

EXTERNAL = ("http", "https", "mailto", "javascript", "data", "tel")


class _Links(HTMLParser):
    """The ``href``/``src`` values and the ids of a page."""

    def __init__(self, html):
        super().__init__()
        self.links, self.ids = [], set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append((tag, name, value))
            elif name in ("id", "name") and value:
                self.ids.add(value)


def broken_links(site):
    """``"page: tag attr=link (why)"`` for each link of the site that does not resolve."""
    site = Path(site).resolve()
    pages = {path: _Links(path.read_text(encoding="utf-8")) for path in site.rglob("*.html")}
    broken = []
    for page, parsed in sorted(pages.items()):
        for tag, attr, link in parsed.links:
            where = f"{page.relative_to(site)}: <{tag} {attr}={link!r}>"
            parts = urlsplit(link)
            if parts.scheme in EXTERNAL or link.startswith("//"):
                continue
            if parts.scheme or link.startswith("/"):
                broken.append(f"{where} (absolute: does not resolve from disk)")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file():
                broken.append(f"{where} (no file {target})")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no id {parts.fragment!r} in {target.name})")
    return broken


def test_broken_links_are_found(tmp_path):
    (tmp_path / "api").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="api/a.html#x">ok</a><a href="#top" id="top">ok</a>'
        '<a href="https://example.org/">external</a><img src="data:image/png;base64,AA">'
        '<a href="/api/a.html">absolute</a><a href="api/b.html">missing</a>'
        '<a href="api/a.html#y">no anchor</a><a href="#nowhere">no anchor here</a>'
    )
    (tmp_path / "api" / "a.html").write_text(
        '<p id="x"><a href="../index.html#top">up</a></p>'
    )
    broken = broken_links(tmp_path)
    assert [line.split(": ", 1)[1] for line in broken] == [
        "<a href='/api/a.html'> (absolute: does not resolve from disk)",
        f"<a href='api/b.html'> (no file {tmp_path.resolve() / 'api' / 'b.html'})",
        "<a href='api/a.html#y'> (no id 'y' in a.html)",
        "<a href='#nowhere'> (no id 'nowhere' in index.html)",
    ]


def test_every_link_resolves_from_disk(site):
    for page in ("404.html", "index.html", "api/estimators.html"):
        assert (site / page).is_file(), page   # the pages whose links broke are checked
    broken = broken_links(site)
    assert broken == [], f"{len(broken)} links do not resolve:\n  " + "\n  ".join(broken)

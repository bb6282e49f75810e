#!/usr/bin/env python3
"""Hostile lessons' live web pages in headless Chromium (docs/web-page.md): lesson text stays
text in the running page, and the page loads and runs nothing but itself.

The lessons: the hostile lessons of the notebook's property test (write_hostile_lessons writes
them, every field hostile at once, the first with a string made to break out of a web page),
tests/exports/fixtures/hostile_page.md (markup, event handlers, javascript:, data: and http:
links, </script>, U+2028, control characters and quotes in every place a lesson puts text) and
the window's tests/app/fixtures/hostile_text.md (its images and links aimed at a local server
this test runs, which must see no request).

Each page is exported by `attnbook export --html`, opened from file:// with the DevTools
protocol's watchers installed before navigation (devtools_page.py), and, once it has gone live,
checked; then a what-if is made through the page's own controls on a cell with hostile text,
one of the reader's own and one by the link's fragment, each holding markup, and the page is
checked again. A check asks Chromium:
  - its network log: no request but the page itself and data: URLs; the page's own resource
    timing: nothing fetched;
  - no violation of the page's Content-Security-Policy, no console error, no exception;
  - the live DOM: exactly three <script> elements, the lesson's JSON and the two scripts the
    policy names by hash; no element the exporter never writes (img, iframe, object, base,
    link, a second style, ...); no attribute named on*; no javascript: (or vbscript:) URL
    anywhere; no URL-bearing attribute but in-page and http(s)/mailto links on <a>; no fold
    (<details>) or form the page did not make; and the hostile strings shown as text.

Usage: hostile_page_check.py ATTNBOOK WRITE_HOSTILE_LESSONS SOURCE_DIR
Everything it writes (lessons, pages, Chromium's profile) is in a temporary folder it removes.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from devtools_page import Browser, Page, console_errors, network_requests

GENERATED = 6  # lessons of the property test, every field hostile at once

# The elements the exporter writes (lesson_html.cpp, html_prose.cpp, html_cells.cpp,
# html_live.cpp, html_quiz_form.cpp, the core's views in core/present/view_html.cpp,
# transformer_view_html.cpp and gradient_view_html.cpp, and the figures Qt's SVG generator
# draws) and the page script makes (live_page.js: the token chips, the grids' fields, the
# lesson's texts Compare and the bar's text compare show, each a span). Anything else came from
# lesson text.
HTML_ELEMENTS = {
    "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "footer", "h1",
    "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "a", "em", "strong", "s", "code", "pre",
    "blockquote", "ul", "ol", "li", "table", "caption", "thead", "tbody", "tr", "th", "td",
    "section", "figure", "figcaption", "div", "span", "details", "summary", "form", "label",
    "select", "option", "button", "input", "script", "fieldset", "legend", "textarea",
}
SVG_ELEMENTS = {"svg", "g", "path", "text", "rect", "polyline", "polygon", "line", "circle",
                "ellipse", "defs", "title", "desc", "linearGradient", "stop", "clipPath", "tspan",
                "image"}

# Attributes that carry a URL a browser may load or navigate to.
URL_ATTRIBUTES = {"src", "srcset", "href", "xlink:href", "action", "formaction", "data", "poster",
                  "background", "ping", "cite", "manifest", "codebase", "longdesc", "lowsrc",
                  "dynsrc", "usemap", "profile"}

# What must show as text on the fixtures' pages (besides what the generator's lessons hold).
FIXTURE_TEXT = {
    "hostile_page.md": [
        "<script>alert(\"title\")</script>",
        "<img src=x onerror=alert('heading')>",
        "<script>alert(2)</script>",
        "<img src=x onerror=alert(3)>",
        "<b onclick=\"alert(9)\">bold</b>",
        "<svg onload=alert(10)>",
        "<iframe src=\"http://127.0.0.1:PORT/frame\"></iframe>",
        "<style>@import url(http://127.0.0.1:PORT/import.css);</style>",
        "\"><img src=x onerror=alert('token')>",
        "</script><script>alert('token2')</script>",
        "</details><script>alert('question')</script>",
        "<img src=x onerror=alert('choice')>",
        "</details>Because <b onmouseover=alert('explain')>x</b>.",
        "<img src=x onerror=alert('chart')>",
    ],
    "hostile_text.md": ["<b>bold</b>", "<img src=x>"],
}

TAG = re.compile(r"</?(?:script|img|details|summary|iframe|svg|style|a|b|i|u|form|base|meta|"
                 r"link|object|embed)\b", re.IGNORECASE)

AUDIT = r"""(async () => {
  const out = {scripts: [], policy: '', handlers: [], urls: [], foreign: [], folds: [],
               styles: 0, text: '', values: [], notes: [], resources: []};
  for (const meta of document.querySelectorAll('meta')) {
    if ((meta.httpEquiv || '').toLowerCase() === 'content-security-policy') {
      out.policy = meta.content;
    }
  }
  const htmlNs = 'http://www.w3.org/1999/xhtml', svgNs = 'http://www.w3.org/2000/svg';
  const html = new Set(%s), svg = new Set(%s), urlAttributes = new Set(%s);
  for (const e of document.getElementsByTagName('*')) {
    const name = e.localName;
    const known = e.namespaceURI === htmlNs ? html.has(name)
                : e.namespaceURI === svgNs ? svg.has(name) : false;
    if (!known) {
      out.foreign.push((e.namespaceURI === svgNs ? 'svg:' : '') + name);
    }
    if (name === 'script') {
      out.scripts.push({type: e.getAttribute('type') || '', id: e.id, src: e.getAttribute('src'),
                        text: e.textContent, ns: e.namespaceURI});
    }
    if (name === 'style') {
      out.styles += 1;
      if (/url\(|@import/i.test(e.textContent)) {
        out.urls.push('<style> with url( or @import');
      }
    }
    if ((name === 'details' && !['answer', 'sample-answer'].some(c => e.classList.contains(c)))
        || (name === 'form' && !['what-ifs', 'quiz-form'].some(c => e.classList.contains(c)))) {
      out.folds.push(name + ' ' + e.outerHTML.slice(0, 120));
    }
    for (const a of e.attributes) {
      const attribute = a.name.toLowerCase();
      const value = a.value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
      if (attribute.startsWith('on')) {
        out.handlers.push(name + ' ' + a.name);
      }
      if (/^(javascript|vbscript|livescript):/.test(value)) {
        out.urls.push(name + ' ' + a.name + '=' + a.value.slice(0, 80));
      }
      if (attribute === 'style' && /url\(|@import|expression\(/.test(value)) {
        out.urls.push(name + ' style=' + a.value.slice(0, 80));
      }
      if (urlAttributes.has(attribute)) {
        const link = name === 'a' && e.namespaceURI === htmlNs && attribute === 'href' &&
                     /^(#|https?:|mailto:)/.test(value);
        const picture = name === 'image' && e.namespaceURI === svgNs &&
                        /^data:image\/(png|jpeg);/.test(value);
        if (!link && !picture) {
          out.urls.push(name + ' ' + a.name + '=' + a.value.slice(0, 80));
        }
      }
    }
  }
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  const parts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement ? node.parentElement.localName : '';
    if (parent !== 'script' && parent !== 'style') {
      parts.push(node.data);
    }
  }
  out.text = parts.join('');
  out.values = [...document.querySelectorAll('[data-bind]')].map(e => e.textContent);
  out.notes = [...document.querySelectorAll('#live-notes li')].map(e => e.textContent);
  out.resources = performance.getEntriesByType('resource').map(r => r.name);
  out.violations = window.__violations || [];
  out.sets = JSON.parse(document.getElementById('live-bar').dataset.sets || '[]');
  // Each script's text as its sha256, as a Content-Security-Policy names it.
  for (const script of out.scripts) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script.text));
    script.hash = "'sha256-" + btoa(String.fromCharCode(...new Uint8Array(digest))) + "'";
    script.text = script.text.slice(0, 80);
  }
  return JSON.stringify(out);
})()""" % (json.dumps(sorted(HTML_ELEMENTS)), json.dumps(sorted(SVG_ELEMENTS)),
           json.dumps(sorted(URL_ATTRIBUTES)))


class Trap:
    """A server on 127.0.0.1 that the lessons' http: images and links point at: it only
    records the first line of every request it receives."""

    def __init__(self):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(8)
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.requests = []
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopping:
            try:
                connection, _ = self.socket.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with connection:
                connection.settimeout(1)
                try:
                    self.requests.append(connection.recv(4096).split(b"\r\n")[0].decode())
                except OSError:
                    self.requests.append("(a connection)")

    def stop(self):
        self.stopping = True
        self.thread.join(timeout=2)
        self.socket.close()


def policy_hashes(policy):
    return set(re.findall(r"'sha256-[A-Za-z0-9+/=]+'", policy))


def what_ifs_to_try(offered):
    """The offered what-ifs, those whose words carry hostile text (markup, a quote, a control
    or line-separator character) first, token edits first among them."""
    def hostile(words):
        return any(re.search(r"[<>\"'&\u2028\u2029\x00-\x1f\x7f\ufffd]", w) for w in words)
    found = [(form["cell"], words) for form in offered for words in form["options"]]
    return sorted(found, key=lambda found: (not hostile(found[1]),
                                            not any(".tokens=" in w for w in found[1])))


class Check:
    def __init__(self, name):
        self.name = name
        self.failures = []
        self.notes = []
        self.requests = 0
        self.rewritten = []
        self.seen = set()  # what the logs held at an earlier check of the same page

    def new(self, items):
        fresh = [item for item in items if item not in self.seen]
        self.seen.update(fresh)
        return fresh

    def fail(self, what):
        self.failures.append("%s: %s" % (self.name, what))

    def page(self, page, browser, url, label, must_show):
        audit = json.loads(page.evaluate(AUDIT))
        hashes = policy_hashes(audit["policy"])
        running = [s for s in audit["scripts"] if s["type"] != "application/json"]
        data = [s for s in audit["scripts"] if s["type"] == "application/json"]
        if len(running) != 2 or len(data) != 1 or data[0]["id"] != "attnbook-lesson":
            self.fail("%s: scripts %s" % (label, [(s["type"], s["id"], s["text"][:60])
                                                  for s in audit["scripts"]]))
        for script in running:
            if script["src"] is not None or script["hash"] not in hashes:
                self.fail("%s: a script the policy does not name: %r" %
                          (label, script["text"][:80]))
        if len(hashes) != 2 or "'wasm-unsafe-eval'" not in audit["policy"] or \
                not audit["policy"].startswith("default-src 'none';"):
            self.fail("%s: policy %r" % (label, audit["policy"]))
        for key, what in (("foreign", "an element the page never writes"),
                          ("handlers", "an event handler"), ("urls", "a URL"),
                          ("folds", "a fold or form the page did not make")):
            for item in audit[key]:
                self.fail("%s: %s: %s" % (label, what, item))
        if audit["styles"] != 1:
            self.fail("%s: %d <style> elements" % (label, audit["styles"]))
        for resource in audit["resources"]:
            if not resource.startswith("data:"):
                self.fail("%s: resource timing lists %s" % (label, resource))
        for violation in self.new(audit["violations"]):
            self.fail("%s: Content-Security-Policy violation: %s" % (label, violation))
        for request in self.new(network_requests(browser, url)):
            self.fail("%s: the page requested %s" % (label, request))
        for error in self.new(console_errors(browser)):
            self.fail("%s: console: %s" % (label, error))
        self.requests = sum(1 for e in browser.events
                            if e.get("method") == "Network.requestWillBeSent")
        for text in must_show:
            if text not in audit["text"]:
                self.fail("%s: %r is not shown as text" % (label, text))
        return audit


def export_pages(attnbook, lessons):
    """Every lesson's page, exported side by side: {page file: why it failed, or None}."""
    running = {page_file: subprocess.Popen(
        [attnbook, "export", lesson, "--html", page_file], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
        for _, lesson, page_file, _ in lessons}
    return {page_file: (None if process.wait() == 0 else process.stderr.read().strip())
            for page_file, process in running.items()}


def check_lesson(page_file, export_error, browser, name, must_show):
    check = Check(name)
    if export_error is not None:
        check.fail("export failed: %s" % export_error)
        return check, 0
    url = "file://" + urllib.parse.quote(os.path.abspath(page_file))
    browser.events.clear()
    try:
        page = Page(browser, url)
    except RuntimeError as error:
        check.fail(str(error))
        return check, 0
    lesson_values = check.page(page, browser, url, "live", must_show)["values"]
    what_ifs = 0
    cell = None
    for cell_offering, words in what_ifs_to_try(page.what_ifs_offered())[:8]:
        page.reset_all()
        page.choose(cell_offering, words)
        audit = check.page(page, browser, url, "after %s" % " & ".join(words)[:80], must_show)
        what_ifs += 1
        if audit["sets"] == words:
            cell = cell_offering
            # The values the page wrote for it: hostile words among them stay text.
            check.rewritten = [v for v, was in zip(audit["values"], lesson_values) if v != was]
            break
        # Not a leak, but worth knowing: the page offered a what-if its core refuses.
        check.notes.append("offered but refused: %s" % json.dumps(audit["notes"])[:200])
    if cell is None:
        check.fail("no offered what-if applies")
    else:
        if name == "hostile_page.md" and not any("<" in v for v in check.rewritten):
            check.fail("the what-if rewrote no bound value with markup in it: %s" %
                       check.rewritten)
        # What a reader types and what a link carries come back as text in the page's notes.
        own = "tokens=[\"<img src=x onerror=alert('own')>\"]"
        page.own(cell, own)
        own_audit = check.page(page, browser, url, "after the reader's own %s" % own,
                               must_show + ["<img src=x onerror=alert('own')>"])
        # The cell's controls show it too: the token chips, built by the page script from the
        # core's answer, hold it as text; a chip's move and the new token (the vocab's last
        # word, a hostile one where the lesson has it) go through the core as well.
        chips = json.loads(page.evaluate("""JSON.stringify((() => {
          const form = document.querySelector('form.what-ifs[data-cell=' + %s + ']');
          const words = [...form.querySelectorAll('.chip-word')].map(w => w.textContent);
          const add = form.querySelector('[data-field=add]');
          if (add && add.tagName === 'SELECT') add.selectedIndex = add.options.length - 1;
          else if (add) add.value = '<b>new</b>';
          if (add) form.querySelector('button[data-op=add]').click();
          return {words: words, has: !!add,
                  inside: form.querySelectorAll('.chip-word *').length}; })())""" %
                                       json.dumps(json.dumps(cell))))
        if chips["inside"]:
            check.fail("a token chip holds %d elements: %s" % (chips["inside"], chips["words"]))
        if chips["has"]:
            # (a lesson whose tokens are a vocab's words refuses the reader's own word)
            if "%s.%s" % (cell, own) in own_audit["sets"] and \
                    chips["words"] != ["<img src=x onerror=alert('own')>"]:
                check.fail("the chips show %s after the reader's own tokens" % chips["words"])
            added = check.page(page, browser, url, "after a token added with the chips",
                               must_show)
            if not any(w.startswith(cell + ".tokens=") for w in added["sets"]):
                check.fail("the chips' Add made no token what-if: %s" % added["sets"])
            what_ifs += 1
        # Compare shows the lesson's text of each changed entry and the lesson's summary: as
        # text, in the page script's own spans.
        compare = json.loads(page.evaluate("""JSON.stringify((() => {
          const button = document.querySelector('form.what-ifs[data-cell=' + %s +
                                                '] [data-action=compare]');
          if (button.disabled) return null;
          button.click();
          // and the bar's: the lesson's numbers beside the changed ones in the text
          const inText = document.getElementById('live-text-compare');
          if (!inText.disabled) inText.click();
          const was = [...document.querySelectorAll('.was')];
          return {pressed: button.getAttribute('aria-pressed'), shown: was.length,
                  inside: was.flatMap(w => [...w.querySelectorAll('*')]).filter(
                    e => e.localName !== 'span' || e.children.length ||
                         !['was-word', 'was-text'].includes(e.className)).map(
                    e => e.outerHTML.slice(0, 80))}; })())""" %
                                         json.dumps(json.dumps(cell))))
        if compare is not None:
            if compare["pressed"] != "true" or compare["inside"]:
                check.fail("Compare: pressed %s, elements in the lesson's texts: %s" %
                           (compare["pressed"], compare["inside"]))
            check.page(page, browser, url, "with Compare pressed (%d lesson's texts)" %
                       compare["shown"], must_show)
        link = "%s.<script>alert('link')</script>=\"><img src=x onerror=alert(7)>" % cell
        page.evaluate("location.hash = 'set=' + encodeURIComponent(%s)" % json.dumps(link))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
                "alert('link')" in n for n in json.loads(page.evaluate(
                    "JSON.stringify([...document.querySelectorAll('#live-notes li')]"
                    ".map(e => e.textContent))"))):
            time.sleep(0.05)
        check.page(page, browser, url, "after the link #set=%s" % link[:40],
                   must_show + [link])
        what_ifs += 2
    page.call("Page.navigate", {"url": "about:blank"})
    return check, what_ifs


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    attnbook, writer, source = sys.argv[1:]
    if shutil.which("chromium") is None:
        print("hostile_page_check: chromium is missing (Debian package chromium)")
        return 1
    started = time.monotonic()
    failures = []
    trap = Trap()
    with tempfile.TemporaryDirectory(prefix="attnbook-hostile-page-") as workdir:
        lessons = []  # (name, lesson, its page, texts that must show)
        written = subprocess.run([writer, os.path.join(workdir, "generated"), str(GENERATED)],
                                 capture_output=True, text=True, check=True).stdout
        for line in filter(None, written.split("\n")):  # not splitlines: U+2028 is in them
            entry = json.loads(line)
            must_show = []
            for field in ("title", "token", "chart title", "series label", "transformer token",
                          "vocab word"):
                value = entry["fields"].get(field, "")
                must_show += [m.group(0) for m in TAG.finditer(value)]
            folder = os.path.join(workdir, "generated", str(entry["lesson"]))
            lessons.append(("generated %d (%d fields hostile)" % (entry["lesson"],
                                                                  len(entry["fields"])),
                            os.path.join(folder, "lesson.md"), os.path.join(folder, "page.html"),
                            sorted(set(must_show))))
        for fixture in ("tests/exports/fixtures/hostile_page.md",
                        "tests/app/fixtures/hostile_text.md"):
            name = os.path.basename(fixture)
            with open(os.path.join(source, fixture), encoding="utf-8") as f:
                text = f.read().replace("PORT", str(trap.port))
            path = os.path.join(workdir, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            lessons.append((name, path, path.replace(".md", ".html"),
                            [t.replace("PORT", str(trap.port)) for t in FIXTURE_TEXT[name]]))
        export_errors = export_pages(attnbook, lessons)
        browser = Browser(os.path.join(workdir, "profile"))
        pages = what_ifs = requests = 0
        try:
            for name, _, page_file, must_show in lessons:
                lesson_started = time.monotonic()
                check, made = check_lesson(page_file, export_errors[page_file], browser, name,
                                           must_show)
                failures += check.failures
                for note in check.notes:
                    print("  note: %s" % note[:300])
                pages += 1
                what_ifs += made
                requests += check.requests
                print("%s: %d what-ifs, %d values rewritten, %d requests (the page and data: "
                      "URLs), %d texts shown, %.1f s, %s" % (
                          name, made, len(check.rewritten), check.requests, len(must_show),
                          time.monotonic() - lesson_started,
                          "ok" if not check.failures else "%d failures" % len(check.failures)))
        finally:
            browser.close()
    trap.stop()
    for request in trap.requests:
        failures.append("the local server saw a request: %s" % request)
    print("%d pages, %d what-ifs, %d requests logged by Chromium, %d seen by the local server, "
          "%.1f s" % (pages, what_ifs, requests, len(trap.requests), time.monotonic() - started))
    for failure in failures[:60]:
        print("FAIL " + failure)
    if len(failures) > 60:
        print("... and %d more" % (len(failures) - 60))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

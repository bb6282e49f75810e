"""The live web page in headless Chromium, over the DevTools protocol on a pipe: the browser,
a page opened with its watchers installed before navigation (the network log, the console, and
a `securitypolicyviolation` listener that runs before the page's own scripts), the page's own
controls (docs/web-page.md), and what the logs hold afterwards. Shared by live_page_check.py and
hostile_page_check.py.
"""

import json
import os
import subprocess
import time

LOAD_TIMEOUT = 120.0


class Browser:
    """Chromium over --remote-debugging-pipe: JSON messages ended by NUL, fd 3 in, fd 4 out."""

    def __init__(self, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-sync",
             "--disable-background-networking", "--disable-component-update",
             "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(method + ": " + json.dumps(answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)


class Page:
    def __init__(self, browser, url):
        self.browser = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget",
                                    {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable")
        # A listener before the page's own scripts: every CSP violation is kept.
        self.call("Page.addScriptToEvaluateOnNewDocument", {"source":
                  "window.__violations = []; document.addEventListener("
                  "'securitypolicyviolation', e => window.__violations.push("
                  "e.violatedDirective + ' ' + e.blockedURI));"})
        started = time.monotonic()
        self.call("Page.navigate", {"url": url})
        self.load_seconds = self.wait_until_live(started)

    def call(self, method, params=None):
        return self.browser.call(method, params, self.session)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError("page script failed: " + json.dumps(result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_until_live(self, started):
        while time.monotonic() - started < LOAD_TIMEOUT:
            state = self.evaluate("document.body ? document.body.dataset.liveState || '' : ''")
            if state == "ready":
                return time.monotonic() - started
            if state == "failed":
                raise RuntimeError("the page did not go live: " +
                                   self.evaluate("document.getElementById('live-status')"
                                                 ".textContent"))
            time.sleep(0.05)
        raise RuntimeError("the page was not live after %d s" % LOAD_TIMEOUT)

    def shown(self):
        # a what-if whose gradient checks come second: its whole answer
        self.wait_until_live(time.monotonic())
        return json.loads(self.evaluate("""JSON.stringify({
          values: [...document.querySelectorAll('main [data-bind]')].map(e => ({
            n: +e.dataset.bind, path: e.dataset.path || null, expr: e.dataset.expr || null,
            text: e.textContent})),
          claims: [...document.querySelectorAll('[data-claim]')].map(e => ({
            n: +e.dataset.claim, expr: e.dataset.expr, line: +e.dataset.line,
            marked: !e.hidden, why: e.title})),
          sets: JSON.parse(document.getElementById('live-bar').dataset.sets || '[]'),
          edited: [...document.querySelectorAll('form.what-ifs.edited')].map(
            f => f.dataset.cell),
          notes: [...document.querySelectorAll('#live-notes li')].map(e => e.textContent),
          tables: [...document.querySelectorAll(['matrices', 'next', 'heatmap', 'stream',
            'ffn', 'generation', 'cache', 'blocks', 'knockout'].map(
              v => 'section.cell figure[data-view=' + v + ']').join(', ') +
            ', section.cell.attention figure[data-view=gradients]' +
            ', section.cell.transformer figure[data-view=attention]')].map(
            f => ({cell: f.closest('section').id.replace(/^cell-/, ''), view: f.dataset.view,
                   stale: f.classList.contains('stale'),
                   notes: [...f.querySelectorAll('.view-body > p')].map(p => p.textContent),
                   tables: [...f.querySelectorAll('table')].map(t => ({
                     caption: t.caption ? t.caption.firstChild.textContent.trim() : '',
                     note: t.caption && t.caption.querySelector('.note')
                       ? t.caption.querySelector('.note').textContent : '',
                     labels: [...t.tBodies[0].rows].map(r => r.cells[0].textContent),
                     heads: [...t.tBodies[0].rows].filter(r => !r.classList.contains('more'))
                       .map(r => [...r.cells].filter(c => c.tagName === 'TH')
                         .map(c => c.textContent)),
                     chances: [...t.querySelectorAll('td.chance')].map(c => c.textContent),
                     rows: [...t.tBodies[0].rows].filter(r => !r.classList.contains('more'))
                       .map(r => [...r.cells].filter(c => c.tagName === 'TD'
                         && !c.classList.contains('more')).map(c => c.textContent))}))})),
          millis: +document.getElementById('live-bar').dataset.millis,
          wholeMillis: +document.getElementById('live-bar').dataset.wholeMillis,
          coreMillis: +document.getElementById('live-bar').dataset.coreMillis,
          violations: window.__violations})"""))

    def what_ifs_offered(self):
        return json.loads(self.evaluate("""JSON.stringify([...document.querySelectorAll(
          'form.what-ifs')].map(f => ({cell: f.dataset.cell, options: [...f.querySelectorAll(
          'select[data-field=choice] option')].map(o => o.value).filter(v => v !== '').map(v => JSON.parse(v))})))"""))

    def choose(self, cell, sets):
        """Picks the option of `cell`'s what-if list that makes `sets`, and presses Try it."""
        self.evaluate("""(() => {
          const form = document.querySelector('form.what-ifs[data-cell=' + %s + ']');
          const select = form.querySelector('select[data-field=choice]');
          const wanted = JSON.stringify(%s);
          select.value = [...select.options].find(
            o => o.value && JSON.stringify(JSON.parse(o.value)) === wanted).value;
          select.dispatchEvent(new Event('change'));
          form.querySelector('[data-action=try]').click(); })()""" %
                      (json.dumps(json.dumps(cell)), json.dumps(sets)))

    def own(self, cell, words):
        self.evaluate("""(() => {
          const form = document.querySelector('form.what-ifs[data-cell=' + %s + ']');
          form.querySelector('input[data-field=own]').value = %s;
          form.querySelector('[data-action=own]').click(); })()""" %
                      (json.dumps(json.dumps(cell)), json.dumps(words)))

    def undo_cell(self, cell):
        """Presses the cell's own Undo; whether it was enabled before."""
        return self.evaluate("""(() => {
          const button = document.querySelector(
            'form.what-ifs[data-cell=' + %s + '] [data-action=undo]');
          const enabled = !button.disabled;
          button.click();
          return enabled; })()""" % json.dumps(json.dumps(cell)))

    def reset_all(self):
        self.evaluate("document.getElementById('live-reset').click()")

    def quizzes(self):
        return json.loads(self.evaluate("""JSON.stringify([...document.querySelectorAll(
          'form.quiz-form')].map(f => ({quiz: f.dataset.quiz, kind: f.dataset.kind,
          hidden: f.hidden, choices: f.querySelectorAll('input[type=radio]').length})))"""))

    def answer_quiz(self, quiz, given):
        """Answers `quiz` through its form as a reader does (picks choice `given`, or types
        `given`) and presses its button; what the page shows then."""
        return json.loads(self.evaluate("""(() => {
          const form = document.querySelector('form.quiz-form[data-quiz=' + %s + ']');
          const given = %s;
          if (form.dataset.kind === 'choice') {
            form.querySelector('input[type=radio][value="' + given + '"]').click();
          } else {
            const field = form.querySelector('input[type=text], textarea');
            field.focus();
            field.value = given;
            field.dispatchEvent(new Event('input'));
          }
          form.querySelector('button[type=submit]').click();
          const section = form.closest('section');
          const verdict = form.querySelector('.quiz-verdict');
          const answer = section.querySelector('.quiz-answer');
          const details = section.querySelector('details.answer');
          return JSON.stringify({says: verdict.textContent, verdict: verdict.dataset.verdict,
            answer: answer ? answer.textContent : null, open: details ? details.open : null,
            staticChoices: section.querySelector('ol.choices') ?
              section.querySelector('ol.choices').hidden : null,
            violations: window.__violations});
        })()""" % (json.dumps(json.dumps(quiz)), json.dumps(given))))



def network_requests(browser, page_url):
    """Every request Chromium logged but the page's own file and data: URLs."""
    foreign = []
    for event in browser.events:
        if event.get("method") == "Network.requestWillBeSent":
            url = event["params"]["request"]["url"]
            if url.split("#")[0] != page_url.split("#")[0] and not url.startswith("data:"):
                foreign.append(url)
    return foreign


def console_errors(browser):
    errors = []
    for event in browser.events:
        method = event.get("method")
        if method == "Runtime.exceptionThrown":
            errors.append(json.dumps(event["params"]["exceptionDetails"])[:300])
        elif method == "Log.entryAdded" and event["params"]["entry"]["level"] == "error":
            errors.append(event["params"]["entry"]["text"][:300])
    return errors

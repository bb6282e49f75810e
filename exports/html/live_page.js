// The live web page (docs/web-page.md): the lesson's own core, compiled to WebAssembly
// (createAttnbookCore, the script before this one), recomputes the lesson for the reader's
// what-ifs, and this script only writes what it answers into the page's marked places:
// bound values (data-bind), claims (data-claim), the notes of refused what-ifs, the views
// the core redraws (an edited cell's summary, tables and bars) and the verdicts of quizzes. It
// holds no rule of what a reader sees: the numbers and verdicts come as text, the views as
// HTML, from the core.
//
// Lesson text is data here: it reaches the page as textContent, an attribute value, or inside
// the core's tables, where the core escaped it (core/present/html_text.h); the tables are
// parsed inert in a <template>, and this script adds no inline handler.
'use strict';

(function () {
  const lessonData = JSON.parse(document.getElementById('attnbook-lesson').textContent);
  const bar = document.getElementById('live-bar');
  const status = document.getElementById('live-status');
  const notes = document.getElementById('live-notes');
  let core = null;
  let sets = [];      // the what-ifs in force, as `compute --set` words, in order
  let undoStack = []; // earlier lists of what-ifs, for Undo

  // `#set=ID.KEY%3DYAML&set=...`: the what-ifs a link carries.
  function setsFromHash(hash) {
    const out = [];
    for (const part of hash.replace(/^#/, '').split('&')) {
      if (part.startsWith('set=')) {
        try {
          out.push(decodeURIComponent(part.slice(4).replace(/\+/g, ' ')));
        } catch (e) {
          out.push(part.slice(4));
        }
      }
    }
    return out;
  }

  function hashOf(list) {
    return list.map((s) => 'set=' + encodeURIComponent(s)).join('&');
  }

  function base64Bytes(text) {
    const raw = atob(text);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; ++i) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function openLesson() {
    for (const [path, text] of Object.entries(lessonData.files)) {
      const bytes = base64Bytes(text);
      const at = core._malloc(Math.max(1, bytes.length));
      core.HEAPU8.set(bytes, at);
      core.ccall('attnbook_add_file', null, ['string', 'number', 'number'],
                 [path, at, bytes.length]);
      core._free(at);
    }
    const error = core.ccall('attnbook_open', 'string', ['string', 'string'],
                             [lessonData.markdown, 'lesson.md']);
    if (error) {
      throw new Error(error);
    }
  }

  // `later`: the gradient checks are left for a second question (the answer says what waits
  // for them: pendingValues, pendingClaims), so the rest shows at once.
  function ask(list, later) {
    const started = performance.now();
    const answer = JSON.parse(core.ccall('attnbook_live', 'string', ['string', 'number'],
                                         [JSON.stringify(list), later ? 1 : 0]));
    answer.millis = performance.now() - started;
    return answer;
  }

  function showValues(answer) {
    for (const element of document.querySelectorAll('[data-bind]')) {
      const i = Number(element.dataset.bind);
      if (i < answer.values.length) {
        if (element.dataset.lesson === undefined) {
          element.dataset.lesson = element.textContent; // the lesson's own value
        }
        element.textContent = answer.values[i];
        const changed = answer.values[i] !== element.dataset.lesson;
        element.classList.toggle('changed', changed);
        const note = answer.valueNotes[i];
        element.classList.toggle('taken-away', note !== '');
        // Compare with the lesson's number: on hover, and for a screen reader.
        const title = note || (changed ? 'The lesson has ' + element.dataset.lesson : '');
        if (title) {
          element.title = title;
        } else {
          element.removeAttribute('title');
        }
      }
    }
    const pendingValues = new Set(answer.pendingValues || []);
    for (const element of document.querySelectorAll('[data-bind]')) {
      element.classList.toggle('pending', pendingValues.has(Number(element.dataset.bind)));
    }
    const pendingClaims = new Set(answer.pendingClaims || []);
    for (const element of document.querySelectorAll('[data-claim]')) {
      const n = Number(element.dataset.claim);
      const why = answer.falseClaims[n] || '';
      const pending = pendingClaims.has(n);
      element.hidden = why === '' && !pending;
      element.textContent = pending ? ' (checking…)' : why === '' ? '' : ' ✗ not true for your what-if';
      element.title = pending ? 'The gradient check is running' : why;
      element.classList.toggle('claim-false', why !== '');
      element.classList.toggle('pending', pending);
    }
  }

  // The lesson's own body of each view, kept to put back on Reset (figure → its nodes).
  const lessonViews = new Map();

  // Markup the core wrote (core/present/view_html.h, every lesson text in it escaped
  // by htmlText), parsed inert in a template and put in place of the view's body. Entries
  // whose text differs from the lesson's are marked, with the lesson's number on hover.
  function showView(body, html) {
    const lessonTables = lessonViews.get(body).filter((n) => n.nodeType === Node.ELEMENT_NODE)
      .flatMap((n) => (n.matches('table') ? [n] : Array.from(n.querySelectorAll('table'))));
    const parsed = document.createElement('template');
    parsed.innerHTML = html;
    body.replaceChildren(parsed.content);
    // A table is compared with the lesson's of the same formula ("A = softmax(S)"), whatever
    // head it is of; a table without a caption with the lesson's in the same place.
    const formula = (table) => (table.caption ? table.caption.firstChild.textContent.trim() : '');
    const lessonByFormula = new Map();
    for (const table of lessonTables) {
      if (formula(table) && !lessonByFormula.has(formula(table))) {
        lessonByFormula.set(formula(table), table);
      }
    }
    body.querySelectorAll('table').forEach((table, i) => {
      const before = formula(table) ? lessonByFormula.get(formula(table)) : lessonTables[i];
      if (!before || before.rows.length !== table.rows.length) {
        return;
      }
      for (let r = 0; r < table.rows.length; ++r) {
        const cells = table.rows[r].cells;
        const lessonCells = before.rows[r].cells;
        // the same row of the lesson's table: as many entries, under the same label
        const sameRow = cells.length === lessonCells.length && cells.length > 0 &&
          cells[0].textContent === lessonCells[0].textContent;
        for (let c = 0; c < cells.length && sameRow; ++c) {
          if (cells[c].tagName === 'TD' && cells[c].textContent !== lessonCells[c].textContent) {
            cells[c].classList.add('changed');
            cells[c].title = 'The lesson has ' + lessonCells[c].textContent;
          }
        }
      }
    });
  }

  // Each cell a what-if changed: its summary and the views the core redraws follow; a view it
  // cannot redraw yet (a picture) still shows the lesson's numbers, dimmed, and the cell's
  // form says so. A cell no what-if changes shows the lesson's own again.
  function showCells(answer) {
    for (const section of document.querySelectorAll('section.cell')) {
      const id = section.id.replace(/^cell-/, '');
      // own keys only: a cell may be called __proto__ or constructor
      const cells = answer.cells || {};
      const fresh = Object.prototype.hasOwnProperty.call(cells, id) ? cells[id] : undefined;
      // changed: edited, or computed again with an edited cell's model
      const edited = answer.edited.includes(id) || fresh !== undefined;
      const summary = section.querySelector('.cell-summary');
      if (summary) {
        if (summary.dataset.lesson === undefined) {
          summary.dataset.lesson = summary.textContent;
        }
        summary.textContent = fresh && fresh.summary ? fresh.summary : summary.dataset.lesson;
        summary.classList.toggle('stale', edited && !(fresh && fresh.summary));
      }
      let stale = 0;
      for (const figure of section.querySelectorAll('figure.view')) {
        const body = figure.querySelector('.view-body');
        const view = figure.dataset.view;
        const html = fresh && body && Object.prototype.hasOwnProperty.call(fresh.views, view)
          ? fresh.views[view] : undefined;
        if (body && !lessonViews.has(body)) {
          lessonViews.set(body, Array.from(body.childNodes));
        }
        if (html !== undefined) {
          showView(body, html);
        } else if (body && body.firstChild !== lessonViews.get(body)[0]) {
          body.replaceChildren(...lessonViews.get(body));
        }
        const dim = edited && html === undefined;
        figure.classList.toggle('stale', dim);
        stale += dim ? 1 : 0;
      }
      const form = document.querySelector('form.what-ifs[data-cell="' + CSS.escape(id) + '"]');
      if (form) {
        form.classList.toggle('edited', edited);
        const note = form.querySelector('.edited-note');
        note.hidden = !edited;
        note.textContent = stale
          ? 'The text and the tables follow your what-if; the dimmed pictures above still ' +
            "show the lesson's own numbers."
          : 'Everything in this cell follows your what-if.';
      }
    }
  }

  function showNotes(answer) {
    notes.replaceChildren();
    for (const refused of answer.refused) {
      const item = document.createElement('li');
      item.textContent = 'Not applied: ' + refused.words + ' — ' + refused.why;
      notes.append(item);
    }
    notes.hidden = answer.refused.length === 0;
  }

  function showStatus(answer) {
    const count = answer.applied.length;
    status.textContent = count === 0
      ? 'Live: change a cell below and every number in the text follows.'
      : 'Your what-if: ' + answer.applied.join(' · ');
    document.getElementById('live-undo').disabled = undoStack.length === 0;
    document.getElementById('live-reset').disabled = count === 0;
    bar.dataset.sets = JSON.stringify(answer.applied);
    document.body.dataset.liveState = answer.complete ? 'ready' : 'checking';
  }

  function show(answer) {
    showValues(answer);
    showCells(answer);
    showNotes(answer);
    showStatus(answer);
    refreshQuizzes();
  }

  let asked = 0; // the what-if the page shows: a slower answer to an older one is not shown

  function apply(list, remember) {
    const started = performance.now();
    if (remember) {
      undoStack.push(sets);
    }
    const answer = ask(list, true);
    sets = answer.applied;
    show(answer);
    bar.dataset.coreMillis = answer.millis.toFixed(2);
    // From the what-if to its numbers in the page (the core's part: data-core-millis).
    bar.dataset.millis = (performance.now() - started).toFixed(2);
    const question = ++asked;
    if (!answer.complete) {
      // The gradient checks, once the page has painted what they do not change.
      requestAnimationFrame(() => setTimeout(() => {
        if (question === asked) {
          show(ask(list, false));
          bar.dataset.wholeMillis = (performance.now() - started).toFixed(2);
        }
      }, 0));
    } else {
      bar.dataset.wholeMillis = bar.dataset.millis;
    }
    const hash = hashOf(sets);
    if (location.hash.replace(/^#/, '') !== hash && remember) {
      window.history.replaceState(null, '', hash ? '#' + hash : location.pathname + location.search);
    }
  }

  // Each cell's what-ifs replace any earlier one of the same keys.
  function withSets(list, added) {
    const keyOf = (s) => s.split('=')[0].trim();
    const keys = new Set(added.map(keyOf));
    return list.filter((s) => !keys.has(keyOf(s))).concat(added);
  }

  // Each cell's own history: the cell's what-ifs before each change made in its form, newest
  // last, for its Undo. A page-wide change (Reset all, a link) starts every history afresh.
  const cellHistory = new Map();

  function ofCell(list, cellId) {
    return list.filter((s) => s.startsWith(cellId + '.'));
  }

  function showCellUndo() {
    for (const form of document.querySelectorAll('form.what-ifs')) {
      form.querySelector('[data-action=undo]').disabled =
        !(cellHistory.get(form.dataset.cell) || []).length;
    }
  }

  // A change made in a cell's form: remembered for the cell's Undo when it changed the cell.
  function applyInCell(cellId, list) {
    const before = ofCell(sets, cellId);
    apply(list, true);
    if (JSON.stringify(ofCell(sets, cellId)) !== JSON.stringify(before)) {
      cellHistory.set(cellId, (cellHistory.get(cellId) || []).concat([before]));
    }
    showCellUndo();
  }

  function wireCell(form) {
    const cellId = form.dataset.cell;
    const choice = form.querySelector('select');
    const own = form.querySelector('input[type=text]');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
    });
    form.querySelector('[data-action=try]').addEventListener('click', () => {
      if (choice && choice.value) {
        applyInCell(cellId, withSets(sets, JSON.parse(choice.value)));
      }
    });
    form.querySelector('[data-action=own]').addEventListener('click', () => {
      const text = own.value.trim();
      if (text) {
        applyInCell(cellId, withSets(sets, [cellId + '.' + text]));
      }
    });
    form.querySelector('[data-action=undo]').addEventListener('click', () => {
      const history = cellHistory.get(cellId) || [];
      if (history.length) {
        const earlier = history.pop();
        apply(sets.filter((s) => !s.startsWith(cellId + '.')).concat(earlier), true);
        showCellUndo();
      }
    });
    form.querySelector('[data-action=reset]').addEventListener('click', () => {
      applyInCell(cellId, sets.filter((s) => !s.startsWith(cellId + '.')));
    });
    form.hidden = false;
  }

  function wirePage() {
    document.getElementById('live-undo').addEventListener('click', () => {
      if (undoStack.length) {
        apply(undoStack.pop(), false);
      }
    });
    document.getElementById('live-reset').addEventListener('click', () => {
      cellHistory.clear();
      apply([], true);
      showCellUndo();
    });
    document.getElementById('live-copy').addEventListener('click', () => {
      const link = location.href.split('#')[0] + (sets.length ? '#' + hashOf(sets) : '');
      const done = () => { status.textContent = 'Link copied: ' + link; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(link).then(done, () => { status.textContent = link; });
      } else {
        status.textContent = link;
      }
    });
    for (const form of document.querySelectorAll('form.what-ifs')) {
      wireCell(form);
    }
    for (const form of document.querySelectorAll('form.quiz-form')) {
      wireQuiz(form);
    }
    window.addEventListener('hashchange', () => {
      cellHistory.clear();
      apply(setsFromHash(location.hash), false);
      showCellUndo();
    });
  }

  // Quizzes (docs/web-page.md, "Quizzes"): the reader's answer goes to the core, which judges
  // it for the what-ifs in force (core/live/live_quiz.h: attnbook_quiz); this shows what it
  // says, writes the answer it computed into the folded answer, and opens the answer and its
  // explanation once the reader has answered.
  const quizAnswers = new Map(); // quiz id → the reader's last answer, judged again on a what-if

  function askQuiz(id, given) {
    return JSON.parse(core.ccall('attnbook_quiz', 'string', ['string', 'string'], [id, given]));
  }

  function givenIn(form) {
    if (form.dataset.kind === 'choice') {
      const picked = form.querySelector('input[type=radio]:checked');
      return picked ? picked.value : '';
    }
    return form.querySelector('input[type=text], textarea').value;
  }

  function showQuiz(form, verdict, answered) {
    const section = form.closest('section');
    const answer = section.querySelector('.quiz-answer'); // a numeric answer's place
    if (answer && verdict.answer) {
      answer.textContent = verdict.answer;
    }
    if (!answered) {
      return;
    }
    const out = form.querySelector('.quiz-verdict');
    const says = verdict.error ? 'This answer could not be checked: ' + verdict.error
                               : verdict.says;
    if (out.textContent !== says) {
      out.textContent = says; // heard once by a screen reader (aria-live)
    }
    out.dataset.verdict = verdict.verdict || 'unknown';
    if (['right', 'wrong', 'sample'].includes(verdict.verdict)) {
      const details = section.querySelector('details.answer');
      if (details) {
        details.open = true;
      }
    }
  }

  function refreshQuizzes() {
    for (const form of document.querySelectorAll('form.quiz-form')) {
      const given = quizAnswers.get(form.dataset.quiz);
      showQuiz(form, askQuiz(form.dataset.quiz, given === undefined ? '' : given),
               given !== undefined);
    }
  }

  function wireQuiz(form) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const given = givenIn(form);
      const verdict = askQuiz(form.dataset.quiz, given);
      if (['right', 'wrong', 'sample'].includes(verdict.verdict)) {
        quizAnswers.set(form.dataset.quiz, given);
      } else {
        quizAnswers.delete(form.dataset.quiz);
      }
      showQuiz(form, verdict, true);
    });
    const list = form.closest('section').querySelector('ol.choices');
    if (list && form.dataset.kind === 'choice') {
      list.hidden = true; // the radio buttons are the choices now
    }
    form.hidden = false;
  }

  document.body.dataset.liveState = 'loading';
  createAttnbookCore().then((module) => {
    core = module;
    try {
      openLesson();
    } catch (e) {
      status.textContent = 'This page could not go live: ' + e.message;
      document.body.dataset.liveState = 'failed';
      bar.hidden = false;
      return;
    }
    bar.hidden = false;
    wirePage();
    apply(setsFromHash(location.hash), false);
  }, (error) => {
    document.body.dataset.liveState = 'failed';
    status.textContent = 'This page could not go live: ' + error;
    bar.hidden = false;
  });
})();

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
  let lastQuestion = {list: [], later: true}; // the session's last answer is this one's

  function ask(list, later) {
    lastQuestion = {list: list, later: later};
    const started = performance.now();
    const answer = JSON.parse(core.ccall('attnbook_live', 'string', ['string', 'number'],
                                         [JSON.stringify(list), later ? 1 : 0]));
    answer.millis = performance.now() - started;
    return answer;
  }

  // "The lesson's numbers in the text" (docs/web-page.md): each bound number a what-if
  // changed has the lesson's own beside it, as text, not only on hover.
  let textCompare = false;

  function showTextCompare() {
    for (const was of document.querySelectorAll('.was.in-text')) {
      was.remove();
    }
    if (!textCompare) {
      return;
    }
    for (const element of document.querySelectorAll('[data-bind].changed')) {
      const was = lessonText("the lesson's: ", element.dataset.lesson);
      was.classList.add('in-text');
      element.after(was);
    }
  }

  // What each bound value shows now (its text and note), so that a what-if writes only the
  // values it changed: a page has hundreds.
  const shownValue = new WeakMap();
  // The page's bound values and claims: the static page's, found once (a what-if writes their
  // text, never adds or takes any).
  let boundElements = null;
  let claimElements = null;

  function showValues(answer) {
    boundElements = boundElements || Array.from(document.querySelectorAll('[data-bind]'),
      (element) => ({element: element, i: Number(element.dataset.bind)}));
    claimElements = claimElements || Array.from(document.querySelectorAll('[data-claim]'));
    for (const {element, i} of boundElements) {
      const shown = answer.values[i] + '\u0000' + answer.valueNotes[i];
      if (i < answer.values.length && shownValue.get(element) !== shown) {
        shownValue.set(element, shown);
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
    for (const {element, i} of boundElements) {
      element.classList.toggle('pending', pendingValues.has(i));
    }
    const pendingClaims = new Set(answer.pendingClaims || []);
    for (const element of claimElements) {
      const n = Number(element.dataset.claim);
      const why = answer.falseClaims[n] || '';
      const pending = pendingClaims.has(n);
      element.hidden = why === '' && !pending;
      element.textContent = pending ? ' (checking…)' : why === '' ? '' : ' ✗ not true for your what-if';
      element.title = pending ? 'Being computed, after the rest' : why;
      element.classList.toggle('claim-false', why !== '');
      element.classList.toggle('pending', pending);
    }
  }

  // The lesson's own body of each view, kept to put back on Reset (figure → its nodes).
  const lessonViews = new Map();
  // The lesson's text of each entry showView marked as changed (its <td> → the static page's
  // text of the same entry), for Compare. Kept here, not in an attribute: it is lesson text.
  const lessonEntries = new WeakMap();
  // The cells whose form's "Compare with the lesson's numbers" is pressed.
  const comparing = new Set();

  // Markup the core wrote (core/present/view_html.h, every lesson text in it escaped
  // by htmlText), parsed inert in a template and put in place of the view's body. Entries
  // whose text differs from the lesson's are marked after the paint (markChanged), with the
  // lesson's number on hover.
  function showView(body, html) {
    if (shownHtml.get(body) === html) {
      return; // as it shows: a temperature leaves the stream's tables as they were
    }
    const parsed = document.createElement('template');
    parsed.innerHTML = html;
    body.replaceChildren(parsed.content);
    shownHtml.set(body, html);
    unmarked.add(body);
  }

  // The markup each view body shows, when the core wrote it (not the lesson's own nodes).
  const shownHtml = new Map();

  // The view bodies showView redrew whose changed entries are not marked yet: marked once the
  // browser has painted the numbers (showTheRest).
  const unmarked = new Set();

  function markAllChanged() {
    for (const body of unmarked) {
      markChanged(body);
    }
    unmarked.clear();
  }

  function markChanged(body) {
    const lessonTables = lessonViews.get(body).filter((n) => n.nodeType === Node.ELEMENT_NODE)
      .flatMap((n) => (n.matches('table') ? [n] : Array.from(n.querySelectorAll('table'))));
    // A table is compared with the lesson's of the same caption and place among those of that
    // caption ("Shares, head 1" of layer 2 with layer 2's, the second such table); else with the
    // lesson's of the same formula ("A = softmax(S)"), whatever head it is of (a head the lesson
    // does not have); a table without a caption with the lesson's in the same place.
    const caption = (table) => (table.caption ? table.caption.textContent.trim() : '');
    const formula = (table) => (table.caption ? table.caption.firstChild.textContent.trim() : '');
    const byKey = (key) => {
      const tables = new Map();
      for (const table of lessonTables) {
        tables.set(key(table), (tables.get(key(table)) || []).concat([table]));
      }
      return tables;
    };
    const lessonByCaption = byKey(caption);
    const lessonByFormula = byKey(formula);
    const seen = new Map(); // caption → how many of the redrawn tables had it
    body.querySelectorAll('table').forEach((table, i) => {
      const nth = seen.get(caption(table)) || 0;
      seen.set(caption(table), nth + 1);
      const sameCaption = (lessonByCaption.get(caption(table)) || [])[nth];
      const before = !formula(table) ? lessonTables[i]
        : sameCaption || (lessonByFormula.get(formula(table)) || [])[0];
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
            lessonEntries.set(cells[c], lessonCells[c].textContent);
          }
        }
      }
    });
  }

  // The lesson's text beside a new one: "was 0.2327", as text (on a phone the word "was" is
  // for a screen reader only, and the number struck through, so a table stays as wide).
  function lessonText(prefix, text) {
    const was = document.createElement('span');
    was.className = 'was';
    const word = document.createElement('span');
    word.className = 'was-word';
    word.textContent = prefix;
    const words = document.createElement('span');
    words.className = 'was-text';
    words.textContent = text;
    was.append(word, words);
    return was;
  }

  // Compare (docs/web-page.md, "Compare with the lesson's numbers"): each entry showView marked
  // as changed shows the lesson's text of it, in the same cell of the table, and the summary line
  // the lesson's summary. What the lesson has is what showView compared with: the static views'
  // own entries. Off, the cell is as showCells wrote it.
  function showCompare(section, on) {
    for (const was of section.querySelectorAll('.was')) {
      was.remove();
    }
    if (!on) {
      return;
    }
    for (const entry of section.querySelectorAll('figure.view td.changed')) {
      if (lessonEntries.has(entry)) {
        entry.append(lessonText('was ', lessonEntries.get(entry)));
      }
    }
    const summary = section.querySelector('.cell-summary');
    if (summary && !summary.classList.contains('stale') &&
        summary.textContent !== summary.dataset.lesson) {
      summary.after(lessonText("the lesson's: ", summary.dataset.lesson));
    }
  }

  // Each cell's what-if form (it follows the cell's section), found once.
  let whatIfForms = null;
  function whatIfForm(cellId) {
    whatIfForms = whatIfForms || new Map(Array.from(document.querySelectorAll('form.what-ifs'),
                                                    (form) => [form.dataset.cell, form]));
    return whatIfForms.get(cellId);
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
        // A view the second answer brings (the knock-outs) stays as it is until then; one the
        // what-if left as the lesson has it shows the lesson's own nodes.
        const pending = fresh !== undefined && (fresh.pending || []).includes(view);
        const asLesson = fresh !== undefined && (fresh.asLesson || []).includes(view);
        if (pending) {
          figure.setAttribute('aria-busy', 'true');
        } else {
          figure.removeAttribute('aria-busy');
        }
        if (body && !lessonViews.has(body)) {
          lessonViews.set(body, Array.from(body.childNodes));
        }
        if (html !== undefined) {
          showView(body, html);
        } else if (pending) {
          continue;
        } else if (body && body.firstChild !== lessonViews.get(body)[0]) {
          body.replaceChildren(...lessonViews.get(body));
          unmarked.delete(body);
          shownHtml.delete(body);
        }
        const dim = edited && html === undefined && !asLesson;
        figure.classList.toggle('stale', dim);
        stale += dim ? 1 : 0;
      }
      const form = whatIfForm(id);
      if (form) {
        form.classList.toggle('edited', edited);
        const note = form.querySelector('.edited-note');
        note.hidden = !edited;
        note.textContent = stale
          ? 'The text and the tables follow your what-if; the dimmed pictures above still ' +
            "show the lesson's own numbers."
          : 'Everything in this cell follows your what-if.';
        // Compare stays pressed across the cell's what-ifs; with none in force it is off.
        if (!edited) {
          comparing.delete(id);
        }
        const compare = form.querySelector('[data-action=compare]');
        compare.disabled = !edited;
        compare.setAttribute('aria-pressed', String(comparing.has(id)));
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
    const compareText = document.getElementById('live-text-compare');
    textCompare = textCompare && count > 0; // off with no what-if in force
    compareText.disabled = count === 0;
    compareText.setAttribute('aria-pressed', String(textCompare));
    showTextCompare();
    bar.dataset.sets = JSON.stringify(answer.applied);
  }

  // What an answer changes that a reader reads at once (docs/web-page.md, "Within a frame"):
  // the prose's values and claims, each cell's summary and views, the bar, and the controls'
  // state (the next key a reader presses reads them). `body` stays `checking` until showTheRest
  // has followed.
  function showNumbers(answer) {
    showValues(answer);
    showCells(answer);
    showNotes(answer);
    showStatus(answer);
    for (const [cellId, controls] of Object.entries(answer.controls || {})) {
      keepControls(cellId, ofCell(sets, cellId), controls); // the core read the cell already
    }
    refreshControls();
    document.body.dataset.liveState = 'checking';
  }

  // What follows once the browser has painted the numbers: the changed entries marked, Compare
  // and the quizzes' verdicts.
  function showTheRest(answer) {
    markAllChanged();
    for (const section of document.querySelectorAll('section.cell')) {
      showCompare(section, comparing.has(section.id.replace(/^cell-/, '')));
    }
    refreshQuizzes();
    document.body.dataset.liveState = answer.complete ? 'ready' : 'checking';
  }

  // `then` once the browser has painted what the task before it showed.
  function afterPaint(then) {
    requestAnimationFrame(() => setTimeout(then, 0));
  }

  let asked = 0; // the what-if the page shows: a slower answer to an older one is not shown

  // `started`: when the reader acted (a control's change asks the core for its words first).
  function apply(list, remember, started = performance.now()) {
    if (remember) {
      undoStack.push(sets);
    }
    const answer = ask(list, true);
    sets = answer.applied;
    showNumbers(answer);
    bar.dataset.coreMillis = answer.millis.toFixed(2);
    // From the what-if to its numbers in the page (the core's part: data-core-millis).
    bar.dataset.millis = (performance.now() - started).toFixed(2);
    const question = ++asked;
    afterPaint(() => {
      if (question !== asked) {
        return; // a newer what-if shows its own
      }
      showTheRest(answer);
      if (answer.complete) {
        bar.dataset.wholeMillis = (performance.now() - started).toFixed(2);
        return;
      }
      // The gradient checks and knock-outs, once the page has painted what they do not change.
      afterPaint(() => {
        if (question === asked) {
          const whole = ask(list, false);
          showNumbers(whole);
          showTheRest(whole);
          bar.dataset.wholeMillis = (performance.now() - started).toFixed(2);
        }
      });
    });
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
  function applyInCell(cellId, list, started) {
    const before = ofCell(sets, cellId);
    apply(list, true, started);
    if (JSON.stringify(ofCell(sets, cellId)) !== JSON.stringify(before)) {
      cellHistory.set(cellId, (cellHistory.get(cellId) || []).concat([before]));
    }
    showCellUndo();
  }

  // The cell's controls (html_cell_controls.cpp): a reader's change goes to the core as an
  // edit (attnbook_controls, core/live/reader_controls.h), which answers with the
  // `compute --set` words it makes; then every widget shows the state the core reports for the
  // what-ifs in force, after a change, Undo, Reset or a link alike. Nothing here writes YAML.
  function askControls(cellId, edit) {
    return JSON.parse(core.ccall('attnbook_controls', 'string', ['string', 'string', 'string'],
                                 [JSON.stringify(ofCell(sets, cellId)), cellId,
                                  edit ? JSON.stringify(edit) : '']));
  }

  // Each cell's controls by the cell's words in force: reading a cell again is most of the
  // question's time (a real model's cell: a quarter of a second), so Undo, Reset and a what-if
  // of another cell ask nothing.
  const knownControls = new Map(); // cell → (its words as JSON → its controls)

  function keepControls(cellId, words, controls) {
    if (!knownControls.has(cellId)) {
      knownControls.set(cellId, new Map());
    }
    const known = knownControls.get(cellId);
    if (known.size > 32) {
      known.clear();
    }
    known.set(JSON.stringify(words), controls);
  }

  function controlsOf(cellId) {
    const words = ofCell(sets, cellId);
    const known = knownControls.get(cellId);
    if (known && known.has(JSON.stringify(words))) {
      return known.get(JSON.stringify(words));
    }
    const answer = askControls(cellId, null);
    if (answer.controls) {
      keepControls(cellId, words, answer.controls);
    }
    return answer.controls;
  }

  function field(form, name) {
    return form.querySelector('[data-field="' + name + '"]');
  }

  // A token chip as html_cell_controls.cpp writes it; its words go in as text.
  function tokenChip(token, index, count) {
    const item = document.createElement('li');
    item.className = 'chip';
    item.dataset.index = String(index);
    const word = document.createElement('span');
    word.className = 'chip-word';
    word.textContent = token;
    item.append(word);
    const which = 'token ' + (index + 1) + ' (' + token + ')';
    for (const [op, text, label, off] of [['left', '←', 'Move ' + which + ' left', index === 0],
      ['right', '→', 'Move ' + which + ' right', index + 1 === count],
      ['remove', '×', 'Remove ' + which, count === 1]]) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.op = op;
      button.textContent = text;
      button.setAttribute('aria-label', label);
      button.disabled = off;
      item.append(button);
    }
    return item;
  }

  // The chips of `tokens`: each chip there is keeps its element and has its word, names and ends
  // set, and only the chips past the new end go or come (the button a reader pressed stays, with
  // the focus on it: taking a focused element away costs the browser a new style of the page,
  // 20-30 ms for real-head.md).
  function showChips(chips, tokens) {
    while (chips.children.length > tokens.length) {
      chips.lastElementChild.remove();
    }
    while (chips.children.length < tokens.length) {
      const at = chips.children.length;
      chips.append(tokenChip(tokens[at], at, tokens.length));
    }
    [...chips.children].forEach((item, i) => {
      const made = tokenChip(tokens[i], i, tokens.length);
      const word = item.querySelector('.chip-word');
      if (word.textContent !== tokens[i]) {
        word.textContent = tokens[i];
      }
      made.querySelectorAll('button').forEach((button) => {
        const own = item.querySelector('[data-op=' + button.dataset.op + ']');
        if (own.getAttribute('aria-label') !== button.getAttribute('aria-label')) {
          own.setAttribute('aria-label', button.getAttribute('aria-label'));
        }
        if (own.disabled !== button.disabled) {
          own.disabled = button.disabled;
        }
      });
    });
  }

  function showControls(form) {
    const state = controlsOf(form.dataset.cell);
    if (!state) {
      return;
    }
    const chips = form.querySelector('.token-chips');
    if (chips) {
      showChips(chips, state.tokens);
    }
    const heads = field(form, 'heads');
    if (heads) {
      heads.textContent = String(state.heads);
      const at = state.allowedHeads.indexOf(state.heads);
      form.querySelector('[data-op=fewer]').disabled = at <= 0;
      form.querySelector('[data-op=more]').disabled = at < 0 || at + 1 >= state.allowedHeads.length;
    }
    const mask = field(form, 'mask');
    if (mask) {
      mask.checked = state.mask === 'causal';
    }
    const positional = field(form, 'positional');
    if (positional) {
      positional.value = state.positional;
    }
    const scale = field(form, 'scale');
    if (scale) {
      scale.value = state.scale;
      field(form, 'divisor').value = String(state.divisor);
      field(form, 'divisor').hidden = state.scale !== 'divisor';
    }
    for (const name of ['temperature', 'temperature-slider']) {
      if (field(form, name)) {
        field(form, name).value = String(state.temperature);
      }
    }
    if (field(form, 'generate')) {
      field(form, 'generate').value = String(state.generate);
      field(form, 'pick').value = state.pick;
      field(form, 'pick').disabled = state.generate === 0;
    }
    if (field(form, 'layers')) {
      field(form, 'layers').value = String(state.layersRun);
    }
    for (const name of ['norm', 'ffn']) {
      if (field(form, name)) {
        field(form, name).checked = state[name];
      }
    }
    for (const grid of form.querySelectorAll('.control-matrix')) {
      const matrix = state.matrices.find((m) => m.name === grid.dataset.matrix);
      if (matrix && matrix.rows) {
        showGrid(grid, matrix, state.tokens);
      }
    }
    // a large matrix's rows may follow the tokens (X0): its row field takes as many
    for (const entry of form.querySelectorAll('.control-entry')) {
      const matrix = state.matrices.find((m) => m.name === entry.dataset.matrix);
      if (matrix) {
        entry.querySelector('[data-entry=row]').max = String(matrix.shape[0]);
        entry.querySelector('[data-entry=col]').max = String(matrix.shape[1]);
        entry.querySelector('legend').textContent = // as entryHtml (html_cell_controls.cpp)
          matrix.name + ', ' + matrix.shape[0] + ' × ' + matrix.shape[1] + ': one entry';
      }
    }
  }

  // A keyboard reader keeps their place: the same button of the chip where the token went.
  function refocusChip(form, refocus) {
    const chip = form.querySelector('.chip[data-index="' + refocus.index + '"]');
    const target = chip && chip.querySelector('[data-op=' + refocus.op + ']');
    // at an end of the sentence that button is off: another of the same chip
    const other = chip && chip.querySelector('button:not(:disabled)');
    (target && !target.disabled ? target : other || field(form, 'add')).focus();
  }

  // A matrix's grid as html_cell_controls.cpp writes it: a number field per entry, each named
  // by its matrix, row (a token vector's by its token) and column. A grid of the same shape
  // keeps its fields and has their values and names set (a field is costly to make, and one
  // the reader is in keeps the focus); another is made again.
  function showGrid(grid, matrix, tokens) {
    const rowName = (r) => {
      const byToken = (matrix.name === 'X0' || matrix.name === 'queries') && r < tokens.length;
      return byToken ? (r + 1) + ' (' + tokens[r] + ')' : String(r + 1);
    };
    const label = (r, c) => matrix.name + ' row ' + rowName(r) + ', column ' + (c + 1);
    const table = grid.querySelector('table');
    const shown = [...table.rows];
    const sameShape = shown.length === matrix.rows.length &&
      shown.every((row, r) => row.cells.length === matrix.rows[r].length + 1);
    if (sameShape) {
      shown.forEach((row, r) => {
        const head = row.cells[0];
        if (head.textContent !== rowName(r)) {
          head.textContent = rowName(r);
        }
        matrix.rows[r].forEach((value, c) => {
          const input = row.cells[c + 1].firstElementChild;
          if (input.value !== String(value)) {
            input.value = String(value);
          }
          if (input.getAttribute('aria-label') !== label(r, c)) {
            input.setAttribute('aria-label', label(r, c));
          }
        });
      });
      return;
    }
    const focused = grid.contains(document.activeElement) ? document.activeElement : null;
    const at = focused ? [focused.dataset.row, focused.dataset.col] : null;
    const rows = matrix.rows.map((values, r) => {
      const row = document.createElement('tr');
      const head = document.createElement('th');
      head.scope = 'row';
      head.textContent = rowName(r);
      row.append(head);
      values.forEach((value, c) => {
        const cell = document.createElement('td');
        const input = document.createElement('input');
        input.type = 'number';
        input.step = 'any';
        input.dataset.row = String(r);
        input.dataset.col = String(c);
        input.setAttribute('aria-label', label(r, c));
        input.value = String(value);
        cell.append(input);
        row.append(cell);
      });
      return row;
    });
    table.replaceChildren(...rows);
    if (at) {
      const again = grid.querySelector('[data-row="' + at[0] + '"][data-col="' + at[1] + '"]');
      if (again) {
        again.focus();
      }
    }
  }

  const shownWords = new Map(); // form → the words its widgets show

  function refreshControls() {
    for (const form of document.querySelectorAll('form.what-ifs')) {
      const words = JSON.stringify(ofCell(sets, form.dataset.cell));
      if (shownWords.get(form) !== words) {
        showControls(form);
        shownWords.set(form, words);
      }
    }
  }

  // A change made with a control: the core's words for it, or why it was not made.
  function editCell(form, edit, refocus) {
    const started = performance.now();
    const cellId = form.dataset.cell;
    const answer = askControls(cellId, edit);
    const refusal = form.querySelector('.control-refusal');
    const why = answer.error || answer.why;
    refusal.textContent = why ? 'Not changed: ' + why : '';
    refusal.hidden = !why;
    shownWords.delete(form); // a widget the reader moved shows the state in force again
    if (!why && answer.set.length) {
      // what the widgets show once the words are in force, as the core answered with them
      keepControls(cellId, ofCell(withSets(sets, answer.set), cellId), answer.controls);
      applyInCell(cellId, withSets(sets, answer.set), started);
    }
    refreshControls();
    if (refocus) {
      refocusChip(form, refocus);
    }
  }

  function wireControls(form) {
    const chips = form.querySelector('.token-chips');
    if (chips) {
      chips.addEventListener('click', (event) => {
        const button = event.target.closest('button[data-op]');
        if (!button || button.disabled) {
          return;
        }
        const index = Number(button.closest('.chip').dataset.index);
        const op = button.dataset.op;
        if (op === 'remove') {
          editCell(form, {control: 'tokens', op: 'remove', index: index},
                   {index: Math.max(0, index - 1), op: 'remove'});
        } else {
          const to = op === 'left' ? index - 1 : index + 1;
          editCell(form, {control: 'tokens', op: 'move', index: index, to: to},
                   {index: to, op: op});
        }
      });
      const addWord = () => {
        const word = field(form, 'add').value.trim();
        if (word) {
          editCell(form, {control: 'tokens', op: 'add', word: word}, null);
        }
      };
      form.querySelector('button[data-op=add]').addEventListener('click', addWord);
      field(form, 'add').addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          addWord();
        }
      });
    }
    const heads = field(form, 'heads');
    if (heads) {
      const step = (by) => {
        const state = controlsOf(form.dataset.cell);
        const next = state.allowedHeads[state.allowedHeads.indexOf(state.heads) + by];
        if (next !== undefined) {
          editCell(form, {control: 'heads', op: 'set', number: next}, null);
        }
      };
      form.querySelector('[data-op=fewer]').addEventListener('click', () => step(-1));
      form.querySelector('[data-op=more]').addEventListener('click', () => step(1));
    }
    const onChange = (name, edit) => {
      if (field(form, name)) {
        field(form, name).addEventListener('change', () => editCell(form, edit(), null));
      }
    };
    onChange('mask', () => ({control: 'mask', op: 'set',
                             word: field(form, 'mask').checked ? 'causal' : 'none'}));
    onChange('positional', () => ({control: 'positional', op: 'set',
                                   word: field(form, 'positional').value}));
    const scaleEdit = () => ({control: 'scale', op: 'set', word: field(form, 'scale').value,
                              number: Number(field(form, 'divisor').value)});
    onChange('scale', scaleEdit);
    onChange('divisor', scaleEdit);
    onChange('temperature', () => ({control: 'temperature', op: 'set',
                                    number: Number(field(form, 'temperature').value)}));
    onChange('temperature-slider', () => ({control: 'temperature', op: 'set',
                                           number: Number(field(form, 'temperature-slider').value)}));
    const slider = field(form, 'temperature-slider');
    if (slider) {
      // The number follows the slider as it moves; the what-if is made when it is let go.
      slider.addEventListener('input', () => { field(form, 'temperature').value = slider.value; });
    }
    onChange('generate', () => ({control: 'generate', op: 'set',
                                 number: Number(field(form, 'generate').value)}));
    onChange('pick', () => ({control: 'generate', op: 'pick', word: field(form, 'pick').value}));
    onChange('layers', () => ({control: 'layers', op: 'set',
                               number: Number(field(form, 'layers').value)}));
    for (const name of ['norm', 'ffn']) {
      onChange(name, () => ({control: name, op: 'set', number: field(form, name).checked ? 1 : 0}));
    }
    // A large matrix's one entry: its row and column as the reader counts them, from 1.
    for (const entry of form.querySelectorAll('.control-entry')) {
      const part = (name) => entry.querySelector('[data-entry=' + name + ']');
      const setEntry = () => {
        const row = Number(part('row').value), col = Number(part('col').value);
        const value = part('value').value.trim();
        const whole = (name) => {
          const n = Number(part(name).value);
          return Number.isInteger(n) && n >= 1 && n <= Number(part(name).max);
        };
        const wrong = !whole('row') ? 'row' : !whole('col') ? 'col'
          : value === '' || !Number.isFinite(Number(value)) ? 'value' : null;
        if (wrong) {
          part(wrong).reportValidity(); // the browser's own number field says what it takes
          part(wrong).focus();
          return;
        }
        editCell(form, {control: entry.dataset.control, op: 'entry', word: entry.dataset.matrix,
                        index: row - 1, to: col - 1, number: Number(value)}, null);
      };
      part('set').addEventListener('click', setEntry);
      entry.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && event.target.tagName === 'INPUT') {
          event.preventDefault(); // not the form's submission: this entry's Set
          setEntry();
        }
      });
    }
    for (const grid of form.querySelectorAll('.control-matrix')) {
      grid.addEventListener('change', (event) => {
        const input = event.target;
        if (input.value.trim() === '' || !Number.isFinite(Number(input.value))) {
          return; // the browser's own number field says what it takes
        }
        editCell(form, {control: grid.dataset.control, op: 'entry', word: grid.dataset.matrix,
                        index: Number(input.dataset.row), to: Number(input.dataset.col),
                        number: Number(input.value)}, null);
      });
    }
  }

  function wireCell(form) {
    const cellId = form.dataset.cell;
    const choice = field(form, 'choice');
    const own = field(form, 'own');
    const applyOwn = () => {
      const text = own.value.trim();
      if (text) {
        applyInCell(cellId, withSets(sets, [cellId + '.' + text]));
      }
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
    });
    own.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        applyOwn();
      }
    });
    const tryIt = form.querySelector('[data-action=try]');
    if (tryIt) {
      tryIt.addEventListener('click', () => {
        if (choice && choice.value) {
          applyInCell(cellId, withSets(sets, JSON.parse(choice.value)));
        }
      });
    }
    form.querySelector('[data-action=own]').addEventListener('click', applyOwn);
    form.querySelector('[data-action=undo]').addEventListener('click', () => {
      const history = cellHistory.get(cellId) || [];
      if (history.length) {
        const earlier = history.pop();
        apply(sets.filter((s) => !s.startsWith(cellId + '.')).concat(earlier), true);
        showCellUndo();
      }
    });
    form.querySelector('[data-action=reset]').addEventListener('click', () => {
      comparing.delete(cellId);
      applyInCell(cellId, sets.filter((s) => !s.startsWith(cellId + '.')));
    });
    const compare = form.querySelector('[data-action=compare]');
    compare.addEventListener('click', () => {
      if (comparing.has(cellId)) {
        comparing.delete(cellId);
      } else {
        comparing.add(cellId);
      }
      compare.setAttribute('aria-pressed', String(comparing.has(cellId)));
      const section = document.getElementById('cell-' + cellId);
      markAllChanged(); // pressed before the last what-if's entries were marked
      if (section) {
        showCompare(section, comparing.has(cellId));
      }
    });
    wireControls(form);
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
    document.getElementById('live-text-compare').addEventListener('click', (event) => {
      textCompare = !textCompare;
      event.currentTarget.setAttribute('aria-pressed', String(textCompare));
      showTextCompare();
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

  // The browser compiles the module's hot code the first time it runs it: the reader's first
  // what-if took up to twice as long as the next (docs/web-page.md). Once the page is live and
  // idle, the first cell's first what-if is asked once and not shown, then the page's own
  // question again, which the session keeps (nothing is computed), so that the answer the
  // quizzes are judged by is the page's again.
  function warmUp() {
    const option = document.querySelector('form.what-ifs select[data-field=choice] option[value]');
    const words = option && option.value ? JSON.parse(option.value) : null;
    if (!words || document.body.dataset.liveState !== 'ready') {
      return;
    }
    const back = lastQuestion;
    ask(withSets(back.list, words), true);
    ask(back.list, back.later);
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
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 200));
    idle(() => warmUp(), {timeout: 2000});
  }, (error) => {
    document.body.dataset.liveState = 'failed';
    status.textContent = 'This page could not go live: ' + error;
    bar.hidden = false;
  });
})();

// The live web page (docs/web-page.md): the lesson's own core, compiled to WebAssembly
// (createAttnbookCore, the script before this one), recomputes the lesson for the reader's
// what-ifs, and this script only writes what it answers into the page's marked places:
// bound values (data-bind), claims (data-claim), the notes of refused what-ifs. It holds no
// rule of what a reader sees: the numbers come as text from the core.
//
// Lesson text is data here: it reaches the page only as textContent or an attribute value,
// never as markup, and this script adds no inline handler.
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

  function ask(list) {
    const started = performance.now();
    const answer = JSON.parse(core.ccall('attnbook_live', 'string', ['string'],
                                         [JSON.stringify(list)]));
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
    for (const element of document.querySelectorAll('[data-claim]')) {
      const why = answer.falseClaims[Number(element.dataset.claim)] || '';
      element.hidden = why === '';
      element.textContent = why === '' ? '' : ' ✗ not true for your what-if';
      element.title = why;
      element.classList.toggle('claim-false', why !== '');
    }
  }

  // A cell a what-if changed: its tables and pictures still show the lesson's numbers, so
  // they are dimmed and its form says so.
  function showCells(answer) {
    for (const form of document.querySelectorAll('form.what-ifs')) {
      const edited = answer.edited.includes(form.dataset.cell);
      form.classList.toggle('edited', edited);
      form.querySelector('.edited-note').hidden = !edited;
      const section = document.getElementById('cell-' + form.dataset.cell);
      if (section) {
        section.classList.toggle('stale', edited);
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
    bar.dataset.coreMillis = answer.millis.toFixed(2);
    bar.dataset.sets = JSON.stringify(answer.applied);
    document.body.dataset.liveState = 'ready';
  }

  function apply(list, remember) {
    const started = performance.now();
    if (remember) {
      undoStack.push(sets);
    }
    const answer = ask(list);
    sets = answer.applied;
    showValues(answer);
    showCells(answer);
    showNotes(answer);
    showStatus(answer);
    // From the what-if to its numbers in the page (the core's part: data-core-millis).
    bar.dataset.millis = (performance.now() - started).toFixed(2);
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

  function wireCell(form) {
    const cellId = form.dataset.cell;
    const choice = form.querySelector('select');
    const own = form.querySelector('input[type=text]');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
    });
    form.querySelector('[data-action=try]').addEventListener('click', () => {
      if (choice && choice.value) {
        apply(withSets(sets, JSON.parse(choice.value)), true);
      }
    });
    form.querySelector('[data-action=own]').addEventListener('click', () => {
      const text = own.value.trim();
      if (text) {
        apply(withSets(sets, [cellId + '.' + text]), true);
      }
    });
    form.querySelector('[data-action=reset]').addEventListener('click', () => {
      apply(sets.filter((s) => !s.startsWith(cellId + '.')), true);
    });
    form.hidden = false;
  }

  function wirePage() {
    document.getElementById('live-undo').addEventListener('click', () => {
      if (undoStack.length) {
        apply(undoStack.pop(), false);
      }
    });
    document.getElementById('live-reset').addEventListener('click', () => apply([], true));
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
    window.addEventListener('hashchange', () => apply(setsFromHash(location.hash), false));
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

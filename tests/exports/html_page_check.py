#!/usr/bin/python3
"""Reads a web page written by `attnbook export --html` the way a browser's parser does
(html5lib, strict: any parse error fails) and prints what the tests check, as JSON:

  errors     the parser's errors ("line:col: code"), empty for valid HTML5
  headings   [level, text] of every h1-h6 in <main>, in order
  nav        the text of every link of the <nav>, and whether each target id exists
  views      cell id -> the data-view of each figure in its <section>
  quizzes    cell id -> how many folded answers (<details class="answer">) it has
  quiz_forms every live quiz form (<form class="quiz-form">): its section, data-quiz, data-kind,
             whether hidden, its legend, each input or textarea with its type, value and the
             text of its <label for>, each button's type and text, and the role and
             aria-live of its live regions
  folds      the summaries of the sample-answer folds
  svg        how many <svg> elements the page holds
  fetches    every src, every href outside <a>, every url(...) in styles and the tag of every
             <link>, <script src>, <iframe>, <object>, <embed>, <img> (a page that fetches
             nothing has none)
  scripts    every <script> without src (the live page's): its type and the 'sha256-...' of
             its text, as a Content-Security-Policy names it; a JSON one's text too
  policy     the Content-Security-Policy of the page's <meta>
  links      every <a href> that does not point into the page
  handlers   every attribute named on* (event handlers), with its element
  text       the page's visible text (without <style>)
"""
import base64
import hashlib
import json
import re
import sys

import html5lib

NS = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def local(tag):
    return tag.split("}", 1)[-1] if isinstance(tag, str) else ""


def text_of(element):
    return "".join(element.itertext()).strip()


def quiz_form(cell, form):
    legend = form.find(".//%slegend" % NS)
    labels = {label.get("for"): text_of(label) for label in form.iter(NS + "label")}
    controls = [{"tag": local(e.tag), "type": e.get("type", ""), "value": e.get("value", ""),
                 "label": labels.get(e.get("id"))}
                for e in form.iter() if local(e.tag) in ("input", "textarea", "select")]
    return {"section": cell, "quiz": form.get("data-quiz"), "kind": form.get("data-kind"),
            "hidden": form.get("hidden") is not None,
            "legend": text_of(legend) if legend is not None else None,
            "controls": controls,
            "buttons": [[b.get("type", ""), text_of(b)] for b in form.iter(NS + "button")],
            "live": [[e.get("role", ""), e.get("aria-live")] for e in form.iter()
                     if e.get("aria-live") is not None]}


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=True)
    tree = parser.parse(data)
    errors = []
    for (line, col), code, datavars in parser.errors:
        errors.append("%d:%d: %s %s" % (line, col, code, json.dumps(datavars)))
    ids = {e.get("id") for e in tree.iter() if e.get("id")}
    out = {"errors": errors, "headings": [], "nav": [], "views": {}, "quizzes": {},
           "folds": [], "svg": 0, "fetches": [], "links": [], "handlers": [], "scripts": [],
           "policy": "", "quiz_forms": []}
    for meta in tree.iter(NS + "meta"):
        if meta.get("http-equiv", "").lower() == "content-security-policy":
            out["policy"] = meta.get("content", "")
    main_element = tree.find(".//%smain" % NS)
    for e in main_element.iter():
        name = local(e.tag)
        if re.fullmatch(r"h[1-6]", name) and e.tag.startswith(NS):
            out["headings"].append([int(name[1]), text_of(e)])
    nav = tree.find(".//%snav" % NS)
    if nav is not None:
        for a in nav.iter(NS + "a"):
            href = a.get("href", "")
            out["nav"].append([text_of(a), href.startswith("#") and href[1:] in ids])
    for section in tree.iter(NS + "section"):
        cell = section.get("id", "")
        views = [fig.get("data-view") for fig in section.iter(NS + "figure")]
        out["views"][cell] = views
        answers = [d for d in section.iter(NS + "details") if d.get("class") == "answer"]
        out["quizzes"][cell] = len(answers)
        for form in section.iter(NS + "form"):
            if "quiz-form" in (form.get("class") or "").split():
                out["quiz_forms"].append(quiz_form(cell, form))
    for d in tree.iter(NS + "details"):
        if d.get("class") == "sample-answer":
            summary = d.find(NS + "summary")
            out["folds"].append(text_of(summary) if summary is not None else "")
    for e in tree.iter():
        name = local(e.tag)
        if name == "svg":
            out["svg"] += 1
        for attribute, value in e.attrib.items():
            attribute_name = local(attribute)
            if attribute_name.lower().startswith("on"):
                out["handlers"].append("%s %s" % (name, attribute_name))
            if attribute_name in ("src", "srcset", "data", "poster", "action", "formaction"):
                out["fetches"].append("%s %s=%s" % (name, attribute_name, value))
            if attribute_name == "href":
                if name == "a" and e.tag.startswith(NS):
                    if not value.startswith("#"):
                        out["links"].append(value)
                else:
                    out["fetches"].append("%s href=%s" % (name, value))
            if attribute_name == "style" and "url(" in value:
                out["fetches"].append("%s style url" % name)
        if name == "script" and e.get("src") is None:
            digest = hashlib.sha256((e.text or "").encode("utf-8")).digest()
            entry = {"type": e.get("type", ""),
                     "hash": "'sha256-%s'" % base64.b64encode(digest).decode()}
            if entry["type"] == "application/json":
                entry["text"] = e.text or ""  # the lesson's data, for the tests to read back
            out["scripts"].append(entry)
        elif name in ("link", "script", "iframe", "object", "embed", "img", "base", "frame"):
            out["fetches"].append("<%s>" % name)
        if name == "style" and e.text and re.search(r"url\(|@import", e.text):
            out["fetches"].append("<style> url or @import")
    body = tree.find(".//%sbody" % NS)
    for script in list(body.iter(NS + "script")):
        script.text = ""  # the scripts are not the page's text
    out["text"] = " ".join(t for t in body.itertext())
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])

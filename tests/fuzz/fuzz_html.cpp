// libFuzzer target: lesson → web page (exports/html/lesson_html.h). Any lesson that reads and
// computes without errors is made into its page, and the page's markup is read the way a
// browser's tokenizer starts: a finding is a page where lesson text became markup, i.e. a tag
// the generator never writes (script, img, iframe, link, object, embed, form, input, base), an
// event handler attribute (on…=), a src attribute, a link to anything but #…, http(s): or
// mailto: (javascript:, data:, a file beside the page), a style that fetches (url( in a style
// attribute), or a second style sheet past the page's head. The full
// property (the page parses as HTML5 with no error, nothing fetches) is test_lesson_html's, with
// html5lib; this target checks the lexical part of it in process, fast enough to fuzz.
#include "exports/html/lesson_html.h"

#include "tests/fuzz/fuzz_lesson.h"

#include <QtGui/QGuiApplication>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// The figures are painted with Qt's fonts: a GUI application, offscreen, made once.
void startGui() {
    static int argc = 1;
    static char name[] = "fuzz_html";
    static char* argv[] = {name, nullptr};
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static QGuiApplication app(argc, argv);
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// Whether a link's address is one docs/web-page.md lets prose link to: a place on the page (#…)
// or a page the reader opens by choice (http:, https:, mailto:). Following a link is the
// reader's own act, not a load: the page's policy forbids loads, not links.
bool hrefStaysSafe(std::string_view value) {
    for (const std::string_view allowed : {"#", "http:", "https:", "mailto:"}) {
        if (value.starts_with(allowed)) {
            return true;
        }
    }
    return false;
}

// Whether one tag (the text between < and >) is one the generator may write: its name is not
// one that loads or runs anything, and no attribute is an event handler, a source, a link out
// of the page or a style that fetches. Attribute values are skipped as a browser skips them.
bool tagIsSafe(std::string_view tag) {
    const std::string text = lower(tag);
    size_t at = text[0] == '/' ? 1 : 0;
    const size_t nameEnd = std::min(text.find_first_of(" \t\n\r\f/", at), text.size());
    const std::string name = text.substr(at, nameEnd - at);
    for (const char* forbidden :
         {"script", "img", "iframe", "link", "object", "embed", "form", "input", "base", "image",
          "foreignobject", "use", "audio", "video", "source", "frame", "style", "meta"}) {
        if (name == forbidden) {
            return false;
        }
    }
    at = nameEnd;
    const auto isSpace = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (at < text.size()) {
        while (at < text.size() && (isSpace(text[at]) || text[at] == '/')) {
            ++at;
        }
        const size_t attributeStart = at;
        while (at < text.size() && !isSpace(text[at]) && text[at] != '=' && text[at] != '/') {
            ++at;
        }
        const std::string attribute = text.substr(attributeStart, at - attributeStart);
        std::string value;
        if (at < text.size() && text[at] == '=') {
            ++at;
            const char quote = at < text.size() ? text[at] : ' ';
            if (quote == '"' || quote == '\'') {
                const size_t close = text.find(quote, at + 1);
                if (close == std::string::npos) {
                    return false; // a value left open
                }
                value = text.substr(at + 1, close - at - 1);
                at = close + 1;
            } else {
                const size_t start = at;
                while (at < text.size() && !isSpace(text[at])) {
                    ++at;
                }
                value = text.substr(start, at - start);
            }
        }
        if (attribute.rfind("on", 0) == 0 || attribute == "src" || attribute == "srcset" ||
            attribute == "xlink:href" || attribute == "action" || attribute == "formaction" ||
            (attribute == "href" && !hrefStaysSafe(value)) ||
            (attribute == "style" && value.find("url(") != std::string::npos)) {
            return false;
        }
    }
    return true;
}

// The generator's own controls of a live page (html_live.h, html_cell_controls.h,
// html_quiz_form.h): a cell's what-if form and its fields (the mask switch, the scale's divisor,
// the temperature's slider and number, the words to generate, a matrix's entries), a quiz's
// form, its radio buttons and its number field, which lesson text cannot write (a lesson's
// `<form` shows as text).
bool generatorsOwnControl(std::string_view tag) {
    return tag.starts_with("form class=\"what-ifs\" data-cell=\"") || tag == "/form" ||
           tag.starts_with("input type=\"text\" id=\"what-if-") ||
           tag.starts_with("input type=\"checkbox\" role=\"switch\" id=\"what-if-") ||
           tag.starts_with("input type=\"number\" class=\"narrow\" data-field=\"divisor\"") ||
           tag.starts_with("input type=\"range\" data-field=\"temperature-slider\"") ||
           tag.starts_with("input type=\"number\" class=\"narrow\" id=\"what-if-") ||
           tag.starts_with("input type=\"number\" step=\"any\" data-row=\"") ||
           tag.starts_with("form class=\"quiz-form\" data-quiz=\"") ||
           tag.starts_with("input type=\"radio\" name=\"quiz-") ||
           tag.starts_with("input type=\"text\" id=\"quiz-");
}

// The live page's scripts end the body (docs/web-page.md): the lesson as JSON, with no `<` in
// it (written as \u003c), then the module and the page script, which are this build's, not
// the lesson's. Returns where they start (the page's length when it has none), or npos when
// they are not as the generator writes them.
size_t liveScriptsStart(const std::string& page) {
    const size_t data = page.find("<script type=\"application/json\" id=\"attnbook-lesson\">");
    if (data == std::string::npos) {
        return page.find("<script") == std::string::npos ? page.size() : std::string::npos;
    }
    const size_t dataEnd = page.find("</script>", data);
    const size_t json = page.find('>', data) + 1;
    if (dataEnd == std::string::npos || page.find('<', json) != dataEnd ||
        page.find("</main>") > data) {
        return std::string::npos;
    }
    return data;
}

// Every tag of the page past its head (whose meta tags and one style sheet the generator
// writes) and before its live scripts, outside comments.
bool pageIsSafe(const std::string& page) {
    const size_t headEnd = page.find("</head>");
    const size_t scripts = liveScriptsStart(page);
    if (headEnd == std::string::npos || scripts == std::string::npos) {
        return false;
    }
    const std::string body = page.substr(0, scripts);
    size_t at = headEnd + 7;
    while ((at = body.find('<', at)) != std::string::npos) {
        if (body.compare(at, 4, "<!--") == 0) {
            at = body.find("-->", at);
            if (at == std::string::npos) {
                return false;
            }
            continue;
        }
        const size_t close = body.find('>', at);
        if (close == std::string::npos) {
            return false;
        }
        const std::string_view tag = std::string_view(body).substr(at + 1, close - at - 1);
        if (!generatorsOwnControl(tag) && !tagIsSafe(tag)) {
            return false;
        }
        at = close + 1;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool ready = (attnbook::fuzz::setFuzzLimits(), startGui(), true);
    (void)ready;
    using namespace attnbook;
    const fuzz::ComputedInput input = fuzz::computedLesson(data, size);
    if (!input.clean) {
        return 0;
    }
    QByteArray page;
    if (!renderLessonHtml(input.lesson, input.results, &page).ok()) {
        return 0;
    }
    if (!pageIsSafe(page.toStdString())) {
        std::abort(); // lesson text became markup
    }
    return 0;
}

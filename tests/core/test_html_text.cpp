// The one way text enters the web page's HTML (core/present/html_text.h): the five characters
// that could make markup, and the characters and bytes an HTML document may not hold.
#include "core/present/html_text.h"

#include "test_support.h"

using namespace attnbook;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";

} // namespace

TEST_CASE("htmlText writes the characters that could make markup as references") {
    CHECK_EQ(htmlText("<script>alert('x')</script>"),
             "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    CHECK_EQ(htmlText("a \"b\" & c"), "a &quot;b&quot; &amp; c");
    CHECK_EQ(htmlText("&amp;"), "&amp;amp;"); // a reference in the text stays text
    CHECK_EQ(htmlText(""), "");
    // what HTML allows passes as it is: tab, line breaks, accents, U+2028, four-byte emoji
    const std::string allowed = "\tx\r\n\f é ∞ \xE2\x80\xA8 \xF0\x9F\x98\x80";
    CHECK_EQ(htmlText(allowed), allowed);
}

TEST_CASE("htmlValidText replaces what an HTML document may not hold, and nothing else") {
    CHECK_EQ(htmlValidText("<b>"), "<b>"); // markup stays markup here
    CHECK_EQ(htmlValidText(std::string("a\0b", 3)), "a" + kFffd + "b");
    CHECK_EQ(htmlValidText("\x01\x1F\x7F"), kFffd + kFffd + kFffd);
    CHECK_EQ(htmlValidText("\xC2\x85"), kFffd);         // U+0085, a C1 control
    CHECK_EQ(htmlValidText("\xEF\xBF\xBE"), kFffd);     // U+FFFE, a noncharacter
    CHECK_EQ(htmlValidText("\xEF\xB7\x90"), kFffd);     // U+FDD0
    CHECK_EQ(htmlValidText("\xF4\x8F\xBF\xBF"), kFffd); // U+10FFFF
    // bytes that are not UTF-8: each bad byte one U+FFFD
    CHECK_EQ(htmlValidText("\xC0\xAF"), kFffd + kFffd);             // overlong '/'
    CHECK_EQ(htmlValidText("\xED\xA0\x80"), kFffd + kFffd + kFffd); // a surrogate
    CHECK_EQ(htmlValidText("\xE2\x82"), kFffd + kFffd);             // cut short
    CHECK_EQ(htmlValidText("\xF5\x80\x80\x80x"), kFffd + kFffd + kFffd + kFffd + "x");
    CHECK_EQ(htmlValidText("\x80x"), kFffd + "x");
    CHECK_EQ(htmlText("\xE2<"), kFffd + "&lt;"); // a cut sequence does not swallow the '<'
}

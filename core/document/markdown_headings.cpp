#include "core/document/markdown_headings.h"

#include <cmark.h>

#include <memory>

namespace attnbook {

std::string cmarkHeadingText(cmark_node* heading) {
    std::string out;
    cmark_iter* iter = cmark_iter_new(heading);
    cmark_event_type event;
    while ((event = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        cmark_node* node = cmark_iter_get_node(iter);
        if (event != CMARK_EVENT_ENTER) {
            continue;
        }
        const cmark_node_type type = cmark_node_get_type(node);
        if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) {
            out += cmark_node_get_literal(node);
        } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
            out += ' ';
        }
    }
    cmark_iter_free(iter);
    return out;
}

std::vector<MarkdownHeading> markdownHeadings(std::string_view markdown) {
    const std::unique_ptr<cmark_node, decltype(&cmark_node_free)> root(
        cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT),
        &cmark_node_free);
    std::vector<MarkdownHeading> headings;
    // Headings sit at the top level or inside block quotes and list items: every node is
    // visited.
    cmark_iter* iter = cmark_iter_new(root.get());
    cmark_event_type event;
    while ((event = cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        cmark_node* node = cmark_iter_get_node(iter);
        if (event == CMARK_EVENT_ENTER && cmark_node_get_type(node) == CMARK_NODE_HEADING) {
            headings.push_back({cmark_node_get_heading_level(node), cmarkHeadingText(node),
                                cmark_node_get_start_line(node)});
        }
    }
    cmark_iter_free(iter);
    return headings;
}

} // namespace attnbook

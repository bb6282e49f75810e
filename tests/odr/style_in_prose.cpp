// One of two translation units that define attnbook::ProseStyle differently, as
// app/models/prose_format.h and exports/paint/pdf_prose.h once did. The ODR check must
// refuse to link them.
namespace attnbook {
struct ProseStyle {
    int fontSize;
    bool dark;
};
int proseFontSize(const ProseStyle& style) {
    return style.fontSize;
}
} // namespace attnbook

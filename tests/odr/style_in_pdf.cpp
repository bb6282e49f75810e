// The other definition of attnbook::ProseStyle (see style_in_prose.cpp).
namespace attnbook {
struct ProseStyle {
    double pointSize;
    int margin;
    int columns;
};
int proseFontSize(const ProseStyle& style);
int pdfMargin(const ProseStyle& style) {
    return style.margin;
}
} // namespace attnbook

int main() {
    const attnbook::ProseStyle style{11.0, 2, 1};
    return attnbook::pdfMargin(style) + attnbook::proseFontSize(style) > 0 ? 0 : 1;
}

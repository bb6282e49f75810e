#pragma once
// What each view of a cell is called wherever a reader sees it: the window's section titles and
// tabs, the paper's figure titles, the web page's figure labels. One table for every cell kind,
// so that the window and the paper never name one view two ways.

#include <string>

namespace attnbook {

// "Heatmap of the shares" for "heatmap", …; a view the table does not know, as it is named.
std::string viewTitle(const std::string& view);

} // namespace attnbook

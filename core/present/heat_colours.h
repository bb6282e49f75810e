#pragma once
// The colours of the heatmaps and their legend, without Qt, in one place so that the squares
// and the scale always agree, in the window, on paper and on the web page. Shares (0 … 1) use
// one hue that grows stronger with the share; a change against the authored cell uses two
// hues, blue for less and red for more, around a neutral middle.

#include <string>

namespace attnbook {

struct Rgb {
    int red = 0;
    int green = 0;
    int blue = 0;
};

// t in [0, 1]: 0 is no share, 1 all of it (anything else, NaN too, counts as 0 or 1).
Rgb shareColour(double t, bool dark = false);
// t in [−1, 1]: the signed change relative to the largest change shown.
Rgb changeColour(double t, bool dark = false);
// Near-black or near-white text, whichever reads on `background`.
Rgb textOn(Rgb background);
// "#rrggbb", for CSS.
std::string cssColour(Rgb colour);

} // namespace attnbook

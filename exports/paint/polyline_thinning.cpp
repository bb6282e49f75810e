#include "exports/paint/polyline_thinning.h"

#include <cmath>
#include <cstdint>

namespace attnbook {

std::vector<QPointF> thinnedPolyline(const std::vector<QPointF>& points, double columnWidth) {
    if (points.size() <= 4 || !(columnWidth > 0)) {
        return points;
    }
    std::vector<QPointF> out;
    size_t first = 0; // the first point of the column being read
    while (first < points.size()) {
        const int64_t column = int64_t(std::floor(points[first].x() / columnWidth));
        size_t last = first, lowest = first, highest = first;
        while (last + 1 < points.size() &&
               int64_t(std::floor(points[last + 1].x() / columnWidth)) == column) {
            ++last;
            lowest = points[last].y() < points[lowest].y() ? last : lowest;
            highest = points[last].y() > points[highest].y() ? last : highest;
        }
        // The four kept in the order the line passes them (no point twice).
        size_t kept[4] = {first, std::min(lowest, highest), std::max(lowest, highest), last};
        size_t previous = SIZE_MAX;
        for (const size_t k : kept) {
            if (k != previous) {
                out.push_back(points[k]);
                previous = k;
            }
        }
        first = last + 1;
    }
    return out;
}

} // namespace attnbook

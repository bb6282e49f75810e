// The timing helpers of window_bench_timing.h.
#include "bench/window_bench_timing.h"

#include <algorithm>
#include <ctime>
#include <vector>

namespace attnbook::window_bench {

Stats stats(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace attnbook::window_bench

#include "app/window/blas_threads.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace attnbook {

void leaveOneCoreToTheGuiThread() {
    if (std::getenv("OPENBLAS_NUM_THREADS")) {
        return; // the user's choice
    }
    // Looked up rather than linked: Armadillo reaches OpenBLAS through libblas.so.3, which
    // Debian's alternatives may point at another BLAS.
    using SetThreads = void (*)(int);
    const auto setThreads =
        reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (!setThreads) {
        return;
    }
    const int cores = int(std::thread::hardware_concurrency());
    setThreads(std::max(1, cores - 1));
}

} // namespace attnbook

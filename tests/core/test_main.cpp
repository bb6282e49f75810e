// The one main of every test of core/: doctest's, which runs the test cases of the file it is
// linked with and exits non-zero when a check fails.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

// The one main of the tests of core/ (core_tests): doctest's, which runs the test cases of the
// files chosen by --source-file (every file without it) and exits non-zero when a check fails.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

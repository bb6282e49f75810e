// attnbook_test_headers: the target whose precompiled header (Armadillo, Qt) every Qt
// test executable takes (tests/CMakeLists.txt). It runs nothing.
int main() {
    return 0;
}

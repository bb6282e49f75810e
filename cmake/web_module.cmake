# The live web page's module (web/CMakeLists.txt, docs/web-page.md): the Qt-free core compiled
# to WebAssembly by Debian's emscripten in a tree of its own, build/web, which this build drives
# and whose one output, attnbook_core.js, exports/html embeds. Off by default: it needs
# emscripten and the Debian sources of five libraries (scripts/web-sources.sh), which
# scripts/setup.sh --web installs and fetches.
option(ATTNBOOK_WEB "Build the live web page's WebAssembly module (emscripten)" OFF)
set(ATTNBOOK_WEB_SOURCES "${PROJECT_BINARY_DIR}/web-sources" CACHE PATH
    "The Debian sources scripts/web-sources.sh fetched")
set(ATTNBOOK_WEB_MODULE ${PROJECT_BINARY_DIR}/web/attnbook_core.js)
if(ATTNBOOK_WEB)
  find_program(ATTNBOOK_EMCMAKE emcmake REQUIRED)
  include(ExternalProject)
  # Debian's emscripten runs /usr/bin/node, which must find node-acorn there.
  set(web_env ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
  # emcc puts ccache before each clang it runs (its COMPILER_WRAPPER setting), so a second
  # clone builds the module from the cache as it builds the native objects (CCACHE_BASEDIR,
  # which scripts/setup.sh sets, makes the paths relative).
  find_program(ATTNBOOK_CCACHE ccache)
  if(ATTNBOOK_CCACHE)
    list(APPEND web_env EM_COMPILER_WRAPPER=${ATTNBOOK_CCACHE})
  endif()
  ExternalProject_Add(attnbook_web
    SOURCE_DIR ${PROJECT_SOURCE_DIR}/web
    BINARY_DIR ${PROJECT_BINARY_DIR}/web
    CONFIGURE_COMMAND ${web_env} ${ATTNBOOK_EMCMAKE} ${CMAKE_COMMAND} -S <SOURCE_DIR>
                      -B <BINARY_DIR> -G Ninja -DCMAKE_BUILD_TYPE=Release
                      -DATTNBOOK_WEB_SOURCES=${ATTNBOOK_WEB_SOURCES}
    # Two jobs at most: it shares the machine with the native build.
    BUILD_COMMAND ${web_env} ${CMAKE_COMMAND} --build <BINARY_DIR> -j 2
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${ATTNBOOK_WEB_MODULE})
endif()

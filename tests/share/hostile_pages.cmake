# [hostile-2] pages and exports made from crafted runs (test_hostile_pages.py): real runs of
# scripts whose names, comments and messages hold markup, `</script>`, `]]>`, control and bidi
# characters and a 200 KB message, and a crafted import renaming every node; `run --html`,
# `library html`, `library diff --html` opened in headless Chromium (nothing runs, nothing
# becomes markup, controls shown as escapes, zero console errors), JUnit against junit-10.xsd,
# Model Explorer's dataclasses and Graphviz read the exports, the terminal gets no control byte.
add_test(NAME share_hostile_pages
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_hostile_pages.py)
set_tests_properties(share_hostile_pages PROPERTIES TIMEOUT 300 LABELS "share;hostile"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV};PS_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

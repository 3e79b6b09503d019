# tests/support/cdp_pipe.py, the headless-Chromium client the browser tests of [share] drive pages
# with: real pages in a real Chromium (skips with a message when Debian's chromium is missing).
add_test(NAME share_cdp_pipe
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_cdp_pipe.py)
set_tests_properties(share_cdp_pipe PROPERTIES TIMEOUT 180 LABELS "share"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV}")

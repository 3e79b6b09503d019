# [share] the one-file HTML report (engine/share/HtmlReport, page/report.js): the real binary writes
# the pages of real runs (a violation, a clean run, a resnet18 training step on inductor: the
# minute-long one) with `run --html`, `library html` and `library diff --html`; headless Chromium
# opens each (tests/support/cdp_pipe.py) and the test reads what it drew. Skips its browser part
# with a message when Debian's chromium is missing.
add_test(NAME share_html_report
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -s -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_html_report.py)
set_tests_properties(share_html_report PROPERTIES TIMEOUT 1200 LABELS "share"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV}")

# [share] the graph for Model Explorer and Graphviz (`library export-graph`, engine/share/
# ModelExplorerGraph and DotGraph). The unit tests read the real captures under
# tests/fixtures/graphs; test_export_graph.py exports stored runs with the real binary and has
# Graphviz (nop, gc, dot) and Model Explorer (its dataclasses, strictly, and its own web app in
# headless Chromium) read them.
set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/ModelExplorerGraphTest.cpp ${CMAKE_CURRENT_SOURCE_DIR}/DotGraphTest.cpp
             APPEND PROPERTY COMPILE_DEFINITIONS PS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
add_test(NAME share_export_graph
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_export_graph.py)
set_tests_properties(share_export_graph PROPERTIES TIMEOUT 300 LABELS "share"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV};PS_SOURCE_DIR=${CMAKE_SOURCE_DIR}")

# [share] the graph panel of the HTML report (engine/share/PageGraph, page/graph.js, engine.wasm).
# PageGraphTest reads the real captures under tests/fixtures/graphs.
set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/PageGraphTest.cpp APPEND PROPERTY COMPILE_DEFINITIONS
             PS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")

# engine_probe: the page's engine entry built natively, the reference the wasm's layouts are
# compared with (test_graph_page.py).
add_executable(engine_probe ${CMAKE_CURRENT_SOURCE_DIR}/EngineProbe.cpp
                            ${PROJECT_SOURCE_DIR}/engine/share/wasm/EngineEntry.cpp)
target_link_libraries(engine_probe PRIVATE ps_share ps_graph)

# The graph panel in headless Chromium on real captures, each layout compared with engine_probe.
add_test(NAME share_graph_page
    COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/test_graph_page.py)
set_tests_properties(share_graph_page PROPERTIES TIMEOUT 300 LABELS "share"
    ENVIRONMENT "PYTHONPATH=${CMAKE_SOURCE_DIR}/tests/support;PS_STUDIO=${CMAKE_BINARY_DIR}/bin/precompile-studio;PS_TEST_ENV=${PS_TEST_ENV};PS_ENGINE_PROBE=$<TARGET_FILE:engine_probe>;PS_ENGINE_WASM=${PS_ENGINE_WASM}")
add_dependencies(engine_probe ps_engine_wasm)

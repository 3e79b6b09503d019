# engine/share's unit tests: every *Test.cpp in tests/share/ in one gtest executable.
file(GLOB _ps_share_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*Test.cpp)
add_executable(share_tests ${_ps_share_tests})
target_link_libraries(share_tests PRIVATE ps_share GTest::gtest_main)
ps_discover_tests(share_tests share)

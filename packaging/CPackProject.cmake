# Included by cpack when it runs (CPACK_PROJECT_CONFIG_FILE): the package's version from
# `git describe`, and the changelog.Debian.gz of that version.
#   a tag vX.Y.Z on HEAD             -> X.Y.Z
#   N commits after the tag vX.Y.Z    -> X.Y.Z+N.gHASH
#   no tag                            -> <project version>+gitN.gHASH (N: commits in HEAD)
#   no git (a source tarball)         -> <project version>
set(_ps_version ${CPACK_PS_BASE_VERSION})
set(_ps_date "Thu, 01 Jan 2026 00:00:00 +0000")
find_program(_ps_git git)
if(_ps_git AND EXISTS ${CPACK_PS_SOURCE_DIR}/.git)
    execute_process(COMMAND ${_ps_git} -C ${CPACK_PS_SOURCE_DIR} describe --tags --match "v[0-9]*" --long
                    OUTPUT_VARIABLE _ps_describe RESULT_VARIABLE _ps_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_ps_rc EQUAL 0 AND _ps_describe MATCHES "^v([0-9][^-]*)-([0-9]+)-g([0-9a-f]+)$")
        if(CMAKE_MATCH_2 EQUAL 0)
            set(_ps_version ${CMAKE_MATCH_1})
        else()
            set(_ps_version "${CMAKE_MATCH_1}+${CMAKE_MATCH_2}.g${CMAKE_MATCH_3}")
        endif()
    else()
        execute_process(COMMAND ${_ps_git} -C ${CPACK_PS_SOURCE_DIR} rev-list --count HEAD
                        OUTPUT_VARIABLE _ps_count RESULT_VARIABLE _ps_rc1 OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        execute_process(COMMAND ${_ps_git} -C ${CPACK_PS_SOURCE_DIR} rev-parse --short=9 HEAD
                        OUTPUT_VARIABLE _ps_hash RESULT_VARIABLE _ps_rc2 OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(_ps_rc1 EQUAL 0 AND _ps_rc2 EQUAL 0)
            set(_ps_version "${CPACK_PS_BASE_VERSION}+git${_ps_count}.g${_ps_hash}")
        endif()
    endif()
    execute_process(COMMAND ${_ps_git} -C ${CPACK_PS_SOURCE_DIR} log -1 --format=%aD
                    OUTPUT_VARIABLE _ps_gitdate RESULT_VARIABLE _ps_rc3 OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_ps_rc3 EQUAL 0 AND _ps_gitdate)
        set(_ps_date "${_ps_gitdate}")
    endif()
endif()
set(CPACK_PACKAGE_VERSION ${_ps_version})
set(CPACK_DEBIAN_PACKAGE_VERSION ${_ps_version})
message(STATUS "precompile-studio package version ${_ps_version}-${CPACK_DEBIAN_PACKAGE_RELEASE}")

# The Debian changelog of this one version (lintian wants one, compressed with gzip -9n).
set(_ps_changelog ${CPACK_PS_BINARY_DIR}/packaging/changelog.Debian)
file(WRITE ${_ps_changelog}
"precompile-studio (${_ps_version}-${CPACK_DEBIAN_PACKAGE_RELEASE}) unstable; urgency=medium

  * Built from the project's sources by make deb; the history is the git log.

 -- ${CPACK_PACKAGE_CONTACT}  ${_ps_date}
")
execute_process(COMMAND gzip -9nf ${_ps_changelog} RESULT_VARIABLE _ps_gz)
if(NOT _ps_gz EQUAL 0)
    message(FATAL_ERROR "cannot compress ${_ps_changelog}")
endif()

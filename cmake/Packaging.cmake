# The Debian package (`make deb`): install rules for the installed layout that
# engine/install/InstallLayout finds, and CPack's DEB generator. CPack rather than debhelper:
# the build is CMake already, CPack packs exactly what these install rules say and runs
# dpkg-shlibdeps for the Depends, with no debian/ tree of rules and no second build.
include(GNUInstallDirs)

set(PS_PACKAGE_NAME precompile-studio)
set(_ps_lib_dir lib/${PS_PACKAGE_NAME})
set(_ps_share_dir ${CMAKE_INSTALL_DATADIR}/${PS_PACKAGE_NAME})

install(TARGETS precompile-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# A worker per torch series the build was configured with (`make test`'s build has both).
foreach(_id ${PS_TORCH_IDS})
    install(TARGETS precompile-studio-worker-${PS_TORCH_SERIES_${_id}} RUNTIME DESTINATION ${_ps_lib_dir})
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/engine/python/precompile_studio DESTINATION ${_ps_lib_dir}/python
        PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/resources/examples ${CMAKE_SOURCE_DIR}/resources/lessons
        DESTINATION ${_ps_share_dir} PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
# What `precompile-studio setup` installs (the environment's folder is keyed by its hash):
# requirements.txt for the default torch, requirements-torchX.Y.txt for `setup --torch X.Y.Z`.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/requirements.txt ${CMAKE_SOURCE_DIR}/packaging/requirements-torch2.14.txt
        DESTINATION ${_ps_share_dir})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/precompile-studio.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_SOURCE_DIR}/ui/icons/precompile-studio.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/precompile-studio.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo RENAME io.github.precompile_studio.PrecompileStudio.metainfo.xml)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${PS_PACKAGE_NAME})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME ${PS_PACKAGE_NAME})

# The man page, precompile-studio(1), from the command's own --help and its subcommands'
# (packaging/man-page.sh: help2man), so that it cannot drift from the CLI.
find_program(PS_HELP2MAN help2man)
set(PS_MAN_PAGE ${CMAKE_BINARY_DIR}/packaging/precompile-studio.1.gz)
if(PS_HELP2MAN)
    add_custom_command(OUTPUT ${PS_MAN_PAGE}
        COMMAND bash ${CMAKE_SOURCE_DIR}/packaging/man-page.sh $<TARGET_FILE:precompile-studio> ${PS_MAN_PAGE}
        DEPENDS precompile-studio ${CMAKE_SOURCE_DIR}/packaging/man-page.sh
        COMMENT "Generating the man page precompile-studio(1) from --help")
    add_custom_target(ps_man_page ALL DEPENDS ${PS_MAN_PAGE})
    install(FILES ${PS_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
# changelog.Debian.gz is written at package time (packaging/CPackProject.cmake), with the version.
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${PS_PACKAGE_NAME} OPTIONAL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${PS_PACKAGE_NAME})
set(CPACK_PACKAGE_VENDOR "The Precompile Studio authors")
set(CPACK_PACKAGE_CONTACT "Precompile Studio maintainers <maintainers@precompile-studio.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for torch.compiler.precompile")
# The extended description (CPack puts the summary above it, and a space before each line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Precompile Studio runs torch.compiler.precompile on a Python script in a
worker process with an embedded CPython and shows the captured graph, the
generated python_code, the contract's violations, the verification against
eager and the cache. Every run is kept in a library to compare, export and
reload.
.
The torch environment is not in this package: each user makes it once with
precompile-studio setup, or from the window on its first start.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Depends: what the binaries link, computed by dpkg-shlibdeps (Qt 6, QScintilla, sqlite, zstd,
# OpenSSL, libpq, libpython3.11, ...), plus what runs them: the interpreter and venv that
# `setup` makes the environment with, and what inductor compiles CPU kernels with (g++, Python.h).
# LibTorch is the per-user environment's (LD_LIBRARY_PATH at the worker's start), so its folder
# is named as private for dpkg-shlibdeps, which then asks no package for it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
file(GLOB _ps_private_dirs LIST_DIRECTORIES true "${PS_TORCH_DIR}/lib" "${PS_TORCH_DIR}/../nvidia/*/lib")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_ps_private_dirs})
set(_ps_python python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_ps_python}, ${_ps_python}-venv, ${_ps_python}-dev, g++")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "graphviz, openssh-client")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://precompile-studio.invalid/")
# The version is worked out when cpack runs (git describe), not when CMake configured.
set(CPACK_PS_SOURCE_DIR ${CMAKE_SOURCE_DIR})
set(CPACK_PS_BINARY_DIR ${CMAKE_BINARY_DIR})
set(CPACK_PS_BASE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_SOURCE_DIR}/packaging/CPackProject.cmake)
set(CPACK_OUTPUT_FILE_PREFIX ${CMAKE_BINARY_DIR}/packaging)
include(CPack)

# cmake/dgpbInstall.cmake - what `cmake --install` lays out (docs/install.md):
#
#   bin/                        dgpb-build, dgpb-dump, dgpb-run, dgpb-slang-layout
#   lib/                        libdgpb_reader.a, libdgpb_code.a, libdgpb.a, libdgpb_run.a
#                               (static), libdgpb-slang-shim.so
#   lib/pkgconfig/              dgpb_reader.pc, dgpb_code.pc, dgpb.pc, dgpb_run.pc
#   lib/cmake/dgpb/             the CMake package: find_package(dgpb CONFIG),
#                               dgpb::reader, dgpb::code, dgpb::dgpb, dgpb::dgpb_run,
#                               dgpb_add_shader_bundle()
#   include/dgpb/               the public headers
#   lib/dgpb/slang/             the set-up's native Slang (deps/slang/lib: the default
#                               compiler), with its LICENSE and VERSION
#   share/dgpb/slangc-wasm/     the embedded Slang compiler with its npm packages
#   share/dgpb/bazel/           the Bazel rules: dgpb_bundle, dgpb_installation (docs/bazel.md)
#   share/man/man1/             the programs' manual pages
#
# The directories are GNUInstallDirs' (CMAKE_INSTALL_BINDIR and the others).
include(CMakePackageConfigHelpers)

set(DGPB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dgpb
    CACHE STRING "Where the CMake package goes, under the prefix")
option(DGPB_INSTALL_EMBEDDED_COMPILER
       "Install the embedded Slang compiler (tools/slangc-wasm, after npm ci) into share/dgpb" ON)
option(DGPB_INSTALL_NATIVE_SLANG
       "Install the set-up's native Slang (deps/slang, after tools/setup.sh) into lib/dgpb/slang" ON)

# The names an installed project uses, for a project that adds this one as a subdirectory.
set_target_properties(dgpb_reader PROPERTIES EXPORT_NAME reader)
add_library(dgpb::reader ALIAS dgpb_reader)
set_target_properties(dgpb_code PROPERTIES EXPORT_NAME code)
add_library(dgpb::code ALIAS dgpb_code)
add_library(dgpb::dgpb ALIAS dgpb)
add_library(dgpb::dgpb_run ALIAS dgpb_run)
add_executable(dgpb::dgpb-build ALIAS dgpb-build)
add_executable(dgpb::dgpb-dump ALIAS dgpb-dump)
add_executable(dgpb::dgpb-run ALIAS dgpb-run)
add_executable(dgpb::dgpb-slang-layout ALIAS dgpb-slang-layout)

# An installed dgpb-build finds the embedded compiler at this path relative to
# its own folder (tools/dgpb-build/main.c).
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_DATADIR}")
  message(FATAL_ERROR "dgpb: CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DATADIR must be relative to "
                      "the prefix (an installed dgpb-build finds share/dgpb from bin/)")
endif()
file(RELATIVE_PATH dgpb_data_from_bin /prefix/${CMAKE_INSTALL_BINDIR}
     /prefix/${CMAKE_INSTALL_DATADIR}/dgpb)
file(RELATIVE_PATH dgpb_slang_from_bin /prefix/${CMAKE_INSTALL_BINDIR}
     /prefix/${CMAKE_INSTALL_LIBDIR}/dgpb/slang)
target_compile_definitions(dgpb-build PRIVATE DGPB_DATA_FROM_BIN="${dgpb_data_from_bin}"
                                              DGPB_SLANG_FROM_BIN="${dgpb_slang_from_bin}")

# The programs have an export file of their own: a host that links only the reader still
# builds its bundles with dgpb_add_shader_bundle().
install(TARGETS dgpb-build dgpb-dump dgpb-run dgpb-slang-layout EXPORT dgpbProgramTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The reader library has an export file of its own: a host that only reads bundles needs
# libcrypto and nothing of the producer's (cJSON, libcurl, hiredis, SPIRV-Tools, libstdc++).
install(TARGETS dgpb_reader EXPORT dgpbReaderTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The code readers (SPIR-V, WGSL, PTX), which the producer and the runner share; SPIRV-Tools.
install(TARGETS dgpb_code EXPORT dgpbCodeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS dgpb EXPORT dgpbTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The runner library has an export file of its own: a project without Vulkan
# still finds dgpb::dgpb.
install(TARGETS dgpb_run EXPORT dgpbRunTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The replay shim a native host links in place of libslang (docs/host.md).
install(TARGETS dgpb-slang-shim LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/dgpb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h"
        PATTERN "*.def")

# pkg-config: relocatable (every path relative to the .pc file's folder).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "dgpb: CMAKE_INSTALL_LIBDIR must be relative to the prefix")
endif()
file(RELATIVE_PATH DGPB_PC_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" DGPB_PC_PREFIX "${DGPB_PC_PREFIX}")
get_filename_component(DGPB_PC_SPIRV_TOOLS ${SPIRV_TOOLS_LIBRARY} NAME_WE)
string(REGEX REPLACE "^lib" "" DGPB_PC_SPIRV_TOOLS "${DGPB_PC_SPIRV_TOOLS}")
configure_file(cmake/dgpb_reader.pc.in ${PROJECT_BINARY_DIR}/dgpb_reader.pc @ONLY)
configure_file(cmake/dgpb_code.pc.in ${PROJECT_BINARY_DIR}/dgpb_code.pc @ONLY)
configure_file(cmake/dgpb.pc.in ${PROJECT_BINARY_DIR}/dgpb.pc @ONLY)
configure_file(cmake/dgpb_run.pc.in ${PROJECT_BINARY_DIR}/dgpb_run.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dgpb_reader.pc ${PROJECT_BINARY_DIR}/dgpb_code.pc
              ${PROJECT_BINARY_DIR}/dgpb.pc
              ${PROJECT_BINARY_DIR}/dgpb_run.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The CMake package.
get_filename_component(DGPB_SPIRV_TOOLS_NAME ${SPIRV_TOOLS_LIBRARY} NAME)
get_filename_component(DGPB_SPIRV_TOOLS_HINT ${SPIRV_TOOLS_LIBRARY} DIRECTORY)
configure_package_config_file(cmake/dgpbConfig.cmake.in ${PROJECT_BINARY_DIR}/dgpbConfig.cmake
                              INSTALL_DESTINATION ${DGPB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dgpbConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(EXPORT dgpbProgramTargets NAMESPACE dgpb:: DESTINATION ${DGPB_INSTALL_CMAKEDIR})
install(EXPORT dgpbReaderTargets NAMESPACE dgpb:: DESTINATION ${DGPB_INSTALL_CMAKEDIR})
install(EXPORT dgpbCodeTargets NAMESPACE dgpb:: DESTINATION ${DGPB_INSTALL_CMAKEDIR})
install(EXPORT dgpbTargets NAMESPACE dgpb:: DESTINATION ${DGPB_INSTALL_CMAKEDIR})
install(EXPORT dgpbRunTargets NAMESPACE dgpb:: DESTINATION ${DGPB_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/dgpbConfig.cmake ${PROJECT_BINARY_DIR}/dgpbConfigVersion.cmake
              cmake/dgpbShaderBundle.cmake
        DESTINATION ${DGPB_INSTALL_CMAKEDIR})

# The Bazel rules (docs/bazel.md): a repository of their own, which finds the
# installation three folders up (PREFIX/share/dgpb/bazel).
install(FILES bazel/WORKSPACE bazel/BUILD.bazel bazel/defs.bzl bazel/repositories.bzl
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dgpb/bazel)

# Manual pages.
install(FILES man/dgpb-build.1 man/dgpb-dump.1 man/dgpb-run.1 man/dgpb-slang-layout.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The embedded compiler: the script, its modules and the npm packages npm ci
# installed (Slang's WebAssembly build).
if(DGPB_INSTALL_EMBEDDED_COMPILER)
  set(dgpb_wasm ${PROJECT_SOURCE_DIR}/tools/slangc-wasm)
  set(dgpb_wasm_dest ${CMAKE_INSTALL_DATADIR}/dgpb/slangc-wasm)
  install(CODE "
    if(NOT IS_DIRECTORY \"${dgpb_wasm}/node_modules\")
      message(FATAL_ERROR \"dgpb: ${dgpb_wasm}/node_modules is missing: run 'npm ci' there \"
                          \"(tools/setup.sh does), or configure with -DDGPB_INSTALL_EMBEDDED_COMPILER=OFF\")
    endif()")
  install(PROGRAMS ${dgpb_wasm}/slangc-wasm DESTINATION ${dgpb_wasm_dest})
  install(FILES ${dgpb_wasm}/package.json ${dgpb_wasm}/package-lock.json
          DESTINATION ${dgpb_wasm_dest})
  install(DIRECTORY ${dgpb_wasm}/lib ${dgpb_wasm}/node_modules DESTINATION ${dgpb_wasm_dest}
          USE_SOURCE_PERMISSIONS)
endif()

# The native Slang of the set-up (tools/setup.sh: deps/slang, the slangpy wheel's
# libslang-compiler with its glslang and GLSL modules, Apache-2.0 WITH LLVM-exception):
# an installed dgpb-build compiles with it by default and records layouts with it.
if(DGPB_INSTALL_NATIVE_SLANG)
  set(dgpb_slang ${PROJECT_SOURCE_DIR}/deps/slang)
  install(CODE "
    if(NOT EXISTS \"${dgpb_slang}/lib/libslang.so\")
      message(FATAL_ERROR \"dgpb: ${dgpb_slang} is missing: run tools/setup.sh (it installs the \"
                          \"native Slang there), or configure with -DDGPB_INSTALL_NATIVE_SLANG=OFF\")
    endif()")
  install(DIRECTORY ${dgpb_slang}/lib/ DESTINATION ${CMAKE_INSTALL_LIBDIR}/dgpb/slang
          USE_SOURCE_PERMISSIONS)
  install(FILES ${dgpb_slang}/LICENSE ${dgpb_slang}/VERSION
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/dgpb/slang)
endif()

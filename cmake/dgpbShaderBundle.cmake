# dgpbShaderBundle.cmake - dgpb_add_shader_bundle() and dgpb_add_shader_bundles(),
# part of the CMake package (docs/install.md, "dgpb_add_shader_bundle",
# "dgpb_add_shader_bundles").
#
#   dgpb_add_shader_bundle(TARGET MODULE
#                          [TARGETS T...]        dgpb targets: spirv wgsl ptx metal dxil dxbc
#                          [OUTPUT_DIR DIR]      default: the current binary folder
#                          [DEFINES NAME[=VALUE]...]
#                          [INCLUDE_DIRS DIR...]
#                          [MATRIX_LAYOUT row|column]  --matrix-layout (default: row)
#                          [SPIRV_VERSION 1.3|1.4|1.5|1.6]  --spirv-version (default: Slang's)
#                          [CAPABILITIES NAME...]      --capability, each a Slang capability
#                          [BLOCK_LAYOUT default|scalar|gl|c]  --block-layout (default: default)
#                          [OPTIMIZATION 0|1|2|3]      --optimization (default: Slang's, 1)
#                          [DEBUG_INFO 0|1|2|3]        --debug-info (default: 0, none)
#                          [OPTIONS ARG...]      more dgpb-build arguments (--triple, --no-layouts...)
#                          [HEADER])             also DIR/<stem>.h (dgpb-build --emit-header)
#
# Runs dgpb-build on MODULE (a .slang file; relative paths are taken from the
# current source folder) to produce DIR/<stem>.dgpb and DIR/<stem>.bundle.json,
# with a depfile (dgpb-build -MF DIR/<stem>.d) that lists every file Slang
# read: an edit to the module or to anything it includes or imports rebuilds
# this bundle, and only the bundles that read that file. A new dgpb-build
# rebuilds every bundle.
#
# TARGET: when no such target exists, a custom target of that name is created
# and built by default (ALL). When it exists (an executable, a library, a
# custom target, one that an earlier call created), the bundle is added to its
# sources: building TARGET builds the bundle first. An existing TARGET must be
# defined in the folder of the call. Several bundles may join one TARGET.
#
# The bundles' paths are appended to TARGET's property DGPB_BUNDLES.
#
# MATRIX_LAYOUT, SPIRV_VERSION, CAPABILITIES, BLOCK_LAYOUT, OPTIMIZATION, DEBUG_INFO: the
# project options (docs/build.md, "Project options"), applied to every compile of the
# module and recorded in the bundle; a value dgpb-build would refuse is an error here, at
# configure time. The embedded compiler honours none but their defaults and SPIRV_VERSION
# 1.5: the build fails for the others unless dgpb-build runs a native slangc (DGPB_SLANGC,
# SLANG_ROOT, slangc on PATH). Shaders for a graphics debugger: OPTIMIZATION 0 DEBUG_INFO 2.
#
# HEADER: dgpb-build also writes the bundle's C header DIR/<stem>.h (docs/build.md,
# "The C header"), an output of the same command; its path is appended to
# TARGET's property DGPB_HEADERS, and DIR to TARGET's include directories when
# TARGET compiles code, so that its sources `#include "<stem>.h"`.
#
#   dgpb_add_shader_bundles(TARGET
#                           DIRECTORY DIR [GLOB PATTERN]  the modules of a folder (default *.slang)
#                           | MODULES MODULE...           or a list of them
#                           [TARGETS T...] [OUTPUT_DIR DIR] [DEFINES ...] [INCLUDE_DIRS ...]
#                           [MATRIX_LAYOUT L] [SPIRV_VERSION V] [CAPABILITIES NAME...]
#                           [BLOCK_LAYOUT L] [OPTIMIZATION N] [DEBUG_INFO N]
#                           [OPTIONS ARG...] [HEADER])
#
# dgpb_add_shader_bundle() for each module of a folder (DIRECTORY: relative to
# the current source folder; GLOB: a file(GLOB) pattern in it, not recursive,
# re-read when the folder changes) or of a list, with the same options: one
# custom command per module, each with its own depfile, so that Ninja runs
# them in parallel and an edit rebuilds only the bundles that read the edited
# file. Two modules of one stem into one OUTPUT_DIR are an error.
#
# Library modules (no entry point: shared types and functions that the other
# modules import) get no command and no bundle: when the project configures,
# one `dgpb-build --list --json` over the modules (with the same options) says
# which they are, a status line names each ("library module, nothing to
# bundle"), their paths go to TARGET's property DGPB_LIBRARY_MODULES, and an
# edit to one of them configures the project again (it may have gained an
# entry). The other modules reach them through their depfiles. With dgpb's
# source tree added by add_subdirectory(), dgpb-build does not exist yet when
# the project configures: every module then gets its command, and a library
# module's build fails saying what it is (leave it out with GLOB or MODULES).
if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "dgpb_add_shader_bundle needs CMake 3.20 or later (depfiles for every generator)")
endif()

# The function keeps the policies in place where it is defined: depfile paths
# rewritten for the build folder (CMP0116), whatever the calling project asks.
cmake_policy(PUSH)
cmake_policy(SET CMP0116 NEW)

# The project options' dgpb-build arguments, into `out` (a list), or a FATAL_ERROR naming
# the value dgpb-build would refuse.
function(_dgpb_project_options caller out layout version capabilities block_layout
         optimization debug_info)
  # The values of --block-layout, --optimization and --debug-info (dgpb/vocabulary.def:
  # DGPB_BLOCK_LAYOUT, DGPB_OPTIMIZATION, DGPB_DEBUG_INFO; tests/js/vocabulary.test.mjs
  # holds these lists to it).
  set(block_layouts default scalar gl c)
  set(levels 0 1 2 3)
  set(args "")
  if(DEFINED block_layout AND NOT block_layout STREQUAL "")
    if(NOT block_layout IN_LIST block_layouts)
      list(JOIN block_layouts ", " known)
      message(FATAL_ERROR "${caller}: BLOCK_LAYOUT is one of ${known}, not '${block_layout}'")
    endif()
    list(APPEND args --block-layout ${block_layout})
  endif()
  foreach(level IN ITEMS OPTIMIZATION DEBUG_INFO)
    string(TOLOWER "${level}" value)
    set(value "${${value}}")
    if(DEFINED value AND NOT value STREQUAL "")
      if(NOT value IN_LIST levels)
        message(FATAL_ERROR "${caller}: ${level} is 0, 1, 2 or 3, not '${value}'")
      endif()
      string(TOLOWER "${level}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND args --${flag} ${value})
    endif()
  endforeach()
  if(DEFINED layout AND NOT layout STREQUAL "")
    if(NOT layout MATCHES "^(row|column)$")
      message(FATAL_ERROR "${caller}: MATRIX_LAYOUT is row or column, not '${layout}'")
    endif()
    list(APPEND args --matrix-layout ${layout})
  endif()
  if(DEFINED version AND NOT version STREQUAL "")
    if(NOT version MATCHES "^1\\.[3-6]$")
      message(FATAL_ERROR "${caller}: SPIRV_VERSION is 1.3, 1.4, 1.5 or 1.6, not '${version}'")
    endif()
    list(APPEND args --spirv-version ${version})
  endif()
  foreach(capability IN LISTS capabilities)
    if(NOT capability MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "${caller}: CAPABILITIES: '${capability}' is no Slang capability name")
    endif()
    list(APPEND args --capability ${capability})
  endforeach()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()

# The library modules among `modules` (absolute paths), into `out`: those in which dgpb-build's
# listing finds no entry point, with the bundles' options. Empty when dgpb-build cannot run
# while the project configures (a target of this build, not yet built), and for a module
# the listing cannot read (its build says why).
function(_dgpb_library_modules out modules targets defines include_dirs project options)
  set(${out} "" PARENT_SCOPE)
  get_target_property(imported dgpb::dgpb-build IMPORTED)
  if(NOT imported)
    return()
  endif()
  get_target_property(program dgpb::dgpb-build LOCATION)
  set(args --list --json -q)
  if(targets)
    list(JOIN targets "," joined)
    list(APPEND args --targets "${joined}")
  endif()
  foreach(define IN LISTS defines)
    list(APPEND args "-D${define}")
  endforeach()
  foreach(dir IN LISTS include_dirs)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args -I "${dir}")
  endforeach()
  execute_process(COMMAND "${program}" ${args} ${project} ${options} ${modules}
                  OUTPUT_VARIABLE listed ERROR_VARIABLE said RESULT_VARIABLE status)
  if(NOT status MATCHES "^[0-9]+$")
    message(WARNING "dgpb_add_shader_bundles: cannot run dgpb-build --list (${status}): "
                    "every module gets a bundle")
    return()
  endif()
  if(listed STREQUAL "")
    return() # no module could be listed: their builds say why
  endif()
  # One module: one document; several: an array of them.
  string(JSON type ERROR_VARIABLE bad TYPE "${listed}")
  if(NOT bad AND type STREQUAL "OBJECT")
    set(listed "[${listed}]")
  endif()
  string(JSON count ERROR_VARIABLE bad LENGTH "${listed}")
  if(bad)
    message(WARNING "dgpb_add_shader_bundles: dgpb-build --list failed (${status}): every module "
                    "gets a bundle\n${said}")
    return()
  endif()
  set(libraries "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON module GET "${listed}" ${i} module)
      string(JSON library GET "${listed}" ${i} library)
      if(library)
        list(APPEND libraries "${module}")
      endif()
    endforeach()
  endif()
  set(${out} "${libraries}" PARENT_SCOPE)
endfunction()

function(dgpb_add_shader_bundle target module)
  cmake_parse_arguments(PARSE_ARGV 2 arg "HEADER"
                        "OUTPUT_DIR;MATRIX_LAYOUT;SPIRV_VERSION;BLOCK_LAYOUT;OPTIMIZATION;DEBUG_INFO"
                        "TARGETS;DEFINES;INCLUDE_DIRS;CAPABILITIES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dgpb_add_shader_bundle: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "dgpb_add_shader_bundle: no value for ${arg_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT TARGET dgpb::dgpb-build)
    message(FATAL_ERROR "dgpb_add_shader_bundle: no dgpb::dgpb-build (find_package(dgpb) first)")
  endif()

  get_filename_component(module "${module}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(name "${module}" NAME)
  if(NOT name MATCHES "^(.+)\\.slang$")
    message(FATAL_ERROR "dgpb_add_shader_bundle: '${module}' is not a .slang module")
  endif()
  # The stem: the module path (the file name without .slang) with '.' turned into '_'.
  string(REPLACE "." "_" stem "${CMAKE_MATCH_1}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}")
  if(arg_OUTPUT_DIR)
    get_filename_component(out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(bundle "${out}/${stem}.dgpb")
  set(view "${out}/${stem}.bundle.json")
  set(depfile "${out}/${stem}.d")
  set(outputs_of_command "${bundle}" "${view}")
  if(arg_HEADER)
    set(header "${out}/${stem}.h")
    list(APPEND outputs_of_command "${header}")
  endif()
  get_property(outputs GLOBAL PROPERTY DGPB_SHADER_BUNDLE_OUTPUTS)
  if(bundle IN_LIST outputs)
    message(FATAL_ERROR "dgpb_add_shader_bundle: another call already writes '${bundle}' "
                        "(give this one another OUTPUT_DIR)")
  endif()
  set_property(GLOBAL APPEND PROPERTY DGPB_SHADER_BUNDLE_OUTPUTS "${bundle}")

  set(args "")
  if(arg_TARGETS)
    list(JOIN arg_TARGETS "," targets)
    list(APPEND args --targets "${targets}")
  endif()
  if(arg_HEADER)
    list(APPEND args --emit-header)
  endif()
  foreach(define IN LISTS arg_DEFINES)
    list(APPEND args "-D${define}")
  endforeach()
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args -I "${dir}")
  endforeach()
  _dgpb_project_options(dgpb_add_shader_bundle project "${arg_MATRIX_LAYOUT}" "${arg_SPIRV_VERSION}"
                        "${arg_CAPABILITIES}" "${arg_BLOCK_LAYOUT}" "${arg_OPTIMIZATION}"
                        "${arg_DEBUG_INFO}")
  list(APPEND args ${project})

  file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${bundle}")
  add_custom_command(
    OUTPUT ${outputs_of_command}
    COMMAND dgpb::dgpb-build ${args} ${arg_OPTIONS} -o "${out}" -MF "${depfile}" "${module}"
    DEPENDS "${module}" "$<TARGET_FILE:dgpb::dgpb-build>"
    DEPFILE "${depfile}"
    COMMENT "Building shader bundle ${shown}"
    VERBATIM)

  if(NOT TARGET ${target})
    add_custom_target(${target} ALL)
  else()
    get_target_property(imported ${target} IMPORTED)
    get_target_property(aliased ${target} ALIASED_TARGET)
    get_target_property(dir ${target} SOURCE_DIR)
    if(imported OR aliased)
      message(FATAL_ERROR "dgpb_add_shader_bundle: '${target}' is an imported or alias target")
    endif()
    if(NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      message(FATAL_ERROR "dgpb_add_shader_bundle: '${target}' is defined in '${dir}'; "
                          "call dgpb_add_shader_bundle in that folder")
    endif()
  endif()
  target_sources(${target} PRIVATE ${outputs_of_command})
  set_property(TARGET ${target} APPEND PROPERTY DGPB_BUNDLES "${bundle}")
  if(arg_HEADER)
    set_property(TARGET ${target} APPEND PROPERTY DGPB_HEADERS "${header}")
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "UTILITY")
      target_include_directories(${target} PRIVATE "${out}")
    endif()
  endif()
endfunction()

function(dgpb_add_shader_bundles target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "HEADER"
                        "DIRECTORY;GLOB;OUTPUT_DIR;MATRIX_LAYOUT;SPIRV_VERSION;BLOCK_LAYOUT;OPTIMIZATION;DEBUG_INFO"
                        "MODULES;TARGETS;DEFINES;INCLUDE_DIRS;CAPABILITIES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dgpb_add_shader_bundles: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "dgpb_add_shader_bundles: no value for ${arg_KEYWORDS_MISSING_VALUES}")
  endif()
  if((DEFINED arg_DIRECTORY AND DEFINED arg_MODULES) OR
     (NOT DEFINED arg_DIRECTORY AND NOT DEFINED arg_MODULES))
    message(FATAL_ERROR "dgpb_add_shader_bundles: give either DIRECTORY or MODULES")
  endif()
  if(DEFINED arg_GLOB AND NOT DEFINED arg_DIRECTORY)
    message(FATAL_ERROR "dgpb_add_shader_bundles: GLOB goes with DIRECTORY")
  endif()
  set(modules ${arg_MODULES})
  if(DEFINED arg_DIRECTORY)
    get_filename_component(dir "${arg_DIRECTORY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT IS_DIRECTORY "${dir}")
      message(FATAL_ERROR "dgpb_add_shader_bundles: '${dir}' is not a folder")
    endif()
    set(pattern "*.slang")
    if(DEFINED arg_GLOB)
      set(pattern "${arg_GLOB}")
    endif()
    file(GLOB modules LIST_DIRECTORIES false CONFIGURE_DEPENDS "${dir}/${pattern}")
    if(NOT modules)
      message(FATAL_ERROR "dgpb_add_shader_bundles: no module in '${dir}' matches '${pattern}'")
    endif()
  endif()
  # The project options, checked once for the folder.
  _dgpb_project_options(dgpb_add_shader_bundles project "${arg_MATRIX_LAYOUT}" "${arg_SPIRV_VERSION}"
                        "${arg_CAPABILITIES}" "${arg_BLOCK_LAYOUT}" "${arg_OPTIMIZATION}"
                        "${arg_DEBUG_INFO}")
  _dgpb_library_modules(libraries "${modules}" "${arg_TARGETS}" "${arg_DEFINES}"
                        "${arg_INCLUDE_DIRS}" "${project}" "${arg_OPTIONS}")
  foreach(library IN LISTS libraries)
    list(REMOVE_ITEM modules "${library}")
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${library}")
    message(STATUS "dgpb_add_shader_bundles: ${shown}: library module, nothing to bundle")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${library}")
  endforeach()
  set(forward "")
  foreach(keyword OUTPUT_DIR MATRIX_LAYOUT SPIRV_VERSION BLOCK_LAYOUT OPTIMIZATION DEBUG_INFO)
    if(DEFINED arg_${keyword})
      list(APPEND forward ${keyword} "${arg_${keyword}}")
    endif()
  endforeach()
  foreach(keyword TARGETS DEFINES INCLUDE_DIRS CAPABILITIES OPTIONS)
    if(arg_${keyword})
      list(APPEND forward ${keyword} ${arg_${keyword}})
    endif()
  endforeach()
  if(arg_HEADER)
    list(APPEND forward HEADER)
  endif()
  foreach(module IN LISTS modules)
    dgpb_add_shader_bundle(${target} "${module}" ${forward})
  endforeach()
  if(libraries)
    if(NOT TARGET ${target})
      add_custom_target(${target} ALL)
    endif()
    set_property(TARGET ${target} APPEND PROPERTY DGPB_LIBRARY_MODULES ${libraries})
  endif()
endfunction()

cmake_policy(POP)

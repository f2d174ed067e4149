# cmake --install and CPack.  Layout (fixed, because common/tables_dir.c
# finds the tables relative to the executable or the library):
#   bin/gpuprobe
#   lib/libgpuprobe.{a,so}                   the kernels as a library
#   lib/cmake/gpuprobe/                      find_package(gpuprobe CONFIG)
#   lib/pkgconfig/gpuprobe.pc
#   include/gpuprobe/gpuprobe.h              the library's API (docs/library.md)
#   share/gpuprobe/tables/<arch>             shipped tuning tables
#   share/gpuprobe/specs/<product>.txt       the vendors' published figures (the datasheet's verdicts)
#   share/doc/gpuprobe/{probes,kernels,tuning-table.md,library.md,README.md}
# The installed binary tests itself with `gpuprobe selftest` (README).

install(TARGETS gpuprobe RUNTIME DESTINATION bin)

# ---- libgpuprobe (kernels/CMakeLists.txt): the libraries, the headers of
# the API (the umbrella gpuprobe.h generated from the kernel list: the
# context and every kernel's header), a CMake package and a pkg-config file.
set(_umbrella "/* gpuprobe: the kernels as a library (docs/library.md).  Generated from the kernel folders. */\n")
string(APPEND _umbrella "#ifndef GPUPROBE_H\n#define GPUPROBE_H\n#include \"context.h\"\n")
# The kernel headers' own includes come along: the status and runtime
# types, the device targets (GEMM's configurations) and the table type the
# rules' prototypes name.
set(_headers ${PROJECT_SOURCE_DIR}/platform/gp_status.h ${PROJECT_SOURCE_DIR}/platform/runtime.h
             ${PROJECT_SOURCE_DIR}/platform/gp_target.h ${PROJECT_SOURCE_DIR}/common/table.h
             ${PROJECT_SOURCE_DIR}/common/table_keys.h
             ${PROJECT_SOURCE_DIR}/kernels/context.h ${PROJECT_SOURCE_DIR}/kernels/params.h)
foreach(k IN LISTS GP_KERNEL_LIST)
  string(APPEND _umbrella "#include \"${k}.h\"\n")
  list(APPEND _headers ${PROJECT_SOURCE_DIR}/kernels/${k}/${k}.h ${PROJECT_SOURCE_DIR}/kernels/${k}/${k}_params.inc)
endforeach()
string(APPEND _umbrella "#endif\n")
file(CONFIGURE OUTPUT ${GP_GENERATED_DIR}/gpuprobe.h CONTENT "${_umbrella}")
install(FILES ${_headers} ${GP_GENERATED_DIR}/gpuprobe.h DESTINATION include/gpuprobe)
install(TARGETS gpuprobe_shared gpuprobe_static EXPORT gpuprobeTargets
        ARCHIVE DESTINATION lib LIBRARY DESTINATION lib)
install(EXPORT gpuprobeTargets NAMESPACE gpuprobe:: DESTINATION lib/cmake/gpuprobe)
include(CMakePackageConfigHelpers)
set(GP_CONFIG_BACKEND ${GP_BACKEND_USED})
set(GP_CONFIG_ARCHS "${GP_GPU_ARCHS}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpuprobeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gpuprobeConfig.cmake INSTALL_DESTINATION lib/cmake/gpuprobe)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuprobeConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpuprobeConfig.cmake ${PROJECT_BINARY_DIR}/gpuprobeConfigVersion.cmake
        DESTINATION lib/cmake/gpuprobe)
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpuprobe.pc.in ${PROJECT_BINARY_DIR}/gpuprobe.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpuprobe.pc DESTINATION lib/pkgconfig)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tables/ DESTINATION share/gpuprobe/tables)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/specs/ DESTINATION share/gpuprobe/specs)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/probes ${PROJECT_SOURCE_DIR}/docs/kernels
        DESTINATION share/doc/gpuprobe)
install(FILES ${PROJECT_SOURCE_DIR}/docs/tuning-table.md ${PROJECT_SOURCE_DIR}/docs/library.md
        ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/gpuprobe)

# ---- Packages: one per build, named by version and device targets, e.g.
# gpuprobe-0.3.0-sm_80-sm_90-Linux.tar.gz, gpuprobe-0.3.0-cpu-Linux.deb.
if(GP_GPU_ARCHS)
  string(REPLACE ";" "-" _pkg_targets "${GP_GPU_ARCHS}")
else()
  set(_pkg_targets cpu)
endif()
set(CPACK_PACKAGE_NAME gpuprobe)
set(CPACK_PACKAGE_VENDOR "gpuprobe")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GPU microbenchmarks: hardware characterization, tuning tables, kernels (${_pkg_targets})")
set(CPACK_PACKAGE_FILE_NAME "gpuprobe-${PROJECT_VERSION}-${_pkg_targets}-${CMAKE_SYSTEM_NAME}")
set(CPACK_GENERATOR "TGZ;DEB")
# Prefixes: CPack's defaults, /usr for the .deb, none for the .tar.gz
# (bin/, share/ at its top folder, to unpack anywhere).
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "gpuprobe maintainers")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# Dependencies, declared by hand (dpkg-shlibdeps would need dpkg-dev) and
# checked against the binary's NEEDED entries by tests/package_check.sh:
#  - CUDA: the runtime is linked statically (CMAKE_CUDA_RUNTIME_LIBRARY
#    Static) and NVML is opened with dlopen; libcuda comes with the driver,
#    whose package name differs between Debian and NVIDIA's repositories, so
#    it is not declared.  A build with cuDNN linked (GP_USE_CUDNN, found) would
#    need libcudnn: the package presets turn it off.
#  - HIP: the ROCm runtime, Debian's libamdhip64-5 (HIP 5.x).
set(_deps "libc6, libstdc++6, libgcc-s1")
if(GP_BACKEND_USED STREQUAL "none")
  set(_deps "libc6")
elseif(GP_BACKEND_USED STREQUAL "hip")
  string(APPEND _deps ", libamdhip64-5")
elseif(GP_USE_CUDNN AND GP_CUDNN_LIBRARY AND GP_CUDNN_INCLUDE)
  message(STATUS "gpuprobe: cuDNN is linked, so a package of this build needs libcudnn where it runs "
                 "(not declared; the package presets set GP_USE_CUDNN=OFF for a driver-only package)")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_deps}")
set(GP_PACKAGE_DEPENDS "${_deps}" CACHE INTERNAL "what the .deb declares")
include(CPack)

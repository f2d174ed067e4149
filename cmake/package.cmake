# cmake --install and CPack.  Layout (fixed, because app/tables_dir.c finds
# the tables relative to the executable):
#   bin/gpuprobe
#   share/gpuprobe/tables/<arch>             shipped tuning tables
#   share/doc/gpuprobe/{probes,kernels,tuning-table.md,README.md}
# The installed binary tests itself with `gpuprobe selftest` (README).

install(TARGETS gpuprobe RUNTIME DESTINATION bin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tables/ DESTINATION share/gpuprobe/tables)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/probes ${PROJECT_SOURCE_DIR}/docs/kernels
        DESTINATION share/doc/gpuprobe)
install(FILES ${PROJECT_SOURCE_DIR}/docs/tuning-table.md ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION share/doc/gpuprobe)

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

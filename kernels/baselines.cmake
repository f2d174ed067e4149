# The vendor baselines the kernels are compared with (kernels/<k>/<k>_vendor.cu),
# on the CUDA backend: CUB comes with the toolkit; cuDNN (conv2d, batchnorm)
# and cuBLAS (gemm) are linked when found and not turned off (the package
# presets turn them off, so a package needs the driver only); cuSPARSE (spmv)
# needs only its header at build time and is opened with dlopen at run time.
# The HIP backend wires none in.  Sets, for the kernels: GP_BASELINE_SOURCES,
# GP_BASELINE_DEFINES (GP_HAVE_CUB, GP_HAVE_CUDNN, GP_HAVE_CUBLAS,
# GP_HAVE_CUSPARSE_H and the cuSPARSE folder), GP_BASELINE_INCLUDES,
# GP_BASELINE_LIBS; and GP_BASELINES, the line `gpuprobe --version` and every
# record carry (app/build_info.h.in).
set(GP_BASELINE_SOURCES "")
set(GP_BASELINE_DEFINES GP_HAVE_CUB=0 GP_HAVE_CUDNN=0 GP_HAVE_CUBLAS=0 GP_HAVE_CUSPARSE_H=0)
set(GP_BASELINE_INCLUDES "")
set(GP_BASELINE_LIBS "")
if(GP_BACKEND_USED STREQUAL "none")
  set(GP_BASELINES "none (no GPU backend); NVML at run time" CACHE INTERNAL "vendor baselines built in")
  return()
elseif(GP_BACKEND_USED STREQUAL "hip")
  set(GP_BASELINES "none wired in for HIP (hipCUB, MIOpen, hipBLAS); rocm-smi at run time" CACHE INTERNAL
      "vendor baselines built in")
  return()
endif()

get_filename_component(_cuda_root "${CMAKE_CUDA_COMPILER}" DIRECTORY)
get_filename_component(_cuda_root "${_cuda_root}" DIRECTORY)
set(GP_BASELINE_DEFINES GP_HAVE_CUB=1)
list(APPEND GP_BASELINE_SOURCES reduce/reduce_vendor.cu scan/scan_vendor.cu histogram/histogram_vendor.cu)

find_path(GP_CUDNN_INCLUDE cudnn.h HINTS ENV CUDNN_PATH ${_cuda_root} PATH_SUFFIXES include)
find_library(GP_CUDNN_LIBRARY cudnn HINTS ENV CUDNN_PATH ${_cuda_root} PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu)
option(GP_USE_CUDNN "compare conv2d and batchnorm with cuDNN when it is found" ON)
if(GP_USE_CUDNN AND GP_CUDNN_INCLUDE AND GP_CUDNN_LIBRARY)
  message(STATUS "gpuprobe: cuDNN baseline on (${GP_CUDNN_LIBRARY})")
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUDNN=1)
  list(APPEND GP_BASELINE_SOURCES conv2d/conv2d_vendor.cu batchnorm/batchnorm_vendor.cu)
  list(APPEND GP_BASELINE_INCLUDES ${GP_CUDNN_INCLUDE})
  list(APPEND GP_BASELINE_LIBS ${GP_CUDNN_LIBRARY})
  get_filename_component(_cudnn_name "${GP_CUDNN_LIBRARY}" NAME)
  set(_cudnn "cuDNN (linked, ${_cudnn_name})")
else()
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUDNN=0)
  if(NOT GP_USE_CUDNN)
    set(_cudnn "cuDNN off")
  else()
    set(_cudnn "cuDNN not found")
  endif()
  message(STATUS "gpuprobe: ${_cudnn}: the conv2d and batchnorm benches run without their baseline")
endif()

find_library(GP_CUBLAS_LIBRARY cublas HINTS ${_cuda_root} PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu
             targets/x86_64-linux/lib)
option(GP_USE_CUBLAS "compare gemm with cuBLAS when it is found" ON)
if(GP_USE_CUBLAS AND GP_CUBLAS_LIBRARY)
  message(STATUS "gpuprobe: cuBLAS baseline on (${GP_CUBLAS_LIBRARY})")
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUBLAS=1)
  list(APPEND GP_BASELINE_SOURCES gemm/gemm_vendor.cu)
  list(APPEND GP_BASELINE_LIBS ${GP_CUBLAS_LIBRARY})
  set(_cublas "cuBLAS")
else()
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUBLAS=0)
  if(NOT GP_USE_CUBLAS)
    set(_cublas "cuBLAS off")
  else()
    set(_cublas "cuBLAS not found")
  endif()
  message(STATUS "gpuprobe: ${_cublas}: the gemm bench runs without its baseline")
endif()

find_path(GP_CUSPARSE_INCLUDE cusparse.h HINTS ${_cuda_root} PATH_SUFFIXES include targets/x86_64-linux/include)
find_library(GP_CUSPARSE_LIBRARY cusparse HINTS ${_cuda_root} PATH_SUFFIXES lib64 lib lib/x86_64-linux-gnu
             targets/x86_64-linux/lib)
if(GP_CUSPARSE_INCLUDE)
  message(STATUS "gpuprobe: cuSPARSE baseline on (header ${GP_CUSPARSE_INCLUDE}; library opened at run time)")
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUSPARSE_H=1)
  list(APPEND GP_BASELINE_SOURCES spmv/spmv_vendor.cu)
  list(APPEND GP_BASELINE_INCLUDES ${GP_CUSPARSE_INCLUDE})
  if(GP_CUSPARSE_LIBRARY)
    # The toolkit's library folder, the last place spmv_vendor.cu tries.
    get_filename_component(_cusparse_dir "${GP_CUSPARSE_LIBRARY}" DIRECTORY)
    list(APPEND GP_BASELINE_DEFINES "GP_CUSPARSE_LIBDIR=\"${_cusparse_dir}\"")
  endif()
  set(_cusparse "cuSPARSE at run time")
else()
  message(STATUS "gpuprobe: cusparse.h not found: the spmv bench runs without its baseline")
  list(APPEND GP_BASELINE_DEFINES GP_HAVE_CUSPARSE_H=0)
  set(_cusparse "cuSPARSE not found")
endif()
set(GP_BASELINES "CUB (headers), ${_cudnn}, ${_cublas}, ${_cusparse}, NVML at run time" CACHE INTERNAL
    "vendor baselines built in")

# Link MLIR and LLVM statically.
#
# Debian builds LLVM with LLVM_LINK_LLVM_DYLIB=ON, so every imported static
# MLIR*.a target lists `LLVM` (libLLVM.so.22) among its interface link
# libraries.  We want one self-contained libtritium.so, so this swaps that
# dependency for the static LLVM component archives we actually use.  It also
# fixes tritium-opt to the same static code the library runs.
llvm_map_components_to_libnames(TRITIUM_LLVM_STATIC_LIBS
  Core Support TargetParser BinaryFormat Demangle Remarks BitstreamReader
  MC Target Analysis TransformUtils AsmParser BitReader BitWriter IRReader
  Passes FrontendOpenMP Linker
  NVPTXCodeGen NVPTXDesc NVPTXInfo
  OrcJIT native)  # the CPU target: ORC's JIT and the host's code generator
add_library(tritium_llvm_static INTERFACE)
target_link_libraries(tritium_llvm_static INTERFACE ${TRITIUM_LLVM_STATIC_LIBS})

get_property(_tritium_mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
foreach(_lib IN LISTS _tritium_mlir_libs)
  if(TARGET ${_lib})
    get_target_property(_type ${_lib} TYPE)
    get_target_property(_deps ${_lib} INTERFACE_LINK_LIBRARIES)
    if(_type STREQUAL "STATIC_LIBRARY" AND _deps)
      list(TRANSFORM _deps REPLACE "^LLVM$" tritium_llvm_static)
      set_target_properties(${_lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${_deps}")
    endif()
  endif()
endforeach()

# Prefer lld: the static link of MLIR+LLVM takes 3-5 s with ld.bfd, <1 s with lld.
find_program(TRITIUM_LLD NAMES ld.lld-22 ld.lld HINTS /usr/lib/llvm-22/bin)
if(TRITIUM_LLD)
  set(TRITIUM_LINKER_FLAG "-fuse-ld=lld")
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(TRITIUM_LINKER_FLAG "-fuse-ld=${TRITIUM_LLD}")
  endif()
  add_link_options(${TRITIUM_LINKER_FLAG})
endif()

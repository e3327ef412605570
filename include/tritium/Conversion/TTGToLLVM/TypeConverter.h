//===- TypeConverter.h - TTGIR types as LLVM types --------------*- C++ -*-===//
//
// The LLVM type converter of convert-ttg-to-llvm, extended with Tritium's
// types:
//   * a tensor with a distributed layout is the values ONE thread holds: an
//     LLVM literal struct of `elemsPerThread` converted elements, in register
//     order (struct element i is register i of the layout);
//   * `!tt.ptr<T, as>` is `!llvm.ptr<as>` (opaque; the pointee is given to
//     each GEP, load or store);
//   * `!ttg.memdesc<...>` is a pointer into shared memory (`!llvm.ptr<3>`);
//   * 8-bit floats are i8 (upstream rule), everything else as upstream.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CONVERSION_TTGTOLLVM_TYPECONVERTER_H
#define TRITIUM_CONVERSION_TTGTOLLVM_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace tritium {

/// The address space of shared memory on NVIDIA GPUs.
inline constexpr unsigned kSharedAddressSpace = 3;

class TTGToLLVMTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TTGToLLVMTypeConverter(mlir::MLIRContext *context);

  /// The converter a pattern of convert-ttg-to-llvm was built with (its
  /// getTypeConverter() returns the LLVMTypeConverter base).
  static const TTGToLLVMTypeConverter &of(const mlir::LLVMTypeConverter *base) {
    return static_cast<const TTGToLLVMTypeConverter &>(*base);
  }

  /// The type one element of a tensor (or a scalar) of element type
  /// `elementType` has in registers: the converted element type.
  mlir::Type convertElementType(mlir::Type elementType) const;

  /// The type one element of `elementType` has in memory, for GEPs, loads
  /// and stores: like convertElementType, except that i1 is stored as i8.
  mlir::Type convertMemoryElementType(mlir::Type elementType) const;

  /// Bits of a converted memory element type (pointers are 64-bit).
  static int64_t getMemoryBits(mlir::Type memoryType);
};

} // namespace tritium

#endif // TRITIUM_CONVERSION_TTGTOLLVM_TYPECONVERTER_H

//===- AxisInfo.h - divisibility, contiguity and constancy ------*- C++ -*-===//
//
// What the compiler knows, per tensor dimension, about the integer (and
// pointer) values a kernel computes: how long the runs of consecutive values
// are (contiguity), how long the runs of equal values are (constancy), and
// the largest power of two that divides the first value of every run
// (divisibility).  Coalescing reads it to decide how many elements a thread
// may load with one vector instruction; the LLVM lowering reads it to decide
// how wide each load, store and mask test may be.
//
// The file has two halves:
//   * AxisInfo, the lattice value, in plain C++ (no MLIR types), with its
//     join rule, so that gtest checks it without an MLIR context;
//   * AxisInfoAnalysis, its transfer functions on MLIR's sparse forward
//     data-flow framework, and ModuleAxisInfo, which runs the analysis over a
//     module and answers the questions the passes ask (pointer contiguity,
//     alignment, mask alignment).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_AXISINFO_H
#define TRITIUM_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tritium {

//===----------------------------------------------------------------------===//
// The lattice value (plain C++)
//===----------------------------------------------------------------------===//

/// Facts about the values of a tensor (or of a scalar, seen as a tensor of
/// shape [1]), one entry per dimension d.  Along d, cut the tensor into
/// aligned groups of `contiguity[d]` elements (group k covers indices
/// [k * contiguity[d], (k + 1) * contiguity[d])):
///
///   contiguity[d]    every group holds consecutive values v, v+1, v+2, ...;
///   divisibility[d]  the first value of every such group is a multiple of
///                    this power of two;
///   constancy[d]     aligned groups of this many elements hold equal values.
///
/// For example `tt.make_range {start = 0, end = 128}` is contiguity [128],
/// divisibility [2^30] (0 is divisible by everything; 2^30 stands for "any"),
/// constancy [1]; `splat(16 * x) : tensor<64xi32>` is contiguity [1],
/// divisibility [16], constancy [64].  Pointer values count divisibility in
/// bytes and contiguity in elements.
///
/// A default-constructed AxisInfo (rank 0) is the "not yet known" bottom of
/// the lattice: joining it with anything gives the other value.
class AxisInfo {
public:
  /// Divisibility stated for zero and the cap of every divisibility: large
  /// enough for any alignment question, small enough that products of two
  /// never overflow.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(std::vector<int64_t> contiguity, std::vector<int64_t> divisibility,
           std::vector<int64_t> constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known: every entry 1.
  static AxisInfo unknown(unsigned rank);
  /// Every element equals `value` (a splat over `shape`, or a scalar when
  /// `shape` is [1]).
  static AxisInfo splatConstant(int64_t value, llvm::ArrayRef<int64_t> shape);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }

  int64_t getContiguity(unsigned dim) const { return contiguity[dim]; }
  int64_t getDivisibility(unsigned dim) const { return divisibility[dim]; }
  int64_t getConstancy(unsigned dim) const { return constancy[dim]; }
  llvm::ArrayRef<int64_t> getContiguity() const { return contiguity; }
  llvm::ArrayRef<int64_t> getDivisibility() const { return divisibility; }
  llvm::ArrayRef<int64_t> getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// The divisibility of the first value of each aligned group of `length`
  /// elements along `dim`.  Groups made of whole runs start where runs
  /// start; shorter groups start inside a run v, v+1, ..., at v + k * length,
  /// so only gcd(divisibility, length) is guaranteed.
  int64_t getDivisibilityOfGroups(unsigned dim, int64_t length) const;
  /// The divisibility of every single element along `dim` (groups of one).
  int64_t getElementDivisibility(unsigned dim) const {
    return getDivisibilityOfGroups(dim, 1);
  }
  /// The divisibility of every element of the tensor, whatever its position:
  /// the best of the dimensions along which each element starts a group.
  int64_t getDivisibilityOfAllElements() const;

  /// The least upper bound: what holds for both `lhs` and `rhs`.  Per
  /// dimension, contiguity and constancy are the gcd of the two; the
  /// divisibility is the gcd of the two divisibilities *of the groups of the
  /// joined contiguity*, so that it still describes the first value of every
  /// (possibly shorter) group.  The constant value survives when both agree.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility &&
           constancy == other.constancy &&
           constantValue == other.constantValue;
  }
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// Prints `contiguity = [..], divisibility = [..], constancy = [..]`, the
  /// text of test-print-axis-info's remarks (defined with the analysis).
  void print(llvm::raw_ostream &os) const;

private:
  std::vector<int64_t> contiguity;
  std::vector<int64_t> divisibility;
  std::vector<int64_t> constancy;
  std::optional<int64_t> constantValue;
};

/// The largest power of two dividing `value`, kMaxDivisibility for 0 and at
/// most kMaxDivisibility otherwise.
int64_t highestPowerOf2Divisor(int64_t value);

/// `lhs * rhs` for two divisibilities, capped at kMaxDivisibility.
int64_t multiplyDivisibility(int64_t lhs, int64_t rhs);

/// The dimensions ordered by decreasing contiguity, ties broken towards the
/// last dimension (row-major): the access order a coalesced layout follows.
std::vector<unsigned> orderByContiguity(llvm::ArrayRef<int64_t> contiguity);

//===----------------------------------------------------------------------===//
// The analysis (MLIR)
//===----------------------------------------------------------------------===//

using AxisInfoLattice = mlir::dataflow::Lattice<AxisInfo>;

/// The discardable attributes that state axis facts.  On a tt.func argument
/// (`{tt.divisibility = 16 : i32}`) they describe the value the launcher
/// passes; on an op (`{tt.contiguity = dense<[128]> : tensor<1xi32>}`, from
/// tl.max_contiguous / tl.multiple_of / tl.max_constancy) they replace what
/// the analysis computed for its result.  A tensor takes one entry per
/// dimension, a scalar an integer.
inline constexpr llvm::StringLiteral kDivisibilityAttrName = "tt.divisibility";
inline constexpr llvm::StringLiteral kContiguityAttrName = "tt.contiguity";
inline constexpr llvm::StringLiteral kConstancyAttrName = "tt.constancy";

/// Sparse forward analysis computing an AxisInfo for every integer, pointer
/// (and, for constancy, every other) value.  Load DeadCodeAnalysis and
/// SparseConstantPropagation into the same solver; ModuleAxisInfo does.
class AxisInfoAnalysis
    : public mlir::dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  mlir::LogicalResult
  visitOperation(mlir::Operation *op,
                 llvm::ArrayRef<const AxisInfoLattice *> operands,
                 llvm::ArrayRef<AxisInfoLattice *> results) override;

  void visitNonControlFlowArguments(mlir::Operation *op,
                                    const mlir::RegionSuccessor &successor,
                                    llvm::ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;

  void setToEntryState(AxisInfoLattice *lattice) override;
};

/// What is known about `value` before looking at how it is computed: nothing
/// (all 1) except what the tt.* attributes of a function argument state.
AxisInfo getEntryAxisInfo(mlir::Value value);

/// Runs AxisInfoAnalysis over `root` (usually the module) once and answers
/// queries about its values.  Values the analysis did not reach (dead code)
/// read as unknown.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(mlir::Operation *root);
  ~ModuleAxisInfo();
  ModuleAxisInfo(const ModuleAxisInfo &) = delete;
  ModuleAxisInfo &operator=(const ModuleAxisInfo &) = delete;

  /// False if the solver failed (the IR is then left unanalysed and every
  /// query answers "unknown").
  bool succeeded() const { return ok; }

  /// The facts about `value`; unknown if the analysis has none.
  AxisInfo getAxisInfo(mlir::Value value) const;

  /// For a tensor of pointers: how many consecutive elements the pointers
  /// address along their most contiguous dimension (capped by its size).
  /// 1 for anything else.
  unsigned getPtrContiguity(mlir::Value ptr) const;

  /// For a tensor of pointers, in elements: the largest vector, along the
  /// most contiguous dimension, whose loads are aligned to their size, i.e.
  /// min(divisibility in bytes / element bytes, contiguity).  1 for anything
  /// else.
  unsigned getPtrAlignment(mlir::Value ptr) const;

  /// For an i1 tensor: how many consecutive elements along `dim` (default:
  /// the mask's most contiguous dimension as orderByContiguity picks it)
  /// share one mask bit, so that one test can guard a whole vector.
  unsigned getMaskAlignment(mlir::Value mask,
                            std::optional<unsigned> dim = std::nullopt) const;

  /// The copy engine's alignment rule for a tensor map: whether `value`
  /// times `elementBytes` is known to be a multiple of 16 bytes.  For the
  /// map's base address (a scalar pointer, `elementBytes` 1) and for its
  /// strides other than the innermost (integers, in elements).
  bool isTensorMapAligned(mlir::Value value, int64_t elementBytes) const;

private:
  std::unique_ptr<mlir::DataFlowSolver> solver;
  bool ok = false;
};

} // namespace tritium

#endif // TRITIUM_ANALYSIS_AXISINFO_H

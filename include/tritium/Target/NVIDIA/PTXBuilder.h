//===- PTXBuilder.h - build PTX inline assembly -----------------*- C++ -*-===//
//
// A small builder for `llvm.inline_asm` ops that hold a few PTX
// instructions.  Lowerings describe operands (outputs with a constraint such
// as "=r", inputs with a value and a constraint such as "l" or "b", literal
// immediates) and instructions (an opcode, dot-qualifiers, an optional guard
// predicate, and arguments that are single operands, `{ $0, $1 }` lists or
// `[ $2 + 16 ]` addresses); the builder numbers the operands the way LLVM
// inline assembly expects (outputs first, then inputs, each in creation
// order), renders the PTX text and the constraint string, and creates the op.
//
// Example: a predicated vector load whose masked-off lanes keep `other`:
//
//   PTXBuilder ptx;
//   auto outs = ptx.outputs(4, "=r");
//   auto *pred = ptx.input(mask, "b");
//   auto *addr = ptx.input(pointer, "l");
//   for (int i = 0; i < 4; ++i)
//     ptx.instr("mov.u32").guard(pred, /*negate=*/true)
//         .args({outs[i], ptx.input(other[i], "r")});
//   ptx.instr("ld").q("global").q("v4").q("b32").guard(pred)
//       .args({PTXBuilder::list(outs), PTXBuilder::address(addr, 0)});
//   Value loaded = ptx.launch(builder, loc, structOf4xi32);
//
// Multi-instruction idioms with scratch registers use verbatim():
//
//   ptx.verbatim("{ .reg .b32 t; mov.b32 t, {%1, %1}; "
//                "cvt.rn.satfinite.e4m3x2.f16x2 %0, t; }", {out, in});
//
// renders `@!$4 mov.u32 $0, $6; ... @$4 ld.global.v4.b32 { $0, $1, $2, $3 },
// [ $5 + 0 ];` with constraints `=r,=r,=r,=r,b,l,r,r,r,r`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TARGET_NVIDIA_PTXBUILDER_H
#define TRITIUM_TARGET_NVIDIA_PTXBUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <string>

namespace tritium::nvidia {

class PTXBuilder {
public:
  /// One `$N` of the asm string, or a literal written in place of one.
  struct Operand {
    enum class Kind { Output, Input, Literal };
    Kind kind;
    std::string constraint; // "=r", "l", "b", ... (empty for literals)
    mlir::Value value;      // inputs only
    std::string literal;    // literals only
    int index = -1;         // assigned when the asm is rendered
  };

  /// An instruction argument: one operand, a `{ ... }` list of operands, or
  /// a `[ operand + offset ]` address.
  struct Arg {
    enum class Kind { Single, List, Address };
    Kind kind = Kind::Single;
    llvm::SmallVector<Operand *, 4> operands;
    int64_t offset = 0;
    Arg(Operand *operand) : operands{operand} {}
    Arg(Kind kind, llvm::ArrayRef<Operand *> operands, int64_t offset = 0)
        : kind(kind), operands(operands.begin(), operands.end()),
          offset(offset) {}
  };

  /// One PTX instruction under construction.
  class Instr {
  public:
    /// Appends `.qualifier` to the opcode when `enabled`.
    Instr &q(llvm::StringRef qualifier, bool enabled = true);
    /// Guards the instruction with `@$p` (or `@!$p` when `negate`).
    Instr &guard(Operand *predicate, bool negate = false);
    /// Sets the arguments, written after the opcode separated by commas.
    Instr &args(llvm::ArrayRef<Arg> arguments);

  private:
    friend class PTXBuilder;
    explicit Instr(llvm::StringRef opcode) : opcode(opcode.str()) {}
    std::string opcode;
    bool verbatim = false; // `opcode` is a complete text with %k references
    llvm::SmallVector<Operand *, 4> references;
    Operand *predicate = nullptr;
    bool negatePredicate = false;
    llvm::SmallVector<Arg, 4> arguments;
  };

  /// A new output operand (constraint "=r", "=h", "=l", "=f", ...).
  Operand *output(llvm::StringRef constraint);
  /// `count` new outputs of one constraint.
  llvm::SmallVector<Operand *, 4> outputs(int count,
                                          llvm::StringRef constraint);
  /// A new input operand carrying `value`.
  Operand *input(mlir::Value value, llvm::StringRef constraint);
  /// An immediate written verbatim into the instruction (e.g. "0x0").
  Operand *literal(llvm::StringRef text);

  /// Argument helpers.
  static Arg list(llvm::ArrayRef<Operand *> operands) {
    return Arg(Arg::Kind::List, operands);
  }
  static Arg address(Operand *pointer, int64_t offset = 0) {
    return Arg(Arg::Kind::Address, {pointer}, offset);
  }

  /// Starts a new instruction; instructions are emitted in creation order.
  Instr &instr(llvm::StringRef opcode);

  /// Adds complete PTX text (one or more instructions, or a `{ ... }` scope
  /// with its own .reg declarations) in which `%k` stands for operand
  /// `references[k]`.
  void verbatim(llvm::StringRef text, llvm::ArrayRef<Operand *> references);

  /// The PTX text: instructions separated by newlines, each ending in ';'.
  std::string render();
  /// The LLVM constraint string: outputs, then inputs, comma-separated.
  std::string constraints();

  /// Creates the `llvm.inline_asm` op.  `resultType` is the single output's
  /// type, a literal struct of the outputs' types, or null when there are no
  /// outputs.  Side effects default to on: loads and stores must neither be
  /// removed nor reordered by LLVM.
  mlir::Value launch(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Type resultType, bool hasSideEffects = true);

private:
  void assignIndices();

  std::deque<Operand> operands_;
  std::deque<Instr> instrs_;
};

} // namespace tritium::nvidia

#endif // TRITIUM_TARGET_NVIDIA_PTXBUILDER_H

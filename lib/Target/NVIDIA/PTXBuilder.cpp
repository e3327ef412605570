//===- PTXBuilder.cpp - build PTX inline assembly -------------------------===//
//
// Renders the instructions collected by PTXBuilder into one inline-asm
// string.  Operand numbers are assigned only when rendering, so a lowering
// may create inputs and outputs in whatever order is convenient: LLVM wants
// all outputs before all inputs.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/PTXBuilder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tritium::nvidia;

PTXBuilder::Instr &PTXBuilder::Instr::q(StringRef qualifier, bool enabled) {
  if (enabled && !qualifier.empty())
    opcode += ("." + qualifier).str();
  return *this;
}

PTXBuilder::Instr &PTXBuilder::Instr::guard(Operand *pred, bool negate) {
  predicate = pred;
  negatePredicate = negate;
  return *this;
}

PTXBuilder::Instr &PTXBuilder::Instr::args(ArrayRef<Arg> arguments) {
  this->arguments.assign(arguments.begin(), arguments.end());
  return *this;
}

PTXBuilder::Operand *PTXBuilder::output(StringRef constraint) {
  operands_.push_back({Operand::Kind::Output, constraint.str(), {}, {}});
  return &operands_.back();
}

SmallVector<PTXBuilder::Operand *, 4>
PTXBuilder::outputs(int count, StringRef constraint) {
  SmallVector<Operand *, 4> result;
  for (int i = 0; i < count; ++i)
    result.push_back(output(constraint));
  return result;
}

PTXBuilder::Operand *PTXBuilder::input(Value value, StringRef constraint) {
  operands_.push_back({Operand::Kind::Input, constraint.str(), value, {}});
  return &operands_.back();
}

PTXBuilder::Operand *PTXBuilder::literal(StringRef text) {
  operands_.push_back({Operand::Kind::Literal, {}, {}, text.str()});
  return &operands_.back();
}

PTXBuilder::Instr &PTXBuilder::instr(StringRef opcode) {
  instrs_.push_back(Instr(opcode));
  return instrs_.back();
}

void PTXBuilder::verbatim(StringRef text, ArrayRef<Operand *> references) {
  Instr &instr = this->instr(text);
  instr.verbatim = true;
  instr.references.assign(references.begin(), references.end());
}

void PTXBuilder::assignIndices() {
  int next = 0;
  for (Operand &operand : operands_)
    if (operand.kind == Operand::Kind::Output)
      operand.index = next++;
  for (Operand &operand : operands_)
    if (operand.kind == Operand::Kind::Input)
      operand.index = next++;
}

static std::string operandText(const PTXBuilder::Operand *operand) {
  if (operand->kind == PTXBuilder::Operand::Kind::Literal)
    return operand->literal;
  return "$" + std::to_string(operand->index);
}

std::string PTXBuilder::render() {
  assignIndices();
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::ListSeparator lines("\n");
  for (const Instr &instr : instrs_) {
    os << lines;
    if (instr.verbatim) {
      StringRef rest = instr.opcode;
      while (!rest.empty()) {
        size_t percent = rest.find('%');
        os << rest.take_front(percent);
        if (percent == StringRef::npos)
          break;
        rest = rest.drop_front(percent + 1);
        size_t digits =
            std::min(rest.size(),
                     rest.find_if_not([](char c) { return llvm::isDigit(c); }));
        unsigned k = 0;
        if (digits == 0 || rest.take_front(digits).getAsInteger(10, k) ||
            k >= instr.references.size()) {
          os << '%'; // a PTX special register such as %tid.x
          continue;
        }
        os << operandText(instr.references[k]);
        rest = rest.drop_front(digits);
      }
      continue;
    }
    if (instr.predicate)
      os << "@" << (instr.negatePredicate ? "!" : "")
         << operandText(instr.predicate) << " ";
    os << instr.opcode;
    llvm::ListSeparator commas(", ");
    bool first = true;
    for (const Arg &arg : instr.arguments) {
      os << (first ? " " : "") << commas;
      first = false;
      switch (arg.kind) {
      case Arg::Kind::Single:
        os << operandText(arg.operands.front());
        break;
      case Arg::Kind::List: {
        os << "{ ";
        llvm::ListSeparator inner(", ");
        for (const Operand *operand : arg.operands)
          os << inner << operandText(operand);
        os << " }";
        break;
      }
      case Arg::Kind::Address:
        os << "[ " << operandText(arg.operands.front()) << " + " << arg.offset
           << " ]";
        break;
      }
    }
    os << ";";
  }
  return text;
}

std::string PTXBuilder::constraints() {
  SmallVector<std::string> parts;
  for (const Operand &operand : operands_)
    if (operand.kind == Operand::Kind::Output)
      parts.push_back(operand.constraint);
  for (const Operand &operand : operands_)
    if (operand.kind == Operand::Kind::Input)
      parts.push_back(operand.constraint);
  return llvm::join(parts, ",");
}

Value PTXBuilder::launch(OpBuilder &builder, Location loc, Type resultType,
                         bool hasSideEffects) {
  std::string asmText = render();
  std::string constraintText = constraints();
  SmallVector<Value> inputs;
  for (const Operand &operand : operands_)
    if (operand.kind == Operand::Kind::Input)
      inputs.push_back(operand.value);
  auto asmDialect =
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT);
  TypeRange resultTypes = resultType ? TypeRange(resultType) : TypeRange();
  auto op = LLVM::InlineAsmOp::create(
      builder, loc, resultTypes, inputs, asmText, constraintText,
      hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, asmDialect,
      /*operand_attrs=*/ArrayAttr());
  return resultType ? op.getResult(0) : Value();
}

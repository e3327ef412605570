//===- TTAttrs.td - tt dialect enum attributes -------------------*- tablegen -*-===//
//
// Enumerations carried by memory, atomic, dot and conversion ops: cache
// modifiers, eviction policies, atomic kinds, memory semantics and scopes,
// block-pointer padding, dot input precision, rounding modes.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_DIALECT_TT_IR_TTATTRS_TD
#define TRITIUM_DIALECT_TT_IR_TTATTRS_TD

include "mlir/IR/EnumAttr.td"
include "tritium/Dialect/TT/IR/TTDialect.td"

// Stored as i32 attributes (`cache = 3 : i32` in generic form); op assembly
// formats print the case's keyword (`cacheModifier = cg`).
class TT_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::tritium::tt";
}

def TT_CacheModifierAttr : TT_I32Enum<"CacheModifier", "load/store cache operator", [
  I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">]>;

def TT_EvictionPolicyAttr : TT_I32Enum<"EvictionPolicy", "L1/L2 eviction priority", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
  I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]>;

def TT_PaddingOptionAttr : TT_I32Enum<"PaddingOption",
    "value of out-of-bounds elements of a block-pointer load", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]>;

def TT_RMWOpAttr : TT_I32Enum<"RMWOp", "atomic read-modify-write operation", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]>;

def TT_MemSemanticAttr : TT_I32Enum<"MemSemantic", "memory ordering of an atomic", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">,
  I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">,
  I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]>;

def TT_MemSyncScopeAttr : TT_I32Enum<"MemSyncScope", "scope of an atomic", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">]>;

def TT_InputPrecisionAttr : TT_I32Enum<"InputPrecision",
    "how a dot treats fp32 inputs", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">]>;

def TT_RoundingModeAttr : TT_I32Enum<"RoundingMode", "float rounding mode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]>;

def TT_PropagateNanAttr : TT_I32Enum<"PropagateNan", "NaN handling of clamp", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 65535, "all">]>;

#endif // TRITIUM_DIALECT_TT_IR_TTATTRS_TD

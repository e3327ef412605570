"""libdevice, CUDA's device math library, as `triton.language.extra.cuda.libdevice`.

Every function here is a builtin that emits one `tt.extern_elementwise`
op calling a `__nv_*` function of libdevice.10.bc (linked in when the
kernel is lowered to LLVM).  Which function is called depends on the
scalar types of the arguments: `exp(x)` calls `__nv_expf` for fp32 and
`__nv_exp` for fp64, `mulhi(a, b)` calls `__nv_mulhi` for int32 and
`__nv_umulhi` for uint32.

The functions are made from the table below rather than written one by
one.  Syntax of a table line:

    python_name   overload overload ...   [!bool]

An overload is `symbol(ARGS)RET`, the symbol without its `__nv_` prefix
(an empty symbol means the Python name), ARGS and RET in one-letter type
codes: i int32, u uint32, l int64, L uint64, f fp32, d fp64.  `{r}` in a
line stands for each of the four IEEE rounding modes rn, rz, rd, ru.
`!bool` marks predicates that libdevice answers with an int32 and Triton
returns as int1.  The return types follow Triton's libdevice module (e.g.
`float2uint_rn` returns int32 there, so it does here).
"""
import re

from ... import core, semantic
from ...core import builtin
from ...semantic import SemanticError

LIBDEVICE = "libdevice"

_TYPE_CODES = {"i": core.int32, "u": core.uint32, "l": core.int64, "L": core.uint64,
               "f": core.float32, "d": core.float64}
_ROUNDINGS = ("rn", "rz", "rd", "ru")

# fp32/fp64 pairs named `__nv_<name>f` and `__nv_<name>`, by number of arguments
_FLOAT_FAMILIES = {
    1: """acos acosh asin asinh atan atanh cbrt ceil cos cosh cospi cyl_bessel_i0 cyl_bessel_i1 erf erfc
          erfcinv erfcx erfinv exp exp10 exp2 expm1 floor j0 j1 lgamma log log10 log1p log2 logb nearbyint
          normcdf normcdfinv rcbrt rint round rsqrt sin sinh sinpi sqrt tan tanh tgamma trunc y0 y1""",
    2: "atan2 copysign fdim fmod hypot nextafter remainder rhypot",
    3: "fma norm3d rnorm3d",
    4: "norm4d rnorm4d",
}

_TABLE = """
abs                 abs(i)i llabs(l)l fabsf(f)f fabs(d)d
fabs                fabsf(f)f fabs(d)d
min                 min(ii)i umin(uu)u llmin(ll)l ullmin(LL)L fminf(ff)f fmin(dd)d
max                 max(ii)i umax(uu)u llmax(ll)l ullmax(LL)L fmaxf(ff)f fmax(dd)d
fmin                fminf(ff)f fmin(dd)d
fmax                fmaxf(ff)f fmax(dd)d
clz                 clz(i)i clzll(l)i
popc                popc(i)i popcll(l)i
ffs                 ffs(i)i ffsll(l)i
brev                brev(i)i brevll(l)l
byte_perm           (iii)i
mulhi               mulhi(ii)i umulhi(uu)u mul64hi(ll)l umul64hi(LL)L
mul24               mul24(ii)i umul24(uu)u
sad                 sad(iiu)i usad(uuu)u
hadd                hadd(ii)i uhadd(uu)u
rhadd               rhadd(ii)i urhadd(uu)u
rcp64h              (d)d
saturatef           (f)f
rsqrt_rn            frsqrt_rn(f)f
fast_dividef        fast_fdividef(ff)f
fast_powf           (ff)f
fast_sinf           (f)f
fast_cosf           (f)f
fast_tanf           (f)f
fast_tanhf          (f)f
fast_expf           (f)f
fast_exp10f         (f)f
fast_logf           (f)f
fast_log2f          (f)f
fast_log10f         (f)f
add_{r}             fadd_{r}(ff)f dadd_{r}(dd)d
sub_{r}             fsub_{r}(ff)f dsub_{r}(dd)d
mul_{r}             fmul_{r}(ff)f dmul_{r}(dd)d
div_{r}             fdiv_{r}(ff)f ddiv_{r}(dd)d
fma_{r}             fmaf_{r}(fff)f fma_{r}(ddd)d
rcp_{r}             frcp_{r}(f)f drcp_{r}(d)d
sqrt_{r}            fsqrt_{r}(f)f dsqrt_{r}(d)d
double2float_{r}    (d)f
double2int_{r}      (d)i
double2uint_{r}     (d)i
double2ll_{r}       (d)l
double2ull_{r}      (d)l
float2int_{r}       (f)i
float2uint_{r}      (f)i
float2ll_{r}        (f)l
float2ull_{r}       (f)l
int2float_{r}       (i)f
uint2float_{r}      (u)f
ll2float_{r}        (l)f
ull2float_{r}       (L)f
ll2double_{r}       (l)d
ull2double_{r}      (L)d
int2double_rn       (i)d
uint2double_rn      (u)d
hiloint2double      (ii)d
double2loint        (d)i
double2hiint        (d)i
int_as_float        (i)f
float_as_int        (f)i
uint_as_float       (u)f
float_as_uint       (f)i
longlong_as_double  (l)d
double_as_longlong  (d)l
llrint              llrintf(f)l llrint(d)l
llround             llroundf(f)l llround(d)l
ilogb               ilogbf(f)i ilogb(d)i
ldexp               ldexpf(fi)f ldexp(di)d
scalbn              scalbnf(fi)f scalbn(di)d
pow                 powif(fi)f powi(di)d powf(ff)f pow(dd)d
jn                  jnf(if)f jn(id)d
yn                  ynf(if)f yn(id)d
signbit             signbitf(f)i signbitd(d)i
isnan               isnanf(f)i isnand(d)i !bool
isinf               isinff(f)i isinfd(d)i !bool
finitef             finitef(f)i !bool
isfinited           isfinited(d)i !bool
isfinite            finitef(f)i isfinited(d)i !bool
"""

_OVERLOAD = re.compile(r"(\w*)\(([iulLfd]+)\)([iulLfd])")


def _parse_table():
    """{python name: ({(arg dtypes): (symbol, return dtype)}, returns_bool)}"""
    lines = []
    for arity, names in _FLOAT_FAMILIES.items():
        for name in names.split():
            lines.append(f"{name} {name}f({'f' * arity})f {name}({'d' * arity})d")
    for line in _TABLE.strip().splitlines():
        if "{r}" in line:
            lines.extend(line.replace("{r}", r) for r in _ROUNDINGS)
        else:
            lines.append(line)
    table = {}
    for line in lines:
        name, *overloads = line.split()
        returns_bool = overloads[-1] == "!bool"
        if returns_bool:
            overloads.pop()
        entry = {}
        for text in overloads:
            m = _OVERLOAD.fullmatch(text)
            assert m, f"bad libdevice table entry {text!r} for {name}"
            symbol, args, ret = m.groups()
            key = tuple(_TYPE_CODES[c] for c in args)
            assert key not in entry and len(key) == len(next(iter(entry), key)), f"{name}: {text}"
            entry[key] = ("__nv_" + (symbol or name), _TYPE_CODES[ret])
        assert name not in table, f"{name} appears twice in the libdevice table"
        table[name] = (entry, returns_bool)
    return table


def _signature(key):
    return "(" + ", ".join(str(t) for t in key) + ")"


def _make_function(name, overloads, returns_bool):
    arity = len(next(iter(overloads)))

    @builtin
    def fn(*args, **kwargs):
        # Triton's generated functions name their parameters arg0, arg1, ...
        args = list(args)
        for i in range(len(args), arity):
            if f"arg{i}" in kwargs:
                args.append(kwargs.pop(f"arg{i}"))
        kwargs.pop("_semantic", None)
        kwargs.pop("_builder", None)
        if kwargs or len(args) != arity:
            params = ", ".join(f"arg{i}" for i in range(arity))
            raise SemanticError(f"libdevice.{name} takes {arity} argument{'s' if arity > 1 else ''} ({params}), "
                                f"got {len(args)}" + (f" and keywords {sorted(kwargs)}" if kwargs else ""))
        args = [semantic.to_tensor(a) for a in args]
        key = tuple(a.type.scalar for a in args)
        args = semantic.cast_to_overload(args, overloads)
        new_key = tuple(a.type.scalar for a in args)
        if new_key not in overloads:
            supported = ", ".join(_signature(k) for k in overloads)
            raise SemanticError(f"libdevice.{name} has no overload for argument types {_signature(key)}; "
                                f"it takes {supported}")
        result = semantic.extern_elementwise(LIBDEVICE, "", args, {new_key: overloads[new_key]}, True)
        return semantic.cast(result, core.int1) if returns_bool else result

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"libdevice {name}: " + "; ".join(f"{_signature(k)} -> {r} ({s})"
                                                    for k, (s, r) in overloads.items())
                  + (", as int1" if returns_bool else ""))
    fn.overloads = overloads
    fn.returns_bool = returns_bool
    return fn


TABLE = _parse_table()
for _name, (_overloads, _returns_bool) in TABLE.items():
    globals()[_name] = _make_function(_name, _overloads, _returns_bool)
__all__ = sorted(TABLE)
del _name, _overloads, _returns_bool

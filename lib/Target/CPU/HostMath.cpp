//===- HostMath.cpp - libdevice functions the C library lacks -------------===//
//
// Host versions of the libdevice functions without a C library twin, to
// CUDA's definitions, each in double (the float versions compute in double
// and round once):
//   sinpi, cospi     sin(pi x), cos(pi x): x - n/2 is exact for the nearest
//                    half-integer n/2, pi times it is taken in two doubles;
//   erfinv, erfcinv  Giles' single-precision approximation refined by
//                    Halley steps on erf (small arguments) or erfc (the
//                    tails, where 1 - x is exact), the step taken through
//                    erfcx where exp(-x^2) nears underflow;
//   erfcx            exp(x^2) erfc(x) with x^2 in two doubles, and its
//                    asymptotic series from x = 26 (where erfc underflows);
//   normcdf          erfc(-x / sqrt 2) / 2, the quotient in two doubles;
//   normcdfinv       -sqrt(2) erfcinv(2p);
//   rcbrt            1 / cbrt refined by a Newton step;
//   rhypot           1 / hypot;
//   norm3d, norm4d   the root of the sum of squares scaled by a power of
//                    two (exact) so that nothing overflows or underflows,
//                    and their reciprocals rnorm3d, rnorm4d;
//   cyl_bessel_i0/i1 the modified Bessel functions I0, I1: their power
//                    series in two doubles up to |x| = 30, their asymptotic
//                    expansion beyond (e^x taken in two halves);
//   rcp64h           1/x from the high word of x, the result's low word
//                    cleared and subnormals flushed to zero (rcp.approx.ftz
//                    .f64's contract: an approximation to 2^-20 or better);
//   fma_rz/rd/ru     the double fma in the host's rounding mode set for the
//                    call (the rounding mode is per thread).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/HostMath.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kPiLow = 1.2246467991473532e-16; // pi - kPi
constexpr double kSqrtPi = 1.77245385090551602730;
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Low = -4.8336466567264567e-17; // 1/sqrt(2) - kInvSqrt2
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// sin(pi x) (or cos(pi x)).  x = r + n/2 with n the nearest integer to 2x
/// and |r| <= 1/4 exact; the quarter turn n mod 4 picks sin or cos of pi r.
/// Zeros as C23's sinpi and cospi: sinpi of an integer is zero of x's sign,
/// cospi of a half-integer +0.
double halfTurns(double x, bool cosine) {
  if (!std::isfinite(x))
    return x - x; // NaN
  double ax = std::fabs(x);
  if (ax >= 0x1p52) { // an integer
    if (!cosine)
      return std::copysign(0.0, x);
    return ax >= 0x1p53 || std::fmod(ax, 2.0) == 0 ? 1.0 : -1.0;
  }
  double n = std::nearbyint(2 * x);
  double r = x - 0.5 * n;
  int64_t quarter = static_cast<int64_t>(std::fmod(n, 4.0));
  quarter = (quarter + (cosine ? 1 : 0) + 4) % 4;
  if (r == 0) {
    if (quarter % 2 == 1)
      return quarter == 1 ? 1.0 : -1.0;
    return cosine ? 0.0 : std::copysign(0.0, x);
  }
  double hi = kPi * r;
  double lo = std::fma(kPi, r, -hi) + kPiLow * r;
  double s = std::sin(hi), c = std::cos(hi);
  double sinPiR = s + lo * c, cosPiR = c - lo * s;
  switch (quarter) {
  case 0:
    return sinPiR;
  case 1:
    return cosPiR;
  case 2:
    return -sinPiR;
  default:
    return -cosPiR;
  }
}

/// exp(x^2) erfc(x).
double scaledErfc(double x) {
  if (std::isnan(x))
    return x;
  if (x < -27)
    return kInfinity; // (exp(x^2) overflows)
  if (x < 26) {
    double hi = x * x, lo = std::fma(x, x, -hi);
    return std::exp(hi) * std::erfc(x) * (1 + lo);
  }
  if (x > 1e150)
    return (1 / kSqrtPi) / x;
  // 1/(x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k; at x >= 26 the twelfth
  // term is below 1e-27
  double z = 1 / (2 * x * x), term = 1, sum = 1;
  for (int k = 1; k <= 12; ++k) {
    term *= -(2 * k - 1) * z;
    sum += term;
  }
  return sum / (x * kSqrtPi);
}

/// Giles' approximation of erfinv(x), to about 1e-7, with
/// w = -log((1 - x)(1 + x)) given.
double gilesErfinv(double w, double x) {
  double p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
  }
  return p * x;
}

/// Halley's step for a root of f with f'' = -2x f' (erf(x) - t, erfc(x) - y):
/// dx = f / f'.
double halley(double x, double dx) { return x - dx / (1 + x * dx); }

/// The x >= 0 with erfc(x) = y, for 0 < y <= 1/2.
double inverseErfcTail(double y) {
  double t = -std::log(y);
  double x;
  if (t < 30) // (w = -log(y (2 - y)), x = 1 - y in Giles' terms)
    x = gilesErfinv(-std::log(y * (2 - y)), 1 - y);
  else // from erfc(x) ~ exp(-x^2) / (x sqrt(pi))
    x = std::sqrt(t - 0.5 * std::log(kPi * t));
  for (int i = 0; i < 10; ++i) {
    // dx = (erfc(x) - y) / (-2/sqrt(pi) exp(-x^2)); from x = 20 on, as
    // -(sqrt(pi)/2) (erfcx(x) - y exp(x^2)), where exp(-x^2) nears underflow
    double dx;
    if (x < 20) {
      dx = (std::erfc(x) - y) / (-kTwoOverSqrtPi * std::exp(-x * x));
    } else {
      double hi = x * x, lo = std::fma(x, x, -hi);
      dx = -(kSqrtPi / 2) * (scaledErfc(x) - std::exp((hi + std::log(y)) + lo));
    }
    x = halley(x, dx);
    if (std::fabs(dx) <= 0x1p-50 * x)
      break; // (Halley's steps converge cubically: the next would not move x)
  }
  return x;
}

double inverseErf(double x) {
  if (std::isnan(x))
    return x;
  double t = std::fabs(x);
  if (t > 1)
    return kNaN;
  if (t == 1)
    return std::copysign(kInfinity, x);
  if (t == 0)
    return x;
  double r;
  if (t > 0.5) {
    r = inverseErfcTail(1 - t); // (1 - t exact)
  } else {
    r = gilesErfinv(-std::log((1 - t) * (1 + t)), t);
    for (int i = 0; i < 10; ++i) {
      double dx = (std::erf(r) - t) / (kTwoOverSqrtPi * std::exp(-r * r));
      r = halley(r, dx);
      if (std::fabs(dx) <= 0x1p-50 * r)
        break;
    }
  }
  return std::copysign(r, x);
}

double inverseErfc(double y) {
  if (std::isnan(y))
    return y;
  if (y < 0 || y > 2)
    return kNaN;
  if (y == 0)
    return kInfinity;
  if (y == 2)
    return -kInfinity;
  if (y < 0.5)
    return inverseErfcTail(y);
  if (y <= 1.5)
    return inverseErf(1 - y); // (exact)
  return -inverseErfcTail(2 - y); // (exact)
}

/// erfc(-x / sqrt(2)) / 2, the quotient as hi + lo and
/// erfc(hi + lo) = erfc(hi) - lo 2/sqrt(pi) exp(-hi^2).
double normalCdf(double x) {
  if (std::isnan(x))
    return x;
  double hi = -x * kInvSqrt2;
  double lo = std::fma(-x, kInvSqrt2, -hi) - x * kInvSqrt2Low;
  if (!std::isfinite(hi))
    return x > 0 ? 1.0 : 0.0;
  return 0.5 * (std::erfc(hi) - lo * kTwoOverSqrtPi * std::exp(-hi * hi));
}

double inverseNormalCdf(double p) { return 0.0 - kSqrt2 * inverseErfc(2 * p); }

/// sqrt of the sum of squares, scaled by the power of two of the largest
/// magnitude; infinite if any operand is (even with a NaN), as hypot.
double euclideanNorm(std::initializer_list<double> values) {
  double largest = 0;
  bool nan = false;
  for (double v : values) {
    if (std::isinf(v))
      return kInfinity;
    nan = nan || std::isnan(v);
    largest = std::fmax(largest, std::fabs(v));
  }
  if (nan)
    return kNaN;
  if (largest == 0)
    return 0;
  int exponent;
  std::frexp(largest, &exponent);
  double sum = 0;
  for (double v : values) {
    double scaled = std::ldexp(v, -exponent);
    sum = std::fma(scaled, scaled, sum);
  }
  return std::ldexp(std::sqrt(sum), exponent);
}

/// x^(-1/3): x = m 2^(3k) with m in [1/8, 1), 1/cbrt(m) refined by one
/// Newton step whose residual 1 - m y^3 is taken with y^3 in two doubles.
double reciprocalCubeRoot(double x) {
  if (x == 0 || !std::isfinite(x))
    return 1 / std::cbrt(x); // (+-inf, +-0, NaN)
  int exponent;
  double m = std::frexp(std::fabs(x), &exponent);
  int k = exponent >= 0 ? exponent / 3 : -((-exponent + 2) / 3);
  m = std::ldexp(m, exponent - 3 * k); // in [1/8, 1)
  double y = 1 / std::cbrt(m);
  double square = y * y, squareLo = std::fma(y, y, -square);
  double cube = square * y, cubeLo = std::fma(square, y, -cube) + squareLo * y;
  double residual = std::fma(-m, cube, 1.0) - m * cubeLo;
  y += y * residual / 3;
  return std::copysign(std::ldexp(y, -k), x);
}

/// I_nu(x) for nu = 0 or 1.
double besselI(int nu, double x) {
  if (std::isnan(x))
    return x;
  double ax = std::fabs(x);
  double sign = nu == 1 && std::signbit(x) ? -1.0 : 1.0;
  if (ax <= 30) {
    // (x/2)^nu sum_k (x^2/4)^k / (k! (k + nu)!), all terms positive; each
    // term from the last and the sum in two doubles (hi + lo), or the
    // roundings of the terms' products add up to several ulps
    double qHi = ax * ax, qLo = std::fma(ax, ax, -qHi);
    qHi *= 0.25;
    qLo *= 0.25;
    double termHi = nu == 1 ? ax / 2 : 1, termLo = 0, sumHi = termHi, sumLo = 0;
    for (int k = 1; k < 200 && termHi > sumHi * 0x1p-60; ++k) {
      double d = static_cast<double>(k) * (k + nu); // (exact)
      double ratioHi = qHi / d, ratioLo = (std::fma(-ratioHi, d, qHi) + qLo) / d;
      double product = termHi * ratioHi;
      double productLo = std::fma(termHi, ratioHi, -product) + (termHi * ratioLo + termLo * ratioHi);
      termHi = product + productLo;
      termLo = productLo - (termHi - product);
      double sum = sumHi + termHi, back = sum - sumHi;
      sumLo += ((sumHi - (sum - back)) + (termHi - back)) + termLo;
      sumHi = sum;
    }
    return sign * (sumHi + sumLo);
  }
  if (ax > 720)
    return sign * kInfinity;
  // e^x / sqrt(2 pi x) sum_k (-1)^k prod_j (4 nu^2 - (2j - 1)^2) / (k! (8x)^k)
  double term = 1, sum = 1;
  for (int k = 1; k < 60; ++k) {
    double next = term * -(4.0 * nu * nu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * ax);
    if (std::fabs(next) >= std::fabs(term))
      break; // the series is asymptotic: stop at its smallest term
    term = next;
    sum += term;
    if (std::fabs(term) < 0x1p-60 * std::fabs(sum))
      break;
  }
  double half = std::exp(ax / 2);
  return sign * (half * (half * sum / std::sqrt(2 * kPi * ax)));
}

double highWordReciprocal(double x) {
  if (std::isnan(x))
    return x;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits &= ~uint64_t(0xFFFFFFFF);
  double high;
  std::memcpy(&high, &bits, sizeof high);
  if (std::fpclassify(high) == FP_SUBNORMAL)
    high = std::copysign(0.0, high);
  double result = 1 / high;
  std::memcpy(&bits, &result, sizeof bits);
  bits &= ~uint64_t(0xFFFFFFFF);
  std::memcpy(&result, &bits, sizeof result);
  if (std::fpclassify(result) == FP_SUBNORMAL)
    result = std::copysign(0.0, result);
  return result;
}

/// The C library's fma, called through a pointer the compiler cannot see
/// through, so that the call stays between the rounding-mode changes.
double (*volatile const libraryFma)(double, double, double) = ::fma;

double fmaRounded(double a, double b, double c, int mode) {
  int saved = std::fegetround();
  std::fesetround(mode);
  double result = libraryFma(a, b, c);
  std::fesetround(saved);
  return result;
}

} // namespace

// The symbols host programs call (C linkage, unmangled).
extern "C" {
#define TRITIUM_HOST_MATH_1(name, expr)                                                                       \
  double tritium_host_##name(double x) { return expr; }                                                      \
  float tritium_host_##name##f(float x) {                                                                    \
    return static_cast<float>(tritium_host_##name(static_cast<double>(x)));                                  \
  }
TRITIUM_HOST_MATH_1(sinpi, halfTurns(x, false))
TRITIUM_HOST_MATH_1(cospi, halfTurns(x, true))
TRITIUM_HOST_MATH_1(erfinv, inverseErf(x))
TRITIUM_HOST_MATH_1(erfcinv, inverseErfc(x))
TRITIUM_HOST_MATH_1(erfcx, scaledErfc(x))
TRITIUM_HOST_MATH_1(normcdf, normalCdf(x))
TRITIUM_HOST_MATH_1(normcdfinv, inverseNormalCdf(x))
TRITIUM_HOST_MATH_1(rcbrt, reciprocalCubeRoot(x))
TRITIUM_HOST_MATH_1(cyl_bessel_i0, besselI(0, x))
TRITIUM_HOST_MATH_1(cyl_bessel_i1, besselI(1, x))
#undef TRITIUM_HOST_MATH_1

double tritium_host_rhypot(double x, double y) { return 1 / std::hypot(x, y); }
float tritium_host_rhypotf(float x, float y) {
  return static_cast<float>(1 / std::hypot(static_cast<double>(x), static_cast<double>(y)));
}
double tritium_host_norm3d(double a, double b, double c) { return euclideanNorm({a, b, c}); }
float tritium_host_norm3df(float a, float b, float c) {
  return static_cast<float>(euclideanNorm({a, b, c}));
}
double tritium_host_rnorm3d(double a, double b, double c) { return 1 / euclideanNorm({a, b, c}); }
float tritium_host_rnorm3df(float a, float b, float c) {
  return static_cast<float>(1 / euclideanNorm({a, b, c}));
}
double tritium_host_norm4d(double a, double b, double c, double d) { return euclideanNorm({a, b, c, d}); }
float tritium_host_norm4df(float a, float b, float c, float d) {
  return static_cast<float>(euclideanNorm({a, b, c, d}));
}
double tritium_host_rnorm4d(double a, double b, double c, double d) { return 1 / euclideanNorm({a, b, c, d}); }
float tritium_host_rnorm4df(float a, float b, float c, float d) {
  return static_cast<float>(1 / euclideanNorm({a, b, c, d}));
}
double tritium_host_rcp64h(double x) { return highWordReciprocal(x); }
double tritium_host_fma_rz(double a, double b, double c) { return fmaRounded(a, b, c, FE_TOWARDZERO); }
double tritium_host_fma_rd(double a, double b, double c) { return fmaRounded(a, b, c, FE_DOWNWARD); }
double tritium_host_fma_ru(double a, double b, double c) { return fmaRounded(a, b, c, FE_UPWARD); }
}

llvm::ArrayRef<tritium::cpu::HostMathFunction> tritium::cpu::hostMathFunctions() {
#define TRITIUM_HOST_MATH(name, operands)                                                                     \
  {#name, "tritium_host_" #name, reinterpret_cast<void *>(&tritium_host_##name), false, operands},          \
      {#name "f", "tritium_host_" #name "f", reinterpret_cast<void *>(&tritium_host_##name##f), true, operands}
  static const HostMathFunction table[] = {
      TRITIUM_HOST_MATH(sinpi, 1),         TRITIUM_HOST_MATH(cospi, 1),  TRITIUM_HOST_MATH(erfinv, 1),
      TRITIUM_HOST_MATH(erfcinv, 1),       TRITIUM_HOST_MATH(erfcx, 1),  TRITIUM_HOST_MATH(normcdf, 1),
      TRITIUM_HOST_MATH(normcdfinv, 1),    TRITIUM_HOST_MATH(rcbrt, 1),  TRITIUM_HOST_MATH(cyl_bessel_i0, 1),
      TRITIUM_HOST_MATH(cyl_bessel_i1, 1), TRITIUM_HOST_MATH(rhypot, 2), TRITIUM_HOST_MATH(norm3d, 3),
      TRITIUM_HOST_MATH(rnorm3d, 3),       TRITIUM_HOST_MATH(norm4d, 4), TRITIUM_HOST_MATH(rnorm4d, 4),
      {"rcp64h", "tritium_host_rcp64h", reinterpret_cast<void *>(&tritium_host_rcp64h), false, 1},
      {"fma_rz", "tritium_host_fma_rz", reinterpret_cast<void *>(&tritium_host_fma_rz), false, 3},
      {"fma_rd", "tritium_host_fma_rd", reinterpret_cast<void *>(&tritium_host_fma_rd), false, 3},
      {"fma_ru", "tritium_host_fma_ru", reinterpret_cast<void *>(&tritium_host_fma_ru), false, 3},
  };
#undef TRITIUM_HOST_MATH
  return table;
}

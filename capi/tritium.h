/*===- tritium.h - the C ABI of libtritium.so ---------------------*- C -*-===*
 *
 * The whole boundary between Python (ctypes) and the native compiler.  Every
 * entry point reports failure through its return value and a diagnostics
 * string; none aborts the process on bad input.  Strings returned through
 * `char **` are owned by the caller and freed with tritium_free().
 *
 *===----------------------------------------------------------------------===*/
#ifndef TRITIUM_CAPI_TRITIUM_H
#define TRITIUM_CAPI_TRITIUM_H

#include <stddef.h>

#if defined(__GNUC__)
#define TRITIUM_API __attribute__((visibility("default")))
#else
#define TRITIUM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the native library, e.g. "0.1.0 (MLIR 22.1.8)". Static storage. */
TRITIUM_API const char *tritium_version(void);

/* The C ABI revision: bumped whenever an entry point changes. */
TRITIUM_API int tritium_abi_version(void);

/* Parses `text` (MLIR assembly; `len` bytes, need not be NUL-terminated) in a
 * fresh context that knows Tritium's dialects, and verifies it.  Locations in
 * diagnostics name `source_name`.  Returns 0 on success and stores the
 * module's canonical printed form in *printed; returns 1 on failure and stores
 * every diagnostic ("file:line:col: error: message" plus the source line and
 * a caret) in *diagnostics.  Either output may be NULL if not wanted. */
TRITIUM_API int tritium_parse_and_verify(const char *text, size_t len,
                                         const char *source_name,
                                         char **printed, char **diagnostics);

/* Frees a string returned by this library. */
TRITIUM_API void tritium_free(char *p);

#ifdef __cplusplus
}
#endif

#endif /* TRITIUM_CAPI_TRITIUM_H */

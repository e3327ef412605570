/* Force-included into every file of an AddressSanitizer build (CMake option
 * TRITIUM_SANITIZE with "address").
 *
 * Debian's LLVM and MLIR libraries are not built with AddressSanitizer, but
 * their headers poison and unpoison allocator memory whenever the file that
 * includes them is (llvm/Support/Compiler.h: LLVM_ADDRESS_SANITIZER_BUILD;
 * Allocator.h, Recycler.h, ArrayRecycler.h).  An allocator whose slab was
 * poisoned by inline code in one of our files then hands out memory from the
 * library's own, uninstrumented copy of the code, which never unpoisons it,
 * and the next access from our code is reported as "use of poisoned memory"
 * although it is not.  This turns those header calls into no-ops; ASan's own
 * tracking of heap, stack and globals is unaffected. */
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))

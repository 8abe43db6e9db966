// Counts heap allocations by defining the allocator's entry points in the benchmark executable. The dynamic
// linker resolves every library's calls to malloc & co. (the Swift runtime's swift_slowAlloc included) to the
// executable's definitions first; these count and forward to glibc's own implementations (__libc_malloc & co.).
// glibc-specific, benchmark-only: never linked into the product.
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#include "MallocCounter.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic unsigned long long allocations;

static inline void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void free(void *pointer) { __libc_free(pointer); }

unsigned long long malloc_counter_count(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// Number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by the
/// process since it started. Linked only into the core benchmark, which interposes the allocator.
unsigned long long malloc_counter_count(void);

#endif

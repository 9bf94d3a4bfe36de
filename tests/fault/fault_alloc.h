/* fault_alloc.h — the allocation hook of fault_alloc.c (see there). */
#ifndef BL_FAULT_ALLOC_H
#define BL_FAULT_ALLOC_H

/* Counts allocations from now on and fails the k-th (k <= 0: none); the
 * failure appends "K PID" to the file mark (NULL or "": no mark). */
void bl_fault_arm(long k, const char *mark);

#endif

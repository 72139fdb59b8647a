/*
 * mem_internal.h — data structures shared by the files of mem-model/.
 * Not part of the public interface (mem.h).
 */
#ifndef SMC_MEM_INTERNAL_H
#define SMC_MEM_INTERNAL_H

#include "coalesce.h"

#endif /* SMC_MEM_INTERNAL_H */

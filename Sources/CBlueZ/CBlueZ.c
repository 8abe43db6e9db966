/* The wrappers are static inline in include/CBlueZ.h; this file gives the C target a source. */
#include "CBlueZ.h"

/* Compiles the assertions alone (a translation unit with nothing else in it). */
#include "abi_asserts.h"

#include "CBlueZ.h"

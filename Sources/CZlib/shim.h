#ifndef USERBACKENDKIT_CZLIB_SHIM_H
#define USERBACKENDKIT_CZLIB_SHIM_H
#include <zlib.h>
#endif

#ifndef USERBACKENDKIT_CIDN2_SHIM_H
#define USERBACKENDKIT_CIDN2_SHIM_H
#include <idn2.h>

/// A domain name (UTF-8, NUL-terminated) to its IDNA ASCII form: NFC input, UTS #46
/// non-transitional processing. `*output` is allocated by libidn2 (free it with
/// `idn2_free`); returns IDN2_OK (0) or a negative libidn2 error code.
static inline int ubk_idn2_lookup(const char *input, char **output) {
  return idn2_to_ascii_8z(input, output, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
}
#endif

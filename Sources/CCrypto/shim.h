#ifndef USERBACKENDKIT_CCRYPTO_SHIM_H
#define USERBACKENDKIT_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#endif

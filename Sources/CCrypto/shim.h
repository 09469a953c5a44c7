#ifndef USERBACKENDKIT_CCRYPTO_SHIM_H
#define USERBACKENDKIT_CCRYPTO_SHIM_H
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#endif

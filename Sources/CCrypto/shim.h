#ifndef REQRUN_CCRYPTO_SHIM_H
#define REQRUN_CCRYPTO_SHIM_H
/* Only the message-digest part of libcrypto (EVP, OpenSSL 3). */
#include <openssl/evp.h>
#endif

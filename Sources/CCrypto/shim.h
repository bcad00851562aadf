#ifndef REQRUN_CCRYPTO_SHIM_H
#define REQRUN_CCRYPTO_SHIM_H
/* The parts of libcrypto (OpenSSL 3) reqrun uses: message digests and HMAC (EVP), and RSA signatures with a
 * PEM private key (EVP_DigestSign, PEM_read_bio_PrivateKey) for OAuth 1.0a RSA-SHA1 and JWT RS256; RSASSA-PSS
 * padding (rsa.h) and ECDSA signatures turned from DER into JWS's r||s (ecdsa.h, bn.h) for JWT PS* and ES*. */
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#endif

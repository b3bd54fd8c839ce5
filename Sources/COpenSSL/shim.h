#ifndef PUSHBUTTON_COPENSSL_SHIM_H
#define PUSHBUTTON_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

// OPENSSL_free is a macro (it passes __FILE__ and __LINE__), which Swift cannot call.
static inline void pushbutton_openssl_free(void *pointer) {
    OPENSSL_free(pointer);
}

// BIO_get_mem_data is a macro over BIO_ctrl.
static inline long pushbutton_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

#endif

#ifndef PUSHBUTTON_COPENSSL_SHIM_H
#define PUSHBUTTON_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// OPENSSL_free is a macro (it passes __FILE__ and __LINE__), which Swift cannot call.
static inline void pushbutton_openssl_free(void *pointer) {
    OPENSSL_free(pointer);
}

// A pass-phrase callback that never prompts. Without one, OpenSSL asks on the terminal (and reads standard
// input) for an encrypted key, which would swallow a bulk send's NDJSON input. Failing makes the load fail.
static inline int pushbutton_no_passphrase(char *buffer, int size, int rwflag, void *user) {
    (void)buffer; (void)size; (void)rwflag; (void)user;
    return -1;
}

static inline EVP_PKEY *pushbutton_pem_read_private_key(BIO *bio) {
    return PEM_read_bio_PrivateKey(bio, NULL, pushbutton_no_passphrase, NULL);
}

static inline void pushbutton_ssl_ctx_never_prompt(SSL_CTX *context) {
    SSL_CTX_set_default_passwd_cb(context, pushbutton_no_passphrase);
}

// BIO_get_mem_data is a macro over BIO_ctrl.
static inline long pushbutton_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

// TLS for the sender and the mock APNs server. These are macros over SSL_CTX_ctrl, SSL_ctrl and EVP_PKEY_Q_keygen.
static inline int pushbutton_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

static inline void pushbutton_ssl_set_partial_write(SSL *ssl) {
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

// SSL_set_tlsext_host_name is a macro over SSL_ctrl: the server name the sender asks for (SNI).
static inline int pushbutton_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline EVP_PKEY *pushbutton_generate_p256_key(void) {
    return EVP_EC_gen("P-256");
}

// PKCS#12 client certificates: the chain's stack macros, and SSL_CTX_add1_chain_cert (a macro over SSL_CTX_ctrl).
static inline int pushbutton_sk_x509_num(STACK_OF(X509) *stack) {
    return stack == NULL ? 0 : sk_X509_num(stack);
}

static inline X509 *pushbutton_sk_x509_value(STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

static inline void pushbutton_sk_x509_free_all(STACK_OF(X509) *stack) {
    if (stack != NULL) sk_X509_pop_free(stack, X509_free);
}

static inline int pushbutton_ssl_ctx_add1_chain_cert(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

// The mock's client-certificate checks: require one, verified against the configured CA.
static inline void pushbutton_ssl_ctx_require_client_certificate(SSL_CTX *context) {
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
}

#endif

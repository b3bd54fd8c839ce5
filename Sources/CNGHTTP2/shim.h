#ifndef PUSHBUTTON_CNGHTTP2_SHIM_H
#define PUSHBUTTON_CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

// Reading the common frame header through the union is clearer in C than in Swift.
static inline uint8_t pushbutton_nghttp2_frame_type(const nghttp2_frame *frame) { return frame->hd.type; }
static inline uint8_t pushbutton_nghttp2_frame_flags(const nghttp2_frame *frame) { return frame->hd.flags; }
static inline int32_t pushbutton_nghttp2_frame_stream_id(const nghttp2_frame *frame) { return frame->hd.stream_id; }
static inline uint8_t pushbutton_nghttp2_headers_category(const nghttp2_frame *frame) {
    return (uint8_t)frame->headers.cat;
}

// A GOAWAY's debug data (APNs puts a JSON reason there).
static inline const uint8_t *pushbutton_nghttp2_goaway_data(const nghttp2_frame *frame, size_t *length) {
    *length = frame->goaway.opaque_data_len;
    return frame->goaway.opaque_data;
}

#endif

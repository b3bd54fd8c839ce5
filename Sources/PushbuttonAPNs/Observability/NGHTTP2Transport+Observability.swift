#if canImport(CNGHTTP2) && canImport(COpenSSL)
    extension NGHTTP2Transport: ObservableTransport {
        /// Reports every connection's events to `observer` from now on.
        func attach(_ observer: any APNsObserver) {
            for loop in loops { loop.observers.attach(observer) }
        }
    }
#endif

#if canImport(CNGHTTP2) && canImport(COpenSSL)
    extension APNsClient {
        /// A client for `environment` that authenticates with the provider key in `keyFile`
        /// (`AuthKey_<KEY ID>.p8`), on the default HTTP/2 transport: the common case in one call.
        ///
        /// ```swift
        /// let client = try APNsClient(
        ///     environment: .production, keyFile: "AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        /// ```
        ///
        /// For certificate authentication, another transport or a custom retry policy, use
        /// ``init(transport:tokens:retryPolicy:requestTimeout:jitter:)``.
        ///
        /// - Parameters:
        ///   - environment: ``APNsEnvironment/production`` or ``APNsEnvironment/sandbox`` (or a local stand-in).
        ///   - keyFile: the path of the `.p8` key Apple issued (keep it private: mode 0600).
        ///   - keyID: the key's 10-character identifier.
        ///   - teamID: your team's 10-character identifier.
        ///   - connections: HTTP/2 connections to keep (each carries about 1000 concurrent streams).
        ///   - observer: receives the client's ``APNsEvent``s (see ``APNsObserver``).
        /// - Throws: ``KeyError`` when the key cannot be read, ``APNsError`` when the transport cannot start.
        public convenience init(
            environment: APNsEnvironment, keyFile: String, keyID: String, teamID: String, connections: Int = 1,
            observer: (any APNsObserver)? = nil
        ) throws {
            let key = try P256PrivateKey(contentsOf: keyFile)
            let transport = try NGHTTP2Transport(
                TransportConfiguration(environment: environment, connections: connections))
            self.init(
                transport: transport, tokens: TokenProvider(key: key, keyID: keyID, teamID: teamID), observer: observer)
        }
    }
#endif

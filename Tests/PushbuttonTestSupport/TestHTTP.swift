import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP client session of the tests that call a gateway over a socket: `URLSession.shared` without a cache.
///
/// FoundationNetworking (Linux) traps the process when a task of a session with a `URLCache` is cancelled while the
/// cache is read ("Trying to access a behaviour for a task that in not in the registry", TaskRegistry.swift): the
/// cancel's failure is reported after the task left the session's registry. A test's request is cancelled when its
/// time limit or task group ends it, and one run of `make test` as one process was killed so. Without a cache the
/// window does not exist.
package enum TestHTTP {
    /// An ephemeral session with no cache.
    package static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that hold secrets — a provider key, a certificate's key, a PKCS#12 bundle, a pass phrase, a
/// configuration with a webhook secret — should be readable by their owner only, as ssh and gpg insist.
/// Pushbutton warns and goes on (a refusal would stop deploys whose secret mounts default to 0644, as
/// Kubernetes' do); the warning names the file, who else can read it, and the fix.
package enum SecretFile {
    /// A one-line warning when `path` is a regular file that its group or other users may read or change;
    /// nil when it is private to its owner, or cannot be examined (reading it reports that).
    ///
    /// - Parameter what: what the file holds, as the warning names it ("the provider key").
    package static func exposureWarning(_ path: String, holding what: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 != 0 else { return nil }
        let who = mode & 0o007 != 0 ? "every user of this machine" : "its group"
        let octal = String(mode, radix: 8)
        return "\(what) '\(path)' is open to \(who) (mode 0\(octal)): make it private with chmod 600 '\(path)'"
    }
}

import Foundation
import PushbuttonSupport

extension SendSetup {
    /// Warns, a line each on standard error, about the secret files of the command line (the provider key,
    /// a certificate's key or PKCS#12 bundle, its pass phrase file) that other users may read; `send` goes on.
    static func warnAboutOpenSecrets(_ arguments: ParsedArguments, console: Console) throws {
        var files: [(path: String?, what: String)] = [
            (try arguments[SendCommand.key], "the provider key (--key)"),
            (try arguments[SendCommand.certKey], "the certificate key (--cert-key)"),
            (try arguments[SendCommand.certPassphraseFile], "the pass phrase file (--cert-passphrase-file)"),
        ]
        if !arguments.isGiven(SendCommand.certKey) {
            files.append((try arguments[SendCommand.cert], "the PKCS#12 bundle (--cert)"))
        }
        for file in files {
            if let path = file.path, let warning = SecretFile.exposureWarning(path, holding: file.what) {
                console.printError("pushbutton: warning: \(warning)")
            }
        }
    }
}

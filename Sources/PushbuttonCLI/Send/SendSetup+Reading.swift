import Foundation
import Pushbutton
import PushbuttonAPNs

/// The parts of `pushbutton send`'s command line that ``SendSetup/init(_:console:)`` reads, one question each, in
/// the order their errors are reported.
extension SendSetup {
    /// Token (`--key`, `--key-id`, `--team-id`) or certificate (`--cert`, `--cert-key`) authentication.
    static func authentication(_ arguments: ParsedArguments) throws -> (
        token: (key: P256PrivateKey, keyID: String, teamID: String)?, certificate: ClientCertificate?
    ) {
        if let certificate = try arguments[SendCommand.cert] {
            guard !arguments.isGiven(SendCommand.key) else {
                throw UsageError("use either --key (token) or --cert (certificate) authentication")
            }
            let lowercased = certificate.lowercased()
            if !arguments.isGiven(SendCommand.certKey) && (lowercased.hasSuffix(".p12") || lowercased.hasSuffix(".pfx"))
            {
                return (nil, .pkcs12(file: certificate, passphraseFile: try arguments[SendCommand.certPassphraseFile]))
            }
            if arguments.isGiven(SendCommand.certPassphraseFile) {
                throw UsageError(
                    "--cert-passphrase-file goes with a PKCS#12 certificate (--cert FILE.p12); PEM keys must be "
                        + "unencrypted")
            }
            guard arguments.isGiven(SendCommand.certKey) else {
                throw UsageError(
                    "--cert needs --cert-key FILE (PEM), or give a .p12 / .pfx file (with --cert-passphrase-file FILE)")
            }
            return (nil, .pem(certificate: certificate, key: try arguments.required(SendCommand.certKey)))
        }
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(contentsOf: try arguments.required(SendCommand.key))
        } catch let error as KeyError {
            throw CommandFailure("the provider key: \(error.message)")
        }
        return ((key, try arguments.required(SendCommand.keyID), try arguments.required(SendCommand.teamID)), nil)
    }

    /// The payload from `--payload FILE` or from payload flags (not both), or `nil` for NDJSON input.
    static func payload(_ arguments: ParsedArguments, console: Console) throws -> [UInt8]? {
        if PayloadFlags.given(arguments) {
            guard !arguments.isGiven(SendCommand.payload) else {
                throw UsageError(
                    "--payload and payload flags (\(PayloadFlags.givenNames(arguments).joined(separator: ", "))) "
                        + "cannot be combined: put everything in the file, or build it from flags only")
            }
            return PayloadWriter.encode(try PayloadFlags.build(arguments))
        }
        return try (try arguments[SendCommand.payload]).map { try console.read($0) }
    }

    /// The `--token` values and the `--tokens` file (checked readable now, read while sending); `nil` tokens
    /// when neither is given (NDJSON on standard input).
    static func recipients(_ arguments: ParsedArguments, hasPayload: Bool) throws -> (
        tokens: [String]?, tokenFile: String?
    ) {
        let tokens = try arguments[SendCommand.token]
        let tokenFile = try arguments[SendCommand.tokens]
        // `access`, not an open: a FIFO or `<(…)` can be opened and read only once, while sending.
        if let tokenFile, access(tokenFile, R_OK) != 0 {
            throw CommandFailure("cannot read the token file '\(tokenFile)': \(String(cString: strerror(errno)))")
        }
        if tokens.isEmpty && tokenFile == nil { return (nil, nil) }
        guard hasPayload else { throw UsageError("give a payload: --payload FILE or payload flags such as --body") }
        return (tokens, tokenFile)
    }

    /// Prints the payload's warnings and errors, and refuses it with errors. The checks that need no manifest
    /// run on the command line's payload even without `--manifest`.
    static func check(
        _ payload: [UInt8], with validator: PayloadValidator?, pushType: PushType, priority: Int?, console: Console
    ) throws {
        let problems = (validator ?? PayloadValidator()).validate(
            jsonBytes: payload, context: .init(pushType: pushType, priority: priority)
        ).diagnostics
        for problem in problems where problem.severity >= .warning {
            console.printError(DiagnosticPrinter.human(problem, file: "payload"))
        }
        if problems.containsErrors {
            throw CommandFailure("the payload does not pass validation (see above); nothing was sent")
        }
    }

    /// With --apps, the apps file gives credentials and environments: the flags for one app are refused.
    static func refuseBesideApps(_ arguments: ParsedArguments) throws(UsageError) {
        let given =
            [SendCommand.key, SendCommand.cert, SendCommand.certKey, SendCommand.keyID, SendCommand.teamID]
            .filter { arguments.isGiven($0) }.map(\.name)
            + [SendCommand.host, SendCommand.ca, SendCommand.certPassphraseFile].filter { arguments.isGiven($0) }
            .map(\.name) + (arguments.isGiven(SendCommand.port) ? ["--port"] : [])
            + (arguments[SendCommand.sandbox] ? ["--sandbox"] : []) + (arguments[SendCommand.h2c] ? ["--h2c"] : [])
        guard given.isEmpty else {
            throw UsageError(
                "--apps gives each app's credentials and environment; \(given.joined(separator: ", ")) cannot be "
                    + "combined with it")
        }
    }

    /// `--proxy URL`, else the environment's `HTTPS_PROXY` (and `NO_PROXY`); nil with `--no-proxy`.
    static func proxy(_ arguments: ParsedArguments) throws -> HTTPProxy? {
        try proxy(given: try arguments[SendCommand.proxy], direct: arguments[SendCommand.noProxy])
    }

    /// The proxy a command uses: `given` (with the environment's `NO_PROXY`), none when `direct`, else the
    /// environment's; a bad URL is a usage error without its credentials.
    static func proxy(given: String?, direct: Bool) throws -> HTTPProxy? {
        if direct {
            guard given == nil else { throw UsageError("--proxy and --no-proxy cannot be combined; give one") }
            return nil
        }
        do {
            if let given {
                return try HTTPProxy(url: given, bypass: HTTPProxy.environmentBypass())
            }
            return try HTTPProxy.environment()
        } catch {
            throw UsageError(given == nil ? error.message : "--proxy: \(error.message)")
        }
    }
}

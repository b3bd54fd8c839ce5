import Foundation
import Pushbutton
import PushbuttonAPNs

/// The parts of `pushbutton send`'s command line that ``SendSetup/init(_:console:)`` reads, one question each, in
/// the order their errors are reported.
extension SendSetup {
    /// Token (`--key`, `--key-id`, `--team-id`) or certificate (`--cert`, `--cert-key`) authentication.
    static func authentication(_ arguments: ParsedArguments) throws -> (
        token: (key: P256PrivateKey, keyID: String, teamID: String)?, certificate: (certificate: String, key: String)?
    ) {
        if let certificate = try arguments[SendCommand.cert] {
            guard !arguments.isGiven(SendCommand.key) else {
                throw UsageError("use either --key (token) or --cert (certificate) authentication")
            }
            return (nil, (certificate, try arguments.required(SendCommand.certKey)))
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
}

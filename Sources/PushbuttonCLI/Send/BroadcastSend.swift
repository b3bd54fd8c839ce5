import Foundation
import Pushbutton
import PushbuttonAPNs

/// `pushbutton send --channel ID`: one broadcast to a channel's subscribers, with send's credentials,
/// environment and payload options.
enum BroadcastSend {
    static func run(
        _ arguments: ParsedArguments, channelID: String, console: Console, observer: (any APNsObserver)?
    ) async throws -> Int32 {
        let deviceOptions: [any OptionDeclaration] = [
            SendCommand.token, SendCommand.tokens, SendCommand.shard, SendCommand.collapseID, SendCommand.inFlight,
        ]
        let given = deviceOptions.filter { arguments.isGiven($0) }.map(\.name)
        if !given.isEmpty {
            throw UsageError(
                "--channel broadcasts to a channel's subscribers: \(given.joined(separator: ", ")) do not go with it")
        }
        if let pushType = try arguments[SendCommand.pushType], pushType != APNsBroadcast.pushType.rawValue {
            throw UsageError("a broadcast's push type is liveactivity, not '\(pushType)': drop --push-type")
        }
        if let problem = APNsChannelRequest.channelIDProblem(channelID) { throw UsageError("--channel: " + problem) }
        let (token, certificate) = try SendSetup.authentication(arguments)
        let bundleID = ChannelsCommand.bundleID(try arguments.required(SendCommand.topic))
        let environment = try SendSetup.environment(arguments)
        let priority = try arguments[SendCommand.priority]
        let expiration = try arguments[SendCommand.expiration].map(Int64.init)
        let timeout = try arguments[SendCommand.timeout] ?? .seconds(30)
        let validator = try (try arguments[SendCommand.manifest]).map {
            PayloadValidator(manifest: try ManifestLoading.load($0, console: console))
        }
        guard let payload = try SendSetup.payload(arguments, console: console) else {
            throw UsageError("give the broadcast's payload: --payload FILE or payload flags")
        }
        try SendSetup.check(
            payload, with: validator, pushType: APNsBroadcast.pushType, priority: priority, console: console)
        let broadcast = APNsBroadcast(
            bundleID: bundleID, channelID: channelID, payload: payload, priority: priority, expiration: expiration)
        if let problem = broadcast.problem { throw UsageError(problem) }
        let transport: NGHTTP2Transport
        do {
            transport = try NGHTTP2Transport(
                TransportConfiguration(
                    environment: environment, proxy: try SendSetup.proxy(arguments), certificate: certificate))
        } catch {
            throw CommandFailure("cannot start the HTTP/2 transport: \(error)")
        }
        let client = APNsClient(
            transport: transport, tokens: token.map { TokenProvider(key: $0.key, keyID: $0.keyID, teamID: $0.teamID) },
            requestTimeout: timeout, observer: observer)
        let result = await client.send(broadcast)
        await client.shutdown()
        console.print("channel \(channelID): \(result)")
        if case .rejected(_, _, let reason, _) = result, let hint = reason.channelHint {
            console.printError("pushbutton: \(hint)")
        }
        return result.isDelivered ? ExitStatus.success : ExitStatus.failure
    }
}

import Foundation
import Pushbutton
import PushbuttonAPNs

/// `pushbutton channels create|list|read|delete [CHANNEL]`: broadcast channels of one app, through APNs'
/// channel management API.
struct ChannelsCommand: Command {
    let name = "channels"
    let summary = "Create, list, read or delete the broadcast channels (iOS 18 Live Activities) of an app."
    let discussion = """
        create  makes a channel for --topic BUNDLE (--storage-policy none or most-recent, default none) and
                prints its id: the id devices subscribe with and `pushbutton send --channel ID` broadcasts to.
        list    prints every channel id of the app, one per line.
        read    prints a channel's id, storage policy and push type.
        delete  deletes a channel; its id is never given out again.
        Credentials and the environment are those of `pushbutton send` (--key/--key-id/--team-id or
        --cert/--cert-key; production, --sandbox, or a stand-in with --host). APNs manages channels on hosts
        of their own: api-manage-broadcast.push.apple.com:2196, and the sandbox's on 2195. --json prints one
        JSON object per line instead, with the apns-request-id. A refusal prints APNs' status and reason on
        stderr and exits 1; a wrong command line exits 2.
        """
    static let storagePolicy = Option<APNsMessageStoragePolicy>(
        "--storage-policy", value: "POLICY", help: "create: none (default) or most-recent."
    ) { text, option throws(UsageError) in
        switch text {
        case "none": return .noMessageStored
        case "most-recent": return .mostRecentMessageStored
        default:
            guard let policy = APNsMessageStoragePolicy(name: text) else {
                throw UsageError("\(option) '\(text)' is not a storage policy: use none or most-recent")
            }
            return policy
        }
    }
    static let json = Flag("--json", help: "Print one JSON object per line.")
    let arguments = ArgumentSpec(
        options: [
            SendCommand.key, SendCommand.cert, SendCommand.certKey, SendCommand.keyID, SendCommand.teamID,
            SendCommand.topic, SendCommand.host, SendCommand.port, SendCommand.ca, SendCommand.timeout,
            Self.storagePolicy, SendCommand.certPassphraseFile, SendCommand.proxy,
        ],
        flags: [SendCommand.sandbox, SendCommand.h2c, Self.json, SendCommand.noProxy],
        positionals: ["create|list|read|delete", "[CHANNEL]"], minimum: 1, maximum: 2)

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let verb = arguments.positionals[0]
        let channelID = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        switch verb {
        case "create", "list":
            if let channelID { throw UsageError("channels \(verb) takes no channel id, got '\(channelID)'") }
        case "read", "delete":
            guard channelID != nil else {
                throw UsageError("channels \(verb) needs the channel id: channels \(verb) ID")
            }
        default:
            throw UsageError("unknown channels action '\(verb)'; use create, list, read or delete")
        }
        if verb != "create" && arguments.isGiven(Self.storagePolicy) {
            throw UsageError("--storage-policy goes with channels create")
        }
        let bundleID = Self.bundleID(try arguments.required(SendCommand.topic))
        let policy = try arguments[Self.storagePolicy] ?? .noMessageStored
        let channels = try makeChannels(arguments)
        let json = arguments[Self.json]
        do {
            switch verb {
            case "create":
                let channel = try await channels.create(bundleID: bundleID, messageStoragePolicy: policy)
                console.print(json ? Self.json(channel) : channel.id)
                if !json {
                    console.printError(
                        "created channel \(channel.id) for \(bundleID) (\(channel.messageStoragePolicy); "
                            + "apns-request-id \(channel.requestID ?? "none"))")
                }
            case "list":
                let list = try await channels.list(bundleID: bundleID)
                if json {
                    console.print(
                        Self.line([
                            "bundle_id": .string(bundleID), "channels": .array(list.channelIDs.map { .string($0) }),
                            "apns_request_id": list.requestID.map { .string($0) } ?? .null,
                        ]))
                } else {
                    for id in list.channelIDs { console.print(id) }
                }
            case "read":
                let channel = try await channels.read(bundleID: bundleID, channelID: channelID ?? "")
                console.print(
                    json ? Self.json(channel) : "\(channel.id) \(channel.messageStoragePolicy) \(channel.pushType)")
            default:
                let deletion = try await channels.delete(bundleID: bundleID, channelID: channelID ?? "")
                if json {
                    console.print(
                        Self.line([
                            "bundle_id": .string(bundleID), "channel_id": .string(deletion.channelID),
                            "deleted": .bool(true), "apns_request_id": deletion.requestID.map { .string($0) } ?? .null,
                        ]))
                } else {
                    console.print("deleted \(deletion.channelID)")
                }
            }
        } catch {
            await channels.shutdown()
            throw CommandFailure("channels \(verb): \(error)")
        }
        await channels.shutdown()
        return ExitStatus.success
    }

    /// The bundle id a topic names: a Live Activity topic's suffix is dropped, as channels belong to the app.
    static func bundleID(_ topic: String) -> String {
        let suffix = ".push-type.liveactivity"
        return topic.hasSuffix(suffix) ? String(topic.dropLast(suffix.count)) : topic
    }

    private func makeChannels(_ arguments: ParsedArguments) throws -> APNsChannels {
        let (token, certificate) = try SendSetup.authentication(arguments)
        let environment = try SendSetup.environment(arguments).channelManagement
        let transport: NGHTTP2Transport
        do {
            transport = try NGHTTP2Transport(
                TransportConfiguration(
                    environment: environment, proxy: try SendSetup.proxy(arguments), certificate: certificate))
        } catch {
            throw CommandFailure("cannot start the HTTP/2 transport: \(error)")
        }
        return APNsChannels(
            transport: transport, tokens: token.map { TokenProvider(key: $0.key, keyID: $0.keyID, teamID: $0.teamID) },
            requestTimeout: try arguments[SendCommand.timeout] ?? .seconds(30))
    }

    private static func json(_ channel: APNsChannel) -> String {
        line([
            "bundle_id": .string(channel.bundleID), "channel_id": .string(channel.id),
            "message_storage_policy": .integer(Int64(channel.messageStoragePolicy.rawValue)),
            "push_type": .string(channel.pushType),
            "apns_request_id": channel.requestID.map { .string($0) } ?? .null,
        ])
    }

    private static func line(_ object: [String: JSONValue]) -> String {
        String(decoding: JSONWriter.compact(.object(object)), as: UTF8.self)
    }
}

import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Red-team L7 on a real file system: the SQLite store on a 4 MB tmpfs that a file fills during intake. Sends get
/// a one-line 503, `/readyz` answers 503, nothing acknowledged with 202 is missing from the store afterwards, and
/// once the file is removed `/readyz` and intake come back. Needs `mount` (root); skipped with a message elsewhere.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DiskFullTests {
    /// Mounts a tmpfs of `megabytes` at a new directory; nil (and why) when mounting is not permitted here.
    static func mountSmallFileSystem(megabytes: Int) async throws -> (TemporaryDirectory?, String) {
        let directory = try TemporaryDirectory(prefix: "pushbutton-diskfull")
        guard getuid() == 0 else {
            directory.remove()
            return (nil, "not root: mounting a small file system needs root")
        }
        let mounted = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/mount"),
            ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
        guard mounted.status == 0 else {
            directory.remove()
            return (nil, "mount -t tmpfs is not permitted here: \(mounted.stderr)")
        }
        return (directory, "")
    }

    /// Writes `path` until the file system has no room left.
    static func fill(_ path: String) {
        // O_CLOEXEC: a child another test forks while this writes would otherwise inherit the descriptor and
        // keep the filler's space after it is removed (the intake then stayed full: once in 5 loaded runs).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x55, count: 64 * 1024)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // The last few bytes: a partial chunk's worth.
        let byte: [UInt8] = [0]
        while byte.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }

    @Test func aFullDiskRefusesIntakeInOneLineLosesNothingAndIntakeResumes() async throws {
        let (mount, why) = try await Self.mountSmallFileSystem(megabytes: 4)
        guard let mount else {
            print("DiskFullTests skipped: \(why)")
            return
        }
        do { try await run(on: mount) } catch {
            await Self.unmount(mount)
            throw error
        }
        await Self.unmount(mount)
    }

    static func unmount(_ mount: TemporaryDirectory) async {
        // Lazily: a store connection not closed yet (the process's own) must not leave the mount behind.
        _ = try? await Subprocess.run(URL(fileURLWithPath: "/usr/bin/umount"), ["-l", mount.path])
        mount.remove()
    }

    private func run(on mount: TemporaryDirectory) async throws {
        let setup = try await WakeOnCommitTests.Setup()
        defer { setup.remove() }
        let gateway = try await setup.gateway(
            store: "sqlite:\(mount.path)/gateway.db", workers: 0, clock: ManualClock())
        var acknowledged: [String] = []
        var refusal: (status: Int, body: String)?
        for number in 0..<400 {
            // A few notifications, then the disk fills up in the middle of intake.
            if number == 5 { Self.fill(mount.path + "/filler") }
            let (status, body) = try await post(GatewayFixture.token(1000 + number), to: gateway)
            if status == 202, let id = (try? JSONParser.parse(Array(body.utf8)))?.objectValue?["id"]?.stringValue {
                acknowledged.append(id)
            } else {
                refusal = (status, body)
                break
            }
        }
        let refused = try #require(refusal, "the disk never filled")
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.body.contains("store_unavailable"), "\(refused.body)")
        #expect(refused.body.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1)
        #expect(try await get("/readyz", gateway).status == 503)
        #expect(acknowledged.count >= 5)

        // Space comes back: /readyz and intake follow.
        try FileManager.default.removeItem(atPath: mount.path + "/filler")
        #expect(try await get("/readyz", gateway).status == 200)
        let (status, body) = try await post(GatewayFixture.token(2000), to: gateway)
        #expect(status == 202, "\(body)")
        if let id = (try? JSONParser.parse(Array(body.utf8)))?.objectValue?["id"]?.stringValue {
            acknowledged.append(id)
        }
        await gateway.stop()
        await setup.mock.stop()

        // Every notification answered 202 is in the store, read by a fresh process's store.
        let store = try await Blocking.run { try SQLGatewayStore.sqlite(path: mount.path + "/gateway.db") }
        let ids = acknowledged
        let missing = try await Blocking.run { () throws -> [String] in
            try ids.filter { try store.notification(id: $0, limit: 0, after: 0) == nil }
        }
        #expect(missing.isEmpty, "acknowledged but not stored: \(missing)")
        print("DiskFullTests: \(acknowledged.count) acknowledged, refused with \(refused.status): \(refused.body)")
    }

    private func post(_ token: String, to gateway: Gateway) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)/v1/apps/chat/notifications")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(
            #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "title": "Anna", "body": "\#(String(repeating: "x", count: 1500))"}"#
                .utf8)
        let (data, response) = try await TestHTTP.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    private func get(_ path: String, _ gateway: Gateway) async throws -> (status: Int, body: String) {
        let (data, response) = try await TestHTTP.session.data(
            from: URL(string: "http://127.0.0.1:\(gateway.port)\(path)")!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

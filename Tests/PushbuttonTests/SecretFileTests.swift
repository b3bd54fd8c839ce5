import Foundation
import PushbuttonSupport
import Testing

/// Warnings for secret files that others may read.
@Suite struct SecretFileTests {
    func file(mode: mode_t) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pb-secret-\(UUID().uuidString).p8")
            .path
        try Data("key".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test func aPrivateFileGetsNoWarning() throws {
        let path = try file(mode: 0o600)
        defer { unlink(path) }
        #expect(SecretFile.exposureWarning(path, holding: "the provider key") == nil)
        chmod(path, 0o400)
        #expect(SecretFile.exposureWarning(path, holding: "the provider key") == nil)
    }

    @Test func aFileOthersCanReadIsNamedWithItsModeAndTheFix() throws {
        let path = try file(mode: 0o644)
        defer { unlink(path) }
        #expect(
            SecretFile.exposureWarning(path, holding: "the provider key")
                == "the provider key '\(path)' is open to every user of this machine (mode 0644): make it private "
                + "with chmod 600 '\(path)'")
        chmod(path, 0o640)
        #expect(
            SecretFile.exposureWarning(path, holding: "the key")?.contains("is open to its group (mode 0640)") == true)
        chmod(path, 0o620)
        #expect(SecretFile.exposureWarning(path, holding: "the key")?.contains("(mode 0620)") == true)
    }

    @Test func whatCannotBeExaminedIsLeftToTheReader() {
        #expect(SecretFile.exposureWarning("/no/such/key.p8", holding: "the provider key") == nil)
        #expect(SecretFile.exposureWarning(FileManager.default.temporaryDirectory.path, holding: "the key") == nil)
    }
}

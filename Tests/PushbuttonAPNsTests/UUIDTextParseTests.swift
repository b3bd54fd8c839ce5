import Foundation
import PushbuttonAPNs
import Testing

/// apns-ids read byte by byte (the answers' headers, the gateway's stored ids) instead of through
/// `UUID(uuidString:)`.
struct UUIDTextParseTests {
    @Test func readsWhatUUIDWritesInEitherCase() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUIDText.parse(id.uuidString) == id)
            #expect(UUIDText.parse(id.uuidString.lowercased()) == id)
        }
        #expect(
            UUIDText.parse("00000000-0000-0000-0000-000000000000")
                == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(
            UUIDText.parse("FFFFFFFF-ffff-FFFF-ffff-FFFFFFFFFFFF")
                == UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff"))
    }

    /// Stricter than `UUID(uuidString:)`, whose `sscanf` reads " 621E1F8-…" as 621E1F08-….
    @Test(arguments: [
        "", "d-0", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
        "E621E1F8C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
        "E621E1F8-C36C+495A-93FC-0C247A3E6E5F", " 621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6É5",
    ])
    func refusesAnythingButTheCanonicalText(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
    }
}

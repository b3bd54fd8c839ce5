import Testing

@testable import Pushbutton

@Suite struct PayloadSizeTests {
    @Test func reportsHowMuchIsOverAndWhatIsLargest() {
        var payload = Payload.interactive(category: "c", title: "Title", body: String(repeating: "x", count: 4200))
        payload.custom["blob"] = .string(String(repeating: "y", count: 300))
        let report = payload.sizeReport()
        #expect(!report.fits)
        #expect(report.size == PayloadWriter.encode(payload).count)
        #expect(report.overBy == report.size - 4096)
        #expect(report.largestFields.first?.path.description == "aps.alert.body")
        #expect(report.largestFields.dropFirst().first?.path.description == "blob")
        #expect(payload.sizeReport(pushType: .voip).fits)
    }

    @Test func truncationKeepsWholeCharactersAndFits() throws {
        let body = String(repeating: "🇫🇷é\u{301}x\"\n", count: 800)
        let payload = Payload.interactive(category: "c", body: body)
        for limit in [4096, 1000, 200, 60] {
            let shortened = try #require(payload.truncatingAlertBody(toFit: limit))
            let bytes = PayloadWriter.encode(shortened)
            #expect(bytes.count <= limit)
            let newBody = try #require(shortened.aps.alert?.body)
            #expect(newBody.hasSuffix("…"))
            #expect(body.hasPrefix(String(newBody.dropLast())))
            #expect(Payload.parse(bytes).payload == shortened)
        }
    }

    @Test func truncationIsExplicitAndCanFail() {
        let small = Payload.interactive(category: "c", body: "short")
        #expect(small.truncatingAlertBody(toFit: 4096) == small)
        #expect(small.truncatingAlertBody(toFit: 10) == nil)
        var noBody = Payload(custom: ["x": .string(String(repeating: "a", count: 5000))])
        noBody.aps.badge = 1
        #expect(noBody.truncatingAlertBody(toFit: 4096) == nil)
        var text = Payload()
        text.aps.alert = .text(String(repeating: "ü", count: 3000))
        let shortened = text.truncatingAlertBody(toFit: 4096)
        #expect(shortened.map { PayloadWriter.encode($0).count <= 4096 } == true)
    }
}

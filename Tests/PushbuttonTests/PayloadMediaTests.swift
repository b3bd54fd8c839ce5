import Pushbutton
import Testing

/// `pushbutton.media`: built, read, written and checked (URL shape, https, declared type, mutable-content).
struct PayloadMediaTests {
    @Test func setMediaWritesTheMediaAndSetsMutableContentAndReadsBackEqual() throws {
        var payload = Payload.interactive(category: "sale", body: "50% off")
        payload.setMedia(PayloadMedia(url: "https://cdn.example.com/sale.jpg", kind: .image))
        #expect(payload.aps.mutableContent)
        let written = PayloadWriter.encode(payload)
        #expect(written == JSONWriter.compact(payload.jsonValue))
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains(#""media":{"type":"image","url":"https://cdn.example.com/sale.jpg"}"#))
        let read = try #require(Payload.parse(written).payload)
        #expect(read.actions?.media == PayloadMedia(url: "https://cdn.example.com/sale.jpg", kind: .image))
        #expect(read == payload)
        #expect(PayloadValidator().validate(read).filter { $0.code == .media }.isEmpty)
    }

    @Test func anUnknownTypeIsAnErrorAtItsPath() {
        let result = Payload.parse(
            Array(
                #"{"aps":{"alert":"Hi","mutable-content":1},"pushbutton":{"v":1,"media":{"url":"https://x.example/a.jpg","type":"picture"}}}"#
                    .utf8))
        let error = result.diagnostics.first { $0.severity == .error }
        #expect(error?.path.description == "pushbutton.media.type")
    }

    @Test func aMissingURLIsAnErrorAtItsPath() {
        let result = Payload.parse(
            Array(#"{"aps":{"alert":"Hi","mutable-content":1},"pushbutton":{"v":1,"media":{"type":"image"}}}"#.utf8))
        #expect(result.diagnostics.contains { $0.severity == .error && $0.path.description == "pushbutton.media.url" })
    }

    static func diagnostics(_ media: PayloadMedia, mutable: Bool = true) -> [Diagnostic] {
        var payload = Payload.interactive(category: "", body: "Hi")
        payload.aps.category = nil
        payload.setMedia(media)
        payload.aps.mutableContent = mutable
        return PayloadValidator().validate(payload).filter { $0.code == .media }
    }

    @Test func theValidatorChecksSchemeHostTypeAndMutableContent() {
        let notURL = Self.diagnostics(PayloadMedia(url: "cdn.example.com/a.jpg", kind: .image))
        #expect(notURL.map(\.severity) == [.error] && notURL[0].path.description == "pushbutton.media.url")
        let ftp = Self.diagnostics(PayloadMedia(url: "ftp://cdn.example.com/a.jpg", kind: .image))
        #expect(ftp.map(\.severity) == [.error])
        let noHost = Self.diagnostics(PayloadMedia(url: "https:///a.jpg", kind: .image))
        #expect(noHost.map(\.severity) == [.error])
        let http = Self.diagnostics(PayloadMedia(url: "http://cdn.example.com/a.jpg", kind: .image))
        #expect(http.map(\.severity) == [.warning] && http[0].message.contains("https"))
        let mismatch = Self.diagnostics(PayloadMedia(url: "https://cdn.example.com/clip.mp4", kind: .image))
        #expect(mismatch.map(\.severity) == [.warning] && mismatch[0].path.description == "pushbutton.media.type")
        #expect(Self.diagnostics(PayloadMedia(url: "https://cdn.example.com/a.gif", kind: .image)).isEmpty)
        let immutable = Self.diagnostics(
            PayloadMedia(url: "https://cdn.example.com/a.png", kind: .image), mutable: false)
        #expect(immutable.map(\.severity) == [.warning] && immutable[0].path.description == "aps.mutable-content")
    }

    @Test(arguments: [
        ("https://x.example/a.JPG", PayloadMedia.Kind.image), ("https://x.example/a.png?w=2", .image),
        ("https://x.example/a.gif", .gif), ("https://x.example/v.mp4", .video), ("https://x.example/s.m4a", .audio),
    ])
    func theKindIsInferredFromTheExtension(url: String, kind: PayloadMedia.Kind) {
        #expect(PayloadMedia.Kind.inferred(fromURL: url) == kind)
    }

    @Test func iOSAttachmentLimitsPerKind() {
        #expect(PayloadMedia.Kind.image.maximumBytes == 10_000_000)
        #expect(PayloadMedia.Kind.gif.maximumBytes == 10_000_000)
        #expect(PayloadMedia.Kind.video.maximumBytes == 50_000_000)
        #expect(PayloadMedia.Kind.audio.maximumBytes == 5_000_000)
        #expect(PayloadMedia.Kind.inferred(fromURL: "https://x.example/dir.v2/file") == nil)
    }
}

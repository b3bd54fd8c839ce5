import Foundation
import PushbuttonHTTP2
import Testing

/// The debug-build check that an event loop's objects stay on its thread.
@Suite struct ThreadOwnershipTests {
    @Test func onlyTheClaimingThreadOwnsOnceClaimed() async {
        let ownership = ThreadOwnership()
        #expect(ownership.isOwnerOrUnclaimed)  // set-up before the loop starts is allowed anywhere
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, Bool), Never>) in
            let thread = Thread {
                ownership.claim()
                let onOwner = ownership.isOwnerOrUnclaimed
                let other = Thread {
                    continuation.resume(returning: (onOwner, ownership.isOwnerOrUnclaimed))
                }
                other.start()
            }
            thread.start()
        }
        #expect(seen.0)
        #if DEBUG
            #expect(!seen.1)
            #expect(!ownership.isOwnerOrUnclaimed)  // this test's thread is not the loop's either
        #else
            #expect(seen.1)  // release builds check nothing
        #endif
    }
}

import Testing

@testable import PushbuttonStore

struct StatementShapesTests {
    @Test func chunksCoverEveryRowOnceInAFewSizes() {
        var sizes = Set<Int>()
        for count in 0...1500 {
            let chunks = StatementShapes.chunks(count)
            #expect(chunks.reduce(0) { $0 + $1.count } == count, "count \(count)")
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "count \(count)")
            #expect(chunks.first?.lowerBound ?? 0 == 0)
            for chunk in chunks { sizes.insert(chunk.count) }
        }
        #expect(sizes.count <= 10)
        #expect(sizes.max() == SQLGatewayStore.rowsPerStatement)
        #expect(StatementShapes.chunks(499).count <= 8)
    }

    @Test func paddingRoundsUpToAFixedSize() {
        var sizes = Set<Int>()
        for count in 1...SQLGatewayStore.rowsPerStatement {
            let padded = StatementShapes.padded(count)
            #expect(padded >= count && padded < 2 * count + 1, "count \(count)")
            sizes.insert(padded)
        }
        #expect(sizes.count <= 10)
        #expect(StatementShapes.padded(300) == 500 && StatementShapes.padded(256) == 256)
    }
}

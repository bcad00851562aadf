import Testing
@testable import ReqRunKit

/// The run's queue of positions not started (`PendingPositions`): a range with the positions passed over
/// listed, behaving as the sorted array of every pending position it replaced.
@Suite struct PendingPositionsTests {
    /// Takes, passes over, puts back and appends as `Runner` does, checked against a plain array after each step.
    @Test func behavesAsTheArrayOfEveryPendingPosition() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 0...40, using: &generator)
            var queue = PendingPositions(0..<count)
            var model = Array(0..<count)
            var next = count
            for _ in 0..<60 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<6 where !model.isEmpty:
                    let index = Bool.random(using: &generator) ? 0 : Int.random(in: 0..<model.count, using: &generator)
                    let position = queue[index]
                    queue.remove(at: index)
                    model.remove(at: index)
                    if Int.random(in: 0..<4, using: &generator) == 0 {
                        queue.insert(position, at: index)
                        model.insert(position, at: index)
                    }
                case 6..<8:
                    queue.append(next)
                    model.append(next)
                    next += 1 + (Bool.random(using: &generator) ? 0 : 3)
                default:
                    break
                }
                #expect(Array(queue) == model && queue.count == model.count && queue.isEmpty == model.isEmpty)
                #expect(model.indices.map { queue[$0] } == model)
            }
        }
    }

    @Test func anArrayLiteralAndARangeHoldTheSame() {
        var queue: PendingPositions = [3, 5]
        queue.append(6)
        queue.append(7)
        #expect(Array(queue) == [3, 5, 6, 7])
        #expect(Array(PendingPositions(2..<5)) == [2, 3, 4])
        let empty: PendingPositions = []
        #expect(empty.isEmpty && Array(empty).isEmpty)
    }
}

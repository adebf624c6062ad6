/// One node of the walk's stack: the model's frame and where the walk is among its children.
struct WalkNode {
    var state: Int32
    var keys: UInt64
    var nextMove: Int     // the next flat move index to try
    var event: Int32      // the event that pushed this node (-1 at the root)
    var viaMove: Int32    // its index among the parent's moves (declaration order)
    var logStart: Int     // where this node's expected-value changes start in the log
}

/// A stack of trivial values in memory a ``WalkMemory`` owns: no uniqueness or bounds checks per node in the hot loop.
struct PointerStack<Element>: RandomAccessCollection {
    let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always) subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always) mutating func append(_ element: Element) {
        assert(count < capacity, "the walk's stack overflowed its capacity")
        base[count] = element
        count += 1
    }

    @inline(__always) @discardableResult mutating func removeLast() -> Element {
        count -= 1
        return base[count]
    }

    @inline(__always) mutating func removeAll() { count = 0 }
}

/// The memory of one walk, allocated once: its stack of nodes, its undo log of expected values, the expected values.
final class WalkMemory<Node> {
    let nodes: UnsafeMutablePointer<Node>
    let nodeCapacity: Int
    let log: UnsafeMutablePointer<ExpectedChange>
    let logCapacity: Int
    let expected: UnsafeMutablePointer<Int>
    let keys: Int

    init(depth: Int, keys: Int, maximumAdds: Int) {
        nodeCapacity = depth + 2
        logCapacity = (depth + 2) * max(1, maximumAdds)
        self.keys = max(1, keys)
        nodes = .allocate(capacity: nodeCapacity)
        log = .allocate(capacity: logCapacity)
        expected = .allocate(capacity: self.keys)
        expected.initialize(repeating: -1, count: self.keys)
    }

    deinit {
        nodes.deallocate()
        log.deallocate()
        expected.deallocate()
    }
}

/// One entry of the walk's undo log: a key's expected value before a push changed it.
struct ExpectedChange {
    var key: Int32
    var previous: Int
}

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

/// A growable stack of values in memory its owner allocates and frees: the per-step stacks of a running
/// flow (the machine's history, a session's dense frames).
///
/// A session pushes and pops these once per step, millions of times when the checker walks it. An `Array`
/// checks that its buffer is uniquely referenced at every push and pop (a call into the runtime each); this
/// stack has no copy-on-write at all, so it must have exactly one owner: it lives inside the storage a
/// class keeps behind a pointer (``StateMachine``, ``FlowSession``), is never copied out of it, and the class
/// calls ``destroy()`` in its `deinit`.
///
/// Emptying is checked: ``removeLast()`` and ``last`` trap on an empty stack, as an array's do.
@usableFromInline
struct _OwnedStack<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    /// An empty stack with room for `capacity` elements before it grows.
    @inlinable init(capacity: Int = 16) {
        self.capacity = Swift.max(1, capacity)
        self.base = .allocate(capacity: self.capacity)
        self.count = 0
    }

    /// A stack holding `element` alone.
    @inlinable init(_ element: __owned Element) {
        self.init()
        append(element)
    }

    /// Frees the elements and the memory; the stack must not be used after.
    @inlinable func destroy() {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inlinable @inline(__always) var isEmpty: Bool { count == 0 }

    /// The top element.
    @inlinable var last: Element {
        @inline(__always) get {
            precondition(count > 0, "the stack is empty")
            return base[count &- 1]
        }
        @inline(__always) set {
            precondition(count > 0, "the stack is empty")
            base[count &- 1] = newValue
        }
    }

    /// Where the top element lies, to change it in place.
    @inlinable var lastPointer: UnsafeMutablePointer<Element> {
        @inline(__always) get {
            precondition(count > 0, "the stack is empty")
            return base + (count &- 1)
        }
    }

    /// The element at `index` (0 is the bottom).
    @inlinable subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "index out of range")
            return base[index]
        }
    }

    @inlinable @inline(__always) mutating func append(_ element: __owned Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inlinable @inline(__always) @discardableResult mutating func removeLast() -> Element {
        precondition(count > 0, "the stack is empty")
        count &-= 1
        return (base + count).move()
    }

    /// Removes every element, keeping the memory.
    @inlinable mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Doubles the room, moving the elements over.
    @usableFromInline @inline(never) mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// A stack of its own holding the same elements (copied).
    @inlinable func copy() -> _OwnedStack {
        var copy = _OwnedStack(capacity: capacity)
        copy.base.initialize(from: base, count: count)
        copy.count = count
        return copy
    }

    /// The elements, bottom first, as an array.
    @inlinable var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

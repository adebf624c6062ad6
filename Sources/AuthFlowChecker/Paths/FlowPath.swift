import AuthFlow

/// A path from the initial frame: the step that led to each frame (none for the first) and the frame after it.
///
/// Counterexamples, fuzz findings, trails and replays report their paths as this one type; the
/// renderers read each frame's step, state, data keys and values.
public struct FlowPath: Hashable, Sendable, RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    /// One frame of a path: the step taken to reach it (nil for the initial frame) and the frame after it.
    public struct Frame: Hashable, Sendable {
        /// The step that led here; `nil` for the initial frame.
        public var step: FlowPath.Step?
        /// The state after the step.
        public var state: String
        /// The data keys after the step, in declaration order (every reporter lists them alike).
        public var data: [String]
        /// The data values after the step, for paths found by running the runtime; secrets are `<redacted>`.
        public var values: [String: String]?

        public init(step: FlowPath.Step?, state: String, data: [String], values: [String: String]? = nil) {
            self.step = step
            self.state = state
            self.data = data
            self.values = values
        }

        /// A frame reached by the forward event `event` (nil for the initial frame).
        public init(event: String?, state: String, data: [String], values: [String: String]? = nil) {
            self.init(step: event.map { Step.event($0) }, state: state, data: data, values: values)
        }

        /// The word a report shows for the step: the event's name, `back` or `undo`; nil for the initial frame.
        public var event: String? { step?.name }
    }

    /// The frames, the initial one first.
    public var frames: [Frame]
    /// The variant the path runs in: an `authflow/2` flow's config values, keys in declaration order
    /// (empty when it has no `config`); `nil` where no one says (an `authflow/1` flow's counterexample).
    public var variant: [FlowSpec.KeyValue]?

    public init(_ frames: [Frame] = [], variant: [FlowSpec.KeyValue]? = nil) {
        self.frames = frames
        self.variant = variant
    }
    public init(arrayLiteral frames: Frame...) { self.frames = frames }

    /// The steps taken, one per frame after the first.
    public var steps: [FlowPath.Step] { frames.dropFirst().compactMap(\.step) }

    public var startIndex: Int { frames.startIndex }
    public var endIndex: Int { frames.endIndex }
    public subscript(position: Int) -> Frame {
        get { frames[position] }
        set { frames[position] = newValue }
    }

    /// Appends the frame `frame`.
    public mutating func append(_ frame: Frame) { frames.append(frame) }

    /// The events' names, one per step (`back` for a back).
    public var events: [String] { frames.dropFirst().map { $0.event ?? "" } }
    /// The state after each step.
    public var states: [String] { frames.dropFirst().map(\.state) }
    /// The data keys after each step.
    public var data: [[String]] { frames.dropFirst().map(\.data) }
    /// For each step, the value each valued key the step adds takes, in the order given (a covering path's: the emission's).
    public var chosen: [[FlowSpec.KeyValue]] { frames.dropFirst().map { $0.step?.values.pairs ?? [] } }
    /// The values after each step, when the path carries them (its initial frame has values); `nil` otherwise.
    public var values: [[String: String]]? {
        guard frames.first?.values != nil else { return nil }
        return frames.dropFirst().map { $0.values ?? [:] }
    }
}

extension FlowPath {
    /// One step of a path: a forward event with the values it sends, a reset, the user's back, or the app's own undo.
    ///
    /// Every path is made of these: a counterexample's (``FlowPath``), a random path of the tester and
    /// the shrinker, a trail replayed from a file, and the steps a generated test drives the app
    /// through (`authcheck replay --format swift --adapter TYPE` writes them):
    ///
    /// ```swift
    /// [.event("begin"), .event("submitEmail"), .event("accountFound"), .event("submitPassword"),
    ///  .event("wrongPassword"), .back, .event("cancel"), .reset("signOut")]
    /// ```
    public enum Step: Hashable, Sendable, CustomStringConvertible {
        /// The user's action or the system's answer `name` (the spec says which, and the app gets it by `send` or `receive`),
        /// sending `values` for the keys it adds: a valued key's value is the system's answer (its first value when not
        /// given), any other key's is a simple one (`email-3`) when not given.
        case event(String, values: Values = .simple)
        /// The event `name`, whose row ends the run and starts the flow again at its root (a sign-out): the spec's move must be a reset.
        case reset(String, values: Values = .simple)
        /// The user's back: accepted where the spec allows it (restoring the frame below, server-side keys as they are), refused elsewhere.
        case back
        /// The app's own undo of its last step, where the user has no back (only a conformance walk's counterexample shows one).
        case undo

        /// The values a step sends for the keys its event adds.
        ///
        /// A test writes them by key (`values: ["nextStep": "confirmSms"]`); the random tester and the
        /// shrinker hold them in the emission's contract order, so the per-step loop builds no dictionary.
        public enum Values: Hashable, Sendable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral {
            /// None given: each valued key its first value, each other key a simple one.
            case simple
            /// The value of each key the event adds, in contract order.
            case ordered([String])
            /// The values of some keys the event adds, by key, in the order given (a covering path's: the emission's order).
            case named([FlowSpec.KeyValue])

            /// `[:]` is ``simple``; any other literal names its keys.
            public init(dictionaryLiteral elements: (String, String)...) {
                self = elements.isEmpty ? .simple : .named(elements.map { FlowSpec.KeyValue($0.0, $0.1) })
            }

            /// `["v1", "v2"]`: the values in contract order.
            public init(arrayLiteral elements: String...) { self = .ordered(elements) }
            /// `nil`: ``simple``.
            public init(nilLiteral: ()) { self = .simple }
            /// `ordered` in contract order, or ``simple`` for nil.
            public init(ordered: [String]?) { self = ordered.map(Values.ordered) ?? .simple }

            /// `named` by key (in the keys' order), or ``simple`` when it names none.
            public init(named: [String: String]) {
                self = named.isEmpty ? .simple : .named(named.sorted { $0.key < $1.key }.map { FlowSpec.KeyValue($0.key, $0.value) })
            }
            /// `pairs` by key, in their order, or ``simple`` when there are none.
            public init(pairs: [FlowSpec.KeyValue]) { self = pairs.isEmpty ? .simple : .named(pairs) }

            /// The values given in contract order, or nil when none are.
            public var ordered: [String]? { if case let .ordered(values) = self { return values } else { return nil } }
            /// The values given by key (empty unless they were given so).
            public var named: [String: String] {
                guard case let .named(pairs) = self else { return [:] }
                var named: [String: String] = [:]
                for pair in pairs { named[pair.key] = pair.value }
                return named
            }
            /// The values given by key, in their order (empty unless they were given so).
            public var pairs: [FlowSpec.KeyValue] { if case let .named(pairs) = self { return pairs } else { return [] } }
        }

        /// The event's name; nil for a back or an undo.
        public var event: String? {
            switch self {
            case let .event(name, _), let .reset(name, _): return name
            case .back, .undo: return nil
            }
        }

        /// The values the step sends (``Values/simple`` for a back or an undo).
        public var values: Values {
            switch self {
            case let .event(_, values), let .reset(_, values): return values
            case .back, .undo: return .simple
            }
        }

        /// Whether this is a reset.
        public var isReset: Bool { if case .reset = self { return true } else { return false } }

        /// Whether this is the user's back.
        public var isBack: Bool { if case .back = self { return true } else { return false } }

        /// The word a report shows for the step: the event's name, `back`, or `undo`.
        public var name: String {
            switch self {
            case let .event(name, _), let .reset(name, _): return name
            case .back: return "back"
            case .undo: return "undo"
            }
        }

        /// `back`, the event's name, `name("v1", "v2")` with values in contract order, or `name(key=value, …)` by key.
        public var description: String {
            switch self {
            case .back, .undo: return name
            case let .event(name, values), let .reset(name, values):
                switch values {
                case .simple: return name
                case let .ordered(values): return "\(name)(\(values.map { $0.debugDescription }.joined(separator: ", ")))"
                case let .named(pairs):
                    guard !pairs.isEmpty else { return name }
                    return name + "(" + pairs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
                }
            }
        }
    }
}

/// The frame of a path, by its former name.
public typealias PathStep = FlowPath.Frame
/// A step of a random path, by its former name.
public typealias FuzzAction = FlowPath.Step
/// A step of a trail as a test drives it, by its former name (the tests `authcheck replay --format swift` writes use it).
public typealias TrailStep = FlowPath.Step

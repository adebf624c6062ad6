/// Effects declared in Swift that never branch: a step's `entry`.
///
/// ```swift
/// flow.step(.password, emitting: [...], entry: FlowEffects(clears: [.password], increment: [.visits]))
/// ```
public struct FlowEffects<Key: FlowName>: Sendable {
    /// Keys that become absent (a counter becomes 0).
    public var clears: [Key]
    /// Presence keys that become present.
    public var adds: [Key]
    /// Valued keys that take the given value.
    public var set: [(key: Key, value: any FlowName)]
    /// Counters that count one more (staying at their max).
    public var increment: [Key]

    public init(clears: [Key] = [], adds: [Key] = [], set: KeyValuePairs<Key, any FlowName> = [:], increment: [Key] = []) {
        self.clears = clears
        self.adds = adds
        self.set = set.map { ($0.key, $0.value) }
        self.increment = increment
    }

    /// The effects by name.
    var spec: FlowSpec.Effects {
        FlowSpec.Effects(clears: clears.map(\.flowName), adds: adds.map(\.flowName),
                         set: set.map { FlowSpec.KeyValue($0.key.flowName, $0.value.flowName) }, increment: increment.map(\.flowName))
    }
}

extension FlowDefinition {
    /// A global row that stays: every non-terminal state but `except` emits `event` and goes back to itself, unless it handles `event` itself.
    ///
    /// ```swift
    /// flow.anywhereStaying(on: .heartbeat, by: .system, increment: [.beats])
    /// ```
    /// - Parameters: as ``anywhere(on:to:when:by:except:adds:set:increment:clears:)``, without `to`.
    public mutating func anywhereStaying(on event: Event, when: FlowGuard<Key>? = nil, by: FlowSpec.Sender = .user,
                                         except: [State] = [], adds: [Key] = [], set: KeyValuePairs<Key, any FlowName> = [:],
                                         increment: [Key] = [], clears: [Key] = []) {
        anywhereEvents.append(event)
        extraKeys += adds + set.map(\.key) + increment + clears + (when.map(Self.keys) ?? [])
        var row = FlowSpec.AnywhereRow(on: event.flowName, to: "", by: by, when: when?.spec,
                                       except: except.map(\.flowName), adds: adds.map(\.flowName),
                                       set: set.map { FlowSpec.KeyValue($0.key.flowName, $0.value.flowName) },
                                       increment: increment.map(\.flowName), clears: clears.map(\.flowName))
        row.stay = true
        anywhereRows.append(row)
    }
}

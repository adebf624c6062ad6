/// A flow laid out left to right for the HTML report: layers from the initial state, an order in
/// each layer that keeps edges from crossing, and the coordinates of every box.
///
/// - layers: breadth-first distance from the initial state along the declared rows, so every state
///   sits one column right of the nearest state that leads to it; states no row from the initial
///   state reaches start their own search from column 0, in declaration order; terminal states
///   (sinks) then move to a last column of their own, so the rows into them all point right;
/// - order: declaration order first, then alternating down and up sweeps that sort each layer by
///   the barycentre (mean position) of its neighbours in the layers already placed; ties keep the
///   previous order, so the layout is deterministic;
/// - coordinates: columns as wide as their widest name, rows of fixed height, each column centred;
///   the gap after a column wide enough for the labels of the edges that leave it rightwards.
///
/// No Graphviz: the report must open from disk with nothing installed.
struct FlowLayout: Sendable, Equatable {
    /// One state's box: its layer, its position in the layer, and where it is drawn.
    struct Box: Sendable, Equatable {
        var layer: Int
        var position: Int
        var x: Double
        var y: Double
        var width: Double
        var height: Double

        var centreY: Double { y + height / 2 }
        var right: Double { x + width }
    }

    /// One box per node, in node order.
    var boxes: [Box]
    /// The drawing's size.
    var width: Double
    var height: Double

    static let margin = 24.0
    static let rowHeight = 64.0
    static let boxHeight = 34.0
    static let columnGap = 110.0
    static let characterWidth = 7.4
    static let labelCharacterWidth = 6.2
    static let maxColumnGap = 280.0
    /// Room right of the last column for same-column edges that bow out.
    static let maxLoopReach = 60.0
    static let sweeps = 8

    /// Lays out `names.count` nodes joined by `edges` (node indices and the edge's label).
    /// - Parameters:
    ///   - initial: the node the layers count from, if any.
    ///   - sinks: the nodes drawn in the last column (terminal states).
    /// - Complexity: O(sweeps · (N log N + E²)) for N nodes and E edges.
    init(names: [String], edges: [(from: Int, to: Int, label: String)], initial: Int?, sinks: Set<Int> = []) {
        let count = names.count
        var successors = [[Int]](repeating: [], count: count)
        var neighbours = [[Int]](repeating: [], count: count)
        for edge in edges where edge.from != edge.to {
            successors[edge.from].append(edge.to)
            neighbours[edge.from].append(edge.to)
            neighbours[edge.to].append(edge.from)
        }
        var layerOf = Self.layers(count: count, successors: successors, initial: initial)
        if !sinks.isEmpty {
            let last = (layerOf.indices.filter { !sinks.contains($0) }.map { layerOf[$0] }.max() ?? -1) + 1
            for node in sinks where node != initial { layerOf[node] = last }
            // A layer left empty by the move closes up.
            let used = Set(layerOf).sorted()
            let compact = Dictionary(uniqueKeysWithValues: used.enumerated().map { ($0.element, $0.offset) })
            layerOf = layerOf.map { compact[$0] ?? $0 }
        }
        let layerCount = (layerOf.max() ?? -1) + 1
        var layers = [[Int]](repeating: [], count: layerCount)
        for node in 0..<count { layers[layerOf[node]].append(node) }
        layers = Self.reduceCrossings(layers, layerOf: layerOf, neighbours: neighbours)

        var boxes = [Box](repeating: Box(layer: 0, position: 0, x: 0, y: 0, width: 0, height: 0), count: count)
        let tallest = layers.map(\.count).max() ?? 0
        var x = Self.margin
        for (layer, nodes) in layers.enumerated() {
            let widths = nodes.map { Self.boxWidth(names[$0]) }
            let columnWidth = widths.max() ?? 0
            // Each column centred on the tallest, so short layers sit in the middle of the picture.
            let offset = Double(tallest - nodes.count) * Self.rowHeight / 2
            for (position, node) in nodes.enumerated() {
                let y = Self.margin + offset + Double(position) * Self.rowHeight
                boxes[node] = Box(layer: layer, position: position, x: x + (columnWidth - widths[position]) / 2,
                                  y: y, width: widths[position], height: Self.boxHeight)
            }
            let longest = edges.filter { layerOf[$0.from] == layer && layerOf[$0.to] > layer }.map(\.label.count).max() ?? 0
            x += columnWidth + min(Self.maxColumnGap, max(Self.columnGap, Double(longest) * Self.labelCharacterWidth + 36))
        }
        self.boxes = boxes
        width = (boxes.map(\.right).max() ?? 0) + Self.margin + Self.maxLoopReach
        height = 2 * Self.margin + Double(max(tallest, 1) - 1) * Self.rowHeight + Self.boxHeight + Self.rowHeight / 2
    }

    /// The width of a box that holds `name` on one line.
    static func boxWidth(_ name: String) -> Double {
        max(64, Double(name.count) * characterWidth + 24)
    }

    /// Each node's layer: breadth-first distance from `initial`, then from each node still unplaced.
    static func layers(count: Int, successors: [[Int]], initial: Int?) -> [Int] {
        var layerOf = [Int](repeating: -1, count: count)
        let roots = (initial.map { [$0] } ?? []) + Array(0..<count)
        for root in roots where layerOf[root] < 0 {
            layerOf[root] = 0
            var queue = [root]
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                for next in successors[node] where layerOf[next] < 0 {
                    layerOf[next] = layerOf[node] + 1
                    queue.append(next)
                }
            }
        }
        return layerOf
    }

    /// Barycentre sweeps: each layer sorted by the mean position of its neighbours in the layers
    /// before it (down) or after it (up); a node without such neighbours keeps its position.
    static func reduceCrossings(_ start: [[Int]], layerOf: [Int], neighbours: [[Int]]) -> [[Int]] {
        var layers = start
        var position = [Int](repeating: 0, count: layerOf.count)
        func index() {
            for nodes in layers { for (i, node) in nodes.enumerated() { position[node] = i } }
        }
        index()
        var best = layers
        var fewest = crossings(layers, layerOf: layerOf, neighbours: neighbours, position: position)
        for sweep in 0..<sweeps where fewest > 0 {
            let down = sweep % 2 == 0
            let order = down ? Array(layers.indices) : Array(layers.indices.reversed())
            for layer in order {
                let keyed = layers[layer].map { node -> (node: Int, key: Double) in
                    let placed = neighbours[node].filter { down ? layerOf[$0] < layer : layerOf[$0] > layer }
                    guard !placed.isEmpty else { return (node, Double(position[node])) }
                    return (node, Double(placed.map { position[$0] }.reduce(0, +)) / Double(placed.count))
                }
                // A stable sort: equal barycentres keep the order they had.
                layers[layer] = keyed.enumerated()
                    .sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
                    .map(\.element.node)
                for (i, node) in layers[layer].enumerated() { position[node] = i }
            }
            let found = crossings(layers, layerOf: layerOf, neighbours: neighbours, position: position)
            if found < fewest {
                fewest = found
                best = layers
            }
        }
        return best
    }

    /// Crossings between edges that join adjacent layers, counted pairwise.
    static func crossings(_ layers: [[Int]], layerOf: [Int], neighbours: [[Int]], position: [Int]) -> Int {
        var total = 0
        for layer in layers.indices.dropLast() {
            var spans: [(Int, Int)] = []
            for node in layers[layer] {
                for other in neighbours[node] where layerOf[other] == layer + 1 { spans.append((position[node], position[other])) }
            }
            for i in spans.indices {
                for j in spans.indices where j > i {
                    let (a, b) = (spans[i], spans[j])
                    if (a.0 - b.0) * (a.1 - b.1) < 0 { total += 1 }
                }
            }
        }
        return total
    }
}

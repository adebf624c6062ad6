import AuthFlow
import Foundation

/// Paths of the repository's specs and this target's fixtures.
enum Files {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every spec in `Specs/`, sorted.
    static var specs: [String] {
        let folder = root.appendingPathComponent("Specs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The specs in `Specs/` whose moves the state alone decides (every `authflow/1` one), for the
    /// covering tours' tests that replay events alone (`Version2PathsTests` replays the others' tours with their values).
    static var staticSpecs: [String] {
        specs.filter { (try? SpecLoader.load(file: $0))?.isStatic ?? false }
    }

    /// The broken variant `name` (without `.json`).
    static func broken(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/broken/\(name)", withExtension: "json")!.path
    }

    /// Every broken variant's name.
    static var brokenNames: [String] {
        let folder = Bundle.module.url(forResource: "Fixtures/broken", withExtension: nil)!
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func model(_ path: String) throws -> FlowModel {
        try SpecLoader.load(file: path)
    }
}

extension Files {
    /// Every `authflow/2` fixture, in `Fixtures/version2/` and the folders under it, sorted.
    static var version2: [String] {
        let folder = Bundle.module.url(forResource: "Fixtures/version2", withExtension: nil)!
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "json" }.map(\.path).sorted()
    }

    /// The `authflow/2` fixture `name` (without `.json`).
    static func version2(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/version2/\(name)", withExtension: "json")!.path
    }
}

extension Files {
    /// The other specs in `Tests/` that load: the end-to-end tests' (the rest of which are there to be
    /// refused) and the schema check's valid fixtures, sorted.
    static var otherLoadableSpecs: [String] {
        ["Tests/AuthCheckEndToEndTests/Expected/specs", "Tests/SchemaSync/Fixtures/valid"].flatMap { folder -> [String] in
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { url.appendingPathComponent($0).path }
        }.filter { (try? SpecLoader.load(file: $0)) != nil }
    }
}

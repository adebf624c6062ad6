import Foundation
import Testing

/// Nothing in the repository points outside it: a user who clones it has no sibling folders and
/// none of the paths of the machine it was written on.
@Suite struct RepositoryPathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .standardizedFileURL

    /// Text that names a place outside a clone: a sibling folder of the repository, or a home or
    /// work folder of some machine. Built from pieces so that this file does not match itself.
    static let outsidePaths = [".." + "/shared", "/" + "work/", "/" + "Users/", "/" + "home/"]

    /// The folders that are not the repository's own files: build products, caches, virtual environments.
    static func isSkipped(_ name: String) -> Bool {
        name.hasPrefix(".") && ![".ci", ".github"].contains(name) || name == "node_modules"
    }

    /// Every file of the repository (paths from its root), but what ``isSkipped(_:)`` skips.
    static let files: [String] = {
        var found: [String] = []
        func walk(_ directory: URL, _ prefix: String) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !isSkipped(name) {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue { walk(url, prefix + name + "/") } else { found.append(prefix + name) }
            }
        }
        walk(root, "")
        return found
    }()

    /// The file's text, or nil for a binary or a large file (a picture, a benchmark's output).
    static func text(_ path: String) -> String? {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(path)), data.count < 4 << 20,
              !data.contains(0) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    @Test func noFileNamesAPathOutsideTheRepository() {
        #expect(Self.files.count > 100, "the repository was walked from \(Self.root.path)")
        var found: [String] = []
        for path in Self.files {
            guard let text = Self.text(path) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for outside in Self.outsidePaths where line.contains(outside) {
                    found.append("\(path):\(number + 1): \(outside)")
                }
            }
        }
        #expect(found.isEmpty, "paths outside the repository:\n\(found.joined(separator: "\n"))")
    }

    /// The targets of a Markdown text's links and images (`[text](target)`, `![alt](target)`, `src="target"`).
    static func linkTargets(_ text: String) -> [String] {
        var targets: [String] = []
        for pattern in [#"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#, #"src="([^"]+)""#] {
            let expression = try! NSRegularExpression(pattern: pattern)
            let whole = NSRange(text.startIndex..., in: text)
            for match in expression.matches(in: text, range: whole) {
                if let range = Range(match.range(at: 1), in: text) { targets.append(String(text[range])) }
            }
        }
        return targets
    }

    @Test func everyRelativeLinkInTheDocsLeadsToAFileOfTheRepository() {
        var broken: [String] = []
        let markdown = Self.files.filter { $0.hasSuffix(".md") }
        #expect(markdown.contains("README.md"))
        for path in markdown {
            guard let text = Self.text(path) else { continue }
            for target in Self.linkTargets(text) {
                if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let file = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                let resolved = (file.hasPrefix("/") ? URL(fileURLWithPath: file)
                    : Self.root.appendingPathComponent(path).deletingLastPathComponent().appendingPathComponent(file)).standardizedFileURL
                let inside = resolved.path.hasPrefix(Self.root.path + "/")
                if !inside || !FileManager.default.fileExists(atPath: resolved.path) {
                    broken.append("\(path): \(target)" + (inside ? " (no such file)" : " (outside the repository)"))
                }
            }
        }
        #expect(broken.isEmpty, "links that lead nowhere in a clone:\n\(broken.joined(separator: "\n"))")
        #expect(Self.linkTargets("see [the format](../elsewhere/FORMAT.md) and ![a](docs/a.png \"A\")")
            == ["../elsewhere/FORMAT.md", "docs/a.png"])
    }
}

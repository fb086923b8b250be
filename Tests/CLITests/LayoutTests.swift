import Foundation
import Testing

/// Issue 22: the layout shows the architecture. The README's module list names every folder of
/// Sources/ (so it matches Package.swift, which builds one target per folder), and every command
/// lives in a file named after it.
@Suite struct LayoutTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func folders(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)
      .filter { name in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(
          atPath: root.appendingPathComponent(path).appendingPathComponent(name).path,
          isDirectory: &isFolder) && isFolder.boolValue
      }
      .sorted()
  }

  /// The `Sources/NAME` entries of the README's module list (its code block under Development).
  static func readmeModules() throws -> [String] {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    return readme.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("Sources/") else { return nil }
      return String(line.dropFirst("Sources/".count).prefix { !$0.isWhitespace })
    }.sorted()
  }

  @Test func theReadmeListsEveryModule_andNoOther() throws {
    let modules = try Self.folders("Sources")
    #expect(modules.contains("Core") && modules.contains("CLI"))
    #expect(try Self.readmeModules() == modules)
  }

  @Test func everyModuleIsATargetOfThePackage() throws {
    let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for module in try Self.folders("Sources") {
      #expect(package.contains("name: \"\(module)\""), "Package.swift has no target \(module)")
    }
  }

  /// `ootd block add` is declared in Commands/Block/BlockAdd.swift: the file of any command is
  /// found from its name. Checked from each file's `commandName:`, so a second command added to
  /// a file fails here.
  @Test func everyCommandIsInAFileNamedAfterIt() throws {
    let commands = Self.root.appendingPathComponent("Sources/CLI/Commands")
    let files = try #require(FileManager.default.enumerator(at: commands, includingPropertiesForKeys: nil))
    var checked = 0
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      let names = text.components(separatedBy: "commandName: \"").dropFirst().map {
        String($0.prefix { $0 != "\"" })
      }
      #expect(names.count <= 1, "\(file.lastPathComponent) declares \(names.count) commands: \(names)")
      guard let name = names.first else { continue }
      let group = file.deletingLastPathComponent().lastPathComponent
      let stem = file.deletingPathExtension().lastPathComponent
      let camel = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      // A group's own file is named after the group; its subcommands after group + name.
      let expected = group == "Commands" || stem == group ? [camel] : [group + camel]
      #expect(
        expected.contains { $0.lowercased() == stem.lowercased() },
        "ootd … \(name) is declared in \(group)/\(stem).swift")
      checked += 1
    }
    #expect(checked > 40)
  }

  /// Renderers receive values, or read todos through Core's `TodoReader`: no file of Output/
  /// names the database type or opens one (what a command reads is in its file or Queries/).
  @Test func noRendererOpensADatabase() throws {
    let output = Self.root.appendingPathComponent("Sources/CLI/Output")
    var offences: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: output.path) where name.hasSuffix(".swift") {
      let text = try String(contentsOf: output.appendingPathComponent(name), encoding: .utf8)
      for (number, line) in text.split(separator: "\n").enumerated()
      where line.contains("AppDatabase") || line.contains("openDatabase(") {
        offences.append("\(name):\(number + 1): \(line)")
      }
    }
    #expect(offences.isEmpty, "\(offences.joined(separator: "\n"))")
  }
}

import Foundation
import Testing

@testable import CLI

/// Issue 25: an import's input of known length estimates how many items it holds from how many
/// came of the bytes read so far (``ImportInput/items(taken:)``), erring low (the bytes read
/// run a chunk ahead of the items); a pipe, read from its copy (``ImportSpool``), too. The import leaves its deferred indexes
/// out from its first batch on when the estimate says it is big (ImportDeferredIndexesTests).
@Suite struct ImportInputSizeTests {
  @Test func aFile_isEstimatedAtTheRateReadSoFar() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("tasks.json")
    // 300,000 bytes: the first read takes 64 KiB of them, the whole after five.
    try Data(repeating: 0x20, count: 300_000).write(to: URL(fileURLWithPath: file))
    let input = try ImportInput(file, name: "tasks.json", spoolFolders: [])
    #expect(input.items(taken: 10) == nil)  // nothing read yet
    var reads: [Int?] = []
    try input.stream { _ in reads.append(input.items(taken: 100)) }
    // 100 items of 65,536 bytes read: 457 in 300,000 (the truth when the chunk held 100).
    #expect(reads.first == 457)
    #expect(reads.last == 100)  // all read: the items taken are all there are
  }

  /// A pipe tells no length, but its copy does: estimated as the file it was copied to (it
  /// could not tell before the copy).
  @Test func aPipe_isEstimatedFromItsCopy() throws {
    let folder = try TemporaryFolder()
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // 20,000 bytes: one read of the copy takes them all.
    let text = Array(repeating: UInt8(ascii: " "), count: 20_000)
    let written = text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    try #require(written == 20_000)
    // The pipe by a path of its own (as `ootd import taskwarrior /dev/stdin` would name one).
    let input = try ImportInput("/proc/self/fd/\(ends[0])", name: "-", spoolFolders: [folder.path])
    var estimates: [Int?] = []
    try input.stream { _ in estimates.append(input.items(taken: 7)) }
    #expect(estimates == [7])
    // The copy has no name: nothing is left in the folder.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
  }
}

import Foundation
import Testing

@testable import CLI

/// Issue 25: an import's input of known length estimates how many items it holds from how many
/// came of the bytes read so far (``ImportInput/items(taken:)``), erring low (the bytes read
/// run a chunk ahead of the items); a pipe cannot tell. The import leaves its deferred indexes
/// out from its first batch on when the estimate says it is big (ImportDeferredIndexesTests).
@Suite struct ImportInputSizeTests {
  @Test func aFile_isEstimatedAtTheRateReadSoFar() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("tasks.json")
    // 300,000 bytes: the first read takes 64 KiB of them, the whole after five.
    try Data(repeating: 0x20, count: 300_000).write(to: URL(fileURLWithPath: file))
    let input = try ImportInput(file, name: "tasks.json")
    #expect(input.items(taken: 10) == nil)  // nothing read yet
    var reads: [Int?] = []
    try input.stream { _ in reads.append(input.items(taken: 100)) }
    // 100 items of 65,536 bytes read: 457 in 300,000 (the truth when the chunk held 100).
    #expect(reads.first == 457)
    #expect(reads.last == 100)  // all read: the items taken are all there are
  }

  @Test func aPipe_cannotTell() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let written = "[]".utf8CString.withUnsafeBytes { write(ends[1], $0.baseAddress, 2) }
    close(ends[1])
    try #require(written == 2)
    // The pipe by a path of its own (as `ootd import taskwarrior /dev/stdin` would name one).
    let input = try ImportInput("/proc/self/fd/\(ends[0])", name: "-")
    var estimates: [Int?] = []
    try input.stream { _ in estimates.append(input.items(taken: 1)) }
    #expect(estimates == [nil])
  }
}

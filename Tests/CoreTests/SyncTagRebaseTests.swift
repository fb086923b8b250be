import Core
import Testing

/// An undo (or redo) of a tag edit takes back only what its change did, over the tags the todo
/// has now (review 19): the tags it added go, the ones it took away come back, another
/// machine's tags stay as they are now.
@Suite("A tag edit taken back over the tags a todo has now")
struct SyncTagRebaseTests {
  struct Example: Sendable, CustomTestStringConvertible {
    let name: String
    /// The tags now, and the change taken back: from `before` to `after`.
    let now: [String]
    let before: [String]
    let after: [String]
    let expected: [String]
    var testDescription: String { name }
  }

  static let examples: [Example] = [
    Example(
      name: "a tag the change added, still there: taken away",
      now: ["home", "work"], before: ["work"], after: ["home", "work"], expected: ["work"]),
    Example(
      name: "a tag the change added, removed elsewhere since: stays away",
      now: ["work"], before: ["work"], after: ["home", "work"], expected: ["work"]),
    Example(
      name: "a tag the change took away, added again elsewhere: there, once",
      now: ["home", "work"], before: ["home", "work"], after: ["work"], expected: ["home", "work"]),
    Example(
      name: "a tag the change took away, still away: given back",
      now: ["work"], before: ["home", "work"], after: ["work"], expected: ["home", "work"]),
    Example(
      name: "another machine's tags, untouched by the change: kept",
      now: ["desk", "home", "urgent"], before: [], after: ["home"], expected: ["desk", "urgent"]),
    Example(
      name: "another machine took away a tag the change left alone: stays away",
      now: ["home"], before: ["home", "work"], after: ["home", "work", "x"], expected: ["home"]),
    Example(name: "all empty: none", now: [], before: [], after: [], expected: []),
    Example(
      name: "no tags now, the change took some away: given back",
      now: [], before: ["a", "b"], after: [], expected: ["a", "b"]),
    Example(
      name: "no tags now, the change only added: none",
      now: [], before: [], after: ["a", "b"], expected: []),
    Example(
      name: "a change that changed nothing: the tags now",
      now: ["b", "a"], before: ["a"], after: ["a"], expected: ["a", "b"]),
    Example(
      name: "any order and repeats in: sorted, once each",
      now: ["zeta", "alpha", "zeta", "mid"], before: ["q", "mid"], after: ["mid", "alpha", "mid"],
      expected: ["mid", "q", "zeta"]),
  ]

  @Test("added tags go, taken ones come back, the others stay", arguments: examples)
  func rebase(_ example: Example) {
    #expect(
      SyncMerge.rebaseTags(now: example.now, before: example.before, after: example.after) == example.expected)
  }

  @Test("taking back a change and then its undo gives back the tags a redo would, over any tags now")
  func undoThenRedo() {
    // The change added `home` and took `old` away; since then another machine added `desk`.
    let undone = SyncMerge.rebaseTags(now: ["desk", "home"], before: ["old"], after: ["home"])
    #expect(undone == ["desk", "old"])
    // The redo takes back the undo (from `after` to `before` of the change).
    #expect(SyncMerge.rebaseTags(now: undone, before: ["home"], after: ["old"]) == ["desk", "home"])
  }
}

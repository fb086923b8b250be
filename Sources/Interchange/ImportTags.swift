import Core

/// The tags an import keeps: what another tracker calls a tag (a Taskwarrior tag, a todo.txt
/// `@context` or a further `+project`) becomes an ootd tag when it is one by ``Tag``'s rule
/// (lowercased); the others stay in the notes, as written, so nothing is dropped.
enum ImportTags {
  /// The ootd tags among `names` (lowercased, sorted, without repeats), and the names that are
  /// no ootd tag, in their order.
  static func split(_ names: [String]) -> (tags: [String], others: [String]) {
    var tags: [String] = []
    var others: [String] = []
    for name in names {
      // `Tag.validate` allows a leading `+` (as typed in `add`); here the name is already bare.
      if !name.hasPrefix("+"), let tag = try? Tag.validate(name) {
        tags.append(tag)
      } else {
        others.append(name)
      }
    }
    return (Tag.normalized(tags), others)
  }
}

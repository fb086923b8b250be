/// The name a mistyped word most likely meant: the one rule behind "did you mean …?".
public enum NearestName {
  /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
  /// swaps of two neighbours, ignoring case), when it is close enough to be a typo: at most 1
  /// edit for words of up to 4 characters, 2 for longer ones. Ties go to the earlier candidate.
  public static func nearest(to word: String, among candidates: [String]) -> String? {
    let limit = word.count <= 4 ? 1 : 2
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = self.distance(word.lowercased(), candidate.lowercased())
      if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// The optimal-string-alignment distance between `a` and `b`, by character.
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}

/// "Did you mean …?" hints: the closest candidate by edit distance.
public enum Suggestion {
    /// The candidate nearest to `word` (case-insensitive Levenshtein distance), if it is near enough to be a
    /// plausible typo: at most a third of the word's length, and at least 1 edit allowed.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        // Long texts are not typos of each other; this also keeps the quadratic distance cheap.
        guard word.count <= 100 else { return nil }
        var best: (String, Int)?
        for candidate in candidates where candidate.count <= 100 && abs(candidate.count - word.count) <= limit {
            let d = distance(word.lowercased(), candidate.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// Levenshtein distance between two strings, in characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

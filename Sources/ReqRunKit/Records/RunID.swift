import Foundation

/// Run ids and the time stamps in records.
public enum RunID {
    /// A new run id: UTC start time to the millisecond, then 4 random hex digits, e.g.
    /// `20261129-133428-123-4f2a`. Ids sort in start order, as file names too.
    public static func make(_ date: Date) -> String {
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        return timestamp(date) + "-" + String(repeating: "0", count: 4 - suffix.count) + suffix
    }

    /// Whether `text` has the form of a run id (`20261129-133428-123-4f2a`).
    public static func isRunID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 4 && zip(parts, [8, 6, 3, 4]).allSatisfy { part, count in
            part.count == count && part.allSatisfy { $0.isASCII && $0.isHexDigit }
        }
    }

    /// `YYYYMMDD-HHMMSS-mmm` in UTC, safe in file names.
    public static func timestamp(_ date: Date) -> String {
        let (t, ms) = utc(date)
        return pad(Int(t.tm_year) + 1900, 4) + pad(Int(t.tm_mon) + 1, 2) + pad(Int(t.tm_mday), 2) + "-"
            + pad(Int(t.tm_hour), 2) + pad(Int(t.tm_min), 2) + pad(Int(t.tm_sec), 2) + "-" + pad(ms, 3)
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-29T13:34:28.123Z`.
    public static func iso8601(_ date: Date) -> String {
        let (t, ms) = utc(date)
        return pad(Int(t.tm_year) + 1900, 4) + "-" + pad(Int(t.tm_mon) + 1, 2) + "-" + pad(Int(t.tm_mday), 2) + "T"
            + pad(Int(t.tm_hour), 2) + ":" + pad(Int(t.tm_min), 2) + ":" + pad(Int(t.tm_sec), 2) + "." + pad(ms, 3) + "Z"
    }

    /// The UTC calendar fields (C's `gmtime_r`, cheap enough for a time stamp per request) and milliseconds,
    /// truncated so they never round up to 1000.
    private static func utc(_ date: Date) -> (tm, Int) {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var fields = tm()
        gmtime_r(&seconds, &fields)
        return (fields, ((milliseconds % 1000) + 1000) % 1000)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

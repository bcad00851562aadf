import Foundation

/// Run ids and the time stamps in records.
public enum RunID {
    /// A new run id: UTC start time to the millisecond, then 4 random hex digits, e.g.
    /// `20261129-133428-123-4f2a`. Ids sort in start order, as file names too.
    public static func make(_ date: Date) -> String {
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        return timestamp(date) + "-" + String(repeating: "0", count: 4 - suffix.count) + suffix
    }

    /// `YYYYMMDD-HHMMSS-mmm` in UTC, safe in file names.
    public static func timestamp(_ date: Date) -> String {
        let c = utcComponents(date)
        return String(format: "%04d%02d%02d-%02d%02d%02d-%03d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!,
                      c.nanosecond! / 1_000_000)
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-29T13:34:28.123Z`.
    public static func iso8601(_ date: Date) -> String {
        let c = utcComponents(date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!,
                      c.nanosecond! / 1_000_000)
    }

    private static func utcComponents(_ date: Date) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Truncate to whole milliseconds first so the nanosecond field never rounds up to 1000 ms.
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond],
                                       from: Date(timeIntervalSince1970: ms + 0.0000001))
    }
}
